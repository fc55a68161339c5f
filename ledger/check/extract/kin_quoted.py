"""Kinship a speaker takes for granted: "since we buried her brother Cassian", '"My wife has buried three
children," Ulf says' (of his sister).

The other kinship passes leave quoted words alone: what a character asserts may be a lie or a mistake. A
kin phrase used only to point at someone ("her brother Cassian", "my wife") is no assertion, though: the
speaker presupposes the tie as everyone present knows it, and a narrator who gets it wrong there gets the
world wrong. This pass reads, inside quotes,

    <owner> [adj] [adj] <term> [,] [<relative>]

where the owner is "my" (the speaker: a creature tagged by a verb of speech in this sentence, '"...," Ulf
says', 'says Ulf', 'he says' resolved), "his"/"her" (the nearest creature of that gender named earlier in
the same quote) or a possessive name, and the relative is the creature named right after the term (a name
whose title is the kin word, "her brother Cassian" of "Brother Cassian", counts: lower case after an owner
is no title), else, for "my", the one creature named in this sentence or the one before (outside quotes)
whose recorded tie to the speaker is kin and whose gender fits the term ('jerks his chin at Grima. "My
wife ..."').

A quoted word is weak evidence, so the claim is made only when the record ties relative and owner as kin
(the judge compares the terms), never after a copula ("she is my wife" asserts, and may lie), under a
likeness, or in a sentence that tells a lie, a pretence or a claim ("lies", "pretends", "claims", "as if").
The claim ``kinship(relative, owner, term)`` is asserted as the narration's (not the dialogue's). Imports
:mod:`.kin_pronouns`, :mod:`.predicates`, :mod:`.relations` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.lexicon import SPEECH
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import _previous_sentence, verb_lemma
from ledger.check.extract.relations import (
    _COPULA,
    KIN_TERMS,
    LIKENESS,
    _kin_tied,
    kin_role,
    modifier,
)
from ledger.check.extract.sentence import _Sentence

_ADJ_MAX = 2
_GENDER = {"he": "m", "she": "f"}
_POSS_GENDER = {"his": "m", "her": "f"}
# a sentence telling the words untrue, or put on
_FALSE_WORDS = frozenset(
    {"lie", "lies", "lied", "lying", "pretend", "pretends", "pretended", "claims", "claimed", "insists"}
    | {"bluffs", "bluffed", "feigns", "jokes", "joked", "teases", "mocks", "lying", "fib", "fibs"}
)


def _fits(s: _Sentence, eid: str | None, gender: str) -> bool:
    e = s.snap.entities.get(eid or "")
    return (
        e is not None and e.kind in ("pc", "npc") and (not gender or _GENDER.get(e.pronoun or "") == gender)
    )


def _quote_bounds(s: _Sentence, k: int) -> tuple[int, int]:
    """The run of quoted tokens around ``k`` inside this sentence."""
    lo, hi = k, k
    while lo - 1 >= s.a and s.tokens[lo - 1].quoted:
        lo -= 1
    while hi + 1 < s.b and s.tokens[hi + 1].quoted:
        hi += 1
    return lo, hi + 1


def _speaker(s: _Sentence) -> str | None:
    """The creature a verb of speech outside quotes tags in this sentence: "Ulf says", "says Ulf",
    "she says" (resolved)."""
    from ledger.check.extract.kin_pronouns import _resolve  # it reads this module's neighbours

    toks = s.tokens
    for q in range(s.a, s.b):
        if toks[q].quoted or not toks[q].text.islower() or (verb_lemma(toks[q].low) or "") not in SPEECH:
            continue
        for m in s.creatures():
            if m.id and not m.poss and (m.j == q or m.i == q + 1):
                return m.id
        if q - 1 >= s.a and toks[q - 1].low in _GENDER and not toks[q - 1].quoted:
            return _resolve(s, q - 1, _GENDER[toks[q - 1].low])
    return None


def _kin_quoted(s: _Sentence) -> None:
    """kinship(relative, owner, term) from a kin phrase a speaker uses to point at someone."""
    toks = s.tokens
    if not any(t.quoted for t in toks[s.a : s.b]):
        return
    if {t.low for t in toks[s.a : s.b]} & _FALSE_WORDS:
        return
    speaker: str | None = None
    asked = False
    for k in range(s.a + 1, s.b):
        t = toks[k]
        if not t.quoted or t.poss or t.low not in KIN_TERMS or not t.text.islower():
            continue
        said = kin_role(t.low)
        if said is None:
            continue
        lo, _ = _quote_bounds(s, k)
        q = k - 1
        while q > lo and modifier(toks[q].text) and k - q <= _ADJ_MAX:
            q -= 1
        if LIKENESS & {toks[x].low for x in range(max(lo, q - 2), q)}:
            continue
        owner: str | None = None
        low = toks[q].low
        if low == "my":
            if not asked:
                speaker, asked = _speaker(s), True
            owner = speaker
        elif low in _POSS_GENDER:
            named = [
                m.id
                for m in s.mentions
                if m.id and lo <= m.i and m.j <= q and not m.poss and _fits(s, m.id, _POSS_GENDER[low])
            ]
            owner = named[-1] if named else None
        else:
            m = next((x for x in s.creatures(False) if x.poss and x.j == q + 1 and x.id), None)
            owner = m.id if m else None
        if owner is None or (q - 1 >= lo and toks[q - 1].low in _COPULA):
            continue  # "she is my wife": an assertion, which a speaker may make falsely
        relative = _relative(s, k, owner, said[1], low == "my")
        if relative is None or relative == owner or not _kin_tied(s, relative, owner):
            continue
        anchor = Mention((owner,), q, q + 1, True, True, "public")
        mod = s.modality(anchor)
        mod = Modality(False, mod.hypothetical, False, mod.rumour, False)
        s.claim("kinship", (relative, owner, t.low), anchor, mod, t.low)


def _relative(s: _Sentence, k: int, owner: str, gender: str, mine: bool) -> str | None:
    """The creature the kin term at ``k`` points at: named right after it (or named with the term as its
    title), else, for the speaker's own kin, the one tied and fitting named in this sentence or the one
    before."""
    toks = s.tokens
    for m in s.mentions:
        if not m.id or m.poss:
            continue
        if m.i == k or m.i == k + 1 or (m.i == k + 2 and toks[k + 1].text == ","):
            return m.id if _fits(s, m.id, "") else None
    if not mine:
        return None
    lo = _previous_sentence(s)
    tied = {
        m.id
        for m in s.ex.between(lo, s.b)
        if m.id
        and not m.quoted
        and not m.poss
        and m.id != owner
        and _fits(s, m.id, gender)
        and _kin_tied(s, m.id, owner)
    }
    return next(iter(tied)) if len(tied) == 1 else None
