"""Counts told as all there is, by the words around a count rather than before it.

:mod:`.counts` reads "his last two" and "three arrows left"; this module reads the other ways English closes a
count, so that :mod:`.counts` can claim ``exact=N`` instead of ``min=N``:

- an ordinal told as someone's last one: "the sixth, his very last", "her seventh and last candle" (the
  sixth of a stack is at least six; the sixth that is her last is all six; "the sixth and last crate" may be
  the last of a task);
- a phrase of totality set off after a count: "two cartridges, and that's the whole arsenal", "three discs,
  and that's the lot", "three of them, the last she owns", "four arrows, all he has", "six tokens, and not a
  seventh to his name". A bare one ("and that's all") only after a count that shows the stack, not after a
  deed done with some of it ("fires two flares, and that's all").

A phrase of totality must close its clause (or end in a clause of having: "all she has left"), so "and that's
all he'll say" or "the last time she saw them" count nothing. Pure functions of one sentence's tokens; imports
:mod:`.lexicon`, :mod:`.linker`, :mod:`.sentence` and :mod:`.verbs` only.
"""

from __future__ import annotations

from ledger.check.extract.lexicon import _NUMBERS, ORDINALS
from ledger.check.extract.linker import is_plural
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import lemma as verb_lemma

_LAST = frozenset({"last", "final"})
_INTENSIFIERS = frozenset({"very", "only", "one", "absolute", "just"})
_POSSESSIVE = frozenset({"his", "her", "their", "its", "my", "your", "our", "the"})
# marks that close a clause (a phrase of totality must reach one)
_CLOSE = frozenset({",", ".", ";", ":", "!", "?", "—", "–", ")", '"', "“", "”"})
# verbs of having: "all she has", "the last he owns", "every one they carry", "all he's got left"
_HAVING = frozenset({"have", "own", "hold", "carry", "possess", "get", "keep", "remain"})
_SUBJECTS = frozenset({"he", "she", "they", "i", "we", "you", "it", "there", "that", "which"})
# words of owning in a short phrase after a count: "to his name", "left in the tin", "in the world"
_OWNING = frozenset({"name", "left", "remaining", "world", "own", "possession"})
# words that pick out a whole: "that's all", "that's the lot", "that's everything", "that's the whole arsenal"
_WHOLE = frozenset({"all", "everything", "it", "lot", "whole", "every", "entire", "total", "sum"})


def _closes(s: _Sentence, q: int) -> bool:
    """True when token ``q`` ends the clause: a closing mark or the sentence's end."""
    return q >= s.b or s.tokens[q].text in _CLOSE


def _having_clause(s: _Sentence, q: int) -> int:
    """The token after a short clause of having starting at ``q`` ("she owns", "he has left", "Odo's got",
    "there are", "that remain"), or -1 when there is none."""
    toks = s.tokens
    if q >= s.b:
        return -1
    named = next((m for m in s.mentions if m.i == q and m.id), None)
    if named is not None:
        k = named.j
    elif toks[q].low in _SUBJECTS:
        k = q + 1
    else:
        return -1
    if toks[k - 1].poss and k < s.b and toks[k].low in ("got", "left", "remaining"):
        k += 1  # "he's got", "Odo's got", "all that's left", "all there's left"
    else:
        while k < s.b and toks[k].low in ("still", "ever", "now"):
            k += 1
        if k >= s.b:
            return -1
        if toks[k].low in ("is", "are", "was", "were"):
            if toks[q].low not in ("there", "that", "which"):
                return -1  # "all there is", "all that is left"; not "all she is"
            k += 1
        elif toks[k].low in ("has", "have", "had") or verb_lemma(toks[k].low) in _HAVING:
            k += 1
        else:
            return -1
        if k < s.b and toks[k].low == "got":
            k += 1
    if k < s.b and toks[k].low in ("left", "remaining", "over"):
        k += 1
    return k


