"""Kinship told by naming: "Ulf calls her his wife", "introduces Grima as his sister", "calls Grima wife".

A verb of naming or addressing (call, name, introduce, address, greet, hail, present, refer to) whose object
is a creature (named, or a him/her the sentence makes clear) followed by "as", an owner (his/her/their, a
possessive name, or none: the namer's own) and a kinship term says whose kin the object is:
``kinship(object, owner, term)``, judged against the recorded term like any kinship claim.

A name given in play is no kinship, so nothing is claimed when:

- the term is in quotes (a pet name: 'calls her "little mother"'), or a likeness frames it ("as if she were
  his sister", "calls her like a mother"),
- a manner word tells the naming is not meant ("jokingly", "teasingly", "in jest", "half-seriously": an
  adverb in -ly before the verb or after the term), or "pet name"/"nickname" is in the sentence,
- the term is a fellowship ("calls him brother in arms"), or
- the record ties the pair by no kin at all (sworn comrades who call each other sister, an abbess greeted as
  mother): a naming is judged only against a recorded kinship.

The modality is the namer's (a memory, a quote or a plan frames it), never the report the naming verb
itself makes. Imports :mod:`.kin_pronouns`, :mod:`.relations` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.kin_pronouns import _resolve
from ledger.check.extract.names import Mention
from ledger.check.extract.relations import (
    LIKENESS,
    NEAR_TERMS,
    _fellowship,
    _kin_tied,
    kin_role,
    modifier,
    said_term,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import lemma

_NAMING = frozenset({"call", "name", "introduce", "address", "greet", "hail", "present", "refer"})
_OBJECT_PRONOUNS = {"her": "f", "him": "m"}
_SUBJECT_PRONOUNS = {"she": "f", "he": "m"}
_OWNER_PRONOUNS = {"his": "m", "her": "f"}
_QUOTES = frozenset({'"', "“", "”", "'", "‘", "’"})
_PLAY = frozenset({"jest", "joke", "fun", "mockery", "nickname", "nicknames", "pet", "teasing", "sport"})
_ADJ_MAX = 2
_PREPS = frozenset({"by", "to", "with", "beside", "near", "at", "for", "from", "behind", "toward", "towards"})


def _manner(word: str) -> bool:
    """True for a manner adverb that may make a naming play: "jokingly", "teasingly", "half-seriously"."""
    return (word.endswith("ly") and len(word) > 4 and word.isalpha()) or word.startswith("half-")


def _subject(s: _Sentence, k: int) -> tuple[str, int] | None:
    """(creature, token) of who names with the verb at ``k``: the creature named right before it (an adverb
    or "also" between), or a he/she there resolved like any pronoun."""
    toks = s.tokens
    q = k - 1
    while q >= s.a and q > k - 3 and toks[q].low.isalpha() and toks[q].low not in _SUBJECT_PRONOUNS:
        if any(m.j == q + 1 and not m.poss for m in s.creatures()):
            break
        q -= 1
    found = next((m for m in s.creatures() if m.j == q + 1 and not m.poss and m.id and not m.quoted), None)
    if any(toks[x].low in ("and", "then") for x in range(max(q, s.a), k)) or (
        found is not None and found.i > s.a and toks[found.i - 1].low in _PREPS
    ):
        # "Ulf sits by Grima and calls her ...": the clause's subject, the first one named in the sentence
        found = next((m for m in s.creatures() if m.i < k and not m.poss and m.id and not m.quoted), None)
    if found is not None and found.id is not None:
        return found.id, found.i
    if q >= s.a and toks[q].low in _SUBJECT_PRONOUNS and not toks[q].quoted:
        eid = _resolve(s, q, _SUBJECT_PRONOUNS[toks[q].low])
        return (eid, q) if eid else None
    return None


def _object(s: _Sentence, q: int, exclude: str) -> tuple[str, int] | None:
    """(creature, next token) of the one named at token ``q``: a name, or him/her resolved."""
    toks = s.tokens
    if q >= s.b or toks[q].quoted:
        return None
    found = next((m for m in s.creatures() if m.i == q and not m.poss and m.id), None)
    if found is not None and found.id is not None:
        return found.id, found.j
    gender = _OBJECT_PRONOUNS.get(toks[q].low)
    if gender is None:
        return None
    eid = _resolve(s, q, gender, exclude=exclude)
    return (eid, q + 1) if eid else None


def _owner(s: _Sentence, q: int, namer: str, obj: str) -> tuple[str, int] | None:
    """(owner, first token after the owner) of the kin term from token ``q``: his/her (the namer when the
    pronoun fits, else resolved), a possessive name, or no owner at all (the namer's own: "calls Grima
    wife")."""
    toks = s.tokens
    gender = _OWNER_PRONOUNS.get(toks[q].low)
    if gender is not None:
        e = s.snap.entities.get(namer)
        fits = e is not None and {"he": "m", "she": "f"}.get(e.pronoun or "") == gender
        eid = namer if fits else _resolve(s, q, gender, exclude=obj)
        return (eid, q + 1) if eid else None
    poss = next((m for m in s.creatures() if m.i == q and m.poss and m.id), None)
    if poss is not None and poss.id is not None:
        return poss.id, poss.j
    if toks[q].low == "their":
        return None
    return namer, q


def _kin_naming(s: _Sentence) -> None:
    """kinship(object, owner, term) from a verb of naming with a kinship term as the name it gives."""
    toks = s.tokens
    if not any(kin_role(said_term(t.low)) for t in toks[s.a : s.b] if not t.quoted):
        return
    play = any(t.low in _PLAY and not t.quoted for t in toks[s.a : s.b])  # "in jest", "a pet name"
    for k in range(s.a, s.b):
        t = toks[k]
        if t.quoted or not t.text.islower() or lemma(t.low) not in _NAMING:
            continue
        namer = _subject(s, k)
        if namer is None:
            continue
        q = k + 1
        if lemma(t.low) == "refer":
            if q >= s.b or toks[q].low != "to":
                continue
            q += 1
        obj = _object(s, q, namer[0])
        if obj is None or obj[0] == namer[0]:
            continue
        q = obj[1]
        if q < s.b and toks[q].low == "as":
            q += 1
        if q >= s.b or toks[q].low in ("if", "though") or LIKENESS & {toks[q].low}:
            continue  # "greets her as if she were his sister", "calls her like a mother"
        owner = _owner(s, q, namer[0], obj[0])
        if owner is None:
            continue
        q = owner[1]
        while q < s.b and q - owner[1] < _ADJ_MAX and modifier(toks[q].text) and not kin_role(toks[q].low):
            q += 1
        if q >= s.b or not toks[q].text.islower():
            continue
        quoted = toks[q].quoted or any(toks[x].text in _QUOTES for x in range(obj[1], q))
        term = said_term(toks[q].low)
        if kin_role(term) is None or (toks[q].low not in NEAR_TERMS and kin_role(toks[q].low) is None):
            continue
        if toks[q].low.endswith("s") and toks[q].low not in NEAR_TERMS and term == toks[q].low[:-1]:
            continue  # a plural names no one
        manner = [toks[x].low for x in range(max(s.a, namer[1]), k)]
        if q + 1 < s.b:
            manner.append(toks[q + 1].low)
        relative, of = obj[0], owner[0]
        if play or quoted or _fellowship(s, q) or any(_manner(w) for w in manner):
            # "Ulf jokingly calls her his wife", a pet name in quotes, "calls him brother in arms": a name
            # given in play says no kinship, though the kin term's other readings took it for one
            _drop(s, relative, of)
            return
        if relative == of or not _kin_tied(s, relative, of):
            continue  # no recorded kinship to judge a name against (comrades, an abbess called mother)
        _drop(s, relative, of)  # the same pair read as reported speech ("calls her his wife")
        anchor = Mention((namer[0],), namer[1], namer[1] + 1, False, toks[namer[1]].quoted, "public")
        mod = s.modality(anchor)
        mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, False)
        s.claim("kinship", (relative, of, term), anchor, mod, toks[q].low)
        return


def _drop(s: _Sentence, relative: str, of: str) -> None:
    """Remove this sentence's kinship claims between ``relative`` and ``of`` made by the other passes."""
    pair = {relative, of}
    s.ex.claims[:] = [
        c for c in s.ex.claims if not (c.kind == "kinship" and c.span == s.span and set(c.args[:2]) == pair)
    ]
