"""Creatures as data: abilities, skills, conditions, attacks and the stat block (SRD 5.1).

A :class:`StatBlock` is what the rules need to know about a PC, NPC or monster; it never changes during a
round
(hit points, conditions and holdings live on :class:`rules.state.Combatant`). Character creation helpers
validate the standard array and 27-point buy and raise :class:`~rules.errors.RulesError` with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules.errors import RulesError


class Ability(StrEnum):
    """The six ability scores."""

    STR = "str"
    DEX = "dex"
    CON = "con"
    INT = "int"
    WIS = "wis"
    CHA = "cha"


class Skill(StrEnum):
    """The 18 SRD skills; :data:`SKILL_ABILITY` says which ability each one uses."""

    ACROBATICS = "acrobatics"
    ANIMAL_HANDLING = "animal_handling"
    ARCANA = "arcana"
    ATHLETICS = "athletics"
    DECEPTION = "deception"
    HISTORY = "history"
    INSIGHT = "insight"
    INTIMIDATION = "intimidation"
    INVESTIGATION = "investigation"
    MEDICINE = "medicine"
    NATURE = "nature"
    PERCEPTION = "perception"
    PERFORMANCE = "performance"
    PERSUASION = "persuasion"
    RELIGION = "religion"
    SLEIGHT_OF_HAND = "sleight_of_hand"
    STEALTH = "stealth"
    SURVIVAL = "survival"


SKILL_ABILITY: Mapping[Skill, Ability] = {
    Skill.ACROBATICS: Ability.DEX,
    Skill.ANIMAL_HANDLING: Ability.WIS,
    Skill.ARCANA: Ability.INT,
    Skill.ATHLETICS: Ability.STR,
    Skill.DECEPTION: Ability.CHA,
    Skill.HISTORY: Ability.INT,
    Skill.INSIGHT: Ability.WIS,
    Skill.INTIMIDATION: Ability.CHA,
    Skill.INVESTIGATION: Ability.INT,
    Skill.MEDICINE: Ability.WIS,
    Skill.NATURE: Ability.INT,
    Skill.PERCEPTION: Ability.WIS,
    Skill.PERFORMANCE: Ability.CHA,
    Skill.PERSUASION: Ability.CHA,
    Skill.RELIGION: Ability.INT,
    Skill.SLEIGHT_OF_HAND: Ability.DEX,
    Skill.STEALTH: Ability.DEX,
    Skill.SURVIVAL: Ability.WIS,
}


def parse_skill(name: str) -> Skill:
    """Read a skill name as players write it (``Sleight of Hand``, ``sleight-of-hand``); raise RulesError."""
    key = re.sub(r"[\s\-]+", "_", name.strip().lower())
    try:
        return Skill(key)
    except ValueError:
        raise RulesError(f"Unknown skill '{name}'") from None


class Condition(StrEnum):
    """The SRD conditions (Appendix PH-A). Dying is ``unconscious`` at 0 HP on a PC."""

    BLINDED = "blinded"
    CHARMED = "charmed"
    DEAFENED = "deafened"
    EXHAUSTION = "exhaustion"
    FRIGHTENED = "frightened"
    GRAPPLED = "grappled"
    INCAPACITATED = "incapacitated"
    INVISIBLE = "invisible"
    PARALYZED = "paralyzed"
    PETRIFIED = "petrified"
    POISONED = "poisoned"
    PRONE = "prone"
    RESTRAINED = "restrained"
    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"


# Conditions that stop a creature from taking actions (each includes incapacitated in the SRD).
INCAPACITATING: frozenset[Condition] = frozenset(
    {
        Condition.INCAPACITATED,
        Condition.PARALYZED,
        Condition.PETRIFIED,
        Condition.STUNNED,
        Condition.UNCONSCIOUS,
    }
)


class DamageType(StrEnum):
    """The 13 SRD damage types."""

    ACID = "acid"
    BLUDGEONING = "bludgeoning"
    COLD = "cold"
    FIRE = "fire"
    FORCE = "force"
    LIGHTNING = "lightning"
    NECROTIC = "necrotic"
    PIERCING = "piercing"
    POISON = "poison"
    PSYCHIC = "psychic"
    RADIANT = "radiant"
    SLASHING = "slashing"
    THUNDER = "thunder"


class WeaponProperty(StrEnum):
    """SRD weapon properties, plus ``ranged`` for ranged weapons and attacks."""

    AMMUNITION = "ammunition"
    FINESSE = "finesse"
    HEAVY = "heavy"
    LIGHT = "light"
    LOADING = "loading"
    RANGED = "ranged"
    REACH = "reach"
    SPECIAL = "special"
    THROWN = "thrown"
    TWO_HANDED = "two-handed"
    VERSATILE = "versatile"


_DAMAGE = re.compile(r"^\s*(?:(\d{1,2})d(\d{1,3}))?\s*(?:([+-])\s*(\d{1,3}))?\s*$|^\s*(\d{1,3})\s*$")


class DamageDice(BaseModel):
    """A damage expression in the simple SRD form ``NdM+K`` (or a flat number), split into its parts."""

    model_config = ConfigDict(frozen=True)

    count: int = 0
    sides: int = 0
    bonus: int = 0

    @classmethod
    def parse(cls, text: str) -> DamageDice:
        """Read ``2d6+3``, ``1d8``, ``1d4-1`` or ``1``; raise RulesError for anything else."""
        match = _DAMAGE.match(text or "")
        if not match or not text.strip():
            raise RulesError(f"Damage must look like 1d8+3, got '{text}'")
        if match.group(5) is not None:
            return cls(bonus=int(match.group(5)))
        count = int(match.group(1) or 0)
        sides = int(match.group(2) or 0)
        bonus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        return cls(count=count, sides=sides, bonus=bonus)

    def __str__(self) -> str:
        dice = f"{self.count}d{self.sides}" if self.count else ""
        if not self.bonus:
            return dice or "0"
        if not dice:
            return str(self.bonus)
        return f"{dice}{'+' if self.bonus > 0 else '-'}{abs(self.bonus)}"


class Attack(BaseModel):
    """A weapon or natural attack as it appears in a stat block: ``+4 to hit, 1d6+2 slashing``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=80)
    to_hit: int = Field(ge=-10, le=30)
    damage: str = Field(max_length=40)  # "1d6+2": dice plus the ability modifier already added
    damage_type: DamageType
    properties: tuple[WeaponProperty, ...] = ()
    range: tuple[int, int] | None = None  # normal / long, feet; None for melee only

    @field_validator("damage")
    @classmethod
    def _damage_form(cls, value: str) -> str:
        DamageDice.parse(value)
        return value.replace(" ", "")

    @field_validator("properties")
    @classmethod
    def _sorted_properties(cls, value: tuple[WeaponProperty, ...]) -> tuple[WeaponProperty, ...]:
        return tuple(sorted(set(value)))

    @property
    def dice(self) -> DamageDice:
        """The damage split into dice and flat bonus (crits double ``count``)."""
        return DamageDice.parse(self.damage)

    @property
    def is_ranged(self) -> bool:
        """True for ranged weapon attacks (bows, slings); thrown melee weapons count as melee here."""
        return WeaponProperty.RANGED in self.properties

    @property
    def slug(self) -> str:
        """The attack's name as an id: ``Light Crossbow`` -> ``light-crossbow``."""
        return slugify(self.name)


