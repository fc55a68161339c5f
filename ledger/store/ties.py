"""Ties between people: which relationship-edge kinds are kinship, alliance, employment, membership, enmity or
a standing obligation, read from the edge kind's own words.

Edge kinds are free slugs written by files and the table (``sister``, ``sworn-ally``, ``employer``,
``member``, ``enemy``, ``owes-favour``, ``trade-partner`` ...). Recall walks one hop along the ties that bind
people to each other (kin, allies, employers, factions) and treats enmities and obligations as standing
matters; the fact check may read a kinship term off the same vocabulary. One closed list, here, so both
agree on what ``aunt`` or ``sworn-ally`` is.

A kind is read as its words (split on ``-`` and ``_``, case folded). Enmity and obligation words decide
first (a ``sworn-enemy`` is an enmity, a ``blood-debt`` an obligation), except that a sworn brother or a
``brother-in-arms`` is an ally, not kin; then kinship, alliance, employment and membership, in that order.
A kind none of the lists name (``trade-partner``, ``suspects``) is no tie: recall does not walk it.

The kinship terms are English and closed: parents, children, siblings (with ``half-``/``step-``/``foster-``
forms, which are read through their last word), spouses and the betrothed, grand- and great- relations
(``grandmother``, ``great-aunt``), aunts, uncles, nieces, nephews, cousins, in-laws (``mother-in-law`` reads
``mother``), godparents and wards, plus the generic ``kin``, ``family``, ``relative``, ``clan``.
"""

from __future__ import annotations

from typing import Final, Literal

TieKind = Literal["kinship", "alliance", "employment", "membership", "enmity", "obligation"]

#: Words of a kinship tie (a closed list of English kinship terms).
KINSHIP_TERMS: Final[frozenset[str]] = frozenset(
    {
        # generic
        "kin", "kinsman", "kinswoman", "family", "relative", "relation", "clan",
        # parents and children
        "parent", "mother", "father", "mum", "mom", "mam", "dad", "ma", "pa",
        "child", "son", "daughter", "heir", "stepchild", "stepson", "stepdaughter",
        "stepmother", "stepfather", "stepparent",
        # siblings
        "sibling", "brother", "sister", "twin", "stepbrother", "stepsister",
        # spouses and the betrothed
        "spouse", "husband", "wife", "widow", "widower", "betrothed", "fiance", "fiancee", "consort",
        # grand- relations
        "grandparent", "grandmother", "grandfather", "grandma", "grandpa", "granny",
        "grandchild", "grandson", "granddaughter",
        # aunts, uncles, nieces, nephews, cousins
        "aunt", "auntie", "uncle", "niece", "nephew", "nibling", "cousin",
        # godparents and wards
        "godparent", "godmother", "godfather", "godchild", "godson", "goddaughter", "ward", "guardian",
    }
)  # fmt: skip
#: Words of an alliance (sworn or plain friendship and companionship).
ALLIANCE_TERMS: Final[frozenset[str]] = frozenset(
    {"ally", "allies", "allied", "friend", "comrade", "companion", "confidant", "sworn-ally", "protector",
     "protege", "lover", "sweetheart", "mentor", "student"}
)  # fmt: skip
#: Words of employment (who works for whom).
EMPLOYMENT_TERMS: Final[frozenset[str]] = frozenset(
    {"employer", "employee", "employs", "employed", "works", "worker", "boss", "master", "servant",
     "apprentice", "patron", "hireling", "retainer", "steward", "hired", "hire", "agent", "captain", "crew"}
)  # fmt: skip
#: Words of membership of a faction (an edge to the faction or to its leader).
MEMBERSHIP_TERMS: Final[frozenset[str]] = frozenset(
    {"member", "members", "membership", "faction", "guild", "belongs", "leader", "leads", "follower",
     "order", "brotherhood", "sisterhood", "gang", "cult"}
)  # fmt: skip
#: Words of an enmity (a feud that outlives its occasion).
ENMITY_TERMS: Final[frozenset[str]] = frozenset(
    {"enemy", "enemies", "feud", "foe", "rival", "nemesis", "hates", "hatred", "vendetta", "vengeance",
     "killed", "murdered", "betrayed", "grudge"}
)  # fmt: skip
#: Words of a standing obligation (a debt or favour recorded as a relationship).
OBLIGATION_TERMS: Final[frozenset[str]] = frozenset(
    {"owes", "owed", "favour", "favor", "debt", "debtor", "creditor", "oath", "sworn", "bounty", "pledged"}
)  # fmt: skip

#: Ties recall walks one hop along: from someone present to their kin, allies, employers and factions.
REACHING: Final[frozenset[str]] = frozenset({"kinship", "alliance", "employment", "membership"})
#: Ties that are matters in themselves, whoever is present: a feud, a debt kept as an edge.
STANDING: Final[frozenset[str]] = frozenset({"enmity", "obligation"})

_PREFIXES: Final[tuple[str, ...]] = ("great", "half", "step", "foster", "grand", "adoptive", "adopted")


def _words(edge_kind: str) -> list[str]:
    return [w for w in edge_kind.casefold().replace("_", "-").split("-") if w]


def tie_kind(edge_kind: str) -> TieKind | None:
    """What kind of tie an edge kind names, or None when the closed lists do not name it.

    >>> tie_kind("sister"), tie_kind("sworn-ally"), tie_kind("great-aunt"), tie_kind("sworn-enemy")
    ('kinship', 'alliance', 'kinship', 'enmity')
    >>> tie_kind("owes-favour"), tie_kind("brother-in-arms"), tie_kind("trade-partner")
    ('obligation', 'alliance', None)
    """
    words = _words(edge_kind)
    if any(w in ENMITY_TERMS for w in words):
        return "enmity"
    rest = [w for w in words if w != "sworn"]
    if "arms" in words or ("sworn" in words and any(w in KINSHIP_TERMS or w in ALLIANCE_TERMS for w in rest)):
        return "alliance"  # a sworn brother, a brother-in-arms, a sworn ally
    if any(w in OBLIGATION_TERMS for w in words):
        return "obligation"
    if any(w in KINSHIP_TERMS for w in words):
        return "kinship"
    if any(w in ALLIANCE_TERMS for w in words):
        return "alliance"
    if any(w in EMPLOYMENT_TERMS for w in words):
        return "employment"
    if any(w in MEMBERSHIP_TERMS for w in words):
        return "membership"
    return None


def kinship_term(edge_kind: str) -> str | None:
    """The kinship word an edge kind names (``mother-in-law`` -> ``mother``, ``great-aunt`` -> ``aunt``), or
    None when it is no kinship tie."""
    if tie_kind(edge_kind) != "kinship":
        return None
    words = [w for w in _words(edge_kind) if w not in _PREFIXES and w not in ("in", "law")]
    for word in words:
        if word in KINSHIP_TERMS:
            return word
    return None


def reaches(edge_kind: str) -> bool:
    """True when recall walks this edge one hop (kinship, alliance, employment or membership)."""
    return tie_kind(edge_kind) in REACHING


def is_standing(edge_kind: str) -> bool:
    """True when the edge is a matter in itself (an enmity or an obligation), not only a tie."""
    return tie_kind(edge_kind) in STANDING


__all__ = [
    "ALLIANCE_TERMS",
    "EMPLOYMENT_TERMS",
    "ENMITY_TERMS",
    "KINSHIP_TERMS",
    "MEMBERSHIP_TERMS",
    "OBLIGATION_TERMS",
    "REACHING",
    "STANDING",
    "TieKind",
    "is_standing",
    "kinship_term",
    "reaches",
    "tie_kind",
]
