"""Whole rounds: every intent kind, contests, refusals, byte-identical replay and seed commitments.

Where a test needs a particular roll (a hit, a tie) it searches seeds for one that produces it: the engine
is deterministic, so the search always lands on the same seed, and the test then checks what a player
would see in that round.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from rules import srd
from rules.creatures import AbilityScores, Condition
from rules.errors import IntentError, RulesError
from rules.fairness import commit_seed, new_seed, replay_round, verify_seed
from rules.intents import Intent, IntentKind
from rules.round import ActionResult, Outcome, RoundResolution, resolve_round
from rules.state import Combatant, DeathSaves, Holding, RoundState, SceneItem

HALL = "loc-hall"


def mira() -> Combatant:
    stats = srd.build_pc(
        {
            "name": "Mira",
            "level": 3,
            "abilities": AbilityScores.of([10, 16, 14, 10, 14, 8]).model_dump(),
            "skills": ["stealth", "perception", "insight"],
            "weapons": ["rapier", "shortbow"],
            "armor_ac": 14,
        }
    )
    potion = Holding(item="item-potion-of-healing", quantity=2, name="Potion of Healing")
    return Combatant(
        id="pc-mira", name="Mira", stats=stats, hp=stats.max_hp, location=HALL, holdings=(potion,)
    )


def bram() -> Combatant:
    stats = srd.build_pc(
        {
            "name": "Bram",
            "level": 5,
            "abilities": AbilityScores.of([16, 10, 14, 8, 16, 12]).model_dump(),
            "skills": ["athletics", "medicine", "persuasion"],
            "weapons": ["longsword"],
            "armor_ac": 18,
            "features": [
                "cure-wounds",
                "healing-word",
                "sacred-flame",
                "hold-person",
                "spare-the-dying",
                "fire-bolt",
                "magic-missile",
                "second-wind",
            ],
            "spellcasting": "wis",
        }
    )
    return Combatant(id="pc-bram", name="Bram", stats=stats, hp=stats.max_hp, location=HALL)


def monster(cid: str, kind: str, *, hp: int | None = None, holdings: tuple[Holding, ...] = ()) -> Combatant:
    block = srd.creature(kind).stat_block()
    return Combatant(
        id=cid,
        name=cid.split("-", 1)[1].title(),
        stats=block,
        hp=hp or block.max_hp,
        location=HALL,
        holdings=holdings,
    )


def npc(cid: str = "npc-wei", *, hp: int = 4) -> Combatant:
    block = srd.creature("commoner").stat_block(kind="npc")
    return Combatant(id=cid, name="Old Wei", stats=block, hp=hp, location=HALL)


def scene(*combatants: Combatant, items: tuple[SceneItem, ...] = ()) -> RoundState:
    return RoundState(combatants=combatants, items=items, locations=(HALL, "loc-yard"))


def six() -> tuple[RoundState, list[Intent]]:
    key = Holding(item="item-silver-key", name="silver key")
    state = scene(
        mira(),
        bram(),
        monster("monster-goblin-1", "goblin"),
        monster("monster-goblin-2", "goblin"),
        monster("monster-orc", "orc", holdings=(key,)),
        npc(),
        items=(SceneItem(id="item-red-gem", name="red gem", holder=HALL),),
    )
    intents = [
        Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="monster-goblin-1"),
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="monster-orc", ability_name="sacred-flame"),
        Intent(kind=IntentKind.ATTACK, actor="monster-goblin-1", target="pc-mira"),
        Intent(kind=IntentKind.TAKE, actor="monster-goblin-2", item="item-red-gem"),
        Intent(kind=IntentKind.TAKE, actor="npc-wei", item="item-red-gem"),
        Intent(kind=IntentKind.ATTACK, actor="monster-orc", target="pc-bram"),
    ]
    return state, intents


def find(
    state: RoundState, intents: Sequence[Intent], wanted: Callable[[RoundResolution], bool], tries: int = 3000
) -> RoundResolution:
    for seed in range(tries):
        resolution = resolve_round(seed=seed, intents=intents, state=state)
        if wanted(resolution):
            return resolution
    raise AssertionError("no seed produced the wanted round")


def result_of(resolution: RoundResolution, actor: str) -> ActionResult:
    return next(r for r in resolution.results if r.actor == actor and r.intent is not None)


def kinds(resolution: RoundResolution, cause: ActionResult | None = None) -> list[str]:
    index = None if cause is None else resolution.results.index(cause)
    return [c.kind for c in resolution.changes if index is None or c.cause == index]


# --- determinism and fairness ----------------------------------------------------------------------------


def test_six_combatant_round_replays_byte_identically() -> None:
    state, intents = six()
    first = resolve_round(seed=1234, intents=intents, state=state)
    again = resolve_round(seed=1234, intents=intents, state=state)
    shuffled = resolve_round(seed=1234, intents=list(reversed(intents)), state=state)
    assert first.model_dump_json() == again.model_dump_json() == shuffled.model_dump_json()
    assert len(first.initiative) == 6
    assert {r.actor for r in first.results} == {i.actor for i in intents}
    other = resolve_round(seed=1235, intents=intents, state=state)
    assert other.model_dump_json() != first.model_dump_json()


def test_same_bytes_in_another_process_with_another_hash_seed() -> None:
    script = (
        "import sys; sys.path.insert(0, 'tests'); from test_rules_round import six; "
        "from rules.round import resolve_round; s, i = six(); "
        "print(resolve_round(seed=77, intents=i, state=s).model_dump_json())"
    )
    root = Path(__file__).resolve().parent.parent
    outputs = [
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in (1, 2)
    ]
    state, intents = six()
    here = resolve_round(seed=77, intents=intents, state=state).model_dump_json()
    assert outputs[0] == outputs[1] == here + "\n"


def test_two_helpers_for_one_ally_do_not_depend_on_listing_order() -> None:
    state = scene(mira(), bram(), npc())
    intents = [
        Intent(kind=IntentKind.HELP, actor="pc-bram", target="pc-mira"),
        Intent(kind=IntentKind.HELP, actor="npc-wei", target="pc-mira"),
        Intent(kind=IntentKind.CHECK, actor="pc-mira", skill="arcana"),
    ]
    first = resolve_round(seed=3, intents=intents, state=state)
    assert (
        first.model_dump_json() == resolve_round(seed=3, intents=intents[::-1], state=state).model_dump_json()
    )
    assert result_of(first, "pc-mira").helped_by == "npc-wei"  # first by id
    assert result_of(first, "pc-bram").outcome is Outcome.REFUSED


def test_resolution_round_trips_through_json() -> None:
    state, intents = six()
    resolution = resolve_round(seed=99, intents=intents, state=state)
    assert RoundResolution.model_validate(resolution.model_dump(mode="json")) == resolution
    assert RoundResolution.model_validate_json(resolution.model_dump_json()) == resolution


def test_every_roll_is_recorded_with_its_numbers() -> None:
    state, intents = six()
    resolution = resolve_round(seed=7, intents=intents, state=state)
    pick = {"2d20kh1": max, "2d20kl1": min}
    ids = {c.id for c in state.combatants}
    seen = 0
    for result in resolution.results:
        for roll in result.rolls:
            assert roll.roller in ids
            if roll.expression == "auto-fail":
                continue
            combine = pick.get(roll.expression[:7], sum)
            expected = combine(roll.natural) + roll.modifier
            if roll.purpose == "damage":
                expected = max(0, expected)
            assert roll.total == expected, roll
            seen += 1
    assert seen >= 6


def test_seed_commitment_and_replay() -> None:
    state, intents = six()
    seed = new_seed()
    commitment = commit_seed(seed)
    assert len(commitment) == 64 and verify_seed(seed, commitment)
    assert not verify_seed(seed + 1, commitment)
    assert commit_seed(seed) == commitment
    recorded = resolve_round(seed=seed, intents=intents, state=state)
    assert replay_round(seed=seed, intents=intents, state=state, recorded=recorded)
    assert replay_round(seed=seed, intents=intents, state=state, recorded=recorded.model_dump_json())
    assert not replay_round(seed=seed + 1, intents=intents, state=state, recorded=recorded)
    with pytest.raises(RulesError):
        commit_seed("12")  # type: ignore[arg-type]


# --- attack ----------------------------------------------------------------------------------------------


def test_attack_hit_deals_damage_and_kills_a_monster() -> None:
    state = scene(mira(), monster("monster-goblin-1", "goblin", hp=1))
    intents = [Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="monster-goblin-1")]
    resolution = find(state, intents, lambda r: result_of(r, "pc-mira").outcome is Outcome.SUCCESS)
    result = result_of(resolution, "pc-mira")
    assert [r.purpose for r in result.rolls] == ["attack", "damage"]
    assert kinds(resolution, result) == ["hp_changed", "died"]
    assert resolution.state.combatant("monster-goblin-1").dead  # type: ignore[union-attr]
    assert "dies" in result.summary


def test_attack_miss_changes_nothing() -> None:
    state = scene(mira(), monster("monster-goblin-1", "goblin"))
    intents = [Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="monster-goblin-1")]
    resolution = find(state, intents, lambda r: result_of(r, "pc-mira").outcome is Outcome.FAILURE)
    assert resolution.changes == ()
    assert "misses" in result_of(resolution, "pc-mira").summary


def test_spared_npc_falls_unconscious_instead_of_dying() -> None:
    state = scene(mira(), npc(hp=1))
    intents = [Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="npc-wei", item="rapier", spare=True)]
    resolution = find(state, intents, lambda r: result_of(r, "pc-mira").outcome is Outcome.SUCCESS)
    assert "fell_unconscious" in kinds(resolution) and "died" not in kinds(resolution)
    wei = resolution.state.combatant("npc-wei")
    assert wei is not None and not wei.dead and Condition.UNCONSCIOUS in wei.conditions


def test_creature_killed_before_its_turn_cannot_act() -> None:
    state = scene(mira(), monster("monster-goblin-1", "goblin", hp=1))
    intents = [
        Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="monster-goblin-1"),
        Intent(kind=IntentKind.ATTACK, actor="monster-goblin-1", target="pc-mira"),
    ]
    resolution = find(
        state,
        intents,
        lambda r: r.initiative[0].entity == "pc-mira" and result_of(r, "pc-mira").outcome is Outcome.SUCCESS,
    )
    goblin = result_of(resolution, "monster-goblin-1")
    assert goblin.outcome is Outcome.REFUSED and goblin.reason == "Goblin-1 is dead"
    assert kinds(resolution, goblin) == []


@pytest.mark.parametrize("condition", [Condition.UNCONSCIOUS, Condition.PARALYZED, Condition.STUNNED])
def test_helpless_actors_cannot_act(condition: Condition) -> None:
    goblin = monster("monster-goblin-1", "goblin").model_copy(update={"conditions": (condition,)})
    state = scene(mira(), goblin)
    intents = [Intent(kind=IntentKind.ATTACK, actor="monster-goblin-1", target="pc-mira")]
    resolution = resolve_round(seed=3, intents=intents, state=state)
    result = result_of(resolution, "monster-goblin-1")
    assert result.outcome is Outcome.REFUSED and condition.value in (result.reason or "")
    assert resolution.changes == ()


def test_dying_pc_rolls_a_death_save_on_its_turn() -> None:
    down = mira().model_copy(update={"hp": 0, "conditions": (Condition.UNCONSCIOUS,)})
    state = scene(down, bram())
    resolution = resolve_round(seed=11, intents=[], state=state)
    (turn,) = resolution.results
    assert turn.actor == "pc-mira" and turn.intent is None
    assert turn.rolls[0].purpose == "death_save"
    assert "death_saves" in kinds(resolution) or "hp_changed" in kinds(resolution)


def test_attack_on_a_dying_pc_is_a_death_save_failure() -> None:
    down = mira().model_copy(update={"hp": 0, "conditions": (Condition.UNCONSCIOUS,), "stable": True})
    state = scene(down, monster("monster-goblin-1", "goblin"))
    intents = [Intent(kind=IntentKind.ATTACK, actor="monster-goblin-1", target="pc-mira", item="scimitar")]
    resolution = find(state, intents, lambda r: result_of(r, "monster-goblin-1").outcome is Outcome.SUCCESS)
    after = resolution.state.combatant("pc-mira")
    assert after is not None and after.death_saves == DeathSaves(failures=2)  # melee hit on unconscious: crit
    assert result_of(resolution, "monster-goblin-1").rolls[0].outcome == "critical_hit"


# --- abilities -------------------------------------------------------------------------------------------


def test_sacred_flame_is_a_dex_save_and_fire_bolt_an_attack() -> None:
    state = scene(bram(), monster("monster-orc", "orc"))
    flame = [
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="monster-orc", ability_name="Sacred Flame")
    ]
    resolution = find(state, flame, lambda r: result_of(r, "pc-bram").outcome is Outcome.SUCCESS)
    save = result_of(resolution, "pc-bram").rolls[0]
    assert save.purpose == "save:dex" and save.roller == "monster-orc" and save.target == 8 + 3 + 3
    bolt = [Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="monster-orc", ability_name="fire-bolt")]
    resolution = find(state, bolt, lambda r: result_of(r, "pc-bram").outcome is Outcome.SUCCESS)
    rolls = result_of(resolution, "pc-bram").rolls
    assert rolls[0].purpose == "spell_attack:fire-bolt" and rolls[0].modifier == 6
    assert rolls[1].expression.startswith("2d10") or rolls[1].expression.startswith("4d10")  # level 5 cantrip


def test_magic_missile_always_hits() -> None:
    state = scene(bram(), monster("monster-orc", "orc"))
    intents = [
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="monster-orc", ability_name="magic-missile")
    ]
    for seed in range(20):
        resolution = resolve_round(seed=seed, intents=intents, state=state)
        assert result_of(resolution, "pc-bram").outcome is Outcome.SUCCESS
        assert 6 <= 15 - resolution.state.combatant("monster-orc").hp <= 15  # type: ignore[union-attr]


def test_hold_person_paralyzes_on_a_failed_save() -> None:
    state = scene(bram(), monster("monster-orc", "orc"))
    intents = [
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="monster-orc", ability_name="hold-person")
    ]
    resolution = find(state, intents, lambda r: result_of(r, "pc-bram").outcome is Outcome.SUCCESS)
    assert kinds(resolution) == ["condition_added"]
    assert Condition.PARALYZED in resolution.state.combatant("monster-orc").conditions  # type: ignore[union-attr]


def test_healing_word_wakes_a_dying_ally() -> None:
    down = mira().model_copy(
        update={"hp": 0, "conditions": (Condition.UNCONSCIOUS,), "death_saves": DeathSaves(failures=1)}
    )
    state = scene(down, bram())
    intents = [
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="pc-mira", ability_name="healing-word")
    ]
    resolution = find(state, intents, lambda r: r.initiative[0].entity == "pc-bram")
    after = resolution.state.combatant("pc-mira")
    assert after is not None and after.hp > 0 and Condition.UNCONSCIOUS not in after.conditions
    assert "wakes up" in result_of(resolution, "pc-bram").summary
    assert {"hp_changed", "condition_removed"} <= set(kinds(resolution))


def test_spare_the_dying_stabilizes_and_is_refused_on_the_healthy() -> None:
    down = mira().model_copy(update={"hp": 0, "conditions": (Condition.UNCONSCIOUS,)})
    intents = [
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="pc-mira", ability_name="spare-the-dying")
    ]
    resolution = find(scene(down, bram()), intents, lambda r: r.initiative[0].entity == "pc-bram")
    assert "stabilized" in kinds(resolution)
    healthy = resolve_round(seed=1, intents=intents, state=scene(mira(), bram()))
    assert result_of(healthy, "pc-bram").outcome is Outcome.REFUSED
    assert healthy.changes == ()


def test_second_wind_heals_self_and_cure_wounds_heals_touch() -> None:
    hurt = bram().model_copy(update={"hp": 10})
    resolution = resolve_round(
        seed=2,
        intents=[Intent(kind=IntentKind.ABILITY, actor="pc-bram", ability_name="second-wind")],
        state=scene(hurt),
    )
    assert resolution.state.combatant("pc-bram").hp >= 10 + 1 + 5  # type: ignore[union-attr]
    cured = resolve_round(
        seed=2,
        intents=[
            Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="pc-mira", ability_name="cure-wounds")
        ],
        state=scene(mira().model_copy(update={"hp": 1}), bram()),
    )
    assert cured.state.combatant("pc-mira").hp >= 1 + 1 + 3  # type: ignore[union-attr]


# --- checks and talk -------------------------------------------------------------------------------------


def test_perception_success_reveals_and_uses_default_dc() -> None:
    intents = [Intent(kind=IntentKind.CHECK, actor="pc-mira", skill="perception")]
    resolution = find(scene(mira()), intents, lambda r: result_of(r, "pc-mira").outcome is Outcome.SUCCESS)
    result = result_of(resolution, "pc-mira")
    assert result.reveals and result.rolls[0].target == 15
    failed = find(scene(mira()), intents, lambda r: result_of(r, "pc-mira").outcome is Outcome.FAILURE)
    assert not result_of(failed, "pc-mira").reveals


def test_stealth_meets_passive_perception() -> None:
    state = scene(mira(), monster("monster-wolf", "wolf"))
    intents = [Intent(kind=IntentKind.CHECK, actor="pc-mira", skill="stealth", target="monster-wolf")]
    result = result_of(resolve_round(seed=4, intents=intents, state=state), "pc-mira")
    assert result.rolls[0].target == 13  # the wolf's passive Perception
    assert "passive perception 13" in result.summary


def test_athletics_against_a_creature_is_an_opposed_check() -> None:
    state = scene(bram(), monster("monster-orc", "orc"))
    intents = [Intent(kind=IntentKind.CHECK, actor="pc-bram", skill="athletics", target="monster-orc")]
    result = result_of(resolve_round(seed=4, intents=intents, state=state), "pc-bram")
    assert [r.roller for r in result.rolls] == ["pc-bram", "monster-orc"]


def test_talk_with_and_without_a_skill() -> None:
    state = scene(bram(), npc())
    plain = resolve_round(
        seed=1, intents=[Intent(kind=IntentKind.TALK, actor="pc-bram", target="npc-wei")], state=state
    )
    assert result_of(plain, "pc-bram").outcome is Outcome.DONE and result_of(plain, "pc-bram").rolls == ()
    persuade = [
        Intent(kind=IntentKind.TALK, actor="pc-bram", target="npc-wei", skill="persuasion", text="Please")
    ]
    result = result_of(resolve_round(seed=1, intents=persuade, state=state), "pc-bram")
    assert result.rolls[0].target == 10 and result.outcome in (Outcome.SUCCESS, Outcome.FAILURE)
    with pytest.raises(IntentError, match="persuasion, deception or intimidation"):
        resolve_round(
            seed=1, intents=[Intent(kind=IntentKind.TALK, actor="pc-bram", skill="stealth")], state=state
        )


def test_help_gives_the_ally_advantage() -> None:
    state = scene(mira(), bram())
    intents = [
        Intent(kind=IntentKind.HELP, actor="pc-bram", target="pc-mira"),
        Intent(kind=IntentKind.CHECK, actor="pc-mira", skill="investigation"),
    ]
    resolution = resolve_round(seed=8, intents=intents, state=state)
    check = result_of(resolution, "pc-mira")
    assert check.helped_by == "pc-bram" and check.rolls[0].advantage == "advantage"
    assert len(check.rolls[0].natural) == 2
    assert result_of(resolution, "pc-bram").outcome is Outcome.DONE


# --- items -----------------------------------------------------------------------------------------------


def test_potion_heals_and_is_used_up() -> None:
    hurt = mira().model_copy(update={"hp": 3})
    intents = [Intent(kind=IntentKind.USE_ITEM, actor="pc-mira", item="item-potion-of-healing")]
    resolution = resolve_round(seed=5, intents=intents, state=scene(hurt))
    after = resolution.state.combatant("pc-mira")
    assert after is not None and 3 + 4 <= after.hp <= 3 + 10
    assert after.held("item-potion-of-healing") == 1
    used = [c for c in resolution.changes if c.kind == "item_transferred"]
    assert used and used[0].to_holder is None and used[0].from_holder == "pc-mira"


def test_give_moves_the_item() -> None:
    intents = [
        Intent(
            kind=IntentKind.GIVE, actor="pc-mira", target="pc-bram", item="item-potion-of-healing", quantity=2
        )
    ]
    resolution = resolve_round(seed=5, intents=intents, state=scene(mira(), bram()))
    assert resolution.state.combatant("pc-bram").held("item-potion-of-healing") == 2  # type: ignore[union-attr]
    assert resolution.state.combatant("pc-mira").holdings == ()  # type: ignore[union-attr]
    (change,) = resolution.changes
    assert change.model_dump() == {
        "cause": 0,
        "kind": "item_transferred",
        "item": "item-potion-of-healing",
        "from_holder": "pc-mira",
        "to_holder": "pc-bram",
        "quantity": 2,
    }


def test_take_from_the_ground_is_free() -> None:
    gem = SceneItem(id="item-red-gem", name="red gem", holder=HALL)
    intents = [Intent(kind=IntentKind.TAKE, actor="pc-mira", item="item-red-gem")]
    resolution = resolve_round(seed=1, intents=intents, state=scene(mira(), items=(gem,)))
    assert result_of(resolution, "pc-mira").rolls == ()
    assert resolution.state.items == ()
    assert resolution.state.combatant("pc-mira").held("item-red-gem") == 1  # type: ignore[union-attr]


def test_take_from_a_creature_is_contested_and_a_tie_keeps_it_with_the_holder() -> None:
    key = Holding(item="item-silver-key", name="silver key")
    state = scene(bram(), monster("monster-orc", "orc", holdings=(key,)))
    intents = [Intent(kind=IntentKind.TAKE, actor="pc-bram", target="monster-orc", item="item-silver-key")]
    won = find(state, intents, lambda r: result_of(r, "pc-bram").outcome is Outcome.SUCCESS)
    assert won.state.combatant("pc-bram").held("item-silver-key") == 1  # type: ignore[union-attr]
    assert result_of(won, "pc-bram").contest == ("pc-bram", "monster-orc")
    tie = find(state, intents, lambda r: result_of(r, "pc-bram").rolls[0].outcome == "tie")
    result = result_of(tie, "pc-bram")
    assert result.outcome is Outcome.FAILURE and "holder keeps it" in (result.reason or "")
    assert tie.changes == ()
    assert tie.state.combatant("monster-orc").held("item-silver-key") == 1  # type: ignore[union-attr]


def test_take_from_a_helpless_creature_needs_no_roll() -> None:
    key = Holding(item="item-silver-key", name="silver key")
    orc = monster("monster-orc", "orc", holdings=(key,)).model_copy(
        update={"conditions": (Condition.PARALYZED,)}
    )
    intents = [Intent(kind=IntentKind.TAKE, actor="pc-bram", target="monster-orc", item="item-silver-key")]
    result = result_of(resolve_round(seed=1, intents=intents, state=scene(bram(), orc)), "pc-bram")
    assert result.outcome is Outcome.SUCCESS and result.rolls == ()


def test_two_players_grab_the_same_item_an_opposed_check_decides() -> None:
    gem = SceneItem(id="item-red-gem", name="red gem", holder=HALL)
    state = scene(mira(), bram(), items=(gem,))
    intents = [
        Intent(kind=IntentKind.TAKE, actor="pc-mira", item="item-red-gem"),
        Intent(kind=IntentKind.TAKE, actor="pc-bram", item="item-red-gem"),
    ]
    resolution = find(state, intents, lambda r: any(x.outcome is Outcome.SUCCESS for x in r.results))
    mine, his = result_of(resolution, "pc-mira"), result_of(resolution, "pc-bram")
    assert mine.contest == his.contest and set(mine.contest) == {"pc-mira", "pc-bram"}
    assert {mine.outcome, his.outcome} == {Outcome.SUCCESS, Outcome.FAILURE}
    assert len(mine.rolls) == 2 and mine.rolls == his.rolls
    winner = mine if mine.outcome is Outcome.SUCCESS else his
    transfers = [c for c in resolution.changes if c.kind == "item_transferred"]
    assert len(transfers) == 1 and transfers[0].to_holder == winner.actor
    loser = his if winner is mine else mine
    assert "loses" in loser.summary and loser.reason


def test_enough_for_everyone_is_not_a_contest() -> None:
    arrows = SceneItem(id="item-arrow", name="arrow", holder=HALL, quantity=5)
    intents = [
        Intent(kind=IntentKind.TAKE, actor="pc-mira", item="item-arrow", quantity=2),
        Intent(kind=IntentKind.TAKE, actor="pc-bram", item="item-arrow", quantity=3),
    ]
    resolution = resolve_round(seed=1, intents=intents, state=scene(mira(), bram(), items=(arrows,)))
    assert all(r.outcome is Outcome.SUCCESS and r.contest == () for r in resolution.results)
    assert resolution.state.items == ()


def test_two_block_the_same_door() -> None:
    intents = [
        Intent(kind=IntentKind.HOLD, actor="pc-mira", target="door-cellar"),
        Intent(kind=IntentKind.HOLD, actor="pc-bram", target="door-cellar"),
    ]
    resolution = find(
        scene(mira(), bram()), intents, lambda r: any(x.outcome is Outcome.SUCCESS for x in r.results)
    )
    assert {r.outcome for r in resolution.results} == {Outcome.SUCCESS, Outcome.FAILURE}
    assert all(r.contest for r in resolution.results)


# --- move and hold ---------------------------------------------------------------------------------------


def test_move_and_hold() -> None:
    prone = mira().model_copy(update={"conditions": (Condition.PRONE,)})
    intents = [
        Intent(kind=IntentKind.MOVE, actor="pc-mira", destination="loc-yard"),
        Intent(kind=IntentKind.HOLD, actor="pc-bram"),
    ]
    resolution = resolve_round(seed=1, intents=intents, state=scene(prone, bram()))
    assert resolution.state.combatant("pc-mira").location == "loc-yard"  # type: ignore[union-attr]
    moved = next(c for c in resolution.changes if c.kind == "entity_moved")
    assert moved.model_dump(mode="json") == {
        "cause": 0,
        "kind": "entity_moved",
        "entity": "pc-mira",
        "from": HALL,
        "to": "loc-yard",
    }
    assert "condition_removed" in kinds(resolution)
    assert result_of(resolution, "pc-bram").outcome is Outcome.DONE


def test_grappled_creature_cannot_move() -> None:
    held = mira().model_copy(update={"conditions": (Condition.GRAPPLED,)})
    intents = [Intent(kind=IntentKind.MOVE, actor="pc-mira", destination="loc-yard")]
    result = result_of(resolve_round(seed=1, intents=intents, state=scene(held)), "pc-mira")
    assert result.outcome is Outcome.REFUSED and "grappled" in (result.reason or "")


# --- invalid intents -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("intent", "message"),
    [
        (Intent(kind=IntentKind.HOLD, actor="pc-nobody"), "Unknown character 'pc-nobody'"),
        (
            Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="monster-ghost"),
            "There is no 'monster-ghost' here",
        ),
        (Intent(kind=IntentKind.ATTACK, actor="pc-mira"), "Attack whom?"),
        (
            Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="pc-bram", item="axe"),
            "no attack called 'axe'",
        ),
        (Intent(kind=IntentKind.USE_ITEM, actor="pc-bram", item="item-potion-of-healing"), "does not hold"),
        (
            Intent(
                kind=IntentKind.GIVE,
                actor="pc-mira",
                target="pc-bram",
                item="item-potion-of-healing",
                quantity=3,
            ),
            "holds only 2",
        ),
        (Intent(kind=IntentKind.TAKE, actor="pc-mira", item="item-crown"), "There is no 'item-crown' here"),
        (Intent(kind=IntentKind.MOVE, actor="pc-mira", destination="loc-moon"), "no way to 'loc-moon'"),
        (
            Intent(kind=IntentKind.ABILITY, actor="pc-mira", ability_name="fire-bolt", target="pc-bram"),
            "cannot use Fire Bolt",
        ),
        (
            Intent(kind=IntentKind.ABILITY, actor="pc-bram", ability_name="wish"),
            "Unknown spell or feature 'wish'",
        ),
        (Intent(kind=IntentKind.CHECK, actor="pc-mira", skill="juggling"), "Unknown skill 'juggling'"),
        (
            Intent(kind=IntentKind.USE_ITEM, actor="pc-mira", item="item-potion-of-healing", target="door-1"),
            "no 'door-1' here",
        ),
        (Intent(kind=IntentKind.HELP, actor="pc-mira", target="pc-mira"), "cannot help themselves"),
    ],
)
def test_invalid_intents_raise_a_player_message_and_resolve_nothing(intent: Intent, message: str) -> None:
    with pytest.raises(IntentError, match=message):
        resolve_round(seed=1, intents=[intent], state=scene(mira(), bram()))


def test_every_intent_kind_in_one_round() -> None:
    def extra(cid: str) -> Combatant:
        return mira().model_copy(update={"id": cid, "name": cid.split("-")[1].title()})

    gem = SceneItem(id="item-red-gem", name="red gem", holder=HALL)
    state = scene(
        mira(),
        bram(),
        monster("monster-orc", "orc"),
        npc(),
        *(extra(f"pc-{n}") for n in ("ana", "bo", "cy", "di", "ed", "fay")),
        items=(gem,),
    )
    intents = [
        Intent(kind=IntentKind.ATTACK, actor="monster-orc", target="pc-ana"),
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="monster-orc", ability_name="magic-missile"),
        Intent(kind=IntentKind.CHECK, actor="pc-mira", skill="insight", target="npc-wei"),
        Intent(kind=IntentKind.USE_ITEM, actor="pc-ana", item="item-potion-of-healing"),
        Intent(kind=IntentKind.GIVE, actor="pc-bo", target="pc-cy", item="item-potion-of-healing"),
        Intent(kind=IntentKind.TAKE, actor="pc-cy", item="item-red-gem"),
        Intent(kind=IntentKind.MOVE, actor="pc-di", destination="loc-yard"),
        Intent(kind=IntentKind.TALK, actor="npc-wei", target="pc-mira", text="Leave my shop!"),
        Intent(kind=IntentKind.HELP, actor="pc-ed", target="pc-mira"),
        Intent(kind=IntentKind.HOLD, actor="pc-fay"),
    ]
    assert {i.kind for i in intents} == set(IntentKind)
    resolution = resolve_round(seed=2026, intents=intents, state=state)
    assert len(resolution.results) == len(intents)
    assert all(r.outcome is not Outcome.REFUSED for r in resolution.results)
    assert {"item_transferred", "entity_moved", "hp_changed"} <= set(kinds(resolution))
    assert result_of(resolution, "pc-mira").helped_by == "pc-ed"
    assert RoundResolution.model_validate_json(resolution.model_dump_json()) == resolution


def test_one_intent_per_actor() -> None:
    intents = [Intent(kind=IntentKind.HOLD, actor="pc-mira"), Intent(kind=IntentKind.HOLD, actor="pc-mira")]
    with pytest.raises(IntentError, match="already has an action"):
        resolve_round(seed=1, intents=intents, state=scene(mira()))


def test_item_taken_earlier_in_the_round_is_refused_later() -> None:
    potion = Holding(item="item-potion-of-healing", name="Potion of Healing")
    orc = monster("monster-orc", "orc", hp=5, holdings=(potion,))
    intents = [
        Intent(kind=IntentKind.TAKE, actor="pc-bram", target="monster-orc", item="item-potion-of-healing"),
        Intent(kind=IntentKind.USE_ITEM, actor="monster-orc", item="item-potion-of-healing"),
    ]
    resolution = find(
        scene(bram(), orc),
        intents,
        lambda r: r.initiative[0].entity == "pc-bram" and result_of(r, "pc-bram").outcome is Outcome.SUCCESS,
    )
    drink = result_of(resolution, "monster-orc")
    assert drink.outcome is Outcome.REFUSED and "no longer holds" in (drink.reason or "")
    assert kinds(resolution, drink) == []
    assert resolution.state.combatant("monster-orc").hp == 5  # type: ignore[union-attr]


def test_state_rejects_items_held_by_creatures_in_the_scene_list() -> None:
    with pytest.raises(ValueError, match="put carried items in that creature's holdings"):
        RoundState(combatants=(mira(),), items=(SceneItem(id="item-x", holder="pc-mira"),))


# --- targets that fell earlier in the round, and checks made for a creature (issue 9) --------------------


def mira_kills_first(resolution: RoundResolution) -> bool:
    """Mira acts before Bram and her attack lands (Old Wei, at 1 HP, dies of it)."""
    order = [entry.entity for entry in resolution.initiative]
    hit = result_of(resolution, "pc-mira").outcome is Outcome.SUCCESS
    return hit and order.index("pc-mira") < order.index("pc-bram")


def test_talking_to_a_creature_killed_earlier_in_the_round_is_refused() -> None:
    state = scene(mira(), bram(), npc(hp=1))
    intents = [
        Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="npc-wei"),
        Intent(kind=IntentKind.TALK, actor="pc-bram", target="npc-wei", text="ask Old Wei about the ship"),
    ]
    resolution = find(state, intents, mira_kills_first)
    talk = result_of(resolution, "pc-bram")
    assert talk.outcome is Outcome.REFUSED and talk.reason == "Old Wei is already dead"
    assert talk.rolls == () and kinds(resolution, talk) == []


def test_helping_an_ally_killed_earlier_in_the_round_is_refused() -> None:
    state = scene(mira(), bram(), npc(hp=1))
    intents = [
        Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="npc-wei"),
        Intent(kind=IntentKind.HELP, actor="pc-bram", target="npc-wei"),
    ]
    resolution = find(state, intents, mira_kills_first)
    help_ = result_of(resolution, "pc-bram")
    assert help_.outcome is Outcome.REFUSED and help_.reason == "Old Wei is already dead"


def test_medicine_on_an_ally_meets_a_dc_and_the_ally_never_rolls_against_it() -> None:
    state = scene(mira(), bram())
    intents = [Intent(kind=IntentKind.CHECK, actor="pc-bram", skill="medicine", target="pc-mira")]
    for seed in range(20):
        result = result_of(resolve_round(seed=seed, intents=intents, state=state), "pc-bram")
        assert [r.roller for r in result.rolls] == ["pc-bram"]
        assert result.rolls[0].target == 10
        assert "vs DC 10" in result.summary and "Mira's" not in result.summary


def test_a_check_on_a_fellow_pc_meets_a_dc_and_the_ally_never_rolls_against_it() -> None:
    state = scene(mira(), bram())
    intents = [Intent(kind=IntentKind.CHECK, actor="pc-bram", skill="athletics", target="pc-mira")]
    result = result_of(resolve_round(seed=4, intents=intents, state=state), "pc-bram")
    assert [r.roller for r in result.rolls] == ["pc-bram"]
    assert result.rolls[0].target == 15 and "vs DC 15" in result.summary
