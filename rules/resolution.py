"""What a round decided, as frozen data: each action's outcome and rolls, and the whole round's resolution.

Built by :mod:`rules.round_book` while a round is resolved and returned by :func:`rules.round.resolve_round`
(which re-exports these names); nothing here rolls or changes anything.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.checks import RollRecord
from rules.initiative import InitiativeEntry
from rules.intents import Intent
from rules.state import Change, RoundState


class Outcome(StrEnum):
    """How an action turned out, as a player would say it."""

    SUCCESS = "success"  # it worked (a hit, a passed check, a won contest, a heal)
    FAILURE = "failure"  # it was tried and did not work (a miss, a failed check, a lost contest)
    DONE = "done"  # nothing to roll: moved, gave, talked, helped, held, a death save turn
    REFUSED = "refused"  # could not be attempted (see ``reason``); nothing changed


class ActionResult(BaseModel):
    """What one creature's turn produced: every roll, the outcome and a plain one-line summary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    actor: str
    intent: Intent | None  # None for the turn of a dying creature that declared nothing
    outcome: Outcome
    rolls: tuple[RollRecord, ...] = ()
    summary: str
    reason: str | None = None  # why it was refused or failed, for the player
    reveals: bool = False  # a successful perception/insight/investigation: give the player a private note
    helped_by: str | None = None
    contest: tuple[str, ...] = ()  # every creature in an opposed contest over the same thing (incl. actor)


class RoundResolution(BaseModel):
    """Everything a round decided, stored in the ledger and replayable from ``seed``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int
    initiative: tuple[InitiativeEntry, ...]
    results: tuple[ActionResult, ...]
    changes: tuple[Change, ...]
    summary: str
    state: RoundState  # the scene after the round


def hit_points(n: int) -> str:
    """ "1 hit point", "9 hit points": how a result line counts healing."""
    return f"{n} hit point" if n == 1 else f"{n} hit points"


_DETERMINERS = ("a ", "an ", "the ", "his ", "her ", "their ", "its ", "my ", "our ", "your ", "some ")


def the_thing(name: str, count: int = 1) -> str:
    """How a result line names an item: "the silver key", "2 x silver key"; a proper name ("Autumn Water")
    or a name with its own determiner ("a bag of caltrops") as it is. Seen in the evening: "Greyrock takes
    silver key", "Sister Tamsin uses potion of healing"."""
    if count > 1:
        return f"{count} x {name}"
    if not name[:1].islower() or name.lower().startswith(_DETERMINERS):
        return name
    return f"the {name}"


__all__ = ["ActionResult", "Outcome", "RoundResolution", "hit_points", "the_thing"]
