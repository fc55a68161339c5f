"""The round's scene, read from the ledger, and the translations between the layers around it.

The table reads the scene once when a round closes (who is where, with what), hands the rules engine a
:class:`rules.state.RoundState`, turns the engine's changes into ledger mutations, and turns the frozen
results into what the narrator and the checker need. Every translation is a pure function of its inputs,
so a round resumed after a crash is translated exactly as it was the first time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.intent_parser import ParseScene, SceneName
from bot.narrator.base import (
    ActionOutcome,
    Contest,
    NarrationRequest,
    RetrievedRecord,
    Reveal,
    SceneCreature,
    SceneLocation,
    SceneSummary,
)
from bot.narrator.voices import persona_from_sheet, speakable
from ledger import service
from ledger.check.snapshot import ActionResult as FactAction
from ledger.check.snapshot import RoundFacts
from ledger.store.records import EntityView, HoldingView, ItemView, LocationView
from ledger.store.visibility import Viewer
from rules.creatures import AbilityScores, Attack, Condition, DamageType, StatBlock, slugify
from rules.errors import RulesError
from rules.intents import Intent, IntentKind
from rules.round import ActionResult, RoundResolution
from rules.srd import SPELLS, build_pc, creature
from rules.state import (
    Combatant,
    ConditionAdded,
    ConditionRemoved,
    DeathSaves,
    DeathSaveTally,
    Died,
    EntityMoved,
    FellUnconscious,
    Holding,
    HpChanged,
    ItemTransferred,
    RoundState,
    SceneItem,
    Stabilized,
)

GM = Viewer.gm()
_CONDITIONS = {c.value for c in Condition}


@dataclass(frozen=True)
class Scene:
    """Everything the rules may touch this round: the creatures where the PCs are, and what lies there."""

    campaign_id: int
    locations: tuple[str, ...]  # where the PCs stand
    creatures: Mapping[str, EntityView]  # id -> creature at one of those locations
    holdings: Mapping[str, tuple[HoldingView, ...]]  # holder (creature or location) -> holdings
    items: Mapping[str, ItemView]  # item id -> item
    places: Mapping[str, LocationView]  # every location of the campaign
    exits: tuple[str, ...]  # locations one may move to from here (incl. the current ones)
    facts: Mapping[str, Any] = field(default_factory=dict)  # death-save tallies, stability

    def names(self) -> dict[str, str]:
        """Id -> display name of every creature, item and place the scene knows."""
        out = {p.id: p.name for p in self.places.values()}
        out.update({i.id: i.name for i in self.items.values()})
        out.update({c.id: c.name for c in self.creatures.values()})
        return out

    def name(self, ref: str | None) -> str:
        """The display name of a creature, item or place (the id when unknown)."""
        if ref is None:
            return ""
        if ref in self.creatures:
            return self.creatures[ref].name
        if ref in self.items:
            return self.items[ref].name
        if ref in self.places:
            return self.places[ref].name
        return ref


async def load_scene(session: Any, *, campaign_id: int, pc_ids: Sequence[str]) -> Scene:
    """Read the scene around the campaign's PCs (GM view: the rules see everything that is there)."""
    from ledger.store.reads import held_items
    from ledger.store.scene_read import scene_rows

    # The PCs, everyone standing where they stand, every place, what they and those places hold and the
    # scene's keyed facts, in ONE statement (:mod:`ledger.store.scene_read`), whatever the places.
    read = await scene_rows(session, campaign_id=campaign_id, pc_ids=list(pc_ids))
    around, rows, item_rows, both = read.entities, read.holdings, read.items, read.keyed
    wanted = set(pc_ids)
    pcs = [e for e in around if e.id in wanted]
    places = {p.id: p for p in read.places}
    here = sorted({pc.location for pc in pcs if pc.location})
    creatures: dict[str, EntityView] = {}
    for location in here:  # by place, then by id, as a read per place would list them
        creatures.update((e.id, e) for e in around if e.location == location)
    start = not here  # no PC stands anywhere: the campaign's start, whose creatures the read did not know
    if start:
        settings = (await service.get_campaign(session, campaign_id=campaign_id)).settings
        begin = settings.get("starting_location")
        here = [begin] if begin in places else sorted(places)[:1]
        for location in here:
            for entity in await service.entities_at(
                session, campaign_id=campaign_id, location_id=location, viewer=GM
            ):
                creatures[entity.id] = entity
    for pc in pcs:  # a PC without a location still acts where the party is
        creatures.setdefault(pc.id, pc)
    exit_keys = [f"{loc}-exits" for loc in here]
    state_keys = [f"{cid}-{name}" for cid in creatures for name in ("death-saves", "stable")]
    if start:  # their holdings and facts, read as the statement above reads them for a scene
        holders = [*creatures, *here]
        rows, item_rows = await held_items(session, campaign_id=campaign_id, holder_ids=holders, viewer=GM)
        both = await service.facts(
            session, campaign_id=campaign_id, viewer=GM, keys=[*exit_keys, *state_keys]
        )
    holdings: dict[str, tuple[HoldingView, ...]] = {h: () for h in [*creatures, *here]}
    for h in rows:
        if h.quantity > 0 and h.holder_id in holdings:
            holdings[h.holder_id] = (*holdings[h.holder_id], h)
    items: dict[str, ItemView] = {i.id: i for i in item_rows}
    exit_facts = [f for f in both if f.key in exit_keys]
    exits = {loc for loc in here}
    for fact in exit_facts:
        exits.update(x for x in str(fact.value).split(",") if x in places)
    if not exit_facts:
        exits.update(places)
    wanted = set(state_keys)
    facts = {f.key: f.value for f in both if f.key in wanted}
    return Scene(
        campaign_id=campaign_id,
        locations=tuple(here),
        creatures=creatures,
        holdings=holdings,
        items=items,
        places=places,
        exits=tuple(sorted(exits)),
        facts=facts,
    )


