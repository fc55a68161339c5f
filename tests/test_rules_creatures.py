"""Stat blocks, character creation and the bundled SRD data."""

from __future__ import annotations

import pytest

from rules import srd
from rules.creatures import (
    SKILL_ABILITY,
    Ability,
    AbilityScores,
    Condition,
    DamageDice,
    Skill,
    StatBlock,
    ability_modifier,
    parse_skill,
    proficiency_by_cr,
    proficiency_by_level,
    validate_point_buy,
    validate_standard_array,
)
from rules.errors import DataError, RulesError


@pytest.mark.parametrize(
    ("score", "modifier"),
    [(1, -5), (3, -4), (8, -1), (9, -1), (10, 0), (11, 0), (12, 1), (18, 4), (20, 5), (30, 10)],
)
def test_ability_modifier(score: int, modifier: int) -> None:
    assert ability_modifier(score) == modifier


def test_proficiency_by_level_and_cr() -> None:
    assert [proficiency_by_level(n) for n in (1, 4, 5, 8, 9, 13, 17, 20)] == [2, 2, 3, 3, 4, 5, 6, 6]
    assert [proficiency_by_cr(c) for c in (0, 0.25, 4, 5, 8, 9, 17, 30)] == [2, 2, 2, 3, 3, 4, 6, 9]
    with pytest.raises(RulesError, match="Level must be 1 to 20"):
        proficiency_by_level(21)


def test_eighteen_skills_each_with_an_ability() -> None:
    assert len(Skill) == 18
    assert set(SKILL_ABILITY) == set(Skill)
    assert SKILL_ABILITY[Skill.STEALTH] is Ability.DEX
    assert parse_skill("Sleight of Hand") is Skill.SLEIGHT_OF_HAND
    with pytest.raises(RulesError, match="Unknown skill 'juggling'"):
        parse_skill("juggling")


def test_conditions_cover_the_srd() -> None:
    names = {c.value for c in Condition}
    assert {"blinded", "charmed", "frightened", "paralyzed", "prone", "unconscious", "invisible"} <= names
    assert len(names) == 15


def test_standard_array_accepts_any_order_and_explains_mistakes() -> None:
    scores = validate_standard_array([8, 10, 12, 13, 14, 15])
    assert scores.strength == 8 and scores.charisma == 15
    with pytest.raises(RulesError, match="standard array is 15, 14, 13, 12, 10, 8"):
        validate_standard_array([15, 15, 13, 12, 10, 8])
    with pytest.raises(RulesError, match="exactly six"):
        validate_standard_array([15, 14, 13])


def test_point_buy_budget_and_range() -> None:
    assert validate_point_buy([15, 15, 15, 8, 8, 8]).dexterity == 15  # 27 points exactly
    assert validate_point_buy({a: 12 for a in Ability}).wisdom == 12  # 6 x 4 = 24 points
    with pytest.raises(RulesError, match="costs 30 points"):
        validate_point_buy({a: 13 for a in Ability})
    with pytest.raises(RulesError, match="costs 29 points: at most 27"):
        validate_point_buy([15, 15, 15, 9, 9, 8])
    with pytest.raises(RulesError, match="8 to 15: STR is 16"):
        validate_point_buy([16, 8, 8, 8, 8, 8])
    with pytest.raises(RulesError, match="Missing ability score CHA"):
        validate_point_buy({a: 10 for a in Ability if a is not Ability.CHA})


def test_skill_and_save_bonuses() -> None:
    block = StatBlock(
        name="Mira",
        kind="pc",
        level=5,
        abilities=AbilityScores.of([10, 16, 14, 10, 12, 8]),
        skills=(Skill.STEALTH,),
        saves=(Ability.DEX,),
    )
    assert block.proficiency_bonus == 3
    assert block.skill_modifier(Skill.STEALTH) == 6
    assert block.skill_modifier(Skill.ACROBATICS) == 3
    assert block.save_modifier(Ability.DEX) == 6
    assert block.passive_perception == 11


