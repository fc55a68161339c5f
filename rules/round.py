"""Resolve one round: intents in, frozen results and state changes out.

``resolve_round(seed=, intents=, state=)`` is a pure function. One ``random.Random(seed)`` is consumed in a
fixed order (initiative for every living creature in id order, then each turn in initiative order), so the
same inputs give a byte-identical ``model_dump_json()`` and any round can be replayed from its seed.

Invalid intents: anything wrong *before* the round starts (an unknown actor, target, item or destination, an
item the actor does not hold, a spell the actor does not know, two intents for one actor) raises
:class:`~rules.errors.IntentError` with a player message and resolves nothing. Anything that becomes
impossible *during* the round (the target died or left, the item was already taken, the actor was knocked
out) comes back as a ``refused`` result with the reason and no change.

Turn rules worth knowing:

* a creature with no intent still gets its turn if it is dying (it rolls its death save); others idle;
* dead, unconscious, paralyzed, stunned, petrified and incapacitated actors cannot act (the result says why);
* talking to, helping, attacking or giving to a creature that is dead (killed earlier in the same round, say)
  is refused with "<name> is already dead"; a check aimed at a dead creature is made against the situation;
* a check aimed at a fellow PC, or made for a creature rather than against it (first aid, lore), meets the
  skill's DC: an ally never rolls against the one helping them;
* the Help action is declared at the same time as the ally's action, so it gives advantage on the ally's
  d20 roll this round whatever the initiative order, if the helper can act and stands beside the ally at the
  start of the round;
* exclusive claims (two or more actors taking more of one item from the ground than lies there, or holding
  the same target, like a door) are settled together at the first claimant's turn by an opposed check; the
  highest total wins and a tie leaves things as they are (the item stays where it lies). Taking from a
  creature is an opposed check against that creature (a tie: the holder keeps it), free if it is helpless.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules import combat
from rules.checks import (
    DEFAULT_ABILITY_DC,
    DEFAULT_DC,
    PASSIVE_OPPOSITION,
    REVEALING,
    UNOPPOSED,
    RollRecord,
    check_advantage,
    roll_check,
    roll_save,
    with_outcome,
)
from rules.creatures import Ability, Attack, Condition, DamageDice, DamageType, Skill, slugify
from rules.errors import IntentError, RulesError
from rules.initiative import InitiativeEntry, roll_initiative
from rules.intents import Intent, IntentKind
from rules.srd import SPELLS, Spell, item_effect
from rules.state import (
    Change,
    Combatant,
    ConditionAdded,
    ConditionRemoved,
    EntityMoved,
    Holding,
    ItemTransferred,
    RoundState,
    SceneItem,
)

TALK_SKILLS: frozenset[Skill] = frozenset({Skill.PERSUASION, Skill.DECEPTION, Skill.INTIMIDATION})


class Outcome(StrEnum):
    """How an action turned out, as a player would say it."""

    SUCCESS = "success"  # it worked (a hit, a passed check, a won contest, a heal)
    FAILURE = "failure"  # it was tried and did not work (a miss, a failed check, a lost contest)
    DONE = "done"  # nothing to roll: moved, gave, talked, helped, held, a death save turn
    REFUSED = "refused"  # could not be attempted (see ``reason``); nothing changed


class ActionResult(BaseModel):
    """What one creature's turn produced: every roll, the outcome and a plain one-line summary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    actor: str
    intent: Intent | None  # None for the turn of a dying creature that declared nothing
    outcome: Outcome
    rolls: tuple[RollRecord, ...] = ()
    summary: str
    reason: str | None = None  # why it was refused or failed, for the player
    reveals: bool = False  # a successful perception/insight/investigation: give the player a private note
    helped_by: str | None = None
    contest: tuple[str, ...] = ()  # every creature in an opposed contest over the same thing (incl. actor)


