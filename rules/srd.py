"""SRD 5.1 data: weapons and creatures (TOML under ``rules/data``), spells/features and item effects (here).

The weapon and bestiary files are validated at load: a bad file raises :class:`~rules.errors.DataError`
naming the file, the entry and the key. Loaders are cached and read through ``importlib.resources``, so
they work from a wheel as well as a checkout. :func:`build_pc` turns a class-less character sheet into a
:class:`~rules.creatures.StatBlock` for the table.

Content from the System Reference Document 5.1 by Wizards of the Coast LLC, licensed under CC-BY-4.0
(https://creativecommons.org/licenses/by/4.0/legalcode).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rules.creatures import (
    Ability,
    AbilityScores,
    Attack,
    Condition,
    CreatureKind,
    DamageDice,
    DamageType,
    Skill,
    StatBlock,
    WeaponProperty,
    ability_modifier,
    proficiency_by_level,
    slugify,
)
from rules.errors import DataError, RulesError

# --- spells and features -------------------------------------------------------------------------------

SpellForm = Literal["attack", "save", "auto", "heal", "stabilize"]


class Spell(BaseModel):
    """A spell or class feature the round engine can resolve (one target, no slots tracked)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    form: SpellForm
    dice: str = "0"  # damage or healing dice; healing adds the spellcasting modifier (``add_modifier``)
    damage_type: DamageType | None = None
    ranged: bool = True  # False: touch / melee spell attack, target must be in the same place
    save: Ability | None = None
    half_on_save: bool = False
    condition: Condition | None = None  # applied on a failed save (hold person -> paralyzed)
    cantrip: bool = False  # damage dice grow at levels 5, 11 and 17
    add_modifier: bool = False  # healing adds the spellcasting ability modifier
    add_level: bool = False  # second wind adds the character level
    self_only: bool = False
    level: int = Field(default=0, ge=0, le=9)  # spell level; 0 for cantrips and class features
    classes: tuple[str, ...] = ()  # SRD classes that know it (a feature: the class that has it)

    @property
    def harmful(self) -> bool:
        """Attacks, saves and automatic damage need a hostile target; heals default to the caster."""
        return self.form in ("attack", "save", "auto")


SPELLS: Mapping[str, Spell] = {
    s.id: s
    for s in (
        Spell(
            id="fire-bolt",
            classes=("sorcerer", "wizard"),
            name="Fire Bolt",
            form="attack",
            dice="1d10",
            damage_type=DamageType.FIRE,
            cantrip=True,
        ),
        Spell(
            id="ray-of-frost",
            classes=("sorcerer", "wizard"),
            name="Ray of Frost",
            form="attack",
            dice="1d8",
            damage_type=DamageType.COLD,
            cantrip=True,
        ),
        Spell(
            id="sacred-flame",
            classes=("cleric",),
            name="Sacred Flame",
            form="save",
            dice="1d8",
            damage_type=DamageType.RADIANT,
            save=Ability.DEX,
            cantrip=True,
        ),
        Spell(
            id="guiding-bolt",
            name="Guiding Bolt",
            form="attack",
            dice="4d6",
            damage_type=DamageType.RADIANT,
            level=1,
            classes=("cleric",),
        ),
        Spell(
            id="inflict-wounds",
            level=1,
            classes=("cleric",),
            name="Inflict Wounds",
            form="attack",
            dice="3d10",
            damage_type=DamageType.NECROTIC,
            ranged=False,
        ),
        Spell(
            id="magic-missile",
            name="Magic Missile",
            form="auto",
            dice="3d4+3",
            damage_type=DamageType.FORCE,
            level=1,
            classes=("sorcerer", "wizard"),
        ),
        Spell(
            id="burning-hands",
            level=1,
            classes=("sorcerer", "wizard"),
            name="Burning Hands",
            form="save",
            dice="3d6",
            damage_type=DamageType.FIRE,
            save=Ability.DEX,
            half_on_save=True,
            ranged=False,
        ),
        Spell(
            id="hold-person",
            name="Hold Person",
            form="save",
            save=Ability.WIS,
            condition=Condition.PARALYZED,
            level=2,
            classes=("bard", "cleric", "druid", "sorcerer", "warlock", "wizard"),
        ),
        Spell(
            id="cure-wounds",
            name="Cure Wounds",
            form="heal",
            dice="1d8",
            ranged=False,
            add_modifier=True,
            level=1,
            classes=("bard", "cleric", "druid", "paladin", "ranger"),
        ),
        Spell(
            id="healing-word",
            name="Healing Word",
            form="heal",
            dice="1d4",
            add_modifier=True,
            level=1,
            classes=("bard", "cleric", "druid"),
        ),
        Spell(
            id="spare-the-dying", name="Spare the Dying", form="stabilize", ranged=False, classes=("cleric",)
        ),
        Spell(
            id="second-wind",
            name="Second Wind",
            form="heal",
            dice="1d10",
            add_level=True,
            self_only=True,
            classes=("fighter",),
        ),
    )
}


