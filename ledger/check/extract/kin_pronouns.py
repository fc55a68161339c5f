"""Kinship told through a possessive pronoun with no name beside the term: "he is her late sister's only
son", "Mei raised her only son alone", "Prudence keeps her father's records".

:func:`.relations._kinship` reads a kinship term tied to a name ("Magda's daughter Lark"). Narrators as often
leave the relative unnamed and let the scene say who is meant. This pass resolves the possessive pronoun to
a creature (the nearest earlier creature of its gender in the sentence, else the previous subject, else the
only one of its gender among the last few named), composes a chain of terms ("her sister's son" is her
nephew) and takes as the relative:

- the subject of a copula right before the phrase ("he is her sister's son": the pronoun resolved too), or
- the one creature named in this sentence or the one before it (or the previous subject) whose recorded tie
  to the possessor is kin and whose gender fits the term. A pronoun is a weak link, so without a recorded
  kin tie to a creature the text names nearby the term stays scenery (someone's unrecorded mother).

The claim is ``kinship(relative, possessor, term)``, judged against the recorded term by
:mod:`ledger.check.judge_meaning`. Imports :mod:`.relations` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import _previous_sentence
from ledger.check.extract.relations import (
    _COPULA,
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

# role of A's <first>'s <second> from A's side -> (role, term by gender)
_CHAIN: dict[tuple[str, str], tuple[str, str]] = {
    ("sibling", "child"): ("sibling_child", "nephew|niece"),
    ("parent", "sibling"): ("parent_sibling", "uncle|aunt"),
    ("parent", "parent"): ("grandparent", "grandfather|grandmother"),
    ("child", "child"): ("grandchild", "grandson|granddaughter"),
    ("parent_sibling", "child"): ("cousin", "cousin|cousin"),
}
_ADJ_MAX = 2  # "her late sister's only son"
_GENDER = {"he": "m", "she": "f"}
_SUBJECT = {"he": "m", "she": "f"}


def _fits(s: _Sentence, eid: str | None, gender: str) -> bool:
    e = s.snap.entities.get(eid or "")
    return (
        e is not None and e.kind in ("pc", "npc") and (not gender or _GENDER.get(e.pronoun or "") == gender)
    )


def _resolve(s: _Sentence, q: int, gender: str, exclude: str | None = None) -> str | None:
    """The creature a he/she/his/her at token ``q`` stands for, or None when it is not clear; never
    ``exclude`` (the one a phrase renames: in "Idra runs to Tamsin, her aunt" the owner is not Tamsin)."""
    named = [
        m for m in s.ex.mentions if m.id and m.j <= q and not m.quoted and not m.poss and m.id != exclude
    ]
    here = [m.id for m in named if m.i >= s.a and _fits(s, m.id, gender)]
    if here:
        return here[-1]
    ante = s.ex.antecedent.get(s.a)
    if ante and ante != exclude and _fits(s, ante, gender):
        return ante
    fits = {m.id for m in named[-6:] if _fits(s, m.id, gender)}
    return next(iter(fits)) if len(fits) == 1 else None


def _either(s: _Sentence, q: int, possessor: str, relative: str) -> bool:
    """True when the possessive pronoun at ``q`` may as well stand for the relative, and which of the two
    owns the term decides who is whose kin: the relative fits the pronoun and is named in this sentence before
    it ("Idra runs to Tamsin and hugs her aunt"), or the owner was only the previous sentence's subject
    ("Tamsin pushes a bowl to Idra. Her aunt's hands are red"). Then the pronoun tells no kinship."""
    gender = "m" if s.tokens[q].low == "his" else "f"
    if not _fits(s, relative, gender):
        return False
    here = {m.id for m in s.creatures() if m.j <= q and not m.poss and m.id}
    return relative in here or possessor not in here


def _next_subject(s: _Sentence) -> str | None:
    """The creature named first in the next sentence when it opens it, outside quotes and not as an owner."""
    m = next((x for x in s.ex.mentions if x.i >= s.b), None)
    if m is None or m.i != s.b or m.quoted or m.poss or m.id is None:
        return None
    return m.id


def _figurative_or_apposed(s: _Sentence, q: int) -> bool:
    """True when the kin phrase opening at token ``q`` is a likeness ("like his own daughter") or renames
    another kin phrase right before it ("her mother, his only daughter": the daughter is the mother, not
    someone named nearby)."""
    toks = s.tokens
    before = [toks[x].low for x in range(max(s.a, q - 2), q)]
    if LIKENESS & set(before):
        return True
    return bool(q - 2 >= s.a and toks[q - 1].text == "," and kin_role(toks[q - 2].low) is not None)


def _kin_by_pronoun(s: _Sentence) -> None:
    """kinship(relative, possessor, term) from "his/her [adj] term" with no name beside the term."""
    from ledger.check.extract.kin_quoted import _kin_quoted  # it reads this module's resolver

    _kin_quoted(s)  # "since we buried her brother Cassian": a tie a speaker takes for granted
    toks = s.tokens
    terms = [
        k
        for k in range(s.a, s.b)
        if not toks[k].quoted and (toks[k].low in KIN_TERMS or toks[k].low in NEAR_TERMS)
    ]
    if not terms:
        return  # most sentences: no singular kinship term (a plural, "his sisters", names no one)
    from ledger.check.extract.kin_copula import _kin_copula  # it reads this module's resolver

    _kin_copula(s)  # "she's the Deacon's daughter", "Mori has been your mother"
    made: set[tuple[str, str]] = set()
    for k in terms:
        t = toks[k]
        said = kin_role(said_term(t.low))
        if said is None:
            continue
        if t.text[:1].isupper() or any(m.i <= k < m.j for m in s.mentions):
            continue  # "Brother Tobiah", "Mother Abbess": a title
        if _fellowship(s, k):
            continue  # "his daughter in all but name", "her sister in arms": no blood
        if k + 1 < s.b and any(m.i in (k + 1, k + 2) and not m.poss for m in s.creatures()):
            continue  # "her brother Cassian": the named relative is :func:`.relations._kinship`'s
        if t.poss and any(
            kin_role(toks[x].low) for x in range(k + 1, min(s.b, k + 2 + _ADJ_MAX)) if not toks[x].quoted
        ):
            continue  # "her sister's son": the head of a chain, read at its last term
        q = k - 1
        while q >= s.a and modifier(toks[q].text) and not toks[q].poss:
            if k - q > _ADJ_MAX:
                break
            q -= 1
        if q < s.a:
            continue
        role, term = said[0], said_term(t.low)
        if toks[q].poss and kin_role(toks[q].low) is not None and toks[q].low not in ("his", "her"):
            # "her late sister's only son": a chain of two terms
            first = kin_role(toks[q].low)
            chained = _CHAIN.get((first[0], role)) if first else None
            if chained is None:
                continue
            forms = chained[1].split("|")
            role, term = chained[0], forms[0] if said[1] != "f" else forms[1]
            q -= 1
            while q >= s.a and modifier(toks[q].text) and not toks[q].poss:
                q -= 1
                if q < k - 2 * _ADJ_MAX - 1:
                    break
        if q < s.a or toks[q].low not in ("his", "her"):
            continue
        if _figurative_or_apposed(s, q):
            continue
        # "Idra runs to Tamsin, her aunt, ...": the phrase renames the creature before the comma, who is the
        # relative; the owner is someone else
        apposed = (
            next(
                (m.id for m in s.creatures() if m.j == q - 1 and not m.poss and m.id),
                None,
            )
            if q - 1 > s.a and toks[q - 1].text == ","
            else None
        )
        possessor = _resolve(s, q, "m" if toks[q].low == "his" else "f", exclude=apposed)
        if possessor is None:
            continue
        relative: str | None = None
        lead = q - 1
        if apposed is not None:
            relative = apposed if _kin_tied(s, apposed, possessor) else None
        elif lead > s.a and toks[lead].low in _COPULA:
            subj = toks[lead - 1].low
            if subj in _SUBJECT:
                relative = _resolve(s, lead - 1, _SUBJECT[subj])
            else:
                relative = next(
                    (m.id for m in s.creatures() if m.j == lead and not m.poss and m.id != possessor), None
                )
            if relative is not None and not _kin_tied(s, relative, possessor):
                relative = None
        else:
            # the relative may be named a sentence or two back ("Aed nods. ... She stands at her husband's
            # side"): the recorded kin tie and a single fitting creature keep the reach safe
            lo = _previous_sentence(s, 2)
            near = {m.id for m in s.ex.between(lo, s.b) if m.id and not m.quoted and not m.poss}
            ante = s.ex.antecedent.get(s.a)
            if ante:
                near.add(ante)
            tied = {
                x
                for x in near
                if x and x != possessor and _fits(s, x, said[1]) and _kin_tied(s, x, possessor)
            }
            if not tied:
                # "... two sweets from her mother. Parvati has sent a packet up ...": the relative named
                # as the next sentence's opening subject
                nxt = _next_subject(s)
                if nxt and nxt != possessor and _fits(s, nxt, said[1]) and _kin_tied(s, nxt, possessor):
                    tied = {nxt}
            relative = next(iter(tied)) if len(tied) == 1 else None
        if relative is not None and apposed is None and _either(s, q, possessor, relative):
            continue
        if relative is None or relative == possessor or (relative, possessor) in made:
            continue
        made.add((relative, possessor))
        anchor = Mention((possessor,), q, q + 1, True, toks[q].quoted, "public")
        mod = s.modality(anchor)
        # a kinship does not end: told as a memory it is still the kinship
        mod = Modality(mod.in_dialogue, mod.hypothetical, False, mod.rumour, False)
        s.claim("kinship", (relative, possessor, term), anchor, mod, term)