class RoundResolution(BaseModel):
    """Everything a round decided, stored in the ledger and replayable from ``seed``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int
    initiative: tuple[InitiativeEntry, ...]
    results: tuple[ActionResult, ...]
    changes: tuple[Change, ...]
    summary: str
    state: RoundState  # the scene after the round


# --- validation before anything is rolled ---------------------------------------------------------------


def _skill_or_ability(name: str) -> Skill | Ability:
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    try:
        return Skill(key)
    except ValueError:
        pass
    aliases = {
        "strength": Ability.STR,
        "dexterity": Ability.DEX,
        "constitution": Ability.CON,
        "intelligence": Ability.INT,
        "wisdom": Ability.WIS,
        "charisma": Ability.CHA,
    }
    if key in aliases:
        return aliases[key]
    try:
        return Ability(key)
    except ValueError:
        raise IntentError(f"Unknown skill '{name}'") from None


def _find_attack(actor: Combatant, wanted: str | None) -> Attack:
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


def _validate(intents: Sequence[Intent], state: RoundState) -> None:
    seen: set[str] = set()
    for intent in intents:
        actor = state.combatant(intent.actor)
        if actor is None:
            raise IntentError(f"Unknown character '{intent.actor}'")
        if intent.actor in seen:
            raise IntentError(f"{actor.name} already has an action this round")
        seen.add(intent.actor)
        target = state.combatant(intent.target) if intent.target else None
        needs_creature = {IntentKind.ATTACK, IntentKind.GIVE, IntentKind.HELP}
        if intent.kind in needs_creature and intent.target is None:
            raise IntentError(f"{intent.kind.value.capitalize()} whom?")
        creature_target_kinds = needs_creature | {IntentKind.ABILITY, IntentKind.TALK, IntentKind.TAKE}
        if intent.target and intent.kind in creature_target_kinds and target is None:
            raise IntentError(f"There is no '{intent.target}' here")
        if intent.target == intent.actor and intent.kind in (
            IntentKind.ATTACK,
            IntentKind.GIVE,
            IntentKind.HELP,
            IntentKind.TAKE,
        ):
            raise IntentError(f"{actor.name} cannot {intent.kind.value} themselves")
        _validate_kind(intent, actor, target, state)


def _validate_kind(intent: Intent, actor: Combatant, target: Combatant | None, state: RoundState) -> None:
    kind = intent.kind
    if kind is IntentKind.ATTACK:
        _find_attack(actor, intent.item or intent.ability_name)
    elif kind is IntentKind.ABILITY:
        if not intent.ability_name:
            raise IntentError("Which spell or feature?")
        key = slugify(intent.ability_name)
        spell = SPELLS.get(key)
        if spell is None:
            raise IntentError(f"Unknown spell or feature '{intent.ability_name}'. {_castable(actor)}")
        if key not in actor.stats.features:
            raise IntentError(f"{actor.name} cannot use {spell.name}. {_castable(actor)}")
        if spell.harmful and target is None:
            raise IntentError(f"{spell.name} needs a target")
        if spell.self_only and target is not None and target.id != actor.id:
            raise IntentError(f"{spell.name} only affects {actor.name}")
    elif kind is IntentKind.CHECK:
        if not intent.skill:
            raise IntentError("Which skill?")
        _skill_or_ability(intent.skill)
    elif kind in (IntentKind.USE_ITEM, IntentKind.GIVE):
        if not intent.item:
            raise IntentError(f"{kind.value.replace('_', ' ').capitalize()} what?")
        if kind is IntentKind.USE_ITEM and intent.target and target is None:
            name, effect = _holding_meta(actor, intent.item)
            if item_effect(intent.item, effect, name) is not None:
                raise IntentError(f"There is no '{intent.target}' here to use {name or intent.item} on")
        have = actor.held(intent.item)
        if have == 0:
            raise IntentError(f"{actor.name} does not hold '{intent.item}'")
        if have < intent.quantity:
            held_name = _holding_meta(actor, intent.item)[0] or intent.item
            raise IntentError(f"{actor.name} holds only {have} {held_name}, not {intent.quantity}")
    elif kind is IntentKind.TAKE:
        if not intent.item:
            raise IntentError("Take what?")
        available = target.held(intent.item) if target else state.lying(intent.item, actor.location)
        where = f"{target.name} does not hold" if target else "There is no"
        if available == 0:
            raise IntentError(f"{where} '{intent.item}'" + ("" if target else " here"))
        if available < intent.quantity:
            raise IntentError(f"Only {available} of '{intent.item}' to take")
    elif kind is IntentKind.MOVE:
        if not intent.destination:
            raise IntentError("Move where?")
        if intent.destination not in state.locations:
            raise IntentError(f"There is no way to '{intent.destination}' from here")
    elif kind is IntentKind.TALK and intent.skill:
        skill = _skill_or_ability(intent.skill)
        if skill not in TALK_SKILLS:
            raise IntentError("Talking uses persuasion, deception or intimidation")


def _castable(actor: Combatant) -> str:
    """The sentence naming what ``actor`` can cast, so a refused player knows what to ask for instead."""
    names = [SPELLS[f].name for f in actor.stats.features if f in SPELLS]
    if not names:
        return f"{actor.name} has no spells or features to use."
    return f"{actor.name} can use: {', '.join(names)}."


def _holding_meta(actor: Combatant, item: str) -> tuple[str, str | None]:
    for holding in actor.holdings:
        if holding.item == item:
            return holding.name, holding.effect
    return "", None


# --- the round -------------------------------------------------------------------------------------------


class _Round:
    """Mutable bookkeeping for one resolution; only frozen values leave it."""

    def __init__(self, seed: int, intents: Sequence[Intent], state: RoundState) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.state = state
        self.creatures: dict[str, Combatant] = {c.id: c for c in state.combatants}
        self.items: list[SceneItem] = list(state.items)
        self.intents: dict[str, Intent] = {i.actor: i for i in intents}
        self.results: list[ActionResult] = []
        self.changes: list[Change] = []
        self.done: set[str] = set()
        self.helpers: dict[str, str] = {}
        self.position: dict[str, int] = {}

    # names and small helpers
    def name(self, entity: str | None) -> str:
        if entity is None:
            return "nobody"
        creature = self.creatures.get(entity)
        return creature.name if creature else entity

    def item_name(self, item: str) -> str:
        for holder in self.creatures.values():
            for holding in holder.holdings:
                if holding.item == item and holding.name:
                    return holding.name
        for lying in self.items:
            if lying.id == item and lying.name:
                return lying.name
        return item.removeprefix("item-").replace("-", " ")

    def index(self) -> int:
        return len(self.results)

    def add(self, result: ActionResult, changes: Sequence[Change] = ()) -> None:
        self.results.append(result)
        self.changes.extend(changes)

    def put(self, creature: Combatant) -> None:
        self.creatures[creature.id] = creature

    # holdings
    def _meta(self, item: str) -> tuple[str, str | None]:
        for holder in self.creatures.values():
            for holding in holder.holdings:
                if holding.item == item:
                    return holding.name, holding.effect
        for lying in self.items:
            if lying.id == item:
                return lying.name, lying.effect
        return "", None

    def remove_from(self, holder: str, item: str, quantity: int) -> None:
        creature = self.creatures.get(holder)
        if creature is not None:
            kept: list[Holding] = []
            left = quantity
            for holding in creature.holdings:
                if holding.item == item and left > 0:
                    take = min(left, holding.quantity)
                    left -= take
                    if holding.quantity > take:
                        kept.append(holding.model_copy(update={"quantity": holding.quantity - take}))
                else:
                    kept.append(holding)
            self.put(creature.model_copy(update={"holdings": tuple(kept)}))
            return
        kept_items: list[SceneItem] = []
        left = quantity
        for lying in self.items:
            if lying.id == item and lying.holder == holder and left > 0:
                take = min(left, lying.quantity)
                left -= take
                if lying.quantity > take:
                    kept_items.append(lying.model_copy(update={"quantity": lying.quantity - take}))
            else:
                kept_items.append(lying)
        self.items = kept_items

    def give_to(self, holder: str, item: str, quantity: int, name: str, effect: str | None) -> None:
        creature = self.creatures[holder]
        holdings = list(creature.holdings)
        for i, holding in enumerate(holdings):
            if holding.item == item:
                holdings[i] = holding.model_copy(update={"quantity": holding.quantity + quantity})
                break
        else:
            holdings.append(Holding(item=item, quantity=quantity, name=name, effect=effect))
        self.put(creature.model_copy(update={"holdings": tuple(holdings)}))

    def transfer(self, item: str, source: str, dest: str | None, quantity: int, cause: int) -> Change:
        name, effect = self._meta(item)
        self.remove_from(source, item, quantity)
        if dest is not None:
            self.give_to(dest, item, quantity, name, effect)
        return ItemTransferred(cause=cause, item=item, from_holder=source, to_holder=dest, quantity=quantity)

    def available(self, item: str, source: str) -> int:
        creature = self.creatures.get(source)
        if creature is not None:
            return creature.held(item)
        return sum(i.quantity for i in self.items if i.id == item and i.holder == source)

    # the round
    def run(self) -> RoundResolution:
        initiative = roll_initiative(self.state.combatants, self.rng)
        self.position = {entry.entity: i for i, entry in enumerate(initiative)}
        self._collect_helps()
        for entry in initiative:
            self._turn(entry.entity)
        # Intents of creatures that were dead at the start of the round: refused, in id order.
        for actor in sorted(set(self.intents) - self.done):
            intent = self.intents[actor]
            self.add(self._refuse(intent, f"{self.name(actor)} is dead"))
        summary = "\n".join(r.summary for r in self.results if r.summary)
        final = RoundState(
            combatants=tuple(self.creatures[c.id] for c in self.state.combatants),
            items=tuple(self.items),
            locations=self.state.locations,
        )
        return RoundResolution(
            seed=self.seed,
            initiative=initiative,
            results=tuple(self.results),
            changes=tuple(self.changes),
            summary=summary,
            state=final,
        )

    def _collect_helps(self) -> None:
        # In actor id order, so that when two help the same ally the choice never depends on listing order.
        for _, intent in sorted(self.intents.items()):
            if intent.kind is not IntentKind.HELP or intent.target is None:
                continue
            helper = self.creatures[intent.actor]
            ally = self.creatures[intent.target]
            if not helper.incapacitated and helper.location == ally.location:
                self.helpers.setdefault(ally.id, helper.id)

    def _refuse(self, intent: Intent, reason: str) -> ActionResult:
        return ActionResult(
            actor=intent.actor,
            intent=intent,
            outcome=Outcome.REFUSED,
            summary=f"{self.name(intent.actor)} cannot act: {reason}.",
            reason=reason,
        )

    def _turn(self, actor_id: str) -> None:
        if actor_id in self.done:
            return
        self.done.add(actor_id)
        intent = self.intents.get(actor_id)
        actor = self.creatures[actor_id]
        if actor.dying:
            self._death_save_turn(actor, intent)
            return
        if intent is None:
            return
        if actor.dead:
            self.add(self._refuse(intent, f"{actor.name} is dead"))
            return
        blocking = [c for c in actor.conditions if c in _CANNOT_ACT]
        if blocking:
            self.add(self._refuse(intent, f"{actor.name} is {blocking[0].value}"))
            return
        handler = _HANDLERS[intent.kind]
        handler(self, actor, intent)

    def _death_save_turn(self, actor: Combatant, intent: Intent | None) -> None:
        cause = self.index()
        after, record, changes = combat.roll_death_save(actor, rng=self.rng, cause=cause)
        self.put(after)
        text = {
            "critical_success": "rolls a natural 20 on a death save and regains 1 hit point",
            "success": "succeeds on a death save",
            "stabilized": "succeeds on a third death save and is stable",
            "failure": "fails a death save",
            "critical_failure": "rolls a natural 1 on a death save: two failures",
            "died": "fails a third death save and dies",
        }[record.outcome]
        reason = None if record.outcome == "critical_success" else f"{actor.name} is dying"
        self.add(
            ActionResult(
                actor=actor.id,
                intent=intent,
                outcome=Outcome.DONE
                if intent is None or record.outcome == "critical_success"
                else Outcome.REFUSED,
                rolls=(record,),
                summary=f"{actor.name} {text}.",
                reason=reason if intent is not None else None,
            ),
            changes,
        )

    def helped(self, actor_id: str) -> str | None:
        return self.helpers.get(actor_id)

    # reach checks during the round
    def reachable(
        self, actor: Combatant, target_id: str, *, ranged: bool
    ) -> tuple[Combatant | None, str | None]:
        target = self.creatures[target_id]
        if target.dead:
            return None, f"{target.name} is already dead"
        if not ranged and target.location != actor.location:
            return None, f"{target.name} is out of reach"
        return target, None


_CANNOT_ACT: tuple[Condition, ...] = (
    Condition.UNCONSCIOUS,
    Condition.PARALYZED,
    Condition.PETRIFIED,
    Condition.STUNNED,
    Condition.INCAPACITATED,
)


# --- handlers, one per intent kind -----------------------------------------------------------------------


def _damage_text(amount: int, damage_type: str, note: str) -> str:
    extra = f" ({note})" if note else ""
    return f"{amount} {damage_type} damage{extra}"


def _fate_text(rnd: _Round, target_id: str, changes: Sequence[Change]) -> str:
    parts: list[str] = []
    for change in changes:
        if change.kind == "died":
            parts.append(f"{rnd.name(target_id)} dies")
        elif change.kind == "fell_unconscious":
            parts.append(f"{rnd.name(target_id)} falls unconscious")
        elif change.kind == "death_saves":
            parts.append(f"{rnd.name(target_id)} suffers a death save failure ({change.failures}/3)")
    return ("; " + "; ".join(parts)) if parts else ""


def _hit_with_damage(
    rnd: _Round,
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
    return damage, changes, _damage_text(amount, damage_type, note) + _fate_text(rnd, target.id, changes)


def _attack(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.target is not None
    attack = _find_attack(actor, intent.item or intent.ability_name)
    target, reason = rnd.reachable(actor, intent.target, ranged=attack.is_ranged)
    if target is None:
        rnd.add(rnd._refuse(intent, reason or "no target"))
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
        damage, changes, text = _hit_with_damage(
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


def _ability(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.ability_name is not None
    spell = SPELLS[slugify(intent.ability_name)]
    target_id = intent.target or actor.id
    target, reason = rnd.reachable(actor, target_id, ranged=spell.ranged)
    if target is None:
        rnd.add(rnd._refuse(intent, reason or "no target"))
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
            damage, changes, text = _hit_with_damage(
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
                _damage_text(amount, spell.damage_type.value, note) + _fate_text(rnd, target.id, changes)
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
        damage, changes, text = _hit_with_damage(
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
        summary = (
            f"{actor.name}'s {spell.name} restores {after.hp - target.hp} hit points to {target.name}{woke}."
        )
        outcome = Outcome.SUCCESS
    else:  # stabilize
        if not target.dying:
            rnd.add(rnd._refuse(intent, f"{target.name} is not dying"))
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


def _check_roll(
    rnd: _Round,
    roller: Combatant,
    what: Skill | Ability,
    dc: int | None,
    *,
    helped: bool,
    purpose: str | None = None,
) -> RollRecord:
    skill = what if isinstance(what, Skill) else None
    advantage = check_advantage(roller.conditions, skill=skill, helped=helped)
    if skill is not None:
        return roll_check(
            roller=roller.id,
            stats=roller.stats,
            rng=rnd.rng,
            skill=skill,
            dc=dc,
            advantage=advantage,
            purpose=purpose,
        )
    assert isinstance(what, Ability)
    return roll_check(
        roller=roller.id,
        stats=roller.stats,
        rng=rnd.rng,
        ability=what,
        dc=dc,
        advantage=advantage,
        purpose=purpose,
    )


def _article(word: str) -> str:
    """'an' before a vowel sound (an insight check), else 'a'."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def _best_of_athletics_acrobatics(creature: Combatant) -> Skill:
    stats = creature.stats
    if stats.skill_modifier(Skill.ACROBATICS) > stats.skill_modifier(Skill.ATHLETICS):
        return Skill.ACROBATICS
    return Skill.ATHLETICS


