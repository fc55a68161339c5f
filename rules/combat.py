"""Attacks, damage, healing and dropping to 0 hit points (SRD 5.1, "Combat" and "Damage and Healing").

Functions here are pure: they take a :class:`~rules.state.Combatant` and return the new combatant plus the
changes to report. Rules applied:

* attack roll: natural 20 always hits and doubles the damage dice; natural 1 always misses;
* advantage from conditions (attacker blinded/poisoned/frightened/prone/restrained -> disadvantage; attacker
  invisible -> advantage; target blinded/paralyzed/petrified/restrained/stunned/unconscious -> advantage,
  target invisible -> disadvantage, target prone -> advantage in melee, disadvantage at range); any
  advantage and any disadvantage cancel;
* a melee hit on a paralyzed or unconscious target is a critical hit (the round has no distances: melee means
  within 5 feet);
* damage: immunity -> 0, resistance -> half (rounded down), vulnerability -> double; temp HP absorb first;
* at 0 HP a PC falls unconscious and starts death saves; damage left over >= max HP kills outright (massive
  damage); an NPC or monster dies, unless a *melee* attacker chose to spare it (it falls unconscious);
* damage to a PC already at 0 HP is a death save failure (two on a critical hit), or death if massive;
* death saves: 10+ success, nat 20 -> regain 1 HP, nat 1 -> two failures; 3 successes stabilise, 3 failures
  kill. Healing a creature at 0 HP wakes it and resets the tallies.
"""

from __future__ import annotations

import random

from rules.checks import RollRecord, d20_expression
from rules.creatures import Attack, Condition, DamageDice, DamageType
from rules.dice import Advantage, roll_d20, roll_pool
from rules.state import (
    Change,
    Combatant,
    ConditionAdded,
    ConditionRemoved,
    DeathSaves,
    DeathSaveTally,
    Died,
    FellUnconscious,
    HpChanged,
    Stabilized,
)

_ATTACKER_DISADVANTAGE = (
    Condition.BLINDED,
    Condition.POISONED,
    Condition.FRIGHTENED,
    Condition.PRONE,
    Condition.RESTRAINED,
)
_TARGET_GRANTS_ADVANTAGE = (
    Condition.BLINDED,
    Condition.PARALYZED,
    Condition.PETRIFIED,
    Condition.RESTRAINED,
    Condition.STUNNED,
    Condition.UNCONSCIOUS,
)
_AUTO_CRIT_IN_MELEE = (Condition.PARALYZED, Condition.UNCONSCIOUS)


def attack_advantage(
    attacker: tuple[Condition, ...], target: tuple[Condition, ...], *, ranged: bool, helped: bool = False
) -> Advantage:
    """The advantage state of an attack roll from both creatures' conditions and the Help action."""
    advantage = helped or Condition.INVISIBLE in attacker
    disadvantage = any(c in attacker for c in _ATTACKER_DISADVANTAGE)
    if any(c in target for c in _TARGET_GRANTS_ADVANTAGE):
        advantage = True
    if Condition.INVISIBLE in target:
        disadvantage = True
    if Condition.PRONE in target:
        if ranged:
            disadvantage = True
        else:
            advantage = True
    return Advantage.combine(advantage, disadvantage)


def roll_attack(
    *,
    roller: str,
    to_hit: int,
    ac: int,
    rng: random.Random,
    advantage: Advantage,
    auto_crit: bool = False,
    purpose: str = "attack",
) -> RollRecord:
    """Roll an attack against ``ac``: outcome ``hit``, ``miss``, ``critical_hit`` or ``critical_miss``.

    ``auto_crit`` turns any hit into a critical hit (a melee hit on a paralyzed or unconscious target).
    """
    die = roll_d20(rng, advantage)
    total = die.natural + to_hit
    if die.natural == 1:
        outcome = "critical_miss"
    elif die.natural == 20:
        outcome = "critical_hit"
    elif total >= ac:
        outcome = "critical_hit" if auto_crit else "hit"
    else:
        outcome = "miss"
    return RollRecord(
        roller=roller,
        purpose=purpose,
        expression=d20_expression(to_hit, advantage),
        natural=die.faces,
        modifier=to_hit,
        total=total,
        target=ac,
        advantage=advantage,
        outcome=outcome,
    )


