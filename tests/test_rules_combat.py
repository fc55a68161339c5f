"""Truth tables: attacks and crits, conditions, damage, death saves, opposed checks and initiative ties.

A scripted ``random.Random`` (a real Random whose ``randrange`` returns chosen faces) pins the dice so each
row of a table is exercised exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from rules import combat
from rules.checks import RollRecord, check_advantage, roll_check, roll_save, settle_opposed
from rules.creatures import Ability, AbilityScores, Condition, DamageDice, DamageType, Skill, StatBlock
from rules.dice import Advantage
from rules.initiative import roll_initiative
from rules.state import Combatant, DeathSaves


class Faces(random.Random):
    """A Random that yields scripted die faces (1-based) for ``randrange(n)`` calls."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self.faces.pop(0) - 1


def creature(
    cid: str = "pc-mira",
    *,
    kind: str = "pc",
    hp: int = 20,
    max_hp: int = 20,
    conditions: tuple[Condition, ...] = (),
    dex: int = 10,
    resist: tuple[DamageType, ...] = (),
    vuln: tuple[DamageType, ...] = (),
    immune: tuple[DamageType, ...] = (),
    saves: DeathSaves | None = None,
) -> Combatant:
    stats = StatBlock(
        name=cid,
        kind=kind,  # type: ignore[arg-type]
        level=1 if kind == "pc" else None,
        cr=None if kind == "pc" else 1,
        abilities=AbilityScores(dexterity=dex),
        max_hp=max_hp,
        resistances=resist,
        vulnerabilities=vuln,
        immunities=immune,
    )
    return Combatant(
        id=cid,
        name=cid,
        stats=stats,
        hp=hp,
        conditions=conditions,
        location="loc-hall",
        death_saves=saves or DeathSaves(),
    )


@pytest.mark.parametrize(
    ("natural", "to_hit", "ac", "outcome"),
    [
        (20, -5, 30, "critical_hit"),  # a natural 20 always hits
        (1, 20, 5, "critical_miss"),  # a natural 1 always misses
        (10, 5, 15, "hit"),  # meets AC
        (9, 5, 15, "miss"),
    ],
)
def test_attack_roll_table(natural: int, to_hit: int, ac: int, outcome: str) -> None:
    record = combat.roll_attack(
        roller="a", to_hit=to_hit, ac=ac, rng=Faces([natural]), advantage=Advantage.NONE
    )
    assert record.outcome == outcome
    assert record.total == natural + to_hit


def test_critical_hit_doubles_dice_not_the_bonus() -> None:
    record = combat.roll_damage(roller="a", dice=DamageDice.parse("1d8+3"), critical=True, rng=Faces([8, 8]))
    assert record.natural == (8, 8) and record.total == 19 and record.expression == "2d8+3"


@pytest.mark.parametrize(
    ("attacker", "target", "ranged", "helped", "expected"),
    [
        ((), (), False, False, Advantage.NONE),
        ((), (), False, True, Advantage.ADVANTAGE),  # the Help action
        ((Condition.POISONED,), (), False, False, Advantage.DISADVANTAGE),
        ((Condition.POISONED,), (), False, True, Advantage.NONE),  # one of each cancels
        ((Condition.POISONED, Condition.BLINDED), (Condition.RESTRAINED,), False, False, Advantage.NONE),
        ((), (Condition.PRONE,), False, False, Advantage.ADVANTAGE),  # prone: melee gets advantage
        ((), (Condition.PRONE,), True, False, Advantage.DISADVANTAGE),  # ... ranged gets disadvantage
        ((Condition.INVISIBLE,), (), True, False, Advantage.ADVANTAGE),
        ((), (Condition.INVISIBLE,), False, False, Advantage.DISADVANTAGE),
        ((), (Condition.PARALYZED,), False, False, Advantage.ADVANTAGE),
        ((), (Condition.UNCONSCIOUS,), True, False, Advantage.ADVANTAGE),
        ((Condition.FRIGHTENED,), (Condition.STUNNED,), False, False, Advantage.NONE),
        ((Condition.PRONE,), (), False, False, Advantage.DISADVANTAGE),
    ],
)
def test_attack_advantage_table(
    attacker: tuple[Condition, ...],
    target: tuple[Condition, ...],
    ranged: bool,
    helped: bool,
    expected: Advantage,
) -> None:
    assert combat.attack_advantage(attacker, target, ranged=ranged, helped=helped) is expected


