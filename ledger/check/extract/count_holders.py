"""Whose stack a count counts, and the bound a count is told as.

:mod:`.counts` reads how many of an item a sentence tells; a count of someone's stack must be held to that
holder's quantity, not to every holder's together ("the seven cores you took" when you carry three and the
vault holds twelve). :func:`count_holder` reads the holder off the words around the count:

- a clause of having right after the thing counted: "the seven cores you took", "the four litres Zoya has
  left", "the candles that she carries";
- a possessive heading the counted phrase: "your seven cores", "Musa's three mithqals of gold dust";
- a phrase of totality after it: "three mithqals, all he has";
- a possessive opening the sentence, with the count set off after a colon or dash: "Your purse hangs light:
  a pinch of gold dust, three mithqals at most".

"you" is the player character that very word addresses, as :mod:`.addressee` reads every narrative "you"
for the whole checker (:func:`.addressee.addressee_of`: a PC called by name in the sentence, else the one
last called earlier in the paragraph, else the scene's only PC; a plural "you" is nobody). "he" or "she" is
the one holder of the item of that gender named in the sentence or the one before. When nothing says whose,
the count stays ``*`` (judged against the item's total only where that is sure).

:func:`bound_of` reads an upper or lower bound around a count word: "at most three", "barely three", "no more
than three", "three at most" (``max``), "at least three", "more than three" (``min``). Pure functions of a
sentence; imports :mod:`.addressee`, :mod:`.linker`, :mod:`.names`, :mod:`.sentence` and :mod:`.verbs`.
"""

from __future__ import annotations

from ledger.check.extract.addressee import addressee_of
from ledger.check.extract.lexicon import _HYPO
from ledger.check.extract.linker import gender_of
from ledger.check.extract.names import Mention
from ledger.check.extract.owners import _CARRIED_IN, _WORN_AT, _WORN_ON
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import _number
from ledger.check.extract.verbs import lemma as verb_lemma

# verbs whose subject holds what is counted after them: "the cores you took", "the spirit she has left"
_HAVING = frozenset(
    {"have", "carry", "keep", "hold", "own", "take", "bring", "get", "pocket", "stash", "hoard", "save"}
)
_SUBJECTS = frozenset({"you", "he", "she", "they"})
_POSSESSIVES = {"your": "you", "his": "he", "her": "she", "their": "they"}
_STOPS = frozenset({".", ";", "!", "?"})
# words between a verb of having and the count: "has at most three", "carries only two", "has a pinch of"
_BEFORE_COUNT = frozenset(
    {"a", "an", "the", "at", "most", "least", "no", "more", "than", "barely", "only", "just"}
)
_ADVERBS = frozenset({"still", "now", "only", "just", "already", "also"})
_LATER = frozenset({"tomorrow", "will", "shall", "'ll", "going", "soon", "tonight"})


def comparison_only(s: _Sentence, i: int) -> bool:
    """True when every word of supposing before token ``i`` in its sentence stands in a comparison that a
    mark closes before ``i``: "lighter than you would like, Musa: three mithqals" frames nothing after it."""
    toks = s.tokens
    found = False
    for q in range(s.a, i):
        if toks[q].quoted or toks[q].low not in _HYPO:
            continue
        found = True
        lo = next((p for p in range(q - 1, max(s.a, q - 5) - 1, -1) if toks[p].low == "than"), -1)
        if lo < 0 or not any(toks[p].text in (",", ":", ";", "—", "–") for p in range(q + 1, i)):
            return False
    # nothing else frames it: no word of supposing after it, no future or plan in the sentence, no question
    after = any(t.low in _HYPO for t in toks[i : s.b] if not t.quoted)
    return found and not after and not any(t.low in _LATER or t.text == "?" for t in toks[s.a : s.b])


