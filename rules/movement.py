"""Moving to another place and holding a position or a target (a door).

``resolve_move`` and ``resolve_hold`` are the round's handlers; two creatures holding the same target are
settled by :func:`rules.item_actions.settle_contest`.
"""

from __future__ import annotations

from rules.creatures import Condition
from rules.intents import Intent
from rules.item_actions import settle_contest
from rules.resolution import ActionResult, Outcome
from rules.round_book import RoundBook
from rules.state import Change, Combatant, ConditionRemoved, EntityMoved


def resolve_move(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.destination is not None
    stuck = [c for c in (Condition.GRAPPLED, Condition.RESTRAINED) if actor.has(c)]
    if stuck:
        rnd.add(rnd.refuse(intent, f"{actor.name} is {stuck[0].value} and cannot move"))
        return
    if actor.stats.speed == 0:
        rnd.add(rnd.refuse(intent, f"{actor.name} cannot move"))
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


def resolve_hold(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    if settle_contest(rnd, actor, intent):
        return
    what = f" {rnd.name(intent.target)}" if intent.target else " position"
    rnd.add(
        ActionResult(
            actor=actor.id, intent=intent, outcome=Outcome.DONE, summary=f"{actor.name} holds{what}."
        )
    )
