"""The offline replay: a scenario's timeline applied in pure Python, to check it and to see its world.

:func:`final_world` returns the world after the last history entry as a frozen :class:`WorldView`, as one
viewer knows it (the assertion checker uses it without a database). :func:`replay_problems` is the same
replay in strict mode: every change the world does not allow at that point (an unknown or not yet created
record, a holder without the item, an illegal thread move) becomes a :class:`ScenarioProblem` at its key path.
It checks a file against the world as the file tells it; the store checks a live change against SQL
(:mod:`ledger.store.world`), with its own messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ledger.scenario.changes import (
    AddCondition,
    Correction,
    CreateEntity,
    CreateItem,
    CreateLocation,
    MoveEntity,
    OpenThread,
    RecordEvent,
    RemoveCondition,
    Retcon,
    SetAlive,
    SetEdge,
    SetFact,
    SetHp,
    ThreadTransition,
    TransferItem,
)
from ledger.scenario.format import Scenario, ScenarioError, ScenarioProblem
from ledger.scenario.timeline import ScenarioEvent, timeline
from ledger.scenario.values import CONDITIONS, ENTITY_PREFIXES, THREAD_ID_PREFIX, THREAD_ID_RE, VISIBILITY_RE
from ledger.store.visibility import Viewer
from ledger.store.world import audience_sees

__all__ = [
    "EdgeView",
    "EntityView",
    "FactView",
    "HoldingView",
    "ItemView",
    "LocationView",
    "ThreadView",
    "WorldView",
    "final_world",
    "replay_problems",
    "visible_scopes",
]


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)

    visibility: str


class EntityView(_View):
    """A PC, NPC or monster as it stands after the replay."""

    id: str
    kind: Literal["pc", "npc", "monster"]
    name: str
    aliases: tuple[str, ...]
    description: str
    alive: bool
    location: str | None
    hp: int | None
    conditions: tuple[str, ...]
    owner: str | None
    sheet: Mapping[str, Any] | None
    session: int
    visibility: str


class LocationView(_View):
    """A place and the places reachable from it."""

    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    exits: tuple[str, ...]
    session: int
    visibility: str


class ItemView(_View):
    """An item record (who holds it is in :attr:`WorldView.holdings`)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    properties: Mapping[str, Any]
    session: int
    visibility: str


class HoldingView(_View):
    """``holder`` (an entity or a location) holds ``quantity`` of ``item``."""

    item: str
    holder: str
    quantity: int
    session: int
    visibility: str


class EdgeView(_View):
    """A directed relationship; ``since_session`` is when it was first set, ``session`` when last changed."""

    source: str
    target: str
    edge_kind: str
    attitude: int
    reason: str
    since_session: int
    session: int
    visibility: str


class ThreadView(_View):
    """A foreshadowing thread and its current status."""

    id: str
    thread_kind: str
    status: str
    terms: str
    parties: tuple[str, ...]
    tags: tuple[str, ...]
    expires_session: int | None
    session: int
    status_session: int
    status_reason: str
    visibility: str


class FactView(_View):
    """A fact's current value."""

    key: str
    value: bool | int | str
    session: int
    visibility: str


class WorldView(BaseModel):
    """The world after replaying a scenario's timeline, as one viewer knows it. Pure data; no database.

    Every record carries its ``visibility``; :meth:`visibility_of` answers for any id (entity, location,
    item, thread, or fact key).
    """

    model_config = ConfigDict(frozen=True)

    campaign: str
    current_session: int
    viewer: str
    starting_location: str
    entities: Mapping[str, EntityView]
    locations: Mapping[str, LocationView]
    items: Mapping[str, ItemView]
    holdings: tuple[HoldingView, ...]
    edges: tuple[EdgeView, ...]
    threads: Mapping[str, ThreadView]
    facts: Mapping[str, FactView]
    history_ids: tuple[str, ...]

    def holders_of(self, item: str) -> dict[str, int]:
        """Return ``{holder id: quantity}`` for ``item`` (empty when nobody holds it)."""
        return {h.holder: h.quantity for h in self.holdings if h.item == item}

    def held_by(self, holder: str) -> dict[str, int]:
        """Return ``{item id: quantity}`` that ``holder`` (an entity or location) holds."""
        return {h.item: h.quantity for h in self.holdings if h.holder == holder}

    def holds(self, holder: str, item: str, quantity: int = 1) -> bool:
        """True when ``holder`` holds at least ``quantity`` of ``item``."""
        return self.holders_of(item).get(holder, 0) >= quantity

    def present_at(self, location: str) -> tuple[str, ...]:
        """Return the ids of living entities at ``location``."""
        return tuple(e.id for e in self.entities.values() if e.location == location and e.alive)

    def edges_between(self, source: str, target: str) -> tuple[EdgeView, ...]:
        """Return the edges from ``source`` to ``target``."""
        return tuple(e for e in self.edges if e.source == source and e.target == target)

    def find(self, name: str) -> tuple[str, ...]:
        """Return the ids whose name or an alias equals ``name`` (case-insensitive; ``the`` is optional)."""
        wanted = _norm_name(name)
        out: list[str] = []
        records: list[EntityView | ItemView | LocationView] = [
            *self.entities.values(),
            *self.items.values(),
            *self.locations.values(),
        ]
        for record in records:
            if any(_norm_name(n) == wanted for n in (record.name, *record.aliases, record.id)):
                out.append(record.id)
        return tuple(out)

    def visibility_of(self, record: str) -> str | None:
        """Return the visibility of an entity, location, item, thread or fact key, or None if unknown."""
        tables: tuple[Mapping[str, _View], ...] = (
            self.entities,
            self.locations,
            self.items,
            self.threads,
            self.facts,
        )
        for table in tables:
            if record in table:
                return str(table[record].visibility)
        return None