# --- ledger -> rules -----------------------------------------------------------------------------------


def stat_block(entity: EntityView) -> StatBlock:
    """The rules' stat block of a creature: a PC sheet, a bestiary entry, inline stats, or a commoner."""
    sheet = dict(entity.sheet or {})
    kind = entity.kind if entity.kind in ("pc", "npc", "monster") else "npc"
    if kind == "pc" and "abilities" in sheet:
        from ledger.scenario.timeline import rules_sheet

        rules = rules_sheet(sheet)
        spells = sheet.get("spells")  # a sheet may list its spells by name: ["Fire Bolt", "light"]
        if isinstance(spells, Sequence) and not isinstance(spells, str):
            listed = {slugify(str(s)) for s in spells} & set(SPELLS)
            rules["features"] = sorted({*rules.get("features", ()), *listed})
        char_class = sheet.get("class")
        return build_pc(rules, char_class=char_class if isinstance(char_class, str) else None)
    if sheet.get("bestiary"):
        block = creature(str(sheet["bestiary"])).stat_block(kind=kind)  # type: ignore[arg-type]
        return block.model_copy(update={"name": entity.name})
    stats = sheet.get("stats")
    if isinstance(stats, Mapping):
        abilities = stats.get("abilities") or {}
        order = ("str", "dex", "con", "int", "wis", "cha")
        scores = AbilityScores.of([int(abilities.get(k, 10)) for k in order])
        attacks = tuple(
            Attack(
                name=str(a["name"]),
                to_hit=int(a["to_hit"]),
                damage=str(a["damage"]),
                damage_type=DamageType(str(a.get("damage_type", "slashing"))),
            )
            for a in stats.get("attacks", ())
        )
        return StatBlock(
            name=entity.name,
            kind=kind,  # type: ignore[arg-type]
            cr=float(stats.get("challenge", 0)),
            abilities=scores,
            ac=int(stats.get("ac", 10)),
            max_hp=int(stats.get("max_hp", 4)),
            attacks=attacks,
        )
    return StatBlock(name=entity.name, kind=kind, cr=0, ac=10, max_hp=max(entity.hp or 4, 1))  # type: ignore[arg-type]