def _ends_here(s: _Sentence, q: int) -> str | None:
    """How the clause ends at ``q``: "close" when it ends there, "owned" when it ends after a clause of
    having or a short phrase of owning ("all he has in the world", "the last she owns", "to his name",
    "left"), None when it goes on."""
    if _closes(s, q):
        return "close"
    after = _having_clause(s, q)
    if after >= 0 and _closes(s, after):
        return "owned"
    toks = s.tokens
    k = after if after >= 0 else q
    # "in the world", "to his name", "of the stock", "left in the tin": at most four words, no subject
    if k < s.b and toks[k].low in ("in", "to", "on", "of", "left", "about", "between"):
        for r in range(k + 1, min(s.b, k + 5) + 1):
            if _closes(s, r):
                if any(toks[x].low in _SUBJECTS for x in range(k + 1, r)):
                    return None
                words = {toks[x].low for x in range(k, r)}
                return "owned" if after >= 0 or words & _OWNING else "close"
    return None


def ordinal_is_last(s: _Sentence, k: int) -> bool:
    """True when the ordinal at token ``k`` is told as someone's last one: "his sixth and last", "the sixth,
    his very last", "her ninth and final piton" (then the count is exact, not at least). Someone's: "the
    sixth and last crate" may be the last of a task, not of what they have."""
    toks = s.tokens
    owner = k - 1 >= s.a and toks[k - 1].low in _POSSESSIVE - {"the"}
    q = k + 1
    if q < s.b and toks[q].low == "and":
        q += 1
    elif q < s.b and toks[q].text in (",", "—", "–"):
        q += 1
        if q < s.b and toks[q].low in _POSSESSIVE:
            owner = owner or toks[q].low != "the"
            q += 1
        else:
            return False  # "the sixth, last of all" is too loose; ask for "his last", "the last"
    else:
        return False
    while q < s.b and toks[q].low in _INTENSIFIERS - {"one"}:
        q += 1
    if q >= s.b or toks[q].low not in _LAST:
        return False
    q += 1
    if q + 2 < s.b and toks[q].low == "of" and toks[q + 1].low in _POSSESSIVE - {"the"}:
        return True  # "the sixth and last of his flares"
    if not owner:
        return False
    if q < s.b and toks[q].low == "one":
        return True  # "his very last one"
    if q + 1 < s.b and toks[q].low == "of" and toks[q + 1].low in ("them", "those", "these"):
        return True  # "his sixth and last of them"
    # "her ninth and final piton": the thing named, or the clause's end itself
    if _ends_here(s, q):
        return True
    return q < s.b and any(m.i == q and m.id for m in s.mentions)


def total_after(s: _Sentence, q: int, n: int, at: int) -> bool:
    """True when the words from token ``q`` (right after a count of ``n`` at token ``at`` and the thing
    counted) tell that count as all there is: ", and that's the whole arsenal", ", the last she owns", ", all
    he has", ", and not a seventh to his name". Only a phrase set off by a comma or dash, within the sentence.
    A bare "and that's all" or "and not a fifth" counts the stock only when the count shows it (a fragment,
    or a verb of bringing it out: "digs out two flares"), not a deed with some of it ("fires two flares,
    and that's all": two fired, however many there are)."""
    kind = _totality(s, q, n)
    return kind in ("owned", "whole") or (kind == "close" and _shown(s, at))


# verbs that bring a stack into view or hold it, whose object is all there is when a bare "that's all" follows
_SHOWING = frozenset(
    {"have", "own", "hold", "carry", "possess", "get", "keep", "find", "produce", "show", "reveal", "empty"}
    | {"count", "bring", "fish", "dig", "pull", "turn", "lay", "tip", "spill", "come", "unpack", "muster"}
    | {"scrape", "rummage", "gather", "collect", "offer", "spread", "line", "fan", "be"}
)