def slugify(name: str) -> str:
    """A readable id from a name: lower case, words joined by ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class AbilityScores(BaseModel):
    """The six scores, 1..30."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strength: int = Field(default=10, ge=1, le=30)
    dexterity: int = Field(default=10, ge=1, le=30)
    constitution: int = Field(default=10, ge=1, le=30)
    intelligence: int = Field(default=10, ge=1, le=30)
    wisdom: int = Field(default=10, ge=1, le=30)
    charisma: int = Field(default=10, ge=1, le=30)

    @classmethod
    def of(cls, scores: Mapping[Ability, int] | Sequence[int]) -> AbilityScores:
        """Build from six values in STR, DEX, CON, INT, WIS, CHA order or a mapping by :class:`Ability`."""
        values = _six(scores)
        return cls(**dict(zip(_FIELD.values(), values, strict=True)))

    def score(self, ability: Ability) -> int:
        """The score for ``ability``."""
        value: int = getattr(self, _FIELD[ability])
        return value

    def modifier(self, ability: Ability) -> int:
        """The modifier for ``ability``: ``(score - 10) // 2``."""
        return ability_modifier(self.score(ability))


_FIELD: Mapping[Ability, str] = {
    Ability.STR: "strength",
    Ability.DEX: "dexterity",
    Ability.CON: "constitution",
    Ability.INT: "intelligence",
    Ability.WIS: "wisdom",
    Ability.CHA: "charisma",
}