def _holding(h: HoldingView, items: Mapping[str, ItemView]) -> Holding:
    item = items.get(h.item_id)
    effect = (item.properties or {}).get("effect") if item else None
    return Holding(item=h.item_id, quantity=h.quantity, name=h.item_name, effect=effect)


def round_state(scene: Scene) -> RoundState:
    """The rules' view of the scene: combatants with their holdings, items lying around, reachable places."""
    combatants = []
    for cid in sorted(scene.creatures):
        entity = scene.creatures[cid]
        try:
            block = stat_block(entity)
        except RulesError:
            block = StatBlock(name=entity.name, kind="npc", cr=0, ac=10, max_hp=max(entity.hp or 4, 1))
        saves = str(scene.facts.get(f"{cid}-death-saves", "0/0")).split("/")
        combatants.append(
            Combatant(
                id=cid,
                name=entity.name,
                stats=block,
                hp=min(
                    entity.hp if entity.hp is not None else block.max_hp, max(block.max_hp, entity.hp or 0)
                ),
                conditions=tuple(Condition(c) for c in entity.conditions if c in _CONDITIONS),
                location=entity.location or scene.locations[0],
                dead=entity.alive is False,
                stable=bool(scene.facts.get(f"{cid}-stable", False)),
                death_saves=DeathSaves(successes=int(saves[0] or 0), failures=int(saves[-1] or 0)),
                holdings=tuple(_holding(h, scene.items) for h in scene.holdings.get(cid, ())),
            )
        )
    lying = [
        SceneItem(id=h.item_id, name=h.item_name, holder=loc, quantity=h.quantity)
        for loc in scene.locations
        for h in scene.holdings.get(loc, ())
    ]
    return RoundState(combatants=tuple(combatants), items=tuple(lying), locations=scene.exits)


def parse_scene(scene: Scene, actor: str) -> ParseScene:
    """What a player's free text may name: creatures present, items in reach, their attacks, places to go."""
    me = scene.creatures.get(actor)
    here = me.location if me and me.location else (scene.locations[0] if scene.locations else None)

    def names(entity: EntityView) -> SceneName:
        return SceneName(
            id=entity.id,
            name=entity.name,
            aliases=entity.aliases,
            kind=entity.kind,
            alive=entity.alive is not False,
        )

    creatures = tuple(names(e) for e in scene.creatures.values() if e.location == here or e.id == actor)

    def item(h: HoldingView) -> SceneName:
        aliases = scene.items[h.item_id].aliases if h.item_id in scene.items else ()
        return SceneName(id=h.item_id, name=h.item_name, aliases=aliases, kind="item")

    held = tuple(item(h) for h in scene.holdings.get(actor, ()))
    reach_holders = [here] + [c.id for c in creatures if c.id != actor]
    here_items = tuple(item(h) for holder in reach_holders if holder for h in scene.holdings.get(holder, ()))
    attacks: tuple[SceneName, ...] = ()
    if me is not None:
        try:
            attacks = tuple(SceneName(id=a.slug, name=a.name, kind="attack") for a in stat_block(me).attacks)
        except RulesError:
            attacks = ()
    spells: tuple[SceneName, ...] = ()
    if me is not None:
        try:
            features = stat_block(me).features
        except RulesError:
            features = ()
        spells = tuple(
            SceneName(
                id=f,
                name=SPELLS[f].name,
                # "heal" marks what "heal Orrin" may use; the alias "self" one that heals only its caster
                kind="heal" if SPELLS[f].form == "heal" else "spell",
                aliases=("self",) if SPELLS[f].self_only else (),
            )
            for f in features
            if f in SPELLS
        )
    places = tuple(
        SceneName(id=p, name=scene.places[p].name, aliases=scene.places[p].aliases, kind="location")
        for p in scene.exits
        if p in scene.places and p != here
    )
    return ParseScene(
        actor=actor,
        creatures=creatures,
        items_held=held,
        items_here=here_items,
        locations=places,
        attacks=attacks,
        spells=spells,
    )


