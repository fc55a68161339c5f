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

from collections.abc import Sequence

from rules.attacks import find_attack, resolve_ability, resolve_attack
from rules.creatures import slugify
from rules.errors import IntentError, RulesError
from rules.intents import Intent, IntentKind
from rules.item_actions import resolve_give, resolve_take, resolve_use_item
from rules.movement import resolve_hold, resolve_move
from rules.resolution import ActionResult, Outcome, RoundResolution
from rules.round_book import Handler, RoundBook
from rules.skill_actions import TALK_SKILLS, resolve_check, resolve_help, resolve_talk, skill_or_ability
from rules.srd import SPELLS, item_effect
from rules.state import Combatant, RoundState

# --- validation before anything is rolled ---------------------------------------------------------------


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
        find_attack(actor, intent.item or intent.ability_name)
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
        skill_or_ability(intent.skill)
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
        skill = skill_or_ability(intent.skill)
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


_HANDLERS: dict[IntentKind, Handler] = {
    IntentKind.ATTACK: resolve_attack,
    IntentKind.ABILITY: resolve_ability,
    IntentKind.CHECK: resolve_check,
    IntentKind.USE_ITEM: resolve_use_item,
    IntentKind.GIVE: resolve_give,
    IntentKind.TAKE: resolve_take,
    IntentKind.MOVE: resolve_move,
    IntentKind.TALK: resolve_talk,
    IntentKind.HELP: resolve_help,
    IntentKind.HOLD: resolve_hold,
}


def resolve_round(*, seed: int, intents: Sequence[Intent], state: RoundState) -> RoundResolution:
    """Resolve every intent of one round with one ``random.Random(seed)``; return frozen results.

    Raises IntentError (before rolling anything) for intents that are invalid at the start of the round; see
    the module docstring for what is refused during the round instead.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RulesError("The round seed must be an integer")
    _validate(intents, state)
    return RoundBook(seed, intents, state, _HANDLERS).run()


__all__ = ["ActionResult", "Outcome", "RoundResolution", "resolve_round"]
