"""Grammar the thread pass reads around a status word: a status verb told in the passive ("Wren's slate was
wiped clean"), a word of negation, and a pronoun carried over two sentences ("Doc Ames is grey tonight. When
Ash sits down, he smiles. He still owes Ash ..."), and whose words a status is ("Greyrock tells Old Wei that
the favour is paid"). Pure functions of one sentence; imports :mod:`.sentence`,
:mod:`.text` and :mod:`.verbs` (and :mod:`.predicates`, late, for sentence bounds).
"""

from __future__ import annotations

from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token
from ledger.check.extract.verbs import lemma, tags, verb_class

_NEGATING = frozenset({"not", "never", "no", "n't", "nor"})
# words after a status verb that are no object noun ("paid off", "made good", "squared away")
PARTICLES = frozenset({"off", "back", "up", "out", "in full", "good", "away", "now", "it", "on", "back on"})
_BE_OR_GET = frozenset({"is", "was", "are", "were", "be", "been", "being", "got", "gets", "get", "getting"})


def passive_object(s: _Sentence, toks: list[Token], n: int) -> set[str]:
    """The words before a status verb told in the passive ("Wren's slate with the boss was wiped clean", "the
    debt has been forgiven"): a past participle after a form of "be" or "get" (a "not" or an adverb may come
    between), with the six words before that form, where its object stands; empty when not passive."""
    form = toks[n].low
    base = lemma(form)
    if base is None or not {"VBN", "VBD"} & tags(form, base) or form == base:
        return set()
    k = n - 1
    while k >= 0 and (negative(toks[k].low) or toks[k].low.endswith("ly")):
        k -= 1
    if k < 0:
        return set()
    be = toks[k].low.removesuffix("n't") in _BE_OR_GET
    if not (be or (toks[k].poss and toks[k].low != "it")):
        return set()  # "the slate's wiped clean": a possessive "'s" here is "is"
    end = k if be else k + 1
    return {t.low for t in toks[max(0, end - 6) : end]}


def passive_span(s: _Sentence, q: int) -> tuple[int, int] | None:
    """The tokens a status verb told in the passive at token ``q`` is about: from its subject (up to six
    words before the form of "be") to the end of its own clause part (the next comma, "and" or the end), so
    "the slate over the bar was wiped clean, and Caul chalked up a tab for Ines" ties no one to the wiping.
    None when the verb is not passive."""
    toks = s.tokens[s.a : s.b]
    n = q - s.a
    if not passive_object(s, toks, n):
        return None
    end = next(
        (k for k in range(q + 1, s.b) if s.tokens[k].text in (",", ";", "—") or s.tokens[k].low == "and"), s.b
    )
    return max(s.a, q - 9), end


def negative(word: str) -> bool:
    """True for a word of negation ("not", "never", "wasn't")."""
    return word in _NEGATING or word.endswith("n't")


_FORMS = {"he": ("he", "him", "his", "himself"), "she": ("she", "her", "hers", "herself")}
_FORMS["they"] = ("they", "them", "their", "themselves")


def chained_pronoun(s: _Sentence, want: str, people: set[str]) -> str | None:
    """The creature a pronoun stands for when the sentence before names none that fits but uses the same
    pronoun itself ("Doc Ames is grey tonight. When Ash sits down, he smiles. He still owes Ash ..."): the
    one fitting creature named in the sentence before that, the chain's start."""
    from ledger.check.extract.predicates import _previous_sentence

    prev, before = _previous_sentence(s), _previous_sentence(s, 2)
    if before >= prev or not any(t.low in _FORMS.get(want, ()) for t in s.tokens[prev : s.a] if not t.quoted):
        return None
    fits = {
        m.id
        for m in s.ex.between(before, prev)
        if m.id
        and not m.quoted
        and m.id not in people
        and (e := s.snap.entities.get(m.id)) is not None
        and e.kind in ("pc", "npc")
        and e.pronoun == want
    }
    return next(iter(fits)) if len(fits) == 1 else None


_OWING = frozenset({"owe", "owes", "owed", "owing"})
_NOTHING_OWED = frozenset({"nothing", "no", "none", "longer", "anymore", "any", "more"})


def owes_nothing_subject(s: _Sentence) -> str | None:
    """The one said to owe nothing ("Caul owes Ines nothing now", "Caul no longer owes her anything",
    "Caul doesn't owe Ines a penny any more"): the creature named last before the word of owing, in its
    clause; None when the sentence says no such thing or names no one there."""
    toks = s.tokens
    at = next((k for k in range(s.a, s.b) if toks[k].low in _OWING and not toks[k].quoted), -1)
    if at < 0:
        return None
    near = {toks[k].low for k in range(max(s.a, at - 3), min(s.b, at + 5))}
    denied = any(negative(toks[k].low) for k in range(max(s.a, at - 3), at))
    if not (near & _NOTHING_OWED or denied):
        return None
    lo = s.clause_of(at)[0]
    before = [
        m.id
        for m in s.mentions
        if m.id and lo <= m.i < at and not m.quoted and s.kind(m) in ("pc", "npc", "monster")
    ]
    return before[-1] if before else None


def _says(word: str) -> bool:
    """A verb of saying or swearing whose report is only someone's words; not a factive one ("reminds
    himself that the oath is discharged", "knows the debt is paid" take their report as true)."""
    base = lemma(word)
    return base is not None and base not in _FACTIVE and verb_class(base) in ("speech", "commitment")


_FACTIVE = frozenset(
    {"remind", "know", "realize", "realise", "learn", "discover", "recall", "remember", "admit"}
)
# before a noun, not a verb: "tore up Ines's note", "the claim"
_DETERMINERS = frozenset(
    {"the", "a", "an", "his", "her", "their", "its", "my", "your", "our", "this", "that"}
)
_REPORT_EDGE = frozenset(
    {"since", "because", "after", "before", "when", "while", "until", "till", "if", "though"}
    | {",", ";", ":", "—", "–", "and", "but", "or", "so"}
)


def reporter(s: _Sentence, k: int) -> str | None:
    """Whose words the status at ``k`` is: the creature that says, swears or insists it, with nothing
    between its verb and the status but the one it tells ("Greyrock tells Old Wei that the favour is paid"),
    or right after the status ("The favour is paid, Greyrock tells Old Wei"); None for narration."""
    from ledger.check.extract.predicates import verb_lemma

    toks = s.tokens
    creatures = [m for m in s.mentions if m.id and not m.quoted and s.kind(m) in ("pc", "npc", "monster")]
    for q in range(k - 1, s.a - 1, -1):
        if toks[q].quoted or toks[q].low in _REPORT_EDGE:
            break
        if _says(toks[q].low) and not (q > s.a and (toks[q - 1].low in _DETERMINERS or toks[q - 1].poss)):
            before = [m for m in creatures if m.j <= q]
            return before[-1].id if before else None
        if toks[q].text.islower() and verb_lemma(toks[q].low) is not None:
            return None  # another verb is nearer: "grumbled since the purser squared the arrears"
    for m in creatures:
        if m.i > k and toks[m.i - 1].text == "," and m.j < s.b and _says(toks[m.j].low):
            return m.id
    return None