def _check(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.skill is not None
    what = _skill_or_ability(intent.skill)
    helper = rnd.helped(actor.id)
    label = what.value.replace("_", " ")
    target = rnd.creatures.get(intent.target) if intent.target else None
    if target is not None and (target.dead or target.location != actor.location):
        target = None  # the creature is gone: the check is made against the situation
    if isinstance(what, Skill) and what in UNOPPOSED:
        target = None  # done for or about the creature (first aid, lore): it meets a DC, not the creature
    ally = target is not None and actor.is_pc and target.is_pc  # a fellow PC does not roll against the party
    rolls: list[RollRecord]
    if (
        target is not None
        and isinstance(what, Skill)
        and what in PASSIVE_OPPOSITION
        and not target.incapacitated
    ):
        passive_skill = PASSIVE_OPPOSITION[what]
        dc = target.stats.passive(passive_skill)
        record = _check_roll(rnd, actor, what, dc, helped=helper is not None)
        rolls = [record]
        success = record.outcome == "success"
        against = f"{target.name}'s passive {passive_skill.value} {dc}"
    elif target is not None and not target.incapacitated and not ally:
        mine = _check_roll(rnd, actor, what, None, helped=helper is not None)
        their_skill: Skill | Ability = what
        if what is Skill.ATHLETICS:
            their_skill = _best_of_athletics_acrobatics(target)
        theirs = _check_roll(rnd, target, their_skill, None, helped=False)
        success = mine.total > theirs.total  # a tie keeps the status quo: the attempt does not succeed
        rolls = [
            with_outcome(
                mine,
                target=theirs.total,
                outcome="win" if success else ("tie" if mine.total == theirs.total else "loss"),
            ),
            with_outcome(
                theirs,
                target=mine.total,
                outcome="loss" if success else ("tie" if mine.total == theirs.total else "win"),
            ),
        ]
        against = f"{target.name}'s {their_skill.value.replace('_', ' ')} {theirs.total}"
    else:
        dc = DEFAULT_DC[what] if isinstance(what, Skill) else DEFAULT_ABILITY_DC
        record = _check_roll(rnd, actor, what, dc, helped=helper is not None)
        rolls = [record]
        success = record.outcome == "success"
        against = f"DC {dc}"
    total = rolls[0].total
    verdict = "succeeds" if success else "fails"
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.SUCCESS if success else Outcome.FAILURE,
            rolls=tuple(rolls),
            summary=f"{actor.name} {verdict} on {_article(label)} {label} check ({total} vs {against}).",
            reveals=success and isinstance(what, Skill) and what in REVEALING,
            helped_by=helper,
        )
    )