# SRD 5.1 spellcasting by class: the ability, and how the highest spell level grows with class level.
_FULL_CASTERS = frozenset({"bard", "cleric", "druid", "sorcerer", "wizard"})
_HALF_CASTERS = frozenset({"paladin", "ranger"})
CLASS_SPELLCASTING: Mapping[str, Ability] = {
    "bard": Ability.CHA,
    "cleric": Ability.WIS,
    "druid": Ability.WIS,
    "paladin": Ability.CHA,
    "ranger": Ability.WIS,
    "sorcerer": Ability.CHA,
    "warlock": Ability.CHA,
    "wizard": Ability.INT,
}


def max_spell_level(char_class: str, level: int) -> int:
    """The highest spell level a ``char_class`` character of ``level`` can cast (0: cantrips only or none)."""
    key = char_class.strip().lower()
    if key in _FULL_CASTERS:
        return min(9, (level + 1) // 2)
    if key == "warlock":
        return min(5, (level + 1) // 2)
    if key in _HALF_CASTERS:
        return 0 if level < 2 else min(5, (level - 1) // 4 + 1)
    return 0


def class_features(char_class: str | None, level: int) -> tuple[str, ...]:
    """The spells and features in :data:`SPELLS` that an SRD ``char_class`` of ``level`` has, sorted by id.

    Cantrips (level 0) come with the class; levelled spells need a slot of their level (SRD progression).
    A half caster (paladin, ranger) has no cantrips here and no spells before level 2.
    """
    if not char_class:
        return ()
    key = char_class.strip().lower()
    highest = max_spell_level(key, level)
    known = [
        s.id
        for s in SPELLS.values()
        if key in s.classes and (s.level <= highest if s.level else key not in _HALF_CASTERS)
    ]
    return tuple(sorted(known))


# --- items with a rules effect ---------------------------------------------------------------------------


class ItemEffect(BaseModel):
    """What using an item does: heal dice, or stabilise a dying creature. Used items are consumed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    form: Literal["heal", "stabilize"]
    dice: str = "0"


ITEM_EFFECTS: Mapping[str, ItemEffect] = {
    e.id: e
    for e in (
        ItemEffect(id="potion-of-healing", name="Potion of Healing", form="heal", dice="2d4+2"),
        ItemEffect(
            id="potion-of-greater-healing", name="Potion of Greater Healing", form="heal", dice="4d4+4"
        ),
        ItemEffect(
            id="potion-of-superior-healing", name="Potion of Superior Healing", form="heal", dice="8d4+8"
        ),
        ItemEffect(
            id="potion-of-supreme-healing", name="Potion of Supreme Healing", form="heal", dice="10d4+20"
        ),
        ItemEffect(id="healers-kit", name="Healer's Kit", form="stabilize"),
    )
}


# Other names the same SRD items go by in campaigns ("a healing potion", "item-healing-potion").
_ITEM_EFFECT_ALIASES: Mapping[str, str] = {
    "healing-potion": "potion-of-healing",
    "greater-healing-potion": "potion-of-greater-healing",
    "superior-healing-potion": "potion-of-superior-healing",
    "supreme-healing-potion": "potion-of-supreme-healing",
    "healer-s-kit": "healers-kit",
    "healer-kit": "healers-kit",
}


def _effect_for(key: str) -> ItemEffect | None:
    key = _ITEM_EFFECT_ALIASES.get(key, key)
    if key in ITEM_EFFECTS:
        return ITEM_EFFECTS[key]
    head, _, tail = key.rpartition("-")
    if tail.isdigit():
        head = _ITEM_EFFECT_ALIASES.get(head, head)
        return ITEM_EFFECTS.get(head)
    return None


def item_effect(item_id: str, effect: str | None = None, name: str | None = None) -> ItemEffect | None:
    """The rules effect of an item: its ``effect``, else its id, else its display ``name``.

    Ids lose ``item-`` and a ``-N`` suffix: ``item-potion-of-healing-2`` -> Potion of Healing, and so do
    ``item-healing-potion`` and an item named "potion of healing". Items with no rules effect return None.
    """
    if effect:
        return ITEM_EFFECTS.get(effect)
    found = _effect_for(item_id.removeprefix("item-"))
    if found is None and name:
        found = _effect_for(slugify(name))
    return found


# --- weapons and bestiary (TOML) -------------------------------------------------------------------------


class Weapon(BaseModel):
    """An SRD weapon: damage dice (no modifier), type, properties, range and versatile damage."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    category: Literal["simple", "martial"]
    kind: Literal["melee", "ranged"]
    damage: str | None = None  # None for the net
    damage_type: DamageType | None = None
    properties: tuple[WeaponProperty, ...] = ()
    range: tuple[int, int] | None = None
    versatile: str | None = None
    weight: float | None = None
    cost: str | None = None

    @field_validator("damage", "versatile")
    @classmethod
    def _dice(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                DamageDice.parse(value)
            except RulesError as exc:
                raise ValueError(str(exc)) from None
        return value


class Creature(BaseModel):
    """A bestiary entry as written in the TOML file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    cr: float = Field(ge=0, le=30)
    type: str = "humanoid"
    size: str = "medium"
    ac: int
    hp: int
    hit_dice: str = ""
    speed: int = 30
    abilities: tuple[int, int, int, int, int, int]  # STR DEX CON INT WIS CHA
    saves: tuple[Ability, ...] = ()
    skills: dict[Skill, int] = Field(default_factory=dict)  # printed totals
    passive_perception: int | None = None
    resistances: tuple[DamageType, ...] = ()
    vulnerabilities: tuple[DamageType, ...] = ()
    immunities: tuple[DamageType, ...] = ()
    condition_immunities: tuple[Condition, ...] = ()
    attacks: tuple[Attack, ...] = ()
    features: tuple[str, ...] = ()
    spellcasting: Ability | None = None

    def stat_block(self, *, kind: CreatureKind = "monster") -> StatBlock:
        """The rules' stat block for this creature."""
        return StatBlock(
            name=self.name,
            kind=kind,
            cr=self.cr,
            abilities=AbilityScores.of(self.abilities),
            skill_bonuses=dict(self.skills),
            saves=self.saves,
            ac=self.ac,
            max_hp=self.hp,
            speed=self.speed,
            attacks=self.attacks,
            resistances=self.resistances,
            vulnerabilities=self.vulnerabilities,
            immunities=self.immunities,
            condition_immunities=self.condition_immunities,
            features=self.features,
            spellcasting=self.spellcasting,
        )


def _read(filename: str) -> dict[str, Any]:
    try:
        text = resources.files("rules.data").joinpath(filename).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{filename}: cannot read ({exc.strerror or exc})") from None
    return parse_toml(filename, text)


def parse_toml(filename: str, text: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes a DataError naming the file and the line.

    A leading byte-order mark is dropped (Windows editors write one); nesting deep enough to exhaust the
    parser's stack is refused like any other syntax error.
    """
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{filename}: not valid TOML ({exc})") from None
    except RecursionError:
        raise DataError(f"{filename}: not valid TOML (nested too deeply)") from None


def _entries(filename: str, data: Mapping[str, Any], section: str) -> list[tuple[str, dict[str, Any]]]:
    table = data.get(section)
    if not isinstance(table, dict) or not table:
        raise DataError(f"{filename}: missing the [{section}.<id>] tables")
    out: list[tuple[str, dict[str, Any]]] = []
    for entry_id, body in table.items():
        if not isinstance(body, dict):
            raise DataError(f"{filename}: entry '{entry_id}' must be a table")
        out.append((entry_id, body))
    return out


def _validation_message(filename: str, entry_id: str, exc: ValidationError) -> str:
    err = exc.errors()[0]
    key = ".".join(str(p) for p in err["loc"]) or "(entry)"
    return f"{filename}: entry '{entry_id}', key '{key}': {err['msg']}"


def parse_weapons(filename: str, data: Mapping[str, Any]) -> dict[str, Weapon]:
    """Validate the ``[weapon.<id>]`` tables of a weapons file; raise DataError naming file, entry and key."""
    weapons: dict[str, Weapon] = {}
    for entry_id, body in _entries(filename, data, "weapon"):
        try:
            weapons[entry_id] = Weapon(id=entry_id, **body)
        except ValidationError as exc:
            raise DataError(_validation_message(filename, entry_id, exc)) from None
        except TypeError as exc:
            raise DataError(f"{filename}: entry '{entry_id}': {exc}") from None
    return weapons


def parse_bestiary(filename: str, data: Mapping[str, Any]) -> dict[str, Creature]:
    """Validate the ``[creature.<id>]`` tables of a bestiary file; raise DataError naming file, entry, key."""
    creatures: dict[str, Creature] = {}
    for entry_id, body in _entries(filename, data, "creature"):
        try:
            entry = Creature(id=entry_id, **body)
            block = entry.stat_block()
        except ValidationError as exc:
            raise DataError(_validation_message(filename, entry_id, exc)) from None
        except (TypeError, RulesError) as exc:
            raise DataError(f"{filename}: entry '{entry_id}': {exc}") from None
        if entry.passive_perception is not None and entry.passive_perception != block.passive_perception:
            raise DataError(
                f"{filename}: entry '{entry_id}', key 'passive_perception': {entry.passive_perception} "
                f"does not match 10 + Perception ({block.passive_perception})"
            )
        unknown = [f for f in block.features if f not in SPELLS]
        if unknown:
            raise DataError(f"{filename}: entry '{entry_id}', key 'features': unknown spell '{unknown[0]}'")
        creatures[entry_id] = entry
    return creatures


@functools.cache
def weapons() -> Mapping[str, Weapon]:
    """All SRD simple and martial weapons by id (``longsword``), loaded once."""
    return parse_weapons("weapons.toml", _read("weapons.toml"))


@functools.cache
def bestiary() -> Mapping[str, Creature]:
    """The bundled SRD creatures by id (``goblin``), loaded once."""
    return parse_bestiary("bestiary.toml", _read("bestiary.toml"))


def creature(creature_id: str) -> Creature:
    """One bestiary entry; raise DataError for an unknown id."""
    try:
        return bestiary()[creature_id]
    except KeyError:
        raise DataError(f"No creature '{creature_id}' in the bestiary") from None


# --- player characters -----------------------------------------------------------------------------------


class SimpleSheet(BaseModel):
    """A class-less character sheet as the table stores it: enough to build a PC stat block."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=80)
    level: int = Field(default=1, ge=1, le=20)
    abilities: AbilityScores
    skills: tuple[Skill, ...] = ()
    saves: tuple[Ability, ...] = ()
    weapons: tuple[str, ...] = ()  # weapon ids from weapons.toml
    armor_ac: int | None = Field(default=None, ge=10, le=30)  # AC from armour (and shield); None: 10 + Dex
    max_hp: int | None = Field(default=None, ge=1, le=1000)
    speed: int = Field(default=30, ge=0, le=120)
    features: tuple[str, ...] = ()
    spellcasting: Ability | None = None


def weapon_attack(weapon: Weapon, scores: AbilityScores, proficiency: int) -> Attack:
    """The attack line of a proficient wielder: finesse uses the better of Str/Dex, ranged uses Dex."""
    strength = scores.modifier(Ability.STR)
    dexterity = scores.modifier(Ability.DEX)
    if weapon.kind == "ranged":
        modifier = dexterity
    elif WeaponProperty.FINESSE in weapon.properties:
        modifier = max(strength, dexterity)
    else:
        modifier = strength
    dice = DamageDice.parse(weapon.damage or "0")
    damage = DamageDice(count=dice.count, sides=dice.sides, bonus=dice.bonus + modifier)
    properties = list(weapon.properties)
    if weapon.kind == "ranged":
        properties.append(WeaponProperty.RANGED)
    return Attack(
        name=weapon.name,
        to_hit=proficiency + modifier,
        damage=str(damage),
        damage_type=weapon.damage_type or DamageType.BLUDGEONING,
        properties=tuple(properties),
        range=weapon.range,
    )


def build_pc(sheet: SimpleSheet | Mapping[str, Any], *, char_class: str | None = None) -> StatBlock:
    """A PC stat block from a simple sheet; raise RulesError for an unknown weapon or a bad sheet.

    Max HP defaults to a d8 hit die: 8 + Con at level 1, then 5 + Con per level (the SRD fixed value).
    ``char_class`` (an SRD class such as "wizard") adds the class's spells and features that exist in
    :data:`SPELLS` for the sheet's level (:func:`class_features`) and, unless the sheet names one, the class's
    spellcasting ability: a level-5 wizard casts Fire Bolt with Intelligence.
    """
    if not isinstance(sheet, SimpleSheet):
        try:
            sheet = SimpleSheet.model_validate(sheet)
        except ValidationError as exc:
            err = exc.errors()[0]
            key = ".".join(str(p) for p in err["loc"]) or "sheet"
            raise RulesError(f"Character sheet, key '{key}': {err['msg']}") from None
    proficiency = proficiency_by_level(sheet.level)
    table = weapons()
    attacks: list[Attack] = []
    for weapon_id in sheet.weapons:
        weapon = table.get(weapon_id)
        if weapon is None:
            raise RulesError(f"Unknown weapon '{weapon_id}'")
        if weapon.damage is not None:
            attacks.append(weapon_attack(weapon, sheet.abilities, proficiency))
    con = sheet.abilities.modifier(Ability.CON)
    max_hp = sheet.max_hp or max(1, 8 + con + (sheet.level - 1) * (5 + con))
    unknown = [f for f in sheet.features if f not in SPELLS]
    if unknown:
        raise RulesError(f"Unknown spell or feature '{unknown[0]}'")
    features = tuple(sorted({*sheet.features, *class_features(char_class, sheet.level)}))
    spellcasting = sheet.spellcasting
    if spellcasting is None and char_class:
        spellcasting = CLASS_SPELLCASTING.get(char_class.strip().lower())
    return StatBlock(
        name=sheet.name,
        kind="pc",
        level=sheet.level,
        abilities=sheet.abilities,
        skills=sheet.skills,
        saves=sheet.saves,
        ac=sheet.armor_ac or 10 + sheet.abilities.modifier(Ability.DEX),
        max_hp=max_hp,
        speed=sheet.speed,
        attacks=tuple(attacks),
        features=features,
        spellcasting=spellcasting,
    )


def scores_from(values: Sequence[int]) -> AbilityScores:
    """Six scores in STR, DEX, CON, INT, WIS, CHA order."""
    return AbilityScores.of(values)


__all__ = [
    "CLASS_SPELLCASTING",
    "ITEM_EFFECTS",
    "SPELLS",
    "Creature",
    "ItemEffect",
    "SimpleSheet",
    "Spell",
    "Weapon",
    "ability_modifier",
    "bestiary",
    "build_pc",
    "class_features",
    "creature",
    "item_effect",
    "max_spell_level",
    "weapons",
]