def is_auto_crit(target: Combatant, *, ranged: bool) -> bool:
    """True when a melee hit on ``target`` is automatically critical (paralyzed or unconscious)."""
    return not ranged and any(target.has(c) for c in _AUTO_CRIT_IN_MELEE)


def roll_damage(
    *, roller: str, dice: DamageDice, critical: bool, rng: random.Random, purpose: str = "damage"
) -> RollRecord:
    """Roll damage; a critical hit rolls the dice twice (the flat bonus once). Never below 0."""
    count = dice.count * 2 if critical else dice.count
    faces = roll_pool(count, dice.sides, rng) if count else ()
    total = max(0, sum(faces) + dice.bonus)
    shown = DamageDice(count=count, sides=dice.sides, bonus=dice.bonus)
    return RollRecord(
        roller=roller,
        purpose=purpose,
        expression=str(shown),
        natural=faces,
        modifier=dice.bonus,
        total=total,
        outcome="rolled",
    )


def adjust_damage(amount: int, damage_type: DamageType, target: Combatant) -> tuple[int, str]:
    """Damage after immunity (0), resistance (half, rounded down) and vulnerability (double), with a note."""
    stats = target.stats
    if damage_type in stats.immunities:
        return 0, "immune"
    if damage_type in stats.resistances:
        return amount // 2, "resisted"
    if damage_type in stats.vulnerabilities:
        return amount * 2, "vulnerable"
    return amount, ""


def _with_conditions(
    target: Combatant, add: tuple[Condition, ...] = (), remove: tuple[Condition, ...] = ()
) -> Combatant:
    conditions = (set(target.conditions) | set(add)) - set(remove)
    return target.model_copy(update={"conditions": tuple(sorted(conditions))})


def apply_damage(
    target: Combatant, amount: int, *, cause: int, critical: bool = False, spare: bool = False
) -> tuple[Combatant, list[Change]]:
    """Apply ``amount`` (already adjusted for resistances) to ``target``; return it and the changes."""
    changes: list[Change] = []
    if amount <= 0 or target.dead:
        return target, changes
    if target.hp == 0:
        return _damage_at_zero(target, amount, cause=cause, critical=critical)
    temp_absorbed = min(target.temp_hp, amount)
    remaining = amount - temp_absorbed
    new_hp = max(0, target.hp - remaining)
    overflow = remaining - target.hp
    changes.append(
        HpChanged(
            cause=cause,
            entity=target.id,
            before=target.hp,
            after=new_hp,
            temp_before=target.temp_hp,
            temp_after=target.temp_hp - temp_absorbed,
        )
    )
    target = target.model_copy(update={"hp": new_hp, "temp_hp": target.temp_hp - temp_absorbed})
    if new_hp > 0:
        return target, changes
    if target.is_pc and overflow >= target.stats.max_hp:
        changes.append(Died(cause=cause, entity=target.id, reason="massive_damage"))
        return target.model_copy(update={"dead": True}), changes
    if target.is_pc or spare:
        if not target.has(Condition.UNCONSCIOUS):
            changes.append(ConditionAdded(cause=cause, entity=target.id, condition=Condition.UNCONSCIOUS))
        changes.append(FellUnconscious(cause=cause, entity=target.id))
        target = _with_conditions(target, add=(Condition.UNCONSCIOUS,))
        if not target.is_pc:
            # A spared creature is knocked out and stable (SRD: "falls unconscious and is stable").
            target = target.model_copy(update={"stable": True})
        return target, changes
    changes.append(Died(cause=cause, entity=target.id, reason="killed"))
    return target.model_copy(update={"dead": True}), changes


def _damage_at_zero(
    target: Combatant, amount: int, *, cause: int, critical: bool
) -> tuple[Combatant, list[Change]]:
    changes: list[Change] = []
    if not target.is_pc:
        changes.append(Died(cause=cause, entity=target.id, reason="killed"))
        return target.model_copy(update={"dead": True}), changes
    if amount >= target.stats.max_hp:
        changes.append(Died(cause=cause, entity=target.id, reason="massive_damage"))
        return target.model_copy(update={"dead": True}), changes
    failures = min(3, target.death_saves.failures + (2 if critical else 1))
    saves = DeathSaves(successes=target.death_saves.successes, failures=failures)
    changes.append(
        DeathSaveTally(cause=cause, entity=target.id, successes=saves.successes, failures=failures)
    )
    target = target.model_copy(update={"death_saves": saves, "stable": False})
    if failures >= 3:
        changes.append(Died(cause=cause, entity=target.id, reason="death_saves"))
        target = target.model_copy(update={"dead": True})
    return target, changes


