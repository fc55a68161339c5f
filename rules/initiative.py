"""Initiative: who acts first this round.

Every creature in the scene that is not dead rolls d20 + Dex modifier. Ties go to the higher Dex modifier,
then to a roll-off drawn from the same seeded RNG. Creatures roll in id order, not in the order the caller
listed them, so the same seed and the same scene always give the same order: re-resolving a round never
makes it flip-flop.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from rules.creatures import Ability
from rules.dice import roll_d20
from rules.state import Combatant


class InitiativeEntry(BaseModel):
    """One creature's place in the order: its roll, total and the tie-breakers used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entity: str
    natural: int
    dex_modifier: int
    total: int
    roll_off: int  # 1..1000, only matters when total and Dex modifier tie


def roll_initiative(combatants: Iterable[Combatant], rng: random.Random) -> tuple[InitiativeEntry, ...]:
    """Roll initiative for every living combatant and return them in acting order (first acts first)."""
    entries: list[InitiativeEntry] = []
    living = sorted((c for c in combatants if not c.dead), key=lambda c: c.id)
    for combatant in living:
        modifier = combatant.stats.modifier(Ability.DEX)
        natural = roll_d20(rng).natural
        entries.append(
            InitiativeEntry(
                entity=combatant.id,
                natural=natural,
                dex_modifier=modifier,
                total=natural + modifier,
                roll_off=0,
            )
        )
    # The roll-off is drawn for everyone, in id order, so its consumption never depends on who tied.
    entries = [e.model_copy(update={"roll_off": rng.randrange(1000) + 1}) for e in entries]
    return tuple(sorted(entries, key=initiative_key))


def initiative_key(entry: InitiativeEntry) -> tuple[int, int, int, str]:
    """Sort key: higher total, then higher Dex modifier, then higher roll-off, then id (total order)."""
    return (-entry.total, -entry.dex_modifier, -entry.roll_off, entry.entity)