def test_melee_hit_on_paralyzed_or_unconscious_is_critical() -> None:
    paralyzed = creature(conditions=(Condition.PARALYZED,))
    assert combat.is_auto_crit(paralyzed, ranged=False)
    assert not combat.is_auto_crit(paralyzed, ranged=True)
    record = combat.roll_attack(
        roller="a", to_hit=5, ac=10, rng=Faces([10, 3]), advantage=Advantage.ADVANTAGE, auto_crit=True
    )
    assert record.outcome == "critical_hit" and record.natural == (10, 3)


@pytest.mark.parametrize(
    ("conditions", "skill", "helped", "expected"),
    [
        ((), Skill.STEALTH, False, Advantage.NONE),
        ((Condition.POISONED,), Skill.STEALTH, False, Advantage.DISADVANTAGE),
        ((Condition.FRIGHTENED,), Skill.ATHLETICS, True, Advantage.NONE),
        ((Condition.BLINDED,), Skill.PERCEPTION, False, Advantage.DISADVANTAGE),
        ((Condition.BLINDED,), Skill.ATHLETICS, False, Advantage.NONE),
        ((), Skill.ARCANA, True, Advantage.ADVANTAGE),
    ],
)
def test_check_advantage_table(
    conditions: tuple[Condition, ...], skill: Skill, helped: bool, expected: Advantage
) -> None:
    assert check_advantage(conditions, skill=skill, helped=helped) is expected


def test_saves_auto_fail_and_restrained_dex() -> None:
    stats = StatBlock(name="x")
    auto = roll_save(
        roller="x", stats=stats, conditions=(Condition.PARALYZED,), ability=Ability.DEX, dc=5, rng=Faces([])
    )
    assert auto.outcome == "failure" and auto.natural == ()
    wis = roll_save(
        roller="x", stats=stats, conditions=(Condition.PARALYZED,), ability=Ability.WIS, dc=5, rng=Faces([5])
    )
    assert wis.outcome == "success"
    restrained = roll_save(
        roller="x",
        stats=stats,
        conditions=(Condition.RESTRAINED,),
        ability=Ability.DEX,
        dc=10,
        rng=Faces([18, 4]),
    )
    assert restrained.advantage is Advantage.DISADVANTAGE and restrained.outcome == "failure"


def test_checks_have_no_natural_20_rule() -> None:
    record = roll_check(roller="x", stats=StatBlock(name="x"), rng=Faces([20]), skill=Skill.ARCANA, dc=25)
    assert record.outcome == "failure"


def _record(total: int) -> RollRecord:
    return RollRecord(
        roller="x", purpose="check", expression="1d20", natural=(total,), modifier=0, total=total
    )


@pytest.mark.parametrize(
    ("first", "second", "status_quo", "winner"),
    [
        (15, 10, None, "first"),
        (10, 15, "first", "second"),
        (12, 12, "second", "second"),  # tie: the holder keeps the item
        (12, 12, "first", "first"),
        (12, 12, None, None),  # tie with nobody holding: nothing changes
    ],
)
def test_opposed_check_table(first: int, second: int, status_quo: str | None, winner: str | None) -> None:
    assert settle_opposed(_record(first), _record(second), status_quo=status_quo) == winner  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("amount", "resist", "vuln", "immune", "expected"),
    [
        (9, (), (), (), 9),
        (9, (DamageType.FIRE,), (), (), 4),
        (9, (), (DamageType.FIRE,), (), 18),
        (9, (), (), (DamageType.FIRE,), 0),
        (9, (DamageType.COLD,), (), (), 9),
    ],
)
def test_damage_adjustment(
    amount: int,
    resist: tuple[DamageType, ...],
    vuln: tuple[DamageType, ...],
    immune: tuple[DamageType, ...],
    expected: int,
) -> None:
    target = creature(resist=resist, vuln=vuln, immune=immune)
    assert combat.adjust_damage(amount, DamageType.FIRE, target)[0] == expected


def test_pc_at_zero_falls_unconscious_monster_dies_spared_monster_sleeps() -> None:
    pc, changes = combat.apply_damage(creature(hp=5), 8, cause=0)
    assert pc.hp == 0 and pc.has(Condition.UNCONSCIOUS) and not pc.dead and pc.dying
    assert [c.kind for c in changes] == ["hp_changed", "condition_added", "fell_unconscious"]
    orc, changes = combat.apply_damage(creature("monster-orc", kind="monster", hp=5), 8, cause=0)
    assert orc.dead and changes[-1].kind == "died"
    spared, changes = combat.apply_damage(creature("npc-wei", kind="npc", hp=5), 8, cause=0, spare=True)
    assert not spared.dead and spared.has(Condition.UNCONSCIOUS) and spared.stable


