"""A scenario as its timeline: per source session its setup records, then its history, as groups of changes.

:func:`timeline` gives the ordered :class:`ScenarioEvent` s that the SQL loader (:mod:`.load`) applies one
by one, so loading a scenario gives the same ledger as playing it, and that the offline replay
(:mod:`.replay`) walks to validate a file and build its world.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from ledger.scenario.changes import (
    AddCondition,
    Change,
    Correction,
    CreateEntity,
    CreateItem,
    CreateLocation,
    OpenThread,
    RecordEvent,
    Retcon,
    SetAlive,
    SetEdge,
    SetFact,
    ThreadTransition,
    TransferItem,
)
from ledger.scenario.format import HistoryEntry, Scenario
from ledger.scenario.pronouns import pronoun_of, pronouns_from_ties
from ledger.store.narrative import NarrativeKind

__all__ = ["UNLABELLED_EVENT", "ScenarioEvent", "narrative_event", "rules_sheet", "timeline"]


class ScenarioEvent(BaseModel):
    """One group of changes to apply in one transaction: a session's setup records, or one history entry.

    ``change_paths[i]`` is the key path in the file that ``changes[i]`` came from, for error messages.
    Every change has its ``visibility`` and ``witnesses`` filled in (inherited from the entry when omitted).
    ``involved`` are records every event of the group also involves (the place of an entry with changes).
    """

    model_config = ConfigDict(frozen=True)

    path: str
    history_id: str | None
    session: int
    round: int | None
    summary: str
    importance: int
    permanent: bool
    witnesses: tuple[str, ...]
    visibility: str
    changes: tuple[Change, ...]
    change_paths: tuple[str, ...]
    involved: tuple[str, ...] = ()


def _inherit(change: Any, visibility: str, witnesses: tuple[str, ...]) -> Any:
    """Fill in the ``visibility`` and ``witnesses`` that ``change`` (and any nested change) leaves out."""
    update: dict[str, Any] = {}
    if "visibility" not in change.model_fields_set:
        update["visibility"] = visibility
    if "witnesses" not in change.model_fields_set:
        update["witnesses"] = witnesses
    if isinstance(change, Retcon | Correction):
        inner_vis = update.get("visibility", change.visibility)
        inner_wit = update.get("witnesses", change.witnesses)
        update["changes"] = tuple(_inherit(c, inner_vis, inner_wit) for c in change.changes)
    return change.model_copy(update=update) if update else change


def _setup_changes(s: Scenario) -> dict[int, list[tuple[str, Any]]]:
    """Map each source session to its setup changes (path, change), in dependency order."""
    by_session: dict[int, list[tuple[str, Any]]] = {}

    def put(session: int, path: str, change: Any) -> None:
        by_session.setdefault(session, []).append((path, change))

    for i, loc in enumerate(s.locations):
        put(
            loc.session,
            f"locations[{i}]",
            CreateLocation(
                id=loc.id,
                name=loc.name,
                aliases=loc.aliases,
                description=loc.description,
                visibility=loc.visibility,
                witnesses=(),
            ),
        )
    for i, loc in enumerate(s.locations):
        if loc.exits:
            put(
                loc.session,
                f"locations[{i}].exits",
                SetFact(
                    key=f"{loc.id}-exits", value=",".join(loc.exits), visibility=loc.visibility, witnesses=()
                ),
            )
    ties = pronouns_from_ties(
        ((r.source, r.target, r.reason) for r in s.relationships),
        {p.id: (p.name, *p.aliases) for p in s.pcs} | {n.id: (n.name, *n.aliases) for n in s.npcs},
    )
    for i, pc in enumerate(s.pcs):
        path = f"pcs[{i}]"
        # A rules.srd.SimpleSheet plus "class": rules_sheet(sheet) drops the extras for rules.srd.build_pc.
        sheet = {
            "class": pc.char_class,
            "name": pc.name,
            "level": pc.level,
            "abilities": pc.abilities.as_rules_dict(),
            "skills": list(pc.skills),
            "weapons": list(pc.weapons),
            "armor_ac": pc.ac,
            "max_hp": pc.max_hp or pc.hp,
        }
        pronoun = pronoun_of(
            given=pc.pronoun,
            name=pc.name,
            aliases=pc.aliases,
            description=pc.description,
            tie=ties.get(pc.id),
        )
        if pronoun is not None:
            sheet["pronoun"] = pronoun
        location = pc.location or s.campaign.starting_location
        put(
            pc.session,
            path,
            CreateEntity(
                id=pc.id,
                entity_kind="pc",
                name=pc.name,
                aliases=pc.aliases,
                description=pc.description,
                owner=None if pc.owner is None else str(pc.owner),
                sheet=sheet,
                location=location,
                hp=pc.hp,
                visibility=pc.visibility,
                witnesses=(),
            ),
        )
        _status_changes(
            put, pc.session, path, pc.id, pc.alive, pc.conditions, pc.visibility, pc.condition_sources
        )
    for i, npc in enumerate(s.npcs):
        path = f"npcs[{i}]"
        npc_sheet: dict[str, Any] = {"hostile": npc.hostile}
        if npc.bestiary:
            npc_sheet["bestiary"] = npc.bestiary
        if npc.stats:
            npc_sheet["stats"] = npc.stats.model_dump(by_alias=True)
        if npc.persona:  # a free-text note, or a persona table as bot.narrator.voices reads it (issue 13)
            npc_sheet["persona"] = (
                npc.persona
                if isinstance(npc.persona, str)
                else npc.persona.model_dump(mode="json", exclude_defaults=True)
            )
        if npc.speech:
            npc_sheet["speech"] = npc.speech
        top = _npc_max_hp(npc.max_hp, npc.stats.max_hp if npc.stats else None, npc.bestiary)
        if top is not None:
            npc_sheet["max_hp"] = top  # what full health is, for the check's "unhurt" at low hp
        npc_pronoun = pronoun_of(
            given=npc.pronoun,
            name=npc.name,
            aliases=npc.aliases,
            description=npc.description,
            persona=npc.persona if isinstance(npc.persona, str) else "",
            tie=ties.get(npc.id),
        )
        if npc_pronoun is not None:
            npc_sheet["pronoun"] = npc_pronoun
        put(
            npc.session,
            path,
            CreateEntity(
                id=npc.id,
                entity_kind=npc.kind,
                name=npc.name,
                aliases=npc.aliases,
                description=npc.description,
                sheet=npc_sheet,
                location=npc.location,
                hp=npc.hp if npc.hp is not None else (npc.stats.max_hp if npc.stats else None),
                visibility=npc.visibility,
                witnesses=(),
            ),
        )
        _status_changes(
            put, npc.session, path, npc.id, npc.alive, npc.conditions, npc.visibility, npc.condition_sources
        )
        if npc.home is not None:
            # Where the NPC lives, apart from where they were last seen (their location).
            put(
                npc.session,
                f"{path}.home",
                SetFact(key=f"{npc.id}-home", value=npc.home, visibility=npc.visibility, witnesses=()),
            )
    for i, item in enumerate(s.items):
        path = f"items[{i}]"
        holder, quantity = item.holder, item.quantity
        if item.holdings:
            holder, quantity = item.holdings[0].holder, item.holdings[0].quantity
        put(
            item.session,
            path,
            CreateItem(
                id=item.id,
                name=item.name,
                aliases=item.aliases,
                description=item.description,
                properties=item.properties,
                holder=holder,
                quantity=quantity,
                visibility=item.visibility,
                witnesses=(),
            ),
        )
        if item.fate is not None:
            # why nobody holds it any more, a fact of the item the check names ("the lantern was sold")
            put(
                item.session,
                f"{path}.fate",
                SetFact(key=f"{item.id}-fate", value=item.fate, visibility=item.visibility, witnesses=()),
            )
        for j, extra in enumerate(item.holdings[1:], start=1):
            put(
                item.session,
                f"{path}.holdings[{j}]",
                TransferItem(
                    item=item.id,
                    to_holder=extra.holder,
                    quantity=extra.quantity,
                    visibility=item.visibility,
                    witnesses=(),
                ),
            )
    for i, rel in enumerate(s.relationships):
        put(
            rel.since_session,
            f"relationships[{i}]",
            SetEdge(
                source=rel.source,
                target=rel.target,
                edge_kind=rel.edge_kind,
                attitude=rel.attitude,
                reason=rel.reason,
                visibility=rel.visibility,
                witnesses=(),
            ),
        )
    for i, th in enumerate(s.threads):
        path = f"threads[{i}]"
        put(
            th.source_session,
            path,
            OpenThread(
                id=th.id,
                thread_kind=th.thread_kind,
                terms=th.terms,
                parties=th.parties,
                tags=(*th.tags, *th.aliases),
                expires_session=th.expires_session,
                place=th.place,
                visibility=th.visibility,
                witnesses=(),
            ),
        )
        for party, role in th.roles.items():
            # who owes whom (who swore to whom), a fact of the thread per party
            put(
                th.source_session,
                f"{path}.roles.{party}",
                SetFact(key=f"{th.id}-role-{party}", value=role, visibility=th.visibility, witnesses=()),
            )
        if th.status != "open":
            put(
                th.source_session,
                f"{path}.status",
                ThreadTransition(
                    thread=th.id,
                    status=th.status,
                    reason=th.status_reason or f"{th.status} as the scenario says",
                    visibility=th.visibility,
                    witnesses=(),
                ),
            )
    for i, fact in enumerate(s.facts):
        put(
            fact.session,
            f"facts[{i}]",
            SetFact(key=fact.key, value=fact.value, visibility=fact.visibility, witnesses=()),
        )
    for i, faction in enumerate(s.factions):
        path = f"factions[{i}]"
        vis = faction.visibility
        # A faction is facts naming it, its leader and members, and a ``member`` edge from each member to the
        # leader (what recall walks from someone present); no table of its own.
        for key, value in (
            ("name", faction.name),
            ("leader", faction.leader),
            ("members", ",".join(faction.members)),
        ):
            put(
                faction.session,
                path,
                SetFact(key=f"{faction.id}-{key}", value=value, visibility=vis, witnesses=()),
            )
        for j, member in enumerate(faction.members):
            if member != faction.leader:
                put(
                    faction.session,
                    f"{path}.members[{j}]",
                    SetEdge(
                        source=member,
                        target=faction.leader,
                        edge_kind="member",
                        attitude=50,
                        reason=f"member of {faction.name}",
                        visibility=vis,
                        witnesses=(),
                    ),
                )
    return by_session


_RULES_SHEET_KEYS = frozenset(
    {"name", "level", "abilities", "skills", "saves", "weapons", "armor_ac", "max_hp", "speed", "features",
     "spellcasting"}
)  # fmt: skip


def rules_sheet(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Return a PC ``sheet`` (as a scenario stores it) without the keys the rules engine does not read.

    ``rules.srd.build_pc(rules_sheet(entity.sheet))`` gives the PC's stat block.
    """
    return {k: v for k, v in sheet.items() if k in _RULES_SHEET_KEYS}