def _use_item(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.item is not None
    if actor.held(intent.item) < intent.quantity:
        rnd.add(rnd._refuse(intent, f"{actor.name} no longer holds {rnd.item_name(intent.item)}"))
        return
    name, effect_id = rnd._meta(intent.item)
    effect = item_effect(intent.item, effect_id, name)
    item_label = name or (effect.name if effect else rnd.item_name(intent.item))
    if effect is None:
        rnd.add(
            ActionResult(
                actor=actor.id,
                intent=intent,
                outcome=Outcome.DONE,
                summary=f"{actor.name} uses {item_label}.",
            )
        )
        return
    target_id = intent.target or actor.id
    target, reason = rnd.reachable(actor, target_id, ranged=False)
    if target is None:
        rnd.add(rnd._refuse(intent, reason or "no target"))
        return
    cause = rnd.index()
    rolls: list[RollRecord] = []
    changes: list[Change] = []
    if effect.form == "heal":
        record = combat.roll_damage(
            roller=actor.id,
            dice=DamageDice.parse(effect.dice),
            critical=False,
            rng=rnd.rng,
            purpose="healing",
        )
        after, changes = combat.heal(target, record.total, cause=cause)
        rnd.put(after)
        rolls.append(record)
        woke = " and wakes up" if target.hp == 0 and after.hp > 0 else ""
        who = "" if target.id == actor.id else f" to {target.name}"
        summary = f"{actor.name} uses {item_label}{who}: {after.hp - target.hp} hit points restored{woke}."
    else:
        if not target.dying:
            rnd.add(rnd._refuse(intent, f"{target.name} is not dying"))
            return
        after, changes = combat.stabilize(target, cause=cause)
        rnd.put(after)
        summary = f"{actor.name} uses {item_label} on {target.name}: {target.name} is stable."
    changes.append(rnd.transfer(intent.item, actor.id, None, 1, cause))
    rnd.add(
        ActionResult(
            actor=actor.id, intent=intent, outcome=Outcome.SUCCESS, rolls=tuple(rolls), summary=summary
        ),
        changes,
    )


def _give(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.item is not None and intent.target is not None
    if actor.held(intent.item) < intent.quantity:
        rnd.add(rnd._refuse(intent, f"{actor.name} no longer holds {rnd.item_name(intent.item)}"))
        return
    target, reason = rnd.reachable(actor, intent.target, ranged=False)
    if target is None:
        rnd.add(rnd._refuse(intent, reason or "no target"))
        return
    cause = rnd.index()
    label = rnd.item_name(intent.item)
    change = rnd.transfer(intent.item, actor.id, target.id, intent.quantity, cause)
    count = f"{intent.quantity} x " if intent.quantity > 1 else ""
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.DONE,
            summary=f"{actor.name} gives {count}{label} to {target.name}.",
        ),
        [change],
    )


