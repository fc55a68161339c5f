"""Potions named the way campaigns name them, and the spells a PC's class gives them (evening-play defects).

The harbour campaign calls its potion ``item-healing-potion`` / "potion of healing" and its wizard's sheet
says only ``class = "wizard"``, ``level = 5``: drinking must heal and use one up, and the wizard must cast
Fire Bolt. A spell the character does not have is refused with the spells they can cast.
"""

from __future__ import annotations

import pytest

from rules import srd
from rules.creatures import AbilityScores
from rules.errors import IntentError
from rules.intents import Intent, IntentKind
from rules.round import Outcome, resolve_round
from rules.state import Combatant, Holding, HpChanged, ItemTransferred, RoundState

HERE = "loc-harbor"


def tamsin(hp: int) -> Combatant:
    stats = srd.build_pc(
        {
            "name": "Sister Tamsin",
            "level": 5,
            "abilities": AbilityScores.of([12, 10, 14, 10, 16, 13]).model_dump(),
        },
        char_class="cleric",
    )
    potions = Holding(item="item-healing-potion", quantity=3, name="potion of healing")
    return Combatant(
        id="pc-tamsin", name="Sister Tamsin", stats=stats, hp=hp, location=HERE, holdings=(potions,)
    )


def orrin() -> Combatant:
    stats = srd.build_pc(
        {
            "name": "Orrin Vale",
            "level": 5,
            "abilities": AbilityScores.of([8, 14, 13, 18, 12, 10]).model_dump(),
            "weapons": ["quarterstaff", "dagger"],
            "armor_ac": 12,
            "max_hp": 27,
        },
        char_class="wizard",
    )
    return Combatant(id="pc-orrin", name="Orrin Vale", stats=stats, hp=27, location=HERE)


def thug() -> Combatant:
    block = srd.creature("thug").stat_block()
    return Combatant(id="monster-tarry-jack", name="Tarry Jack", stats=block, hp=block.max_hp, location=HERE)


@pytest.mark.parametrize("seed", range(12))
def test_drinking_a_potion_of_healing_heals_2d4_plus_2_and_uses_one_up(seed: int) -> None:
    state = RoundState(combatants=(tamsin(hp=10),), locations=(HERE,))
    drink = Intent(kind=IntentKind.USE_ITEM, actor="pc-tamsin", item="item-healing-potion")
    res = resolve_round(seed=seed, intents=[drink], state=state)
    (result,) = res.results
    assert result.outcome is Outcome.SUCCESS
    healed = [c for c in res.changes if isinstance(c, HpChanged)]
    assert len(healed) == 1 and 4 <= healed[0].after - healed[0].before <= 10
    assert [r.purpose for r in result.rolls] == ["healing"]
    used = [c for c in res.changes if isinstance(c, ItemTransferred)]
    assert used == [
        ItemTransferred(
            cause=0, item="item-healing-potion", from_holder="pc-tamsin", to_holder=None, quantity=1
        )
    ]
    after = res.state.combatant("pc-tamsin")
    assert after is not None and after.held("item-healing-potion") == 2 and after.hp == healed[0].after
    assert "hit points restored" in result.summary


def test_a_potion_never_heals_above_max_hp() -> None:
    full = tamsin(hp=0).stats.max_hp
    state = RoundState(combatants=(tamsin(hp=full - 1),), locations=(HERE,))
    drink = Intent(kind=IntentKind.USE_ITEM, actor="pc-tamsin", item="item-healing-potion")
    res = resolve_round(seed=3, intents=[drink], state=state)
    after = res.state.combatant("pc-tamsin")
    assert after is not None and after.hp == full and after.held("item-healing-potion") == 2


def test_an_effect_is_found_by_the_items_name_when_its_id_says_nothing() -> None:
    assert (
        srd.item_effect("item-red-vial", None, "Potion of Healing") == srd.ITEM_EFFECTS["potion-of-healing"]
    )
    assert srd.item_effect("item-healing-potion") == srd.ITEM_EFFECTS["potion-of-healing"]
    assert srd.item_effect("item-spellbook", None, "Orrin's spellbook") is None