def _shown(s: _Sentence, at: int) -> bool:
    """True when the count at token ``at`` shows what there is: its clause has no verb before it ("Two
    cartridges, and that's all", "Three discs slide onto the table") or the nearest verb before it brings
    the things out or holds them ("he comes up with two", "she turns out three", "he has two")."""
    lo = s.clause_of(at)[0]
    for k in range(at - 1, lo - 1, -1):
        t = s.tokens[k]
        if not t.text.isalpha() or not t.text.islower() or t.low in ("up", "out", "with"):
            continue
        base = verb_lemma(t.low)
        if base is not None and s.tokens[k - 1].low not in ("the", "a", "an", "his", "her", "their"):
            return base in _SHOWING
    return True


def _totality(s: _Sentence, q: int, n: int) -> str | None:
    """The phrase of totality set off at token ``q`` after a count of ``n``: "owned" when it says whose
    ("all he has", "the last she owns", "not a seventh to his name"), "whole" for a whole named ("the
    whole arsenal", "every one of them"), "close" for a bare one closing the clause ("and that's all",
    "and not a seventh"), None when there is none."""
    toks = s.tokens
    if q >= s.b or toks[q].text not in (",", "—", "–", ":", ";"):
        return None
    q += 1
    if q < s.b and toks[q].low in ("and", "but"):
        q += 1
    if q >= s.b or toks[q].quoted:
        return None
    w = toks[q].low
    if w in ("not", "no", "never") and q + 2 < s.b:
        r = q + 1 + (toks[q + 1].low in ("a", "one"))
        if r >= s.b:
            return None
        # "and not a seventh", "and no more", "and not another to his name"
        if ORDINALS.get(toks[r].low) == n + 1 or toks[r].low in ("more", "another"):
            return _ends_here(s, r + 1)
        return None
    if w in ("nothing", "none") and q + 1 < s.b and toks[q + 1].low in ("more", "else", "left", "besides"):
        return _ends_here(s, q + 2)  # "and nothing more", "and none left"
    # "that's ...", "that is ...", "those are ...", "which is ..."
    if w in ("that", "those", "which", "this") and (toks[q].poss or q + 1 < s.b):
        if toks[q].poss:
            q += 1
        elif toks[q + 1].low in ("is", "was", "are", "were", "makes", "made"):
            q += 2
        else:
            return None
        return _whole_at(s, q)
    # an appositive: "the last she owns", "all he has", "every one she carries"
    return _whole_at(s, q, appositive=True)


def _whole_at(s: _Sentence, q: int, *, appositive: bool = False) -> str | None:
    """The phrase naming the whole of something at ``q``, closing its clause (as :func:`_totality` tells
    it): "all", "the lot", "everything", "the whole arsenal", "every one of them", "the last she owns". An
    appositive (no "that's" before it) and "the last" need a clause of having after them: "the last" or
    "all" alone may be the last of a task or everyone there."""
    toks = s.tokens
    if q >= s.b:
        return None
    w = toks[q].low
    if w in ("the", "his", "her", "their", "my", "our", "your") and q + 1 < s.b:
        q += 1
        w = toks[q].low
    if w not in _WHOLE | _LAST or (w in _LAST and toks[q - 1].low not in ("the", "his", "her", "their")):
        return None
    q += 1
    if w == "every" and q < s.b and toks[q].low in ("last", "single"):
        q += 1  # "every last one", "every single one"
    named = w in ("whole", "entire", "total", "every") and q < s.b and toks[q].text.isalpha()
    if named:
        q += 1  # "the whole arsenal", "the entire stock", "every one", "every chit"
    if q + 1 < s.b and toks[q].low == "of" and toks[q + 1].low in ("them", "it", "those", "these"):
        end = _ends_here(s, q + 2)  # "every one of them", "all of it"; "the last of them"
        return None if end is None else "owned" if end == "owned" else "whole"
    if appositive or w in _LAST:
        after = _having_clause(s, q)
        return "owned" if after >= 0 and _ends_here(s, after) else None
    end = _ends_here(s, q)
    return "whole" if named and end == "close" else end