def _claim_key(intent: Intent, actor: Combatant) -> tuple[str, str] | None:
    """What an intent claims exclusively: an item lying here, or a held target (a door). None: nothing."""
    if intent.kind is IntentKind.TAKE and intent.target is None and intent.item:
        return ("take", f"{intent.item}@{actor.location}")
    if intent.kind is IntentKind.HOLD and intent.target:
        return ("hold", intent.target)
    return None


def _contest(rnd: _Round, actor: Combatant, intent: Intent) -> bool:
    """Settle an exclusive claim among everyone making it; return False when there is no contest."""
    key = _claim_key(intent, actor)
    if key is None:
        return False
    claimants = [
        rnd.creatures[other.actor]
        for other in rnd.intents.values()
        if other.actor not in rnd.done or other.actor == actor.id
        if _claim_key(other, rnd.creatures[other.actor]) == key
    ]
    able = [
        c for c in claimants if not c.incapacitated and (key[0] == "hold" or c.location == actor.location)
    ]
    if len(able) < 2:
        return False
    if key[0] == "take":
        assert intent.item is not None
        wanted = sum(rnd.intents[c.id].quantity for c in able)
        if wanted <= rnd.available(intent.item, actor.location):
            return False  # enough for everyone
    # Everyone in the contest resolves now: the first claimant, then the others in initiative order.
    order = [actor, *sorted((c for c in able if c.id != actor.id), key=lambda c: rnd.position[c.id])]
    rolls: list[RollRecord] = []
    for claimant in order:
        skill = _best_of_athletics_acrobatics(claimant) if key[0] == "take" else Skill.ATHLETICS
        rolls.append(
            _check_roll(
                rnd,
                claimant,
                skill,
                None,
                helped=rnd.helped(claimant.id) is not None,
                purpose=f"contest:{skill.value}",
            )
        )
    best = max(r.total for r in rolls)
    top = [r for r in rolls if r.total == best]
    winner = top[0].roller if len(top) == 1 else None  # a tie leaves things as they are
    contest = tuple(c.id for c in order)
    marked = tuple(
        with_outcome(
            r,
            target=max((o.total for o in rolls if o is not r), default=None),
            outcome="win" if r.roller == winner else ("tie" if r.total == best else "loss"),
        )
        for r in rolls
    )
    thing = rnd.item_name(intent.item) if key[0] == "take" and intent.item else rnd.name(key[1])
    names = " and ".join(rnd.name(c) for c in contest)
    for claimant in order:
        claim = rnd.intents[claimant.id]
        rnd.done.add(claimant.id)
        cause = rnd.index()
        changes: list[Change] = []
        if claimant.id == winner:
            outcome = Outcome.SUCCESS
            if key[0] == "take":
                assert claim.item is not None
                quantity = min(claim.quantity, rnd.available(claim.item, claimant.location))
                changes.append(rnd.transfer(claim.item, claimant.location, claimant.id, quantity, cause))
                text = f"{claimant.name} wins the scramble for {thing} ({names} contest it) and takes it."
            else:
                text = f"{claimant.name} wins the struggle over {thing} ({names} contest it) and holds it."
            reason = None
        elif winner is None:
            outcome = Outcome.FAILURE
            text = f"{names} tie in the struggle over {thing}; nobody gets it."
            reason = "tied opposed check: things stay as they are"
        else:
            outcome = Outcome.FAILURE
            text = f"{claimant.name} loses the struggle over {thing} to {rnd.name(winner)}."
            reason = f"{rnd.name(winner)} won the opposed check"
        rnd.add(
            ActionResult(
                actor=claimant.id,
                intent=claim,
                outcome=outcome,
                rolls=marked,
                summary=text,
                reason=reason,
                contest=contest,
                helped_by=rnd.helped(claimant.id),
            ),
            changes,
        )
    return True