# --- rules -> ledger -----------------------------------------------------------------------------------


def round_cause(session_number: int, round_number: int, index: int | None = None) -> str:
    """The cause of a round's changes: ``round-12.3#1`` points at action 1 of round 3 of session 12."""
    base = f"round-{session_number}.{round_number}"
    return base if index is None else f"{base}#{index}"


def mutations_for(
    resolution: RoundResolution, scene: Scene, *, session_number: int, round_number: int
) -> list[dict[str, Any]]:
    """The ledger mutations that record a resolved round, each pointing at the action (and roll) behind it."""
    out: list[dict[str, Any]] = []
    conditions = {cid: set(e.conditions) for cid, e in scene.creatures.items()}

    def witnesses(actor: str) -> list[str]:
        # Those standing where the action happened saw it; an NPC elsewhere never learns of it.
        where = scene.creatures[actor].location if actor in scene.creatures else None
        return sorted(cid for cid, e in scene.creatures.items() if where is None or e.location == where)

    for index, result in enumerate(resolution.results):
        intent = result.intent
        if intent is None or intent.kind is not IntentKind.TALK or result.outcome.value == "refused":
            continue
        # What was said is part of the record too, heard only by those present: NPC memory rests on it.
        said = f"{scene.name(result.actor)} to {scene.name(intent.target)}: {intent.text}".strip()
        out.append(
            {
                "kind": "set_fact",
                "key": f"{result.actor}-said-{session_number}-{round_number}",
                "value": said[:190],
                "cause": round_cause(session_number, round_number, index),
                "witnesses": witnesses(result.actor),
            }
        )
    for change in resolution.changes:
        cause = round_cause(session_number, round_number, change.cause)
        actor = resolution.results[change.cause].actor if change.cause < len(resolution.results) else ""
        common = {"cause": cause, "witnesses": witnesses(actor)}
        if isinstance(change, HpChanged):
            out.append({"kind": "set_hp", "entity": change.entity, "hp": change.after, **common})
        elif isinstance(change, ConditionAdded | FellUnconscious):
            condition = "unconscious" if isinstance(change, FellUnconscious) else change.condition.value
            if condition not in conditions.setdefault(change.entity, set()):
                conditions[change.entity].add(condition)
                out.append(
                    {"kind": "add_condition", "entity": change.entity, "condition": condition, **common}
                )
        elif isinstance(change, ConditionRemoved):
            if change.condition.value in conditions.setdefault(change.entity, set()):
                conditions[change.entity].discard(change.condition.value)
                out.append(
                    {
                        "kind": "remove_condition",
                        "entity": change.entity,
                        "condition": change.condition.value,
                        **common,
                    }
                )
        elif isinstance(change, Died):
            out.append({"kind": "set_alive", "entity": change.entity, "alive": False, **common})
        elif isinstance(change, Stabilized):
            out.append({"kind": "set_fact", "key": f"{change.entity}-stable", "value": True, **common})
        elif isinstance(change, DeathSaveTally):
            value = f"{change.successes}/{change.failures}"
            out.append({"kind": "set_fact", "key": f"{change.entity}-death-saves", "value": value, **common})
        elif isinstance(change, ItemTransferred):
            out.append(
                {
                    "kind": "transfer_item",
                    "item": change.item,
                    "from_holder": change.from_holder,
                    "to_holder": change.to_holder,
                    "quantity": change.quantity,
                    **common,
                }
            )
        elif isinstance(change, EntityMoved):
            out.append(
                {"kind": "move_entity", "entity": change.entity, "location": change.to_location, **common}
            )
    return out