def number_at(s: _Sentence, q: int) -> int | None:
    """The count a number word or digits at token ``q`` gives ("three", "12"), or None."""
    w = s.tokens[q].low if q < s.b else ""
    if w.isdigit():
        return int(w)
    n = _NUMBERS.get(w)
    return None if w in ("a", "an", "single", "dozen") else n


def total_later(s: _Sentence, at: int, j: int, n: int, others: frozenset[int]) -> bool:
    """True when a phrase of totality (:func:`total_after`) follows a count of ``n`` (at token ``at``) of
    things whose mention ends at ``j``, later in its sentence: "three stamped discs slide onto the table,
    each one punched, and that's the lot". Stops at the sentence's end, at another thing named (a token in
    ``others``), or at another number: what is counted whole is then no longer sure to be these."""
    toks = s.tokens
    for q in range(j, min(s.b, j + 16)):
        t = toks[q]
        if t.quoted or t.text in (".", "!", "?") or q in others:
            return False
        counted = number_at(s, q) is not None and toks[q - 1].low not in (
            "each",
            "every",
            "the",
            "that",
            "this",
        )
        if q > j and (counted or t.low in ("rest", "others", "more", "another")):
            return False  # "and nine knots", "the rest": other things counted; "each one" is none
        if t.text in (",", "—", "–", ":", ";") and total_after(s, q, n, at):
            return True
    return False


# words after an elided count that end the phrase it stands in: "his last three.", "his last two onto the bar"
_AFTER_ELIDED = frozenset({"and", "to", "onto", "on", "into", "in", "from", "then", "over", "across", "for"})


def elided_last(s: _Sentence, k: int) -> int | None:
    """The count of "last N" at token ``k`` standing for things named before it and told as all that is
    left: "he counts out his last three", "she lays down the last two she has". None when a noun follows
    ("his last two years") or no owner is told ("loads the last three onto the cart" may be a task's)."""
    toks = s.tokens
    if toks[k].low != "last" or k + 1 >= s.b or k - 1 < s.a:
        return None
    n = number_at(s, k + 1)
    if n is None or n < 2:
        return None
    after = k + 2
    if toks[k - 1].low in _POSSESSIVE - {"the"}:
        return n if _closes(s, after) or toks[after].low in _AFTER_ELIDED else None
    if toks[k - 1].low == "the":
        end = _having_clause(s, after)
        return n if end >= 0 and (_closes(s, end) or toks[end].low in _AFTER_ELIDED) else None
    return None


def bridged_count(s: _Sentence) -> tuple[int, int, int] | None:
    """(count, its token, the token after the noun) of a count that opens the sentence on things the ledger
    does not name ("Three stamped tin discs slide onto the table, ..."), when a phrase of totality closes it
    ("..., and that's the lot"): the things are then the stack named just before, told by another word.
    None otherwise, or when the sentence names anyone or anything."""
    toks = s.tokens
    if s.mentions or s.b - s.a < 4 or toks[s.a].quoted:
        return None
    n = number_at(s, s.a)
    if n is None or n < 2:
        return None
    # "three stamped tin discs slide ...": the noun is the first plural followed by a verb or a mark
    noun = next(
        (
            q
            for q in range(s.a + 1, min(s.b - 1, s.a + 5))
            if toks[q].text.isalpha()
            and is_plural(toks[q].low)
            and (not toks[q + 1].text.isalpha() or verb_lemma(toks[q + 1].low) is not None)
        ),
        -1,
    )
    if noun < 0 or not all(toks[q].text.isalpha() for q in range(s.a + 1, noun)):
        return None
    return (n, s.a, noun + 1) if total_later(s, s.a, noun + 1, n, frozenset()) else None