def _npc_max_hp(given: int | None, stats: int | None, bestiary: str | None) -> int | None:
    """An NPC's full health: the file's ``max_hp``, else its inline stats', else its bestiary entry's."""
    if given is not None or stats is not None:
        return given if given is not None else stats
    if bestiary is None:
        return None
    from rules.errors import RulesError
    from rules.srd import creature

    try:
        return creature(bestiary).hp
    except RulesError:
        return None  # an unknown entry is reported by validation, not here


def _status_changes(
    put: Any,
    session: int,
    path: str,
    entity: str,
    alive: bool,
    conditions: tuple[str, ...],
    visibility: str,
    sources: Mapping[str, str],
) -> None:
    if not alive:
        put(
            session,
            f"{path}.alive",
            SetAlive(entity=entity, alive=False, visibility=visibility, witnesses=()),
        )
    for j, cond in enumerate(conditions):
        put(
            session,
            f"{path}.conditions[{j}]",
            AddCondition(entity=entity, condition=cond, visibility=visibility, witnesses=()),
        )
        if cond in sources:
            # The condition fact names what caused it ("charmed" by npc-vesna) instead of only being true.
            put(
                session,
                f"{path}.condition_sources.{cond}",
                SetFact(
                    key=f"{entity}-condition-{cond}", value=sources[cond], visibility=visibility, witnesses=()
                ),
            )


