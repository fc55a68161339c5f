"""Weapon attacks and spells: the attack roll or saving throw, the damage and what it does to the target.

``resolve_attack`` and ``resolve_ability`` are the round's handlers for attack and ability intents;
:func:`find_attack` (which attack "sword" means) is shared with the validation in :mod:`rules.round`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules import combat
from rules.checks import RollRecord, roll_save
from rules.creatures import Ability, Attack, DamageDice, DamageType, slugify
from rules.errors import IntentError
from rules.intents import Intent
from rules.resolution import ActionResult, Outcome, hit_points
from rules.round_book import RoundBook
from rules.srd import SPELLS, Spell
from rules.state import Change, Combatant, ConditionAdded


def find_attack(actor: Combatant, wanted: str | None) -> Attack:
    attacks = actor.stats.attacks
    if wanted:
        key = slugify(wanted.removeprefix("item-"))
        for attack in attacks:
            if attack.slug == key:
                return attack
        for attack in attacks:  # "sword" finds "Longsword"
            if key and key in attack.slug:
                return attack
        if key in ("unarmed", "unarmed-strike", "fist", "punch"):
            return combat.unarmed_strike(actor.stats.modifier(Ability.STR), actor.stats.proficiency_bonus)
        raise IntentError(f"{actor.name} has no attack called '{wanted}'")
    if attacks:
        return attacks[0]
    return combat.unarmed_strike(actor.stats.modifier(Ability.STR), actor.stats.proficiency_bonus)


def damage_text(amount: int, damage_type: str, note: str) -> str:
    extra = f" ({note})" if note else ""
    return f"{amount} {damage_type} damage{extra}"


def fate_text(rnd: RoundBook, target_id: str, changes: Sequence[Change]) -> str:
    parts: list[str] = []
    for change in changes:
        if change.kind == "died":
            parts.append(f"{rnd.name(target_id)} dies")
        elif change.kind == "fell_unconscious":
            parts.append(f"{rnd.name(target_id)} falls unconscious")
        elif change.kind == "death_saves":
            parts.append(f"{rnd.name(target_id)} suffers a death save failure ({change.failures}/3)")
    return ("; " + "; ".join(parts)) if parts else ""


def hit_with_damage(
    rnd: RoundBook,
    *,
    actor: Combatant,
    target: Combatant,
    dice: DamageDice,
    damage_type: str,
    critical: bool,
    spare: bool,
    cause: int,
    purpose: str = "damage",
) -> tuple[RollRecord, list[Change], str]:
    damage = combat.roll_damage(roller=actor.id, dice=dice, critical=critical, rng=rnd.rng, purpose=purpose)
    amount, note = combat.adjust_damage(damage.total, DamageType(damage_type), target)
    after, changes = combat.apply_damage(target, amount, cause=cause, critical=critical, spare=spare)
    rnd.put(after)
    return damage, changes, damage_text(amount, damage_type, note) + fate_text(rnd, target.id, changes)


def resolve_attack(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.target is not None
    attack = find_attack(actor, intent.item or intent.ability_name)
    target, reason = rnd.reachable(actor, intent.target, ranged=attack.is_ranged)
    if target is None:
        rnd.add(rnd.refuse(intent, reason or "no target"))
        return
    helper = rnd.helped(actor.id)
    advantage = combat.attack_advantage(
        actor.conditions, target.conditions, ranged=attack.is_ranged, helped=helper is not None
    )
    cause = rnd.index()
    record = combat.roll_attack(
        roller=actor.id,
        to_hit=attack.to_hit,
        ac=target.stats.ac,
        rng=rnd.rng,
        advantage=advantage,
        auto_crit=combat.is_auto_crit(target, ranged=attack.is_ranged),
    )
    rolls = [record]
    changes: list[Change] = []
    if record.outcome in ("hit", "critical_hit"):
        critical = record.outcome == "critical_hit"
        damage, changes, text = hit_with_damage(
            rnd,
            actor=actor,
            target=target,
            dice=attack.dice,
            damage_type=attack.damage_type.value,
            critical=critical,
            spare=intent.spare and not attack.is_ranged,
            cause=cause,
        )
        rolls.append(damage)
        verb = "critically hits" if critical else "hits"
        summary = f"{actor.name} {verb} {target.name} with {attack.name} for {text}."
        outcome = Outcome.SUCCESS
    else:
        how = "misses (natural 1)" if record.outcome == "critical_miss" else "misses"
        summary = f"{actor.name} {how} {target.name} with {attack.name}."
        outcome = Outcome.FAILURE
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=outcome,
            rolls=tuple(rolls),
            summary=summary,
            helped_by=helper,
        ),
        changes,
    )


def _cantrip_dice(spell: Spell, actor: Combatant) -> DamageDice:
    dice = DamageDice.parse(spell.dice)
    if not spell.cantrip:
        return dice
    level = actor.stats.level or max(1, int(actor.stats.cr or 1))
    steps = 1 + sum(level >= n for n in (5, 11, 17))
    return DamageDice(count=dice.count * steps, sides=dice.sides, bonus=dice.bonus)


def resolve_ability(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.ability_name is not None
    spell = SPELLS[slugify(intent.ability_name)]
    target_id = intent.target or actor.id
    target, reason = rnd.reachable(actor, target_id, ranged=spell.ranged)
    if target is None:
        rnd.add(rnd.refuse(intent, reason or "no target"))
        return
    cause = rnd.index()
    stats = actor.stats
    helper = rnd.helped(actor.id)
    rolls: list[RollRecord] = []
    changes: list[Change] = []
    if spell.form == "attack":
        advantage = combat.attack_advantage(
            actor.conditions, target.conditions, ranged=spell.ranged, helped=helper is not None
        )
        record = combat.roll_attack(
            roller=actor.id,
            to_hit=stats.spell_attack_bonus,
            ac=target.stats.ac,
            rng=rnd.rng,
            advantage=advantage,
            auto_crit=combat.is_auto_crit(target, ranged=spell.ranged),
            purpose=f"spell_attack:{spell.id}",
        )
        rolls.append(record)
        if record.outcome in ("hit", "critical_hit"):
            critical = record.outcome == "critical_hit"
            assert spell.damage_type is not None
            damage, changes, text = hit_with_damage(
                rnd,
                actor=actor,
                target=target,
                dice=_cantrip_dice(spell, actor),
                damage_type=spell.damage_type.value,
                critical=critical,
                spare=intent.spare and not spell.ranged,
                cause=cause,
            )
            rolls.append(damage)
            how = "critically hits" if critical else "hits"
            summary = f"{actor.name}'s {spell.name} {how} {target.name} for {text}."
            outcome = Outcome.SUCCESS
        else:
            summary = f"{actor.name}'s {spell.name} misses {target.name}."
            outcome = Outcome.FAILURE
    elif spell.form == "save":
        assert spell.save is not None
        save = roll_save(
            roller=target.id,
            stats=target.stats,
            conditions=target.conditions,
            ability=spell.save,
            dc=stats.spell_save_dc,
            rng=rnd.rng,
        )
        rolls.append(save)
        failed = save.outcome == "failure"
        parts: list[str] = []
        if spell.damage_type is not None and (failed or spell.half_on_save):
            full = _cantrip_dice(spell, actor)
            damage = combat.roll_damage(roller=actor.id, dice=full, critical=False, rng=rnd.rng)
            amount = damage.total if failed else damage.total // 2
            amount, note = combat.adjust_damage(amount, spell.damage_type, target)
            after, changes = combat.apply_damage(target, amount, cause=cause, spare=False)
            rnd.put(after)
            rolls.append(damage)
            parts.append(
                damage_text(amount, spell.damage_type.value, note) + fate_text(rnd, target.id, changes)
            )
        if failed and spell.condition is not None:
            if spell.condition in target.stats.condition_immunities:
                parts.append(f"{target.name} is immune to being {spell.condition.value}")
            elif not target.has(spell.condition):
                current = rnd.creatures[target.id]
                conditions = tuple(sorted({*current.conditions, spell.condition}))
                rnd.put(current.model_copy(update={"conditions": conditions}))
                changes.append(ConditionAdded(cause=cause, entity=target.id, condition=spell.condition))
                parts.append(f"{target.name} is {spell.condition.value}")
        verdict = "fails" if failed else "makes"
        detail = (": " + "; ".join(parts)) if parts else ""
        summary = f"{actor.name} casts {spell.name}; {target.name} {verdict} the save{detail}."
        outcome = Outcome.SUCCESS if changes else Outcome.FAILURE  # no effect (saved, immune) fails
    elif spell.form == "auto":
        assert spell.damage_type is not None
        damage, changes, text = hit_with_damage(
            rnd,
            actor=actor,
            target=target,
            dice=DamageDice.parse(spell.dice),
            damage_type=spell.damage_type.value,
            critical=False,
            spare=False,
            cause=cause,
        )
        rolls.append(damage)
        summary = f"{actor.name}'s {spell.name} strikes {target.name} for {text}."
        outcome = Outcome.SUCCESS
    elif spell.form == "heal":
        dice = DamageDice.parse(spell.dice)
        bonus = dice.bonus
        if spell.add_modifier:
            bonus += stats.modifier(stats.spell_ability)
        if spell.add_level:
            bonus += stats.level or 1
        dice = DamageDice(count=dice.count, sides=dice.sides, bonus=bonus)
        record = combat.roll_damage(
            roller=actor.id, dice=dice, critical=False, rng=rnd.rng, purpose="healing"
        )
        after, changes = combat.heal(target, record.total, cause=cause)
        rnd.put(after)
        rolls.append(record)
        woke = " and wakes up" if target.hp == 0 and after.hp > 0 else ""
        restored = hit_points(after.hp - target.hp)
        summary = (
            f"{actor.name}'s {spell.name} finds {target.name} already at full hit points."
            if after.hp == target.hp
            else f"{actor.name}'s {spell.name} restores {restored} to {target.name}{woke}."
        )
        outcome = Outcome.SUCCESS
    else:  # stabilize
        if not target.dying:
            rnd.add(rnd.refuse(intent, f"{target.name} is not dying"))
            return
        after, changes = combat.stabilize(target, cause=cause)
        rnd.put(after)
        summary = f"{actor.name} casts {spell.name}: {target.name} is stable."
        outcome = Outcome.SUCCESS
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=outcome,
            rolls=tuple(rolls),
            summary=summary,
            helped_by=helper,
        ),
        changes,
    )