# --- rules -> narrator and checker ---------------------------------------------------------------------


def _roll_line(result: ActionResult) -> str:
    parts = []
    for roll in result.rolls:
        faces = ", ".join(str(n) for n in roll.natural)
        mod = f" {'+' if roll.modifier >= 0 else '-'} {abs(roll.modifier)}" if roll.modifier else ""
        target = f" vs {roll.target}" if roll.target is not None else ""
        outcome = f" ({roll.outcome.replace('_', ' ')})" if roll.outcome and roll.outcome != "rolled" else ""
        parts.append(f"{roll.purpose}: {roll.expression} [{faces}]{mod} = {roll.total}{target}{outcome}")
    return "; ".join(parts)


def _contest_line(result: ActionResult) -> str:
    """``Athletics 26 vs Acrobatics 23``: the opposed totals, without the dice detail."""
    rolls = [r for r in result.rolls if r.purpose.startswith(("contest", "check"))]
    return " vs ".join(f"{r.purpose.split(':')[-1].replace('_', ' ').title()} {r.total}" for r in rolls[:2])


def roll_lines(result: ActionResult) -> tuple[str, ...]:
    """Each roll of an action on one line, for embeds and `/ledger record`."""
    return tuple(line for line in _roll_line(result).split("; ") if line)


def _outcome(result: ActionResult) -> str:
    if result.outcome.value == "refused":
        return "refused"
    kind = result.intent.kind if result.intent else None
    if kind in (IntentKind.ATTACK, IntentKind.ABILITY):
        attack_rolls = [r for r in result.rolls if r.purpose in ("attack", "spell_attack")]
        if attack_rolls:
            last = attack_rolls[-1].outcome
            if last == "critical_hit":
                return "critical"
            if last == "critical_miss":
                return "fumble"
            return "hit" if result.outcome.value == "success" else "miss"
    return {"success": "success", "failure": "failure", "done": "done"}.get(result.outcome.value, "done")


def _effects(resolution: RoundResolution, index: int, target: str | None) -> tuple[int, int, bool, bool]:
    damage = healing = 0
    down = died = False
    for change in resolution.changes:
        if change.cause != index:
            continue
        if isinstance(change, HpChanged) and (target is None or change.entity == target):
            delta = (change.after + change.temp_after) - (change.before + change.temp_before)
            if delta < 0:
                damage += -delta
            else:
                healing += delta
        elif isinstance(change, FellUnconscious) and change.entity == target:
            down = True
        elif isinstance(change, Died) and change.entity == target:
            died = True
    return damage, healing, down, died


def _item_name(scene: Scene, item: str | None) -> str | None:
    """An item's display name; one used up this round is no longer in the scene, so its id is put in words
    ("item-healing-potion" -> "healing potion") rather than shown to players as an id."""
    if not item:
        return None
    if item in scene.items:
        return scene.items[item].name
    return item.removeprefix("item-").replace("-", " ").strip() or None


def outcomes(
    resolution: RoundResolution, scene: Scene, texts: Mapping[str, str]
) -> tuple[ActionOutcome, ...]:
    """The resolved actions in initiative order, as the narrator is told them (authoritative)."""
    out = []
    for index, result in enumerate(resolution.results):
        intent = result.intent
        actor = scene.creatures.get(result.actor)
        if intent is not None:
            out.append(_outcome_of(resolution, scene, texts, index, result, intent, actor))
        if any(
            isinstance(c, Died) and c.cause == index and c.entity == result.actor for c in resolution.changes
        ):
            # A third failed death save: the creature died on its own turn, with or without a declared action.
            # Told as its own outcome (a "hold" on itself that kills it), so no narrator can leave it out.
            out.append(
                ActionOutcome(
                    actor_id=result.actor,
                    actor_name=scene.name(result.actor),
                    actor_is_pc=bool(actor and actor.kind == "pc"),
                    kind="hold",
                    outcome="done",
                    target_id=result.actor,
                    target_name=scene.name(result.actor) or None,
                    roll_line=_roll_line(result)[:400],
                    target_died=True,
                )
            )
    return tuple(out)