def _norm_name(name: str) -> str:
    text = " ".join(name.lower().split())
    return text.removeprefix("the ")


def visible_scopes(viewer: str) -> frozenset[str] | None:
    """Return the visibilities ``viewer`` may see (``None`` = everything, for ``gm``).

    ``public`` sees public; ``party`` (the channel) public + party; ``player:U`` also ``player:U``: the
    store's own rule (:meth:`ledger.store.visibility.Viewer.visible`), for a viewer named as in a file.
    """
    named = {"gm": Viewer.gm, "public": Viewer.public, "party": Viewer.party}
    if viewer in named:
        seen = named[viewer]().visible()
        return None if seen is None else frozenset(seen)
    if VISIBILITY_RE.match(viewer) and viewer.startswith("player:"):
        return frozenset(Viewer.player(viewer.removeprefix("player:")).visible() or ())
    raise ValueError(f"unknown viewer {viewer!r} (expected public, party, player:<id> or gm)")


class _Replay:
    """Applies changes to plain dicts, recording a problem for each change the world does not allow.

    ``strict`` replays (the full, gm view) report problems; a viewer's replay skips what it cannot see and
    quietly ignores changes that rest on something hidden from that viewer.
    """

    def __init__(self, scenario: Scenario, declared: set[str], scopes: frozenset[str] | None) -> None:
        self.scenario = scenario
        self.declared = declared
        self.scopes = scopes
        self.problems: list[ScenarioProblem] = []
        self.entities: dict[str, dict[str, Any]] = {}
        self.locations: dict[str, dict[str, Any]] = {}
        self.items: dict[str, dict[str, Any]] = {}
        self.holdings: dict[tuple[str, str], dict[str, Any]] = {}
        self.edges: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.threads: dict[str, dict[str, Any]] = {}
        self.facts: dict[str, dict[str, Any]] = {}
        self.history_ids: list[str] = []
        self.session = 1

    # -- helpers --------------------------------------------------------------------------------------------
    def _fail(self, path: str, message: str) -> None:
        if self.scopes is None:
            self.problems.append(ScenarioProblem(path=path, message=message))

    def _missing(self, what: str, ref: str) -> str:
        if ref in self.declared:
            return f"{what} {ref!r} does not exist yet in session {self.session}"
        return f"unknown {what} {ref!r}"

    def _need(self, table: Mapping[str, Any], what: str, ref: str, path: str) -> bool:
        if ref in table:
            return True
        self._fail(path, self._missing(what, ref))
        return False

    def _need_holder(self, ref: str, path: str) -> bool:
        if ref in self.entities or ref in self.locations:
            return True
        self._fail(path, self._missing("holder", ref))
        return False

    def _new_id(self, ref: str, path: str) -> bool:
        taken = ref in self.entities or ref in self.locations or ref in self.items or ref in self.threads
        if taken:
            self._fail(path, f"duplicate id {ref!r}")
        return not taken

    # -- apply ----------------------------------------------------------------------------------------------
    def apply(self, change: Any, path: str, *, in_retcon: bool = False) -> None:
        if self.scopes is not None and change.visibility not in self.scopes:
            return
        handler = getattr(self, f"_{change.kind}")
        handler(change, path, in_retcon)

    def _create_entity(self, c: CreateEntity, path: str, _: bool) -> None:
        prefix = ENTITY_PREFIXES[c.entity_kind]
        if not c.id.startswith(prefix):
            self._fail(f"{path}.id", f"a {c.entity_kind} id must start with {prefix!r}, got {c.id!r}")
        if c.location is not None and c.location not in self.locations:
            self._fail(f"{path}.location", self._missing("location", c.location))
        if self._new_id(c.id, f"{path}.id"):
            self.entities[c.id] = {
                "id": c.id,
                "kind": c.entity_kind,
                "name": c.name,
                "aliases": c.aliases,
                "description": c.description,
                "alive": True,
                "location": c.location,
                "hp": c.hp,
                "conditions": (),
                "owner": c.owner,
                "sheet": c.sheet,
                "session": self.session,
                "visibility": c.visibility,
            }

    def _create_location(self, c: CreateLocation, path: str, _: bool) -> None:
        if not c.id.startswith("loc-"):
            self._fail(f"{path}.id", f"a location id must start with 'loc-', got {c.id!r}")
        if self._new_id(c.id, f"{path}.id"):
            self.locations[c.id] = {
                "id": c.id,
                "name": c.name,
                "aliases": c.aliases,
                "description": c.description,
                "exits": (),
                "session": self.session,
                "visibility": c.visibility,
            }

    def _create_item(self, c: CreateItem, path: str, _: bool) -> None:
        if not c.id.startswith("item-"):
            self._fail(f"{path}.id", f"an item id must start with 'item-', got {c.id!r}")
        if not self._new_id(c.id, f"{path}.id"):
            return
        self.items[c.id] = {
            "id": c.id,
            "name": c.name,
            "aliases": c.aliases,
            "description": c.description,
            "properties": dict(c.properties),
            "session": self.session,
            "visibility": c.visibility,
        }
        if c.holder is not None and c.quantity > 0 and self._need_holder(c.holder, f"{path}.holder"):
            self._give(c.id, c.holder, c.quantity, c.visibility or "public")

    def _set_fact(self, c: SetFact, path: str, _: bool) -> None:
        self.facts[c.key] = {
            "key": c.key,
            "value": c.value,
            "session": self.session,
            "visibility": c.visibility,
        }
        if c.key.startswith("loc-") and c.key.endswith("-exits"):
            loc = c.key.removesuffix("-exits")
            exits = tuple(x for x in str(c.value).split(",") if x)
            for j, ex in enumerate(exits):
                self._need(
                    self.locations,
                    "location",
                    ex,
                    f"{path}[{j}]" if path.endswith(".exits") else f"{path}.value",
                )
            if loc in self.locations:
                self.locations[loc]["exits"] = exits

    def _set_alive(self, c: SetAlive, path: str, _: bool) -> None:
        if self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            self.entities[c.entity]["alive"] = c.alive

    def _move_entity(self, c: MoveEntity, path: str, _: bool) -> None:
        ok = self._need(self.entities, "entity", c.entity, f"{path}.entity")
        if self._need(self.locations, "location", c.location, f"{path}.location") and ok:
            self.entities[c.entity]["location"] = c.location

    def _set_hp(self, c: SetHp, path: str, _: bool) -> None:
        if self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            self.entities[c.entity]["hp"] = c.hp

    def _add_condition(self, c: AddCondition, path: str, _: bool) -> None:
        if c.condition not in CONDITIONS:
            self._fail(f"{path}.condition", f"unknown condition {c.condition!r}")
        elif self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            current = self.entities[c.entity]["conditions"]
            if c.condition not in current:
                self.entities[c.entity]["conditions"] = (*current, c.condition)

    def _remove_condition(self, c: RemoveCondition, path: str, _: bool) -> None:
        if self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            current = self.entities[c.entity]["conditions"]
            if c.condition not in current:
                self._fail(f"{path}.condition", f"{c.entity} is not {c.condition} at this point")
            self.entities[c.entity]["conditions"] = tuple(x for x in current if x != c.condition)

    def _give(self, item: str, holder: str, quantity: int, visibility: str) -> None:
        row = self.holdings.get((item, holder))
        if row is None:
            self.holdings[(item, holder)] = {
                "item": item,
                "holder": holder,
                "quantity": quantity,
                "session": self.session,
                "visibility": visibility,
            }
        else:
            row.update(quantity=row["quantity"] + quantity, session=self.session, visibility=visibility)

    def _transfer_item(self, c: TransferItem, path: str, _: bool) -> None:
        if not self._need(self.items, "item", c.item, f"{path}.item"):
            return
        stackable = self.items[c.item]["properties"].get("stackable") is True
        if not stackable:
            held = [h for (i, h) in self.holdings if i == c.item]
            if c.quantity != 1:
                self._fail(f"{path}.quantity", f"{c.item} is not stackable: quantity must be 1")
                return
            if c.from_holder is None and held:
                self._fail(f"{path}.from_holder", f"{c.item} already exists, held by {held[0]}")
                return
        if c.from_holder is not None:
            if not self._need_holder(c.from_holder, f"{path}.from_holder"):
                return
            have = self.holdings.get((c.item, c.from_holder), {}).get("quantity", 0)
            if have < c.quantity:
                holders = sorted(h for (i, h) in self.holdings if i == c.item) or ["nobody"]
                self._fail(
                    f"{path}.from_holder",
                    f"{c.from_holder} does not hold {c.quantity} of {c.item} in "
                    f"session {self.session} (holds {have}; held by {', '.join(holders)})",
                )
                return
        if c.to_holder is not None and not self._need_holder(c.to_holder, f"{path}.to_holder"):
            return
        if c.from_holder is not None:
            row = self.holdings[(c.item, c.from_holder)]
            row["quantity"] -= c.quantity
            if row["quantity"] == 0:
                del self.holdings[(c.item, c.from_holder)]
        if c.to_holder is not None:
            self._give(c.item, c.to_holder, c.quantity, c.visibility or "public")

    def _set_edge(self, c: SetEdge, path: str, _: bool) -> None:
        ok = self._need(self.entities, "entity", c.source, f"{path}.source")
        if not (self._need(self.entities, "entity", c.target, f"{path}.target") and ok):
            return
        key = (c.source, c.target, c.edge_kind)
        since = self.edges[key]["since_session"] if key in self.edges else self.session
        self.edges[key] = {
            "source": c.source,
            "target": c.target,
            "edge_kind": c.edge_kind,
            "attitude": c.attitude,
            "reason": c.reason,
            "since_session": since,
            "session": self.session,
            "visibility": c.visibility,
        }

    def _open_thread(self, c: OpenThread, path: str, _: bool) -> None:
        match = THREAD_ID_RE.match(c.id)
        assert match is not None  # the field pattern guarantees it
        if match.group(1) != THREAD_ID_PREFIX[c.thread_kind]:
            self._fail(
                f"{path}.id",
                f"a {c.thread_kind} thread id must start with "
                f"'{THREAD_ID_PREFIX[c.thread_kind]}-', got {c.id!r}",
            )
        if int(match.group(2)) != self.session:
            self._fail(
                f"{path}.id",
                f"thread {c.id!r} is numbered for session {int(match.group(2))} but opens "
                f"in session {self.session}",
            )
        for j, party in enumerate(c.parties):
            self._need(self.entities, "entity", party, f"{path}.parties[{j}]")
        if c.place is not None:
            self._need(self.locations, "location", c.place, f"{path}.place")
        if c.expires_session is not None and c.expires_session < self.session:
            self._fail(f"{path}.expires_session", f"expires in session {c.expires_session}, before it opens")
        if self._new_id(c.id, f"{path}.id"):
            self.threads[c.id] = {
                "id": c.id,
                "thread_kind": c.thread_kind,
                "status": "open",
                "terms": c.terms,
                "parties": c.parties,
                "tags": c.tags,
                "expires_session": c.expires_session,
                "session": self.session,
                "status_session": self.session,
                "status_reason": "",
                "visibility": c.visibility,
            }

    def _thread_transition(self, c: ThreadTransition, path: str, in_retcon: bool) -> None:
        if not self._need(self.threads, "thread", c.thread, f"{path}.thread"):
            return
        thread = self.threads[c.thread]
        old = thread["status"]
        legal = (old == "open" and c.status != "open") or (in_retcon and c.status == "open" and old != "open")
        if not legal:
            hint = " (reopening needs a retcon)" if c.status == "open" else ""
            self._fail(f"{path}.status", f"thread {c.thread} cannot go from {old} to {c.status}{hint}")
            return
        thread.update(status=c.status, status_session=self.session, status_reason=c.reason)

    def _record_event(self, c: RecordEvent, path: str, _: bool) -> None:
        named: list[tuple[str, Mapping[str, dict[str, Any]], str, str]] = [
            (ref, self.entities, "entity", f"{path}.participants[{j}]")
            for j, ref in enumerate(c.participants)
        ]
        if c.place is not None:
            named.append((c.place, self.locations, "location", f"{path}.place"))
        if c.thread is not None:
            named.append((c.thread, self.threads, "thread", f"{path}.thread"))
        for ref, table, what, where in named:
            if not self._need(table, what, ref, where):
                continue
            vis = str(table[ref]["visibility"])
            if not audience_sees(vis, c.visibility):
                self._fail(
                    where,
                    f"{what} {ref!r} is {vis}: an event seen as {c.visibility} may not name it "
                    "(give the entry that visibility)",
                )

    def _nested(self, c: Retcon | Correction, path: str) -> None:
        for j, inner in enumerate(c.changes):
            self.apply(inner, f"{path}.changes[{j}]", in_retcon=isinstance(c, Retcon))

    def _retcon(self, c: Retcon, path: str, _: bool) -> None:
        if c.target not in self.history_ids:
            self._fail(
                f"{path}.target", f"unknown history id {c.target!r} (a retcon targets an earlier entry)"
            )
        self._nested(c, path)

    def _correction(self, c: Correction, path: str, _: bool) -> None:
        known = (*self.history_ids, *self.entities, *self.locations, *self.items, *self.threads, *self.facts)
        if c.target not in known:
            self._fail(f"{path}.target", f"unknown record {c.target!r}")
        self._nested(c, path)

    # -- result ---------------------------------------------------------------------------------------------
    def run(self, events: Iterable[ScenarioEvent]) -> None:
        for event in events:
            self.session = event.session
            for change, path in zip(event.changes, event.change_paths, strict=True):
                self.apply(change, path)
            if event.path.startswith("history["):
                for j, witness in enumerate(event.witnesses):
                    self._need(self.entities, "witness", witness, f"{event.path}.witnesses[{j}]")
                for place in event.involved:
                    self._need(self.locations, "location", place, f"{event.path}.place")
                for change, path in zip(event.changes, event.change_paths, strict=True):
                    if path == event.path:
                        continue  # the entry's own narrative event: its participants are checked by kind
                    for j, witness in enumerate(change.witnesses or ()):
                        if witness not in event.witnesses:
                            self._need(self.entities, "witness", witness, f"{path}.witnesses[{j}]")
                if event.history_id:
                    self.history_ids.append(event.history_id)

    def view(self, viewer: str) -> WorldView:
        s = self.scenario
        return WorldView(
            campaign=s.campaign.name,
            current_session=s.campaign.current_session,
            viewer=viewer,
            starting_location=s.campaign.starting_location,
            entities={k: EntityView(**v) for k, v in self.entities.items()},
            locations={k: LocationView(**v) for k, v in self.locations.items()},
            items={k: ItemView(**v) for k, v in self.items.items()},
            holdings=tuple(HoldingView(**v) for v in self.holdings.values()),
            edges=tuple(EdgeView(**v) for v in self.edges.values()),
            threads={k: ThreadView(**v) for k, v in self.threads.items()},
            facts={k: FactView(**v) for k, v in self.facts.items()},
            history_ids=tuple(self.history_ids),
        )


