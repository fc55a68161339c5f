"""Rounds on the bundled worlds, built once, for the offline narrator's property tests and its bench.

Each round is what the table would hand the narrator (creatures with their personas and what each NPC knows,
outcomes in initiative order, the records retrieval would rank) together with the checker's snapshot of the
world after that round (the round's facts and changes), so the real :func:`ledger.check.judge.check` can
judge the narration. Rounds are generated from a seed: attacks that hit, miss, fell and kill; speech in the
players' own words; checks; hand-overs; moves; holds; refusals of the already dead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.narrator.base import (
    ActionOutcome,
    NarrationRequest,
    RetrievedRecord,
    SceneCreature,
    SceneLocation,
)
from bot.narrator.voices import persona_from_sheet, speakable
from ledger.check.snapshot import ActionResult, RoundFacts, Scene, WorldSnapshot, snapshot_from_world

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
#: (world file, where the party stands): places with NPCs to talk to and foes to fight.
SCENES = (
    ("harbor.toml", "loc-harbor"),
    ("harbor.toml", "loc-salty-gull"),
    ("harbor.toml", "loc-customs-house"),
    ("harbor.toml", "loc-warehouse-row"),
    ("crypt.toml", "loc-crypt-stair"),
    ("crypt.toml", "loc-ossuary"),
)
ROUNDS_PER_SCENE = 3
#: What players type to an NPC ({npc} is the NPC's name).
SAYINGS = (
    "tell {npc} the pier will be empty tomorrow night",
    "ask {npc} what the ship carries",
    "ask {npc} what they want for the favour I owe them",
    "whisper to {npc} about the lantern",
    "I ask {npc} whether we can trust the watch",
    "tell {npc} that we will keep quiet",
    "threaten {npc}",
    "greet {npc}",
    "say hello to {npc}",
)


@dataclass(frozen=True)
class WorldRound:
    """One round: the narrator's request and the checker's snapshot of the world after it."""

    name: str
    request: NarrationRequest
    snapshot: WorldSnapshot


def _load(file: str) -> tuple[Any, Any]:
    try:
        from ledger.scenario.reading import load_scenario
        from ledger.scenario.replay import final_world
    except ImportError:  # the scenario room before it was split by job
        from ledger.scenario.format import final_world, load_scenario  # type: ignore[attr-defined,no-redef]
    scenario = load_scenario(SCENARIOS / file)
    return scenario, final_world(scenario, "gm")


@cache
def world_rounds() -> tuple[WorldRound, ...]:
    """Every scene's rounds, built once per test session."""
    out: list[WorldRound] = []
    for file, location in SCENES:
        scenario, world = _load(file)
        for number in range(ROUNDS_PER_SCENE):
            out.append(_round(file, scenario, world, location, number))
    return tuple(out)


def _round(file: str, scenario: Any, world: Any, location: str, number: int) -> WorldRound:
    rng = random.Random(f"{file}:{location}:{number}")
    entities = dict(world.entities)
    pcs = [e for e in entities.values() if e.kind == "pc" and e.alive]
    for pc in pcs:  # the party stands in the scene
        entities[pc.id] = pc.model_copy(update={"location": location})
    world = world.model_copy(update={"entities": entities})
    here = [e for e in entities.values() if e.location == location and e.alive]
    npcs = [e for e in here if e.kind == "npc"]
    foes = [e for e in here if e.kind == "monster"]
    names = {e.id: e.name for e in entities.values()} | {loc.id: loc.name for loc in world.locations.values()}
    names |= {item.id: item.name for item in world.items.values()}
    hp = {e.id: e.hp if e.hp is not None else 10 for e in here}
    dead: set[str] = set()
    down: set[str] = set()
    outcomes: list[ActionOutcome] = []
    changes: list[dict[str, Any]] = []
    submissions: dict[str, str] = {}
    actors = [*pcs, *foes, *npcs[:1]]
    rng.shuffle(actors)
    exits = sorted(set(world.locations) - {location})
    for actor in actors:
        if actor.id in dead or actor.id in down:
            if actor.id in dead:
                outcomes.append(_refused(actor, names, f"{actor.name} is dead"))
            continue
        choice = _choose(rng, actor, pcs, npcs, foes)
        outcome = _act(rng, choice, actor, pcs, npcs, foes, names, hp, dead, down, world, exits, changes)
        outcomes.append(outcome)
        if outcome.submitted_text and actor.kind == "pc":
            submissions[actor.id] = outcome.submitted_text
    records = _records(world, scenario, here, names)
    creatures = []
    for entity in sorted(here, key=lambda e: e.id):
        voice = None if entity.kind == "pc" else persona_from_sheet(entity.sheet)
        creature = SceneCreature(
            id=entity.id,
            name=entity.name,
            kind=entity.kind,
            is_pc=entity.kind == "pc",
            alive=entity.id not in dead,
            down=entity.id in down,
            voice=voice,
            knows=_knows(world, entity.id) if entity.kind != "pc" else (),
            attitudes=tuple(
                (edge.target, edge.attitude)
                for edge in world.edges
                if edge.source == entity.id and edge.visibility in ("public", "party")
            ),
        )
        creatures.append(creature.model_copy(update={"persona": speakable(creature)}))
    request = NarrationRequest(
        campaign=scenario.campaign.name,
        session=scenario.campaign.current_session,
        round=number + 1,
        location=SceneLocation(id=location, name=names[location]),
        creatures=tuple(creatures),
        outcomes=tuple(outcomes),
        records=tuple(records),
    )
    facts = RoundFacts(
        number=number + 1,
        actions=tuple(
            ActionResult(
                id=f"round-{number + 1}#{index}",
                actor=o.actor_id,
                kind=o.kind,
                target=o.target_id,
                outcome="miss" if o.outcome == "fumble" else "success" if o.outcome == "done" else o.outcome,  # type: ignore[arg-type]
                damage=o.damage,
                target_down=o.target_down,
                target_died=o.target_died,
            )
            for index, o in enumerate(outcomes)
            if o.outcome != "refused"
        ),
        submissions=submissions,
        acted=frozenset(p.id for p in pcs),
        changes=tuple(changes),
    )
    scene = Scene(location=location, present=frozenset(e.id for e in here))
    snapshot = snapshot_from_world(_applied(world, changes), scenario=scenario, scene=scene, round=facts)
    return WorldRound(f"{file}:{location}:{number}", request, snapshot)