def _outcome_of(
    resolution: RoundResolution,
    scene: Scene,
    texts: Mapping[str, str],
    index: int,
    result: ActionResult,
    intent: Intent,
    actor: EntityView | None,
) -> ActionOutcome:
    """One declared action as the narrator is told it."""
    damage, healing, down, died = _effects(resolution, index, intent.target)
    rolled = sum(r.total for r in result.rolls if r.purpose.startswith("damage"))
    if (down or died) and rolled > damage:  # the blow was bigger than the HP it could take away
        damage = rolled
    contest = None
    if len(result.contest) > 1:
        others = [c for c in result.contest if c != result.actor]
        # Whoever ends up with the contested item won; a tie keeps the status quo (nobody, or its holder).
        winner = next(
            (
                c.to_holder
                for c in resolution.changes
                if isinstance(c, ItemTransferred) and c.item == intent.item and c.to_holder in result.contest
            ),
            None,
        )
        if winner is None and intent.target in result.contest:
            winner = intent.target
        contest = Contest(
            contested_by_id=others[0],
            contested_by_name=scene.name(others[0]),
            winner_id=winner or "",
            winner_name=scene.name(winner) if winner else "nobody",
            description=_contest_line(result),
        )
    return ActionOutcome(
        actor_id=result.actor,
        actor_name=scene.name(result.actor),
        actor_is_pc=bool(actor and actor.kind == "pc"),
        kind=intent.kind.value,  # type: ignore[arg-type]
        outcome=_outcome(result),  # type: ignore[arg-type]
        submitted_text=texts.get(result.actor, intent.text)[:1000],
        target_id=intent.target,
        target_name=scene.name(intent.target) or None,
        item_id=intent.item,
        item_name=_item_name(scene, intent.item),
        quantity=intent.quantity,
        skill=intent.skill,
        ability_name=intent.ability_name,
        destination_id=intent.destination,
        destination_name=scene.name(intent.destination) or None,
        roll_line=_roll_line(result)[:400],
        damage=damage,
        healing=healing,
        target_down=down,
        target_died=died,
        contest=contest,
        refusal_reason=result.reason if result.outcome.value == "refused" else None,
    )


def round_facts(
    resolution: RoundResolution,
    *,
    number: int,
    texts: Mapping[str, str],
    acted: Iterable[str],
    applied: Sequence[Mapping[str, Any]],
    scene: Scene,
) -> RoundFacts:
    """What the checker needs to hold a draft to this round's dice."""
    actions = []
    for index, result in enumerate(resolution.results):
        if result.intent is None:
            continue
        damage, _, down, died = _effects(resolution, index, result.intent.target)
        outcome = _outcome(result)
        actions.append(
            FactAction(
                id=round_cause(0, number, index),
                actor=result.actor,
                kind=result.intent.kind.value,
                target=result.intent.target,
                outcome="miss" if outcome == "fumble" else outcome if outcome != "done" else "success",  # type: ignore[arg-type]
                damage=damage,
                target_down=down,
                target_died=died,
            )
        )
    return RoundFacts(
        number=number,
        actions=tuple(actions),
        submissions=dict(texts),
        acted=frozenset(acted),
        changes=tuple(applied),
    )


