"""Kinship told by a copula whose subject is a pronoun, or whose verb is "has been": "She's the Deacon's
daughter", "he was the miller's son", "Hana Mori has been your mother for nineteen years".

:func:`.relations._kinship` reads "<name> is <name>'s <term>"; :mod:`.kin_pronouns` reads "he is her
sister's son" (an owner told by pronoun). Narrators as often put the subject as a pronoun, the verb in
the perfect ("has been") or the contracted "'s", and the owner as the player's "your". This pass reads

    <subject> <copula> [the] <owner> [adj] [adj] <term>

where the subject is he/she (resolved as :mod:`.kin_pronouns` does: the nearest earlier creature of its
gender, else the previous subject) or a named creature, the copula is "is"/"was", a subject pronoun's
contracted "'s" ("she's"), or "has/had/have been", and the owner is a possessive name or "your" (the PC the
narration speaks to, else the one PC the record ties to the subject as kin).

A pronoun or an unresolved "your" is a weak link, so then the claim is made only when the record ties the
subject and the owner as kin (the judge then compares the terms); a named subject and owner need no tie
(:mod:`ledger.check.judge_meaning` finds an exclusive parent given to the wrong person by itself). Nothing
is claimed under a denial ("she is not his sister", "has never been"), a likeness ("is like a mother to
him", "has been as good as a father") or in quotes. The claim is ``kinship(subject, owner, term)``, with
the subject's modality (a kinship does not end: a memory of it is still it). Imports :mod:`.addressee`,
:mod:`.kin_pronouns`, :mod:`.relations` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.names import Mention
from ledger.check.extract.relations import (
    KIN_TERMS,
    LIKENESS,
    NEAR_TERMS,
    _fellowship,
    _kin_tied,
    kin_role,
    modifier,
    said_term,
)
from ledger.check.extract.sentence import _Sentence

_ADJ_MAX = 2  # "the Deacon's younger daughter", "your only living son"
_SUBJECT = {"he": "m", "she": "f"}
_PERFECT = frozenset({"has", "had", "have"})
_DENIAL = frozenset({"not", "never", "no", "hardly", "scarcely", "barely"})


def _copula(s: _Sentence, start: int) -> int | None:
    """The token of the subject before the copula ending right before ``start``, or None: "she is", "she's"
    (the subject carries the copula), "Mori has been", "he's been"."""
    toks = s.tokens
    p = start - 1
    if p < s.a:
        return None
    low = toks[p].low
    if low in ("is", "was") and p - 1 >= s.a:
        return p - 1
    if low == "been" and p - 1 >= s.a:
        if toks[p - 1].low in _PERFECT and p - 2 >= s.a:
            return p - 2
        if toks[p - 1].low in _SUBJECT and toks[p - 1].poss:
            return p - 1  # "he's been"
        return None
    if low in _SUBJECT and toks[p].poss:
        return p  # "she's the Deacon's daughter"
    return None


def _owner(s: _Sentence, q: int) -> tuple[str | None, int, bool] | None:
    """(owner id or None for an unresolved "your", phrase start, named) of the possessive at token ``q``."""
    toks = s.tokens
    m = next((x for x in s.creatures() if x.poss and x.j == q + 1 and x.id), None)
    if m is not None:
        return m.id, m.i, True
    if toks[q].low == "your":
        from ledger.check.extract.addressee import addressee_of  # it runs the kinship pass itself

        return addressee_of(s, q), q, False
    return None


def _subject(s: _Sentence, at: int, owner: str | None) -> tuple[str | None, bool]:
    """(subject creature, named) at token ``at``: a he/she resolved, or a named creature ending there."""
    from ledger.check.extract.kin_pronouns import _resolve  # it reads this module's neighbours

    low = s.tokens[at].low
    if low in _SUBJECT:
        return _resolve(s, at, _SUBJECT[low], exclude=owner), False
    m = next((x for x in s.creatures() if x.j == at + 1 and not x.poss and x.id), None)
    return (m.id, True) if m is not None else (None, False)


def _your_kin(s: _Sentence, relative: str) -> str | None:
    """The one PC the record ties to ``relative`` as kin, when "your" names no PC the narration calls: only
    when the narration has named that PC before (a quoted call counts: '"Oskar." ... has been your
    mother'); a "your" among several PCs none of whom is named says nobody's kin."""
    pcs = {e.id for e in s.snap.entities.values() if e.kind == "pc" and _kin_tied(s, relative, e.id)}
    if len(pcs) != 1:
        return None
    pc = next(iter(pcs))
    return pc if any(m.id == pc and m.i < s.a for m in s.ex.mentions) else None


def _kin_copula(s: _Sentence) -> None:
    """kinship(subject, owner, term) from "<he|she|name> <is|'s|has been> [the] <owner's|your> <term>"."""
    toks = s.tokens
    for k in range(s.a + 2, s.b):
        t = toks[k]
        if t.quoted or t.poss or (t.low not in KIN_TERMS and t.low not in NEAR_TERMS):
            continue
        said = kin_role(said_term(t.low))
        if said is None or t.text[:1].isupper() or any(m.i <= k < m.j for m in s.mentions):
            continue  # "Mother Abbess": a title
        if _fellowship(s, k):
            continue  # "her brother in arms"
        q = k - 1
        while q > s.a and modifier(toks[q].text) and not toks[q].poss and k - q <= _ADJ_MAX:
            q -= 1
        owned = _owner(s, q)
        if owned is None:
            continue
        owner, start, owner_named = owned
        if start > s.a and toks[start - 1].low == "the":
            start -= 1
        if LIKENESS & {toks[x].low for x in range(max(s.a, start - 2), start)}:
            continue  # "is like the Deacon's own daughter"
        at = _copula(s, start)
        if at is None or any(toks[x].low in _DENIAL or toks[x].low.endswith("n't") for x in range(at, start)):
            continue
        relative, named = _subject(s, at, owner)
        if relative is None:
            continue
        if owner is None:
            owner = _your_kin(s, relative)
            if owner is None:
                continue
        elif not (named and owner_named) and not _kin_tied(s, relative, owner):
            continue  # a pronoun or a "your" is a weak link: only against a recorded kin tie
        if relative == owner:
            continue
        if named and owner_named and toks[start - 1].low in ("is", "was"):
            continue  # "Idris is Farida's uncle": :func:`.relations._kinship`'s
        if any(c.kind == "kinship" and c.args[:2] == (relative, owner) for c in s.ex.claims):
            continue
        anchor = Mention((relative,), at, at + 1, False, toks[at].quoted, "public")
        mod = s.modality(anchor)
        mod = Modality(mod.in_dialogue, mod.hypothetical, False, mod.rumour, False)
        s.claim("kinship", (relative, owner, said_term(t.low)), anchor, mod, t.low)