def count_holder(s: _Sentence, m: Mention, first: int) -> str:
    """The holder whose stack the count of item ``m`` (its count phrase starting at token ``first``)
    counts, or ``*`` when the words do not say."""
    toks = s.tokens
    # the phrase starts at its count word: "[belt holds] nine marks" read back too far is "nine marks"
    first = next((q for q in range(first, m.i) if _number(toks, q, q + 1)[0] is not None), first)
    # a clause of having right after: "the seven cores you took", "the spirit that Zoya has left"
    q = m.j + 1 if m.j < s.b and toks[m.j].low in ("that", "which") else m.j
    who = _having_subject(s, q)
    if who is not None:
        # "the forty mithqals you brought from Tuwat are long spent": what was had, parted with since
        return "*" if _parted_after(s, q) else _resolve(s, m, who, q)
    # a possessive heading the counted phrase: "your seven cores", "Musa's three mithqals"
    k = first - 1
    while k > s.a and toks[k].low in ("own", "very") and not toks[k].quoted:
        k -= 1  # "your own five cans": the owner before "own"
    if k >= s.a and (toks[k].poss or (toks[k].low in _POSSESSIVES and not toks[k].quoted)):
        named = next((x for x in s.mentions if x.j - 1 == k and x.id and s.kind(x) in ("pc", "npc")), None)
        if named is not None and named.id is not None:
            return named.id
        if toks[k].low in _POSSESSIVES:
            return _resolve(s, m, _POSSESSIVES[toks[k].low], k)
        return "*"
    # the subject of a verb of having before it: "you have two litres", "Musa carries at least fifty"
    while k > s.a and toks[k].low in _BEFORE_COUNT:
        k -= 1
    low = toks[k].low if k > s.a else ""
    if low == "got" and k - 1 > s.a and toks[k - 1].low in ("has", "have", "had"):
        k, low = k - 1, toks[k - 1].low  # "she has got five"
    if low in ("has", "have", "had") or verb_lemma(low) in _HAVING:
        k -= 1
        while k > s.a and toks[k].low in _ADVERBS:
            k -= 1
        named = next((x for x in s.mentions if x.j == k + 1 and x.id and not x.poss), None)
        if named is not None and s.kind(named) in ("pc", "npc"):
            return named.id or "*"
        subject = toks[k].low.replace("’", "'").split("'")[0]  # "you've got five": "you"
        if subject in _SUBJECTS and not toks[k].quoted:
            return _resolve(s, m, subject, k)
        if k > s.a and toks[k].low in _CONTAINERS and toks[k - 1].low == "your" and not toks[k - 1].quoted:
            return addressee_of(s, k - 1) or "*"  # "the leather pouch at your belt holds nine marks"
    # a phrase of totality after it: "three mithqals, all he has"
    for q in range(m.j, min(s.b - 2, m.j + 12)):
        if toks[q].quoted or toks[q].text in _STOPS:
            break
        if toks[q].low == "all" and toks[q - 1].text in (",", "—", "–"):
            who = _having_subject(s, q + 1)
            if who is not None:
                return _resolve(s, m, who, q + 1)
    # "Your purse hangs light: a pinch of gold dust": a possessive opening the sentence, the count set off
    colon = next((q for q in range(s.a, first) if toks[q].text in (":", "—", "–") and not toks[q].quoted), -1)
    if colon > s.a and toks[s.a].low in _POSSESSIVES and not toks[s.a].quoted:
        return _resolve(s, m, _POSSESSIVES[toks[s.a].low], s.a)
    return _in_owners(s, m) or _lying_in_yours(s, m)


def _in_owners(s: _Sentence, m: Mention) -> str:
    """ "the five draughts in Hilde's satchel", "six cells sit in Mori's rack", "in his pack": the counted
    thing, maybe a verb of lying, then a preposition of containing and the owner's container; else ""."""
    from ledger.check.extract.addressee import _LIES

    toks = s.tokens
    q = m.j + 1 if m.j < s.b and toks[m.j].low in _LIES else m.j
    if q + 2 >= s.b or toks[q].low not in ("in", "inside", "within") or toks[q].quoted:
        return ""
    owner = next(
        (x for x in s.mentions if x.i == q + 1 and x.poss and x.id and s.kind(x) in ("pc", "npc")), None
    )
    if owner is not None and owner.j < s.b and toks[owner.j].low in _CONTAINERS:
        return owner.id or ""
    if toks[q + 1].low in ("his", "her", "their") and toks[q + 2].low in _CONTAINERS:
        found = _resolve(s, m, _POSSESSIVES[toks[q + 1].low], q + 1)
        return "" if found == "*" else found
    return ""


# what a count may lie in: a purse, a pouch, a pack, a pocket, a belt
_CONTAINERS = _CARRIED_IN | _WORN_AT | _WORN_ON
_IN = frozenset({"in", "inside", "within", "at", "on"})
_POINTING = frozenset({"that", "the", "this"})


def _lying_in_yours(s: _Sentence, m: Mention) -> str:
    """ "twenty rupees sit in your purse", "in the purse at your waist", "in that purse" (the purse told
    at your waist in this sentence or the one before): a verb of lying right after the counted thing, then
    the PC's container; the PC "your" addresses holds the count."""
    from ledger.check.extract.addressee import _LIES

    toks = s.tokens
    k = m.j
    while k < s.b and toks[k].low in _ADVERBS:
        k += 1
    if k + 2 >= s.b or toks[k].low not in _LIES or toks[k + 1].low not in _IN:
        return "*"
    if any(t.quoted for t in toks[k : k + 3]):
        return "*"
    lead, noun = toks[k + 2].low, k + 3
    if lead == "your":
        return addressee_of(s, k + 2) or "*" if noun < s.b and toks[noun].low in _CONTAINERS else "*"
    while noun < s.b and noun < k + 6 and toks[noun].low not in _CONTAINERS and toks[noun].text.islower():
        noun += 1  # "in the worn leather purse"
    if lead not in _POINTING or noun >= s.b or toks[noun].low not in _CONTAINERS:
        return "*"
    yours = _your_after(s, noun, s.b)
    if yours is not None:
        return addressee_of(s, yours) or "*"  # "in the purse at your waist"
    if lead == "the" and noun + 1 < s.b and toks[noun + 1].text not in _STOPS | {","}:
        return "*"  # "in the purse of the vendor"
    # "that purse": the one just told at the PC's waist, in this sentence or the one before
    lo = _previous_start(s)
    tied = {
        who
        for q in range(lo, m.i)
        if toks[q].low == toks[noun].low and not toks[q].quoted
        for y in ([q - 1] if toks[q - 1].low == "your" else [_your_after(s, q, m.i)])
        if y is not None and (who := addressee_of(s, y)) is not None
    }
    return tied.pop() if len(tied) == 1 else "*"