def _applied(world: Any, changes: list[dict[str, Any]]) -> Any:
    """The world after the round's changes, as the table's snapshot is taken after the round is stored."""
    entities = dict(world.entities)
    holdings = list(world.holdings)
    for change in changes:
        kind = change["kind"]
        if kind in ("set_alive", "set_hp", "move_entity", "add_condition"):
            entity = entities[change["entity"]]
            update: dict[str, Any] = {
                "set_alive": {"alive": change.get("alive")},
                "set_hp": {"hp": change.get("hp")},
                "move_entity": {"location": change.get("location")},
                "add_condition": {"conditions": (*entity.conditions, change.get("condition"))},
            }[kind]
            entities[entity.id] = entity.model_copy(update=update)
        elif kind == "transfer_item":
            moved = []
            for holding in holdings:
                if holding.item == change["item"] and holding.holder == change["from_holder"]:
                    left = holding.quantity - change["quantity"]
                    if left > 0:
                        moved.append(holding.model_copy(update={"quantity": left}))
                    moved.append(holding.model_copy(update={"holder": change["to_holder"], "quantity": 1}))
                else:
                    moved.append(holding)
            holdings = moved
    return world.model_copy(update={"entities": entities, "holdings": holdings})


def _choose(rng: random.Random, actor: Any, pcs: list[Any], npcs: list[Any], foes: list[Any]) -> str:
    if actor.kind != "pc":
        return "attack" if actor.kind == "monster" and pcs else "hold"
    options = ["hold", "move"]
    if npcs:
        options += ["talk", "talk", "talk", "check"]
    if foes:
        options += ["attack", "attack", "attack"]
    if len(pcs) > 1:
        options += ["give", "help"]
    return rng.choice(options)


def _refused(actor: Any, names: dict[str, str], reason: str, **more: Any) -> ActionOutcome:
    return ActionOutcome(
        actor_id=actor.id,
        actor_name=actor.name,
        actor_is_pc=actor.kind == "pc",
        kind=more.pop("kind", "attack"),
        outcome="refused",
        refusal_reason=reason,
        **more,
    )


