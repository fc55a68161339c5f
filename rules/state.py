"""The scene as the rules see it at the start of a round, and the changes a round makes to it.

:class:`RoundState` is frozen input built by the table from the ledger. Items a creature carries are its
:class:`Holding` entries; items lying around are :class:`SceneItem` entries whose ``holder`` is a location id.
The ``changes`` of a resolution use the rules' own vocabulary (``hp_changed``, ``item_transferred``, ...),
discriminated on ``kind``; ``bot.table`` translates them to ledger mutations.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.creatures import INCAPACITATING, Condition, StatBlock


class Holding(BaseModel):
    """``quantity`` of one item carried by a creature; ``effect`` names a rules item (``healers-kit``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    item: str = Field(min_length=1, max_length=80)
    quantity: int = Field(default=1, ge=1)
    name: str = ""
    effect: str | None = None


class SceneItem(BaseModel):
    """An item lying in the scene: ``holder`` is the location id where it lies."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=80)
    name: str = ""
    holder: str = Field(min_length=1, max_length=80)
    quantity: int = Field(default=1, ge=1)
    effect: str | None = None


class DeathSaves(BaseModel):
    """A dying PC's tallies; both reset when the PC regains hit points or stabilises."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    successes: int = Field(default=0, ge=0, le=3)
    failures: int = Field(default=0, ge=0, le=3)


class Combatant(BaseModel):
    """A creature in the scene: its stat block plus everything that changes (HP, conditions, holdings)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=80)
    stats: StatBlock
    hp: int = Field(ge=0)
    temp_hp: int = Field(default=0, ge=0)
    conditions: tuple[Condition, ...] = ()
    location: str = Field(min_length=1, max_length=80)
    dead: bool = False
    stable: bool = False  # at 0 HP but no longer making death saves
    death_saves: DeathSaves = DeathSaves()
    holdings: tuple[Holding, ...] = ()

    @field_validator("conditions")
    @classmethod
    def _sorted_conditions(cls, value: tuple[Condition, ...]) -> tuple[Condition, ...]:
        return tuple(sorted(set(value)))

    @property
    def is_pc(self) -> bool:
        """Player characters make death saves at 0 HP; NPCs and monsters die (unless spared)."""
        return self.stats.kind == "pc"

    @property
    def dying(self) -> bool:
        """A PC at 0 HP, alive and not stable: rolls a death save on each of its turns."""
        return self.is_pc and not self.dead and self.hp == 0 and not self.stable

    @property
    def incapacitated(self) -> bool:
        """Cannot take actions: dead, or unconscious, paralyzed, stunned, petrified or incapacitated."""
        return self.dead or any(c in INCAPACITATING for c in self.conditions)

    def has(self, condition: Condition) -> bool:
        """True when the creature has ``condition``."""
        return condition in self.conditions

    def held(self, item: str) -> int:
        """How many of ``item`` the creature carries (0 when none)."""
        return sum(h.quantity for h in self.holdings if h.item == item)


class RoundState(BaseModel):
    """The scene at the start of a round: who is here, what lies around, and the places one can go."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    combatants: tuple[Combatant, ...]
    items: tuple[SceneItem, ...] = ()
    locations: tuple[str, ...] = ()  # every location id a creature may move to (include the current ones)

    @model_validator(mode="after")
    def _unique_ids(self) -> RoundState:
        seen: set[str] = set()
        for combatant in self.combatants:
            if combatant.id in seen:
                raise ValueError(f"Creature id '{combatant.id}' appears twice in the round state")
            seen.add(combatant.id)
        for item in self.items:
            if item.holder in seen:
                raise ValueError(
                    f"Item '{item.id}' is held by '{item.holder}': "
                    "put carried items in that creature's holdings"
                )
        return self

    def combatant(self, combatant_id: str) -> Combatant | None:
        """The combatant with ``combatant_id``, or None."""
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        return None

    def lying(self, item: str, location: str) -> int:
        """How many of ``item`` lie at ``location``."""
        return sum(i.quantity for i in self.items if i.id == item and i.holder == location)


class _Change(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    cause: int = Field(ge=0)  # index of the ActionResult in RoundResolution.results


class HpChanged(_Change):
    """Hit points went from ``before`` to ``after`` (damage or healing); temp HP is reported alongside."""

    kind: Literal["hp_changed"] = "hp_changed"
    entity: str
    before: int
    after: int
    temp_before: int = 0
    temp_after: int = 0


class ConditionAdded(_Change):
    """A condition now applies."""

    kind: Literal["condition_added"] = "condition_added"
    entity: str
    condition: Condition


class ConditionRemoved(_Change):
    """A condition no longer applies."""

    kind: Literal["condition_removed"] = "condition_removed"
    entity: str
    condition: Condition


class FellUnconscious(_Change):
    """Dropped to 0 HP and unconscious (a dying PC, or a spared NPC/monster)."""

    kind: Literal["fell_unconscious"] = "fell_unconscious"
    entity: str


class Died(_Change):
    """Dead: ``reason`` is ``killed``, ``massive_damage`` or ``death_saves``."""

    kind: Literal["died"] = "died"
    entity: str
    reason: Literal["killed", "massive_damage", "death_saves"]


class Stabilized(_Change):
    """A dying creature stopped making death saves (three successes, a medicine check, a spell)."""

    kind: Literal["stabilized"] = "stabilized"
    entity: str


class DeathSaveTally(_Change):
    """A dying PC's death save tallies changed (ledger keeps them so the next round continues)."""

    kind: Literal["death_saves"] = "death_saves"
    entity: str
    successes: int
    failures: int


class ItemTransferred(_Change):
    """``quantity`` of ``item`` moved between holders; ``to_holder`` None means used up."""

    kind: Literal["item_transferred"] = "item_transferred"
    item: str
    from_holder: str | None
    to_holder: str | None
    quantity: int


class EntityMoved(_Change):
    """A creature went from one location to another."""

    kind: Literal["entity_moved"] = "entity_moved"
    entity: str
    from_location: str = Field(alias="from")
    to_location: str = Field(alias="to")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True)


Change = Annotated[
    HpChanged
    | ConditionAdded
    | ConditionRemoved
    | FellUnconscious
    | Died
    | Stabilized
    | DeathSaveTally
    | ItemTransferred
    | EntityMoved,
    Field(discriminator="kind"),
]