def _your_after(s: _Sentence, noun: int, end: int) -> int | None:
    """The "your" of "<noun> at your waist" (a preposition, "your", a place on the body), or None."""
    toks = s.tokens
    if noun + 3 > end or toks[noun + 1].low not in _IN or toks[noun + 2].low != "your":
        return None
    if toks[noun + 2].quoted or toks[noun + 3].low not in _CONTAINERS:
        return None
    return noun + 2


# verbs of parting with a thing: a stack told spent, lost or sold since is no count of what is held
_PARTING = frozenset(
    {"spend", "lose", "sell", "give", "trade", "pawn", "squander", "go", "drink", "eat", "use"}
)


def _parted_after(s: _Sentence, q: int) -> bool:
    """True when a verb of parting follows token ``q`` in the sentence ("are long spent", "is all gone")."""
    return any(
        not t.quoted and t.text.islower() and verb_lemma(t.low) in _PARTING for t in s.tokens[q + 2 : s.b]
    )


def _having_subject(s: _Sentence, q: int) -> str | None:
    """The subject of a clause of having at token ``q`` ("you took", "Zoya has left", "she carries"): a
    pronoun, or a creature's id; None when no such clause starts there."""
    toks = s.tokens
    if q >= s.b or toks[q].quoted:
        return None
    named = next((x for x in s.mentions if x.i == q and x.id and not x.poss), None)
    if named is not None and s.kind(named) in ("pc", "npc"):
        who, k = named.id, named.j
    elif toks[q].low in _SUBJECTS:
        who, k = toks[q].low, q + 1
    else:
        return None
    while k < s.b and toks[k].low in ("still", "now", "ever", "just", "only"):
        k += 1
    if k >= s.b:
        return None
    low = toks[k].low
    base = "have" if low in ("has", "have", "had", "'ve", "’ve") else verb_lemma(low) or ""
    return who if base in _HAVING and toks[k].text.islower() else None


def _resolve(s: _Sentence, m: Mention, who: str | None, at: int) -> str:
    """The holder a subject word or id stands for: an id as it is, "you" (the word at token ``at``) the
    player character it addresses, "he"/"she" the one holder of the item of that gender named in this
    sentence or the one before."""
    if who is None:
        return "*"
    if who in s.snap.entities:
        return who
    if who == "you":
        return addressee_of(s, at) or "*"
    if who not in ("he", "she"):
        return "*"
    holders = set(s.snap.holders_of(m.id or ""))
    lo = _previous_start(s)
    named = {
        x.id
        for x in s.ex.between(lo, s.b)
        if x.id in holders and (e := s.snap.entities.get(x.id)) is not None and gender_of(e) == who
    }
    return named.pop() if len(named) == 1 else "*"


def _previous_start(s: _Sentence) -> int:
    from ledger.check.extract.predicates import _previous_sentence

    return _previous_sentence(s)


# words before a count that bound it: "at most three", "no more than three", "barely three"
_BEFORE: tuple[tuple[tuple[str, ...], str, int], ...] = (
    (("at", "the", "most"), "max", 0),
    (("at", "most"), "max", 0),
    (("no", "more", "than"), "max", 0),
    (("not", "more", "than"), "max", 0),
    (("fewer", "than"), "max", -1),
    (("less", "than"), "max", -1),
    (("at", "least"), "min", 0),
    (("more", "than"), "min", 1),
    (("barely",), "max", 0),
    (("scarcely",), "max", 0),
    (("hardly",), "max", 0),
)
# words after a counted phrase that bound it: "three mithqals at most", "ten or more"
_AFTER: tuple[tuple[tuple[str, ...], str], ...] = (
    (("at", "the", "most"), "max"),
    (("at", "most"), "max"),
    (("at", "the", "outside"), "max"),
    (("or", "fewer"), "max"),
    (("or", "less"), "max"),
    (("at", "least"), "min"),
    (("or", "more"), "min"),
)


def bound_of(s: _Sentence, at: int, end: int, n: int) -> str | None:
    """``max=N`` or ``min=N`` when the count ``n`` at token ``at`` (its phrase ending at ``end``) is told
    as a bound: "at most three", "barely three", "three mithqals at most", "at least two", "more than two"
    (at least three); None when it is told plainly."""
    toks = s.tokens
    for words, kind, shift in _BEFORE:
        lo = at - len(words)
        if lo >= s.a and tuple(t.low for t in toks[lo:at]) == words and not toks[lo].quoted:
            return f"{kind}={n + shift}"
    for words, kind in _AFTER:
        hi = end + len(words)
        if hi <= s.b and tuple(t.low for t in toks[end:hi]) == words:
            return f"{kind}={n}"
    return None
