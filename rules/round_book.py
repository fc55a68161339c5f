"""The bookkeeping of one round being resolved: creatures, items, results and changes so far, and the turns.

A :class:`RoundBook` is mutable and lives only inside :func:`rules.round.resolve_round`; only frozen values
(:class:`~rules.resolution.RoundResolution`) leave it. It owns the turn order (initiative, then who may act),
the death-save turn of a dying creature, the Help bookkeeping and the holdings arithmetic; what each kind of
intent does is a handler from the action modules (:mod:`rules.attacks`, :mod:`rules.skill_actions`,
:mod:`rules.item_actions`, :mod:`rules.movement`), handed in by :mod:`rules.round`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from rules import combat
from rules.creatures import Condition
from rules.initiative import roll_initiative
from rules.intents import Intent, IntentKind
from rules.resolution import ActionResult, Outcome, RoundResolution
from rules.state import Change, Combatant, Holding, ItemTransferred, RoundState, SceneItem

# --- the round -------------------------------------------------------------------------------------------


class RoundBook:
    """Mutable bookkeeping for one resolution; only frozen values leave it."""

    def __init__(
        self, seed: int, intents: Sequence[Intent], state: RoundState, handlers: Mapping[IntentKind, Handler]
    ) -> None:
        self.handlers = handlers
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
    def meta(self, item: str) -> tuple[str, str | None]:
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
        name, effect = self.meta(item)
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
            self.add(self.refuse(intent, f"{self.name(actor)} is dead"))
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

    def refuse(self, intent: Intent, reason: str) -> ActionResult:
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
            self.add(self.refuse(intent, f"{actor.name} is dead"))
            return
        blocking = [c for c in actor.conditions if c in CANNOT_ACT]
        if blocking:
            self.add(self.refuse(intent, f"{actor.name} is {blocking[0].value}"))
            return
        handler = self.handlers[intent.kind]
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


CANNOT_ACT: tuple[Condition, ...] = (
    Condition.UNCONSCIOUS,
    Condition.PARALYZED,
    Condition.PETRIFIED,
    Condition.STUNNED,
    Condition.INCAPACITATED,
)


Handler = Callable[[RoundBook, Combatant, Intent], None]
"""What one kind of intent does on its actor's turn: adds its result and changes to the round book."""