def narration_request(
    *,
    campaign: str,
    session_number: int,
    round_number: int,
    scene: Scene,
    after: RoundResolution,
    outcomes_: tuple[ActionOutcome, ...],
    reveals: Sequence[Reveal],
    records: Sequence[RetrievedRecord],
    summaries: Sequence[SceneSummary],
    recent: Sequence[str],
    npc_knowledge: Mapping[str, tuple[str, ...]],
    players: Mapping[str, int],
    variety_seed: int,
    npc_refs: Mapping[str, Sequence[str]] | None = None,
) -> NarrationRequest:
    """The narrator's whole brief for one round: nothing outside it may be told.

    ``npc_knowledge`` holds each NPC's witnessed events in words (for a model's prompt); ``npc_refs`` (from
    :func:`npc_known_refs`) the ledger refs behind them. Without ``npc_refs`` the refs are read back from the
    words and from the records the NPC is bound to, so an NPC's lines still rest only on what it knows.
    """
    where = scene.locations[0] if scene.locations else ""
    place = scene.places.get(where)
    by_id = {c.id: c for c in after.state.combatants}
    creatures = []
    for cid, entity in sorted(scene.creatures.items()):
        now = by_id.get(cid)
        if entity.location not in scene.locations and now is None:
            continue
        is_pc = entity.kind == "pc"
        voice = None if is_pc else persona_from_sheet(entity.sheet)
        creature = SceneCreature(
            id=cid,
            name=entity.name,
            kind=entity.kind if entity.kind in ("pc", "npc", "monster") else "npc",  # type: ignore[arg-type]
            is_pc=is_pc,
            player_id=players.get(cid),
            alive=not (now.dead if now else entity.alive is False),
            down=bool(now and not now.dead and now.hp == 0),
            persona="",
            voice=voice,
            knows=() if is_pc else _known_refs(entity, scene, npc_knowledge, npc_refs, records),
            attitudes=() if is_pc else _attitudes(cid, records),
        )
        creatures.append(creature.model_copy(update={"persona": speakable(creature)}))
    return NarrationRequest(
        campaign=campaign,
        session=session_number,
        round=round_number,
        location=SceneLocation(
            id=where or "nowhere",
            name=place.name if place else "somewhere",
            description=place.description if place else "",
        ),
        creatures=tuple(creatures),
        outcomes=outcomes_,
        reveals=tuple(reveals),
        records=tuple(records),
        summaries=tuple(summaries),
        recent=tuple(recent),
        npc_knowledge=dict(npc_knowledge),
        variety_seed=variety_seed,
    )


_THREAD_ID = re.compile(r"\b(?:favor|favour|debt|oath|bounty|prophecy|quest)-\d+-\d+\b")
_EDGE_REF = re.compile(r"^(?P<source>[^>]+)>(?P<target>[^:]+):")
_ATTITUDE = re.compile(r"\(attitude ([+-]?\d+)")
_BOUND = re.compile(r"\b(?:involving|witnessed by)\s+(?P<who>.*?)\s*\(present\)")


def _known_refs(
    entity: EntityView,
    scene: Scene,
    knowledge: Mapping[str, Sequence[str]],
    refs: Mapping[str, Sequence[str]] | None,
    records: Sequence[RetrievedRecord],
) -> tuple[str, ...]:
    """The ledger refs an NPC witnessed or was told of: given by the table, or read back from its knowledge.

    From the words: thread ids, and every creature, item and place of the scene named in a witnessed event.
    From the records: a retrieved record bound to the NPC ("involving Old Wei, Greyrock (present)") is one it
    is party to or witnessed. Nothing else: an NPC who was not there does not know.
    """
    known: set[str] = set((refs or {}).get(entity.id, ()))
    lines = knowledge.get(entity.id, ())
    names = scene.names()
    for line in lines:
        known.update(_THREAD_ID.findall(line))
        known.update(ref for ref, name in names.items() if name and name in line)
    for record in records:
        bound = _BOUND.search(record.why)
        if bound and entity.name in [who.strip() for who in bound.group("who").split(",")]:
            known.add(record.ref)
    return tuple(sorted(known))


def _attitudes(npc: str, records: Sequence[RetrievedRecord]) -> tuple[tuple[str, int], ...]:
    """An NPC's attitude towards others, from the relationships (``source>target:kind``) the party may see."""
    out: dict[str, int] = {}
    for record in records:
        edge = _EDGE_REF.match(record.ref)
        attitude = _ATTITUDE.search(record.text)
        if edge and attitude and edge.group("source") == npc:
            out.setdefault(edge.group("target"), max(-100, min(100, int(attitude.group(1)))))
    return tuple(sorted(out.items()))