def ability_modifier(score: int) -> int:
    """SRD ability modifier: 10-11 -> +0, 8-9 -> -1, 18-19 -> +4 (rounds down)."""
    return (score - 10) // 2


def proficiency_by_level(level: int) -> int:
    """Proficiency bonus for character level 1..20: +2 at 1-4 up to +6 at 17-20."""
    if not 1 <= level <= 20:
        raise RulesError(f"Level must be 1 to 20, got {level}")
    return 2 + (level - 1) // 4


def proficiency_by_cr(cr: float) -> int:
    """Proficiency bonus for a challenge rating: +2 up to CR 4, +3 at 5-8, ... +9 at 29-30."""
    if cr < 0 or cr > 30:
        raise RulesError(f"Challenge rating must be 0 to 30, got {cr}")
    if cr < 5:
        return 2
    return 2 + (int(cr) - 1) // 4


CreatureKind = Literal["pc", "npc", "monster"]


class StatBlock(BaseModel):
    """Everything fixed about a creature that the rules read: scores, proficiencies, defences, attacks.

    ``skill_bonuses`` holds a stat block's printed skill totals (monsters with expertise, e.g. a goblin's
    Stealth +6); without one the bonus is the ability modifier plus proficiency when proficient.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=80)
    kind: CreatureKind = "monster"
    level: int | None = Field(default=None, ge=1, le=20)
    cr: float | None = Field(default=None, ge=0, le=30)
    abilities: AbilityScores = AbilityScores()
    skills: tuple[Skill, ...] = ()  # proficient skills
    skill_bonuses: dict[Skill, int] = Field(default_factory=dict)
    saves: tuple[Ability, ...] = ()  # proficient saving throws
    ac: int = Field(default=10, ge=1, le=40)
    max_hp: int = Field(default=1, ge=1, le=10_000)
    speed: int = Field(default=30, ge=0, le=200)
    attacks: tuple[Attack, ...] = ()
    resistances: tuple[DamageType, ...] = ()
    vulnerabilities: tuple[DamageType, ...] = ()
    immunities: tuple[DamageType, ...] = ()
    condition_immunities: tuple[Condition, ...] = ()
    features: tuple[str, ...] = ()  # spell and feature ids from rules.round.ABILITIES ("fire-bolt")
    spellcasting: Ability | None = None

    @field_validator(
        "skills", "saves", "resistances", "vulnerabilities", "immunities", "condition_immunities"
    )
    @classmethod
    def _sorted_unique(cls, value: tuple[StrEnum, ...]) -> tuple[StrEnum, ...]:
        # Sorted so that the JSON of equal stat blocks is byte-identical (sets iterate in hash order).
        return tuple(sorted(set(value)))

    @field_validator("features")
    @classmethod
    def _sorted_features(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted({slugify(v) for v in value}))

    @field_validator("skill_bonuses")
    @classmethod
    def _sorted_bonuses(cls, value: dict[Skill, int]) -> dict[Skill, int]:
        return dict(sorted(value.items()))

    @property
    def proficiency_bonus(self) -> int:
        """From the level for PCs (and leveled NPCs), otherwise from the CR (CR 0 -> +2)."""
        if self.level is not None:
            return proficiency_by_level(self.level)
        return proficiency_by_cr(self.cr or 0)

    def modifier(self, ability: Ability) -> int:
        """The ability modifier."""
        return self.abilities.modifier(ability)

    def skill_modifier(self, skill: Skill) -> int:
        """The total bonus to a skill check."""
        if skill in self.skill_bonuses:
            return self.skill_bonuses[skill]
        bonus = self.modifier(SKILL_ABILITY[skill])
        if skill in self.skills:
            bonus += self.proficiency_bonus
        return bonus

    def save_modifier(self, ability: Ability) -> int:
        """The total bonus to a saving throw."""
        bonus = self.modifier(ability)
        if ability in self.saves:
            bonus += self.proficiency_bonus
        return bonus

    def passive(self, skill: Skill) -> int:
        """A passive score: 10 + the skill bonus (passive Perception, passive Insight)."""
        return 10 + self.skill_modifier(skill)

    @property
    def passive_perception(self) -> int:
        """10 + Wisdom (Perception)."""
        return self.passive(Skill.PERCEPTION)

    @property
    def spell_ability(self) -> Ability:
        """The spellcasting ability: as given, else the best of Int, Wis, Cha (ties in that order)."""
        if self.spellcasting is not None:
            return self.spellcasting
        return max((Ability.INT, Ability.WIS, Ability.CHA), key=self.abilities.score)

    @property
    def spell_attack_bonus(self) -> int:
        """Proficiency + spellcasting modifier."""
        return self.proficiency_bonus + self.modifier(self.spell_ability)

    @property
    def spell_save_dc(self) -> int:
        """8 + proficiency + spellcasting modifier."""
        return 8 + self.spell_attack_bonus


STANDARD_ARRAY: tuple[int, ...] = (15, 14, 13, 12, 10, 8)
POINT_BUY_BUDGET = 27
POINT_BUY_COST: Mapping[int, int] = {8: 0, 9: 1, 10: 2, 11: 3, 12: 4, 13: 5, 14: 7, 15: 9}


def _six(scores: Mapping[Ability, int] | Sequence[int]) -> list[int]:
    if isinstance(scores, Mapping):
        missing = [a.value.upper() for a in Ability if a not in scores]
        if missing:
            raise RulesError(f"Missing ability score {', '.join(missing)}")
        return [int(scores[a]) for a in Ability]
    values = list(scores)
    if len(values) != 6:
        raise RulesError(f"Give exactly six ability scores, got {len(values)}")
    return values


def validate_standard_array(scores: Mapping[Ability, int] | Sequence[int]) -> AbilityScores:
    """Accept scores that are the standard array (15, 14, 13, 12, 10, 8) in any order; raise RulesError."""
    values = _six(scores)
    if sorted(values, reverse=True) != list(STANDARD_ARRAY):
        raise RulesError(
            "The standard array is 15, 14, 13, 12, 10, 8 (each once), got "
            + ", ".join(str(v) for v in values)
        )
    return AbilityScores.of(values)


def validate_point_buy(scores: Mapping[Ability, int] | Sequence[int]) -> AbilityScores:
    """Accept a 27-point buy (each score 8..15, costs per the SRD table); raise RulesError with the reason."""
    values = _six(scores)
    for ability, value in zip(Ability, values, strict=True):
        if value not in POINT_BUY_COST:
            raise RulesError(f"Point buy scores must be 8 to 15: {ability.value.upper()} is {value}")
    spent = sum(POINT_BUY_COST[v] for v in values)
    if spent > POINT_BUY_BUDGET:
        raise RulesError(f"Point buy costs {spent} points: at most {POINT_BUY_BUDGET}")
    return AbilityScores.of(values)