def test_a_level_5_wizard_knows_the_wizard_spells_in_the_data() -> None:
    stats = orrin().stats
    assert {"fire-bolt", "ray-of-frost", "magic-missile", "burning-hands", "hold-person"} <= set(
        stats.features
    )
    assert "cure-wounds" not in stats.features and "sacred-flame" not in stats.features
    assert stats.spell_ability.value == "int"
    assert srd.class_features("wizard", 1) == ("burning-hands", "fire-bolt", "magic-missile", "ray-of-frost")
    assert "hold-person" in srd.class_features("cleric", 3) and "hold-person" not in srd.class_features(
        "cleric", 2
    )
    assert srd.class_features("fighter", 1) == ("second-wind",)
    assert srd.class_features("paladin", 1) == () and srd.class_features("paladin", 2) == ("cure-wounds",)
    assert srd.class_features("rogue", 5) == ()


def test_orrin_casts_fire_bolt_at_a_thug() -> None:
    state = RoundState(combatants=(orrin(), thug()), locations=(HERE,))
    bolt = Intent(
        kind=IntentKind.ABILITY, actor="pc-orrin", target="monster-tarry-jack", ability_name="fire bolt"
    )
    res = resolve_round(seed=1, intents=[bolt], state=state)
    (result,) = [r for r in res.results if r.actor == "pc-orrin"]
    assert result.outcome is not Outcome.REFUSED and "Fire Bolt" in result.summary
    # Level 5: the cantrip deals 2d10.
    damage = [r for r in result.rolls if r.purpose == "damage"]
    assert all(r.expression.startswith("2d10") for r in damage)


def test_an_unknown_spell_is_refused_naming_the_spells_the_character_can_cast() -> None:
    state = RoundState(combatants=(orrin(), thug()), locations=(HERE,))
    light = Intent(kind=IntentKind.ABILITY, actor="pc-orrin", target="pc-orrin", ability_name="light")
    with pytest.raises(IntentError) as err:
        resolve_round(seed=1, intents=[light], state=state)
    assert "light" in str(err.value) and "Fire Bolt" in str(err.value) and "Magic Missile" in str(err.value)
    heal = Intent(kind=IntentKind.ABILITY, actor="pc-orrin", target="pc-orrin", ability_name="cure wounds")
    with pytest.raises(IntentError) as err:
        resolve_round(seed=1, intents=[heal], state=state)
    assert "cannot use Cure Wounds" in str(err.value) and "Fire Bolt" in str(err.value)


def test_healing_at_full_hit_points_says_so_instead_of_zero_restored() -> None:
    """Seen in the evening: "Sister Tamsin uses potion of healing: 0 hit points restored"."""
    full = tamsin(hp=0).stats.max_hp
    state = RoundState(combatants=(tamsin(hp=full),), locations=(HERE,))
    drink = Intent(kind=IntentKind.USE_ITEM, actor="pc-tamsin", item="item-healing-potion")
    (result,) = resolve_round(seed=3, intents=[drink], state=state).results
    assert (
        result.summary
        == "Sister Tamsin uses the potion of healing, but Sister Tamsin is already at full hit points."
    )
    cure = Intent(kind=IntentKind.ABILITY, actor="pc-tamsin", target="pc-tamsin", ability_name="cure wounds")
    (result,) = resolve_round(seed=3, intents=[cure], state=state).results
    assert result.summary == "Sister Tamsin's Cure Wounds finds Sister Tamsin already at full hit points."
    assert "0 hit points" not in result.summary


def test_result_lines_name_an_item_with_its_article() -> None:
    """Seen in the evening: "Greyrock takes silver key", "Sister Tamsin uses potion of healing"."""
    from rules.resolution import the_thing

    assert the_thing("silver key") == "the silver key"
    assert the_thing("silver key", 3) == "3 x silver key"
    assert the_thing("Autumn Water") == "Autumn Water"  # a proper name takes no article
    assert the_thing("a bag of caltrops") == "a bag of caltrops"