def test_damage_dice_parse() -> None:
    assert DamageDice.parse("2d6+3") == DamageDice(count=2, sides=6, bonus=3)
    assert DamageDice.parse("1") == DamageDice(bonus=1)
    assert str(DamageDice.parse("1d4-1")) == "1d4-1"
    with pytest.raises(RulesError):
        DamageDice.parse("2d6+d4")


def test_weapons_cover_simple_and_martial() -> None:
    table = srd.weapons()
    assert len([w for w in table.values() if w.category == "simple"]) == 14
    assert len([w for w in table.values() if w.category == "martial"]) == 23
    assert table["longsword"].versatile == "1d10"
    assert table["longbow"].range == (150, 600)
    assert table["net"].damage is None
    assert srd.weapons() is table  # cached


def test_bestiary_has_fifteen_creatures_cr_0_to_5() -> None:
    creatures = srd.bestiary()
    assert len(creatures) >= 15
    assert {c.cr for c in creatures.values()} >= {0, 0.125, 0.25, 0.5, 1, 2, 3, 5}
    goblin = srd.creature("goblin").stat_block()
    assert goblin.ac == 15 and goblin.max_hp == 7 and goblin.skill_modifier(Skill.STEALTH) == 6
    assert goblin.passive_perception == 9
    skeleton = srd.creature("skeleton").stat_block()
    assert "bludgeoning" in skeleton.vulnerabilities
    with pytest.raises(DataError, match="No creature 'dragon'"):
        srd.creature("dragon")


def test_bad_bestiary_names_file_entry_and_key() -> None:
    text = """
[creature.blob]
name = "Blob"
cr = 1
ac = "soft"
hp = 10
abilities = [10, 10, 10, 10, 10, 10]
"""
    with pytest.raises(DataError) as err:
        srd.parse_bestiary("mine.toml", srd.parse_toml("mine.toml", text))
    assert "mine.toml" in str(err.value) and "'blob'" in str(err.value) and "'ac'" in str(err.value)
    with pytest.raises(DataError, match=r"mine\.toml: not valid TOML"):
        srd.parse_toml("mine.toml", "[creature.blob\n")
    wrong_pp = text.replace('"soft"', "12") + "passive_perception = 14\n"
    with pytest.raises(DataError, match="'passive_perception'"):
        srd.parse_bestiary("mine.toml", srd.parse_toml("mine.toml", wrong_pp))


def test_bad_weapon_names_file_entry_and_key() -> None:
    data = srd.parse_toml(
        "w.toml", '[weapon.stick]\nname = "Stick"\ncategory = "simple"\nkind = "melee"\ndamage = "d"\n'
    )
    with pytest.raises(DataError, match=r"w.toml: entry 'stick', key 'damage'"):
        srd.parse_weapons("w.toml", data)


def test_build_pc_from_a_simple_sheet() -> None:
    pc = srd.build_pc(
        {
            "name": "Mira",
            "level": 3,
            "abilities": AbilityScores.of([10, 16, 14, 10, 12, 8]).model_dump(),
            "skills": ["stealth"],
            "weapons": ["rapier", "shortbow"],
            "armor_ac": 14,
        }
    )
    rapier, bow = pc.attacks
    assert (rapier.to_hit, rapier.damage) == (5, "1d8+3")  # finesse uses Dex
    assert bow.is_ranged and bow.range == (80, 320)
    assert pc.max_hp == 8 + 2 + 2 * (5 + 2)
    assert pc.kind == "pc"
    with pytest.raises(RulesError, match="Unknown weapon 'lightsaber'"):
        srd.build_pc({"name": "X", "abilities": {}, "weapons": ["lightsaber"]})
    with pytest.raises(RulesError, match="Character sheet, key 'level'"):
        srd.build_pc({"name": "X", "abilities": {}, "level": 40})