async def npc_known_refs(
    session: Any,
    *,
    campaign_id: int,
    npc_ids: Sequence[str],
    limit: int = 60,
    known: Mapping[str, Sequence[Any]] | None = None,
    threads: Iterable[Any] | None = None,
) -> dict[str, tuple[str, ...]]:
    """For each NPC, the refs of what it witnessed or was told (the ledger's heard-by) and its own threads.

    Read as the party may see them, so a line chosen from them never rests on a GM secret. Pass the result
    as ``npc_refs`` to :func:`narration_request`. ``known``: the NPCs' witnessed events already read (newest
    ``limit`` each, as the party sees them), so they are not read again. Two reads (plus the events' links)
    whatever the number of NPCs. ``threads``: every thread of the campaign (each with ``id``, ``parties`` and
    ``visibility``, as a checker snapshot of any audience that includes the party's holds them), so the
    NPCs' threads are not read again.
    """
    from ledger.store.reads import npc_knowledge_of

    party = Viewer.party()
    if known is None:
        known = await npc_knowledge_of(
            session, campaign_id=campaign_id, npc_ids=list(npc_ids), viewer=party, limit=limit
        )
    if threads is not None:  # as the read below: the threads the party may see binding one of the NPCs
        seen, wanted = party.visible() or (), set(npc_ids)
        bound: Sequence[Any] = [
            t for t in threads if t.visibility in seen and any(p in wanted for p in t.parties)
        ]
    else:
        bound = (
            await service.threads(session, campaign_id=campaign_id, viewer=party, parties=list(npc_ids))
            if npc_ids
            else []
        )
    out: dict[str, tuple[str, ...]] = {}
    for npc in npc_ids:
        refs: set[str] = set()
        for event in list(known.get(npc, ()))[:limit]:
            refs.add(event.ref)
            for key in (
                "entity",
                "item",
                "location",
                "from_holder",
                "to_holder",
                "source",
                "target",
                "thread",
                "id",
            ):
                value = event.payload.get(key)
                if isinstance(value, str) and value:
                    refs.add(value)
        refs.update(thread.id for thread in bound if npc in thread.parties)
        out[npc] = tuple(sorted(refs))
    return out


def intent_summary(intent: Intent, scene: Scene) -> str:
    """A short line a player recognises: ``attack Dock Thug with Longsword``."""
    name = scene.name
    kind = intent.kind
    if kind is IntentKind.ATTACK:
        with_ = f" with {name(intent.item)}" if intent.item else ""
        return f"attack {name(intent.target)}{with_}" + (" (to subdue)" if intent.spare else "")
    if kind is IntentKind.ABILITY:
        on = f" on {name(intent.target)}" if intent.target else ""
        return f"use {(intent.ability_name or '').replace('-', ' ')}{on}"
    if kind is IntentKind.CHECK:
        vs = f" against {name(intent.target)}" if intent.target else ""
        return f"{(intent.skill or '').replace('_', ' ')} check{vs}"
    if kind is IntentKind.USE_ITEM:
        return f"use {name(intent.item)}"
    if kind is IntentKind.GIVE:
        return f"give {intent.quantity} x {name(intent.item)} to {name(intent.target)}"
    if kind is IntentKind.TAKE:
        frm = f" from {name(intent.target)}" if intent.target else ""
        return f"take {intent.quantity} x {name(intent.item)}{frm}"
    if kind is IntentKind.MOVE:
        return f"go to {name(intent.destination)}"
    if kind is IntentKind.TALK:
        return f"talk to {name(intent.target)}"
    if kind is IntentKind.HELP:
        return f"help {name(intent.target)}"
    return "hold"