def heal(target: Combatant, amount: int, *, cause: int) -> tuple[Combatant, list[Change]]:
    """Restore ``amount`` HP (capped at max HP). A creature at 0 HP wakes up and its death saves reset.

    The dead cannot be healed (the caller refuses first); healing 0 changes nothing.
    """
    changes: list[Change] = []
    if target.dead or amount <= 0:
        return target, changes
    new_hp = min(target.stats.max_hp, target.hp + amount)
    if new_hp != target.hp:
        changes.append(
            HpChanged(
                cause=cause,
                entity=target.id,
                before=target.hp,
                after=new_hp,
                temp_before=target.temp_hp,
                temp_after=target.temp_hp,
            )
        )
    if target.hp == 0:
        if target.has(Condition.UNCONSCIOUS):
            changes.append(ConditionRemoved(cause=cause, entity=target.id, condition=Condition.UNCONSCIOUS))
        if target.death_saves != DeathSaves():
            changes.append(DeathSaveTally(cause=cause, entity=target.id, successes=0, failures=0))
        target = _with_conditions(target, remove=(Condition.UNCONSCIOUS,))
        target = target.model_copy(update={"death_saves": DeathSaves(), "stable": False})
    return target.model_copy(update={"hp": new_hp}), changes


def stabilize(target: Combatant, *, cause: int) -> tuple[Combatant, list[Change]]:
    """Make a dying creature stable: it stays unconscious at 0 HP but stops rolling death saves."""
    if target.dead or target.hp > 0 or target.stable:
        return target, []
    changes: list[Change] = [
        Stabilized(cause=cause, entity=target.id),
        DeathSaveTally(cause=cause, entity=target.id, successes=0, failures=0),
    ]
    return target.model_copy(update={"stable": True, "death_saves": DeathSaves()}), changes


def roll_death_save(
    target: Combatant, *, rng: random.Random, cause: int
) -> tuple[Combatant, RollRecord, list[Change]]:
    """Roll a dying PC's death save and apply it (see the module docstring for the table)."""
    die = roll_d20(rng)
    natural = die.natural
    saves = target.death_saves
    changes: list[Change] = []
    if natural == 20:
        outcome = "critical_success"
        target, changes = heal(target, 1, cause=cause)
    elif natural >= 10:
        outcome = "success"
        successes = saves.successes + 1
        if successes >= 3:
            target, changes = stabilize(target, cause=cause)
            outcome = "stabilized"
        else:
            target = target.model_copy(
                update={"death_saves": DeathSaves(successes=successes, failures=saves.failures)}
            )
            changes.append(
                DeathSaveTally(cause=cause, entity=target.id, successes=successes, failures=saves.failures)
            )
    else:
        outcome = "critical_failure" if natural == 1 else "failure"
        failures = min(3, saves.failures + (2 if natural == 1 else 1))
        target = target.model_copy(
            update={"death_saves": DeathSaves(successes=saves.successes, failures=failures)}
        )
        changes.append(
            DeathSaveTally(cause=cause, entity=target.id, successes=saves.successes, failures=failures)
        )
        if failures >= 3:
            changes.append(Died(cause=cause, entity=target.id, reason="death_saves"))
            target = target.model_copy(update={"dead": True})
            outcome = "died"
    record = RollRecord(
        roller=target.id,
        purpose="death_save",
        expression="1d20",
        natural=die.faces,
        modifier=0,
        total=natural,
        target=10,
        outcome=outcome,
    )
    return target, record, changes


def unarmed_strike(strength_modifier: int, proficiency: int) -> Attack:
    """The SRD unarmed strike: proficiency + Str to hit, 1 + Str bludgeoning damage."""
    return Attack(
        name="Unarmed Strike",
        to_hit=proficiency + strength_modifier,
        damage=str(max(0, 1 + strength_modifier)),
        damage_type=DamageType.BLUDGEONING,
    )