def timeline(scenario: Scenario) -> tuple[ScenarioEvent, ...]:
    """Return the scenario as ordered groups of changes: per session, its setup records, then its history.

    Applying these events in order to an empty ledger (one transaction each) reproduces the campaign; every
    change is a ``ledger.store.vocabulary`` change with the same ``kind`` and field names.
    """
    setup = _setup_changes(scenario)
    sessions = sorted(set(setup) | {h.session for h in scenario.history})
    by_session: dict[int, list[tuple[int, HistoryEntry]]] = {}
    for i, entry in enumerate(scenario.history):
        by_session.setdefault(entry.session, []).append((i, entry))
    events: list[ScenarioEvent] = []
    for session in sessions:
        if session in setup:
            pairs = setup[session]
            events.append(
                ScenarioEvent(
                    path="setup",
                    history_id=None,
                    session=session,
                    round=None,
                    summary=f"Scenario setup: the world as of session {session}",
                    importance=3,
                    permanent=True,
                    witnesses=(),
                    visibility="gm",
                    changes=tuple(c for _, c in pairs),
                    change_paths=tuple(p for p, _ in pairs),
                )
            )
        for i, entry in by_session.get(session, ()):
            path = f"history[{i}]"
            changes = [_inherit(c, entry.visibility, entry.witnesses) for c in entry.changes]
            paths = [f"{path}.changes[{j}]" for j in range(len(entry.changes))]
            narrative = narrative_event(entry)
            if narrative is not None:
                changes.append(narrative)
                paths.append(path)
            events.append(
                ScenarioEvent(
                    path=path,
                    history_id=entry.id,
                    session=entry.session,
                    round=entry.round,
                    summary=entry.summary,
                    importance=entry.importance,
                    permanent=entry.permanent,
                    witnesses=entry.witnesses,
                    visibility=entry.visibility,
                    changes=tuple(changes),
                    change_paths=tuple(paths),
                    involved=(entry.place,) if narrative is None and entry.place is not None else (),
                )
            )
    return tuple(events)


#: The kind an entry with neither ``event`` nor ``changes`` is kept as: words among its witnesses.
UNLABELLED_EVENT: Final[NarrativeKind] = "talk"


def narrative_event(entry: HistoryEntry) -> RecordEvent | None:
    """The ``record_event`` a history entry writes after its changes, or None (changes and no ``event``).

    An entry with ``event`` records that kind with its participants, place and thread. An entry with
    neither ``event`` nor ``changes`` (an older file's note of what happened) is kept too, as a
    :data:`UNLABELLED_EVENT` whose participants are its witnesses, so no entry of a file is dropped; an
    entry with changes and no ``event`` is its changes (its ``place`` joins what they involve). The
    participants are witnesses of the event as well as the entry's ``witnesses``.
    """
    if entry.event is None and entry.changes:
        return None
    participants = entry.participants or (entry.witnesses if entry.event is None else ())
    return RecordEvent(
        event_kind=entry.event or UNLABELLED_EVENT,
        summary=entry.summary,
        participants=participants,
        place=entry.place,
        thread=entry.thread,
        visibility=entry.visibility,
        # Those it happened between saw it happen: they are witnesses too (what an NPC knows).
        witnesses=tuple(dict.fromkeys((*entry.witnesses, *participants))),
    )