def _take(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.item is not None
    if _contest(rnd, actor, intent):
        return
    label = rnd.item_name(intent.item)
    source_id = intent.target or actor.location
    if rnd.available(intent.item, source_id) < intent.quantity:
        where = rnd.name(intent.target) + " no longer holds it" if intent.target else "it is no longer here"
        rnd.add(rnd._refuse(intent, f"{label}: {where}"))
        return
    cause = rnd.index()
    helper = rnd.helped(actor.id)
    rolls: tuple[RollRecord, ...] = ()
    holder = rnd.creatures.get(intent.target) if intent.target else None
    if holder is not None:
        if holder.location != actor.location:
            rnd.add(rnd._refuse(intent, f"{holder.name} is out of reach"))
            return
        if not holder.incapacitated:
            mine = _check_roll(
                rnd, actor, Skill.ATHLETICS, None, helped=helper is not None, purpose="contest:athletics"
            )
            defence = _best_of_athletics_acrobatics(holder)
            theirs = _check_roll(rnd, holder, defence, None, helped=False, purpose=f"contest:{defence.value}")
            won = mine.total > theirs.total  # tie: the holder keeps the item
            tie = mine.total == theirs.total
            rolls = (
                with_outcome(mine, target=theirs.total, outcome="win" if won else ("tie" if tie else "loss")),
                with_outcome(theirs, target=mine.total, outcome="loss" if won else ("tie" if tie else "win")),
            )
            if not won:
                why = "a tie: the holder keeps it" if tie else f"{holder.name} holds on"
                rnd.add(
                    ActionResult(
                        actor=actor.id,
                        intent=intent,
                        outcome=Outcome.FAILURE,
                        rolls=rolls,
                        summary=f"{actor.name} tries to take {label} from {holder.name}, but {why} "
                        f"({mine.total} vs {theirs.total}).",
                        reason=why,
                        contest=(actor.id, holder.id),
                        helped_by=helper,
                    )
                )
                return
    change = rnd.transfer(intent.item, source_id, actor.id, intent.quantity, cause)
    source = f" from {holder.name}" if holder else ""
    count = f"{intent.quantity} x " if intent.quantity > 1 else ""
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.SUCCESS,
            rolls=rolls,
            summary=f"{actor.name} takes {count}{label}{source}.",
            contest=(actor.id, holder.id) if holder and rolls else (),
            helped_by=helper if rolls else None,
        ),
        [change],
    )