def test_massive_damage_kills_a_pc_outright() -> None:
    pc, changes = combat.apply_damage(creature(hp=5, max_hp=20), 25, cause=0)
    assert pc.dead and changes[-1].kind == "died" and changes[-1].reason == "massive_damage"


def test_temp_hp_absorb_first() -> None:
    pc = creature(hp=10).model_copy(update={"temp_hp": 4})
    after, _ = combat.apply_damage(pc, 6, cause=0)
    assert (after.hp, after.temp_hp) == (8, 0)


def test_damage_at_zero_is_a_failed_death_save_crit_is_two() -> None:
    dying = creature(hp=0, conditions=(Condition.UNCONSCIOUS,))
    after, _ = combat.apply_damage(dying, 3, cause=0)
    assert after.death_saves.failures == 1
    after, _ = combat.apply_damage(dying, 3, cause=0, critical=True)
    assert after.death_saves.failures == 2
    worse = creature(hp=0, conditions=(Condition.UNCONSCIOUS,), saves=DeathSaves(failures=2))
    after, changes = combat.apply_damage(worse, 3, cause=0)
    assert after.dead and changes[-1].kind == "died"


@pytest.mark.parametrize(
    ("start", "natural", "outcome", "successes", "failures", "hp", "dead", "stable"),
    [
        (DeathSaves(), 10, "success", 1, 0, 0, False, False),
        (DeathSaves(), 9, "failure", 0, 1, 0, False, False),
        (DeathSaves(), 1, "critical_failure", 0, 2, 0, False, False),
        (DeathSaves(successes=1, failures=1), 20, "critical_success", 0, 0, 1, False, False),
        (DeathSaves(successes=2), 15, "stabilized", 0, 0, 0, False, True),
        (DeathSaves(failures=2), 2, "died", 0, 3, 0, True, False),
        (DeathSaves(failures=1), 1, "died", 0, 3, 0, True, False),
    ],
)
def test_death_save_table(
    start: DeathSaves,
    natural: int,
    outcome: str,
    successes: int,
    failures: int,
    hp: int,
    dead: bool,
    stable: bool,
) -> None:
    dying = creature(hp=0, conditions=(Condition.UNCONSCIOUS,), saves=start)
    after, record, _ = combat.roll_death_save(dying, rng=Faces([natural]), cause=0)
    assert record.outcome == outcome
    assert (after.death_saves.successes, after.death_saves.failures) == (successes, failures)
    assert (after.hp, after.dead, after.stable) == (hp, dead, stable)
    assert after.has(Condition.UNCONSCIOUS) is (hp == 0)


def test_healing_wakes_a_dying_pc_and_resets_saves() -> None:
    dying = creature(hp=0, conditions=(Condition.UNCONSCIOUS,), saves=DeathSaves(successes=1, failures=2))
    after, changes = combat.heal(dying, 7, cause=0)
    assert after.hp == 7 and not after.has(Condition.UNCONSCIOUS) and after.death_saves == DeathSaves()
    assert {c.kind for c in changes} == {"hp_changed", "condition_removed", "death_saves"}
    capped, _ = combat.heal(creature(hp=18), 10, cause=0)
    assert capped.hp == 20


def test_initiative_ties_break_on_dex_then_roll_off() -> None:
    quick = creature("a-quick", dex=14)  # +2
    slow = creature("b-slow", dex=10)  # +0
    other = creature("c-other", dex=10)  # +0
    # d20 faces in id order: a=10 (12), b=12 (12), c=12 (12); roll-offs (1..1000): a=1, b=5, c=900
    order = roll_initiative([slow, other, quick], Faces([10, 12, 12, 1, 5, 900]))
    assert [e.entity for e in order] == ["a-quick", "c-other", "b-slow"]
    assert [e.total for e in order] == [12, 12, 12]


def test_initiative_is_stable_whatever_the_listing_order() -> None:
    crowd = [creature(f"c-{i}", dex=10 + (i % 3) * 2) for i in range(8)]
    first = roll_initiative(crowd, random.Random(5))
    second = roll_initiative(list(reversed(crowd)), random.Random(5))
    assert first == second
    dead = crowd[0].model_copy(update={"dead": True})
    assert "c-0" not in {e.entity for e in roll_initiative([dead, *crowd[1:]], random.Random(5))}
