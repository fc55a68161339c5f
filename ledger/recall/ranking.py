"""Retrieval's ranking: the tier and score of a candidate for a scene, and why it ranked there, in words.

The tiers (asked, permanent, current, here, trivia) and what weighs inside them are described in
:mod:`ledger.recall.retrieval`; every score is explained in the record's ``why``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.recall.candidates import Candidate

HALF_LIFE_SESSIONS = 2.0
#: Ids of player characters start with this (docs/internals.md, "Ids").
PC_PREFIX = "pc-"


def _tier(c: Candidate, present: set[str], location: str | None) -> tuple[str, list[str], bool, int]:
    """(tier, present ids bound, at the location, capped importance) of a candidate."""
    bound = sorted((c.involved | c.witnessed) & present)
    at_location = location is not None and location in c.involved
    importance = max(0, min(10, c.importance))
    if c.asked:
        return "asked", bound, at_location, importance
    if c.permanent and bound:
        return "permanent", bound, at_location, importance
    if c.active and bound:
        return "current", bound, at_location, importance
    if c.permanent and at_location:
        return "here", bound, at_location, importance
    return "trivia", bound, at_location, importance


def _decay(c: Candidate, current_session: int) -> tuple[int, float]:
    age = max(0, current_session - c.session)
    return age, 0.5 ** (age / HALF_LIFE_SESSIONS)


def _presence(c: Candidate, bound: Sequence[str]) -> float:
    """How much a record is about the people in the scene, 0..1.

    PCs are in nearly every scene, so the NPCs present are what make a scene this scene: each NPC bound by
    the record weighs as much as three PCs. Having only witnessed an event counts half.
    """
    npcs = sorted((1.0 if x in c.involved else 0.5) for x in bound if not x.startswith(PC_PREFIX))
    pcs = sorted((1.0 if x in c.involved else 0.5) for x in bound if x.startswith(PC_PREFIX))
    weight = 3 * sum(npcs[-2:]) + sum(pcs[-3:])
    return min(weight / 9.0, 1.0)


def score_candidate(c: Candidate, present: set[str], location: str | None, current_session: int) -> float:
    """A candidate's score; see the module docstring for the tiers."""
    tier, bound, at_location, importance = _tier(c, present, location)
    presence = _presence(c, bound)
    here = 2 if at_location else 0
    if tier == "asked":
        return 120.0 + 20 * presence + importance
    if tier == "permanent":
        return 100.0 + 30 * presence + importance + (5 if c.active else 0) + here
    if tier == "current":
        return min(60.0 + 24 * presence + importance + here, 99.0)
    if tier == "here":
        return 50.0 + min(importance, 9)
    _age, decay = _decay(c, current_session)
    return min((importance + 9 * presence + here) * decay, 49.0)


def why_ranked(
    c: Candidate, present: set[str], location: str | None, current_session: int, names: Mapping[str, str]
) -> str:
    """Why a candidate ranked where it did, in words (only built for the records shown)."""
    tier, bound, _at_location, importance = _tier(c, present, location)
    who = ", ".join(names.get(x, x) for x in bound)
    how = "witnessed by" if bound and not (set(bound) & c.involved) else "involving"
    place = names.get(location, location) if location else ""
    if tier == "asked":
        return f"the scene's active {c.tier_label}" + (f" {how} {who} (present)" if bound else "")
    if tier == "permanent":
        return f"permanent {c.tier_label} {how} {who} (present)"
    if tier == "current":
        return f"current {c.tier_label} {how} {who} (present)"
    if tier == "here":
        return f"permanent {c.tier_label} at {place}"
    age, decay = _decay(c, current_session)
    where = f"{how} {who} (present)" if bound else f"at {place}" if _at_location else "nearby"
    return f"{c.tier_label} {where}, importance {importance}, {age} sessions old (x{decay:.2f})"