def _declared_ids(s: Scenario) -> set[str]:
    ids: set[str] = set()
    for group in (s.locations, s.pcs, s.npcs, s.items, s.threads):
        ids.update(r.id for r in group)

    def walk(changes: Iterable[Any]) -> None:
        for c in changes:
            if isinstance(c, CreateEntity | CreateLocation | CreateItem | OpenThread):
                ids.add(c.id)
            elif isinstance(c, Retcon | Correction):
                walk(c.changes)

    for entry in s.history:
        walk(entry.changes)
    return ids


def final_world(scenario: Scenario, viewer: str = "gm") -> WorldView:
    """Replay ``scenario``'s timeline in pure Python and return the world after its last history entry.

    ``viewer`` (``gm`` by default, or ``public``/``party``/``player:<id>``) keeps only the changes that viewer
    may see, which gives the world as that viewer knows it. Raises :class:`ScenarioError` when a change is
    impossible (which :func:`parse_scenario` has already ruled out for a loaded scenario), and ``ValueError``
    for an unknown viewer.
    """
    scopes = visible_scopes(viewer)
    replay = _Replay(scenario, _declared_ids(scenario), scopes)
    replay.run(timeline(scenario))
    if replay.problems:
        raise ScenarioError("scenario", replay.problems)
    return replay.view(viewer)


def replay_problems(scenario: Scenario) -> list[ScenarioProblem]:
    """Replay ``scenario`` as the GM sees it and return every change its world does not allow, in order."""
    replay = _Replay(scenario, _declared_ids(scenario), None)
    replay.run(timeline(scenario))
    return replay.problems