def _act(
    rng: random.Random,
    choice: str,
    actor: Any,
    pcs: list[Any],
    npcs: list[Any],
    foes: list[Any],
    names: dict[str, str],
    hp: dict[str, int],
    dead: set[str],
    down: set[str],
    world: Any,
    exits: list[str],
    changes: list[dict[str, Any]],
) -> ActionOutcome:
    base = {"actor_id": actor.id, "actor_name": actor.name, "actor_is_pc": actor.kind == "pc"}
    if choice == "attack":
        pool = pcs if actor.kind != "pc" else foes
        standing = [p for p in pool if p.id not in down]
        target = rng.choice(standing or pool)
        if target.id in dead or target.id in down:
            return _refused(
                actor,
                names,
                f"{target.name} is already dead",
                target_id=target.id,
                target_name=target.name,
            )
        result = rng.choice(["hit", "hit", "miss", "critical", "fumble"])
        damage = rng.randint(2, 12) if result in ("hit", "critical") else 0
        died = downed = False
        if damage:
            hp[target.id] = max(0, hp[target.id] - damage)
            if hp[target.id] == 0:
                if target.kind == "pc":
                    downed = True
                    down.add(target.id)
                    changes.append({"kind": "add_condition", "entity": target.id, "condition": "unconscious"})
                else:
                    died = True
                    dead.add(target.id)
                    changes.append({"kind": "set_alive", "entity": target.id, "alive": False})
            changes.append({"kind": "set_hp", "entity": target.id, "hp": hp[target.id]})
        return ActionOutcome(
            **base,
            kind="attack",
            outcome=result,  # type: ignore[arg-type]
            target_id=target.id,
            target_name=target.name,
            damage=damage,
            damage_type="slashing" if damage else None,
            target_down=downed,
            target_died=died,
            submitted_text=f"attack {target.name}" if actor.kind == "pc" else "",
        )
    if choice in ("talk", "check"):
        npc = rng.choice(npcs)
        if choice == "check":
            return ActionOutcome(
                **base,
                kind="check",
                outcome=rng.choice(["success", "failure"]),
                skill=rng.choice(["insight", "perception", "intimidation"]),
                target_id=npc.id,
                target_name=npc.name,
                submitted_text=f"watch {npc.name} closely",
            )
        text = rng.choice(SAYINGS).format(npc=npc.name)
        return ActionOutcome(
            **base,
            kind="talk",
            outcome="done",
            target_id=npc.id,
            target_name=npc.name,
            submitted_text=text,
        )
    if choice == "give":
        held = [h for h in world.holdings if h.holder == actor.id and h.quantity > 0]
        other = rng.choice([p for p in pcs if p.id != actor.id])
        if not held:
            return ActionOutcome(
                **base, kind="help", outcome="success", target_id=other.id, target_name=other.name
            )
        holding = rng.choice(held)
        changes.append(
            {
                "kind": "transfer_item",
                "item": holding.item,
                "from_holder": actor.id,
                "to_holder": other.id,
                "quantity": 1,
            }
        )
        return ActionOutcome(
            **base,
            kind="give",
            outcome="success",
            target_id=other.id,
            target_name=other.name,
            item_id=holding.item,
            item_name=names[holding.item],
            submitted_text=f"give my {names[holding.item]} to {other.name}",
        )
    if choice == "help":
        other = rng.choice([p for p in pcs if p.id != actor.id])
        return ActionOutcome(
            **base, kind="help", outcome="success", target_id=other.id, target_name=other.name
        )
    if choice == "move" and exits:
        dest = rng.choice(exits)
        changes.append({"kind": "move_entity", "entity": actor.id, "location": dest})
        return ActionOutcome(
            **base,
            kind="move",
            outcome="done",
            destination_id=dest,
            destination_name=names[dest],
            submitted_text=f"go to {names[dest]}",
        )
    return ActionOutcome(**base, kind="hold", outcome="done")


def _knows(world: Any, npc: str) -> tuple[str, ...]:
    """What the ledger says an NPC knows: the threads it is party to (its heard-by, for these tests)."""
    return tuple(sorted(t.id for t in world.threads.values() if npc in t.parties))


def _records(world: Any, scenario: Any, here: list[Any], names: dict[str, str]) -> list[RetrievedRecord]:
    """Open threads and relationships binding someone present, rendered as retrieval renders them."""
    present = {e.id for e in here}
    out = []
    for thread in world.threads.values():
        bound = [p for p in thread.parties if p in present]
        if not bound or thread.visibility not in ("public", "party"):
            continue
        who = ", ".join(names[p] for p in bound)
        out.append(
            RetrievedRecord(
                ref=thread.id,
                text=f"{thread.id} ({thread.thread_kind}, {thread.status}, since session {thread.session}): "
                f"{thread.terms}",
                why=f"permanent {thread.thread_kind} involving {who} (present)",
            )
        )
    for edge in world.edges:
        if edge.visibility not in ("public", "party") or not {edge.source, edge.target} & present:
            continue
        reason = f": {edge.reason}" if edge.reason else ""
        out.append(
            RetrievedRecord(
                ref=f"{edge.source}>{edge.target}:{edge.edge_kind}",
                text=f"{names[edge.source]} -> {names[edge.target]}: {edge.edge_kind} "
                f"(attitude {edge.attitude:+d}, since session {edge.since_session}){reason}",
                why=f"permanent {edge.edge_kind} involving {names[edge.source]} (present)",
            )
        )
    return out