def _move(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.destination is not None
    stuck = [c for c in (Condition.GRAPPLED, Condition.RESTRAINED) if actor.has(c)]
    if stuck:
        rnd.add(rnd._refuse(intent, f"{actor.name} is {stuck[0].value} and cannot move"))
        return
    if actor.stats.speed == 0:
        rnd.add(rnd._refuse(intent, f"{actor.name} cannot move"))
        return
    if intent.destination == actor.location:
        rnd.add(
            ActionResult(
                actor=actor.id, intent=intent, outcome=Outcome.DONE, summary=f"{actor.name} stays put."
            )
        )
        return
    cause = rnd.index()
    changes: list[Change] = []
    if actor.has(Condition.PRONE):
        changes.append(ConditionRemoved(cause=cause, entity=actor.id, condition=Condition.PRONE))
        actor = actor.model_copy(
            update={"conditions": tuple(c for c in actor.conditions if c is not Condition.PRONE)}
        )
    changes.append(
        EntityMoved.model_validate(
            {"cause": cause, "entity": actor.id, "from": actor.location, "to": intent.destination}
        )
    )
    rnd.put(actor.model_copy(update={"location": intent.destination}))
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.DONE,
            summary=f"{actor.name} moves to {intent.destination}.",
        ),
        changes,
    )


def _talk(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    target = rnd.creatures.get(intent.target) if intent.target else None
    if target is not None and target.dead:  # killed earlier this round (or before): nobody to talk to
        rnd.add(rnd._refuse(intent, f"{target.name} is already dead"))
        return
    to = f" to {target.name}" if target else ""
    if not intent.skill:
        rnd.add(
            ActionResult(
                actor=actor.id, intent=intent, outcome=Outcome.DONE, summary=f"{actor.name} speaks{to}."
            )
        )
        return
    skill = _skill_or_ability(intent.skill)
    assert isinstance(skill, Skill)
    helper = rnd.helped(actor.id)
    if target is not None and not target.dead and not target.incapacitated:
        dc = target.stats.passive(PASSIVE_OPPOSITION[skill])
        against = f"{target.name}'s passive insight {dc}"
    else:
        dc = DEFAULT_DC[skill]
        against = f"DC {dc}"
    record = _check_roll(rnd, actor, skill, dc, helped=helper is not None)
    success = record.outcome == "success"
    verdict = "succeeds" if success else "fails"
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.SUCCESS if success else Outcome.FAILURE,
            rolls=(record,),
            summary=f"{actor.name} speaks{to} and {verdict} on {skill.value} ({record.total} vs {against}).",
            helped_by=helper,
        )
    )


def _help(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    assert intent.target is not None
    ally = rnd.creatures[intent.target]
    if ally.dead:  # the ally fell earlier this round: there is no roll left to help with
        rnd.add(rnd._refuse(intent, f"{ally.name} is already dead"))
        return
    if rnd.helpers.get(ally.id) != actor.id:
        if ally.location != actor.location:
            reason = f"{ally.name} is not beside {actor.name}"
        else:
            reason = f"{rnd.name(rnd.helpers.get(ally.id))} is already helping {ally.name}"
        rnd.add(rnd._refuse(intent, reason))
        return
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.DONE,
            summary=f"{actor.name} helps {ally.name} (advantage on {ally.name}'s roll this round).",
        )
    )


def _hold(rnd: _Round, actor: Combatant, intent: Intent) -> None:
    if _contest(rnd, actor, intent):
        return
    what = f" {rnd.name(intent.target)}" if intent.target else " position"
    rnd.add(
        ActionResult(
            actor=actor.id, intent=intent, outcome=Outcome.DONE, summary=f"{actor.name} holds{what}."
        )
    )


_HANDLERS: dict[IntentKind, Callable[[_Round, Combatant, Intent], None]] = {
    IntentKind.ATTACK: _attack,
    IntentKind.ABILITY: _ability,
    IntentKind.CHECK: _check,
    IntentKind.USE_ITEM: _use_item,
    IntentKind.GIVE: _give,
    IntentKind.TAKE: _take,
    IntentKind.MOVE: _move,
    IntentKind.TALK: _talk,
    IntentKind.HELP: _help,
    IntentKind.HOLD: _hold,
}


def resolve_round(*, seed: int, intents: Sequence[Intent], state: RoundState) -> RoundResolution:
    """Resolve every intent of one round with one ``random.Random(seed)``; return frozen results.

    Raises IntentError (before rolling anything) for intents that are invalid at the start of the round; see
    the module docstring for what is refused during the round instead.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RulesError("The round seed must be an integer")
    _validate(intents, state)
    return _Round(seed, intents, state).run()


__all__ = ["ActionResult", "Outcome", "RoundResolution", "resolve_round"]
