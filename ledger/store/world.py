"""How each change moves the world: one code path for live writes and for replaying the event log.

:class:`WorldDraft` holds the part of the world a batch of changes touches (loaded on demand through
``_load_*`` hooks), validates each change against it and records the new values. ``ledger.service`` subclasses
it to load from and write back to SQL; :func:`ledger.service.rebuild_state` uses it as-is to replay every
event into fresh memory, which is how the projections are checked against the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from ledger.errors import (
    DuplicateRecord,
    IllegalThreadTransition,
    InvalidChange,
    NotEnoughHeld,
    UnknownRecord,
)
from ledger.store.vocabulary import (
    AddCondition,
    BasicChange,
    Correction,
    CreateEntity,
    CreateItem,
    CreateLocation,
    MoveEntity,
    Mutation,
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

ENTITY_FIELDS = ("alive", "location", "hp")


@dataclass(frozen=True)
class Provenance:
    """Where a projected value came from: session, round, the event ref that set it, and its visibility."""

    session_number: int
    round_number: int | None
    cause: str
    visibility: str


@dataclass
class FactRec:
    subject: str | None
    field: str
    value: Any
    meta: Provenance


@dataclass
class ThreadRec:
    kind: str
    status: str
    terms: str
    tags: list[str]
    parties: list[str]
    expires_session: int | None
    opened_session: int
    meta: Provenance
    new: bool = False


@dataclass
class EdgeRec:
    attitude: int
    reason: str
    since_session: int
    meta: Provenance


@dataclass
class RecordRow:
    """A new entity, location or item row (``table`` says which) with its names for the name index."""

    table: str
    id: str
    values: dict[str, Any]
    names: list[str]
    meta: Provenance


@dataclass
class EventDraft:
    """One event about to be written: its ref, kind, payload and who saw / is involved."""

    seq: int
    ref: str
    kind: str
    payload: dict[str, Any]
    cause: str
    visibility: str
    supersedes: str | None
    witnesses: set[str] = field(default_factory=set)
    involved: set[str] = field(default_factory=set)
    # When set, this event's own source session, round, importance and permanence (a bulk load stages events
    # of many sessions at once); otherwise the batch's.
    session_number: int | None = None
    round_number: int | None = None
    importance: int | None = None
    permanent: bool | None = None


_MISSING = object()


def audience_sees(record_visibility: str, event_visibility: str) -> bool:
    """True when everyone who may see an event of ``event_visibility`` may also see a record of
    ``record_visibility`` (so naming the record in the event tells nobody a secret)."""
    if record_visibility in ("public", event_visibility) or event_visibility == "gm":
        return True
    return record_visibility == "party" and event_visibility.startswith("player:")


def event_ref(seq: int) -> str:
    """The readable ref of the ``seq``-th event of a campaign: ``ev-000123``."""
    return f"ev-{seq:06d}"


def fact_key(subject: str, field_name: str) -> str:
    """The fact key of an entity field: ``npc-harlan-voss`` + ``alive`` -> ``npc-harlan-voss-alive``."""
    return f"{subject}-{field_name}"


def value_text(value: Any) -> str:
    """A fact value as indexed text (``true``/``false``, digits, or the string itself)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)[:200]


class WorldDraft:
    """The slice of one campaign's world a batch of changes touches, plus what the batch changed.

    Reads go through ``_load_*`` (nothing in memory -> nothing there); subclasses load from SQL.
    """

    def __init__(self) -> None:
        self.records: dict[str, str | None] = {}  # id -> "entity" | "location" | "item" | None (absent)
        self.new_records: list[RecordRow] = []
        self.facts: dict[str, FactRec | None] = {}
        self.dirty_facts: set[str] = set()
        self.holdings: dict[tuple[str, str], tuple[int, Provenance | None]] = {}
        self.dirty_holdings: set[tuple[str, str]] = set()
        self.threads: dict[str, ThreadRec | None] = {}
        self.dirty_threads: set[str] = set()
        self.edges: dict[tuple[str, str, str], EdgeRec | None] = {}
        self.dirty_edges: set[tuple[str, str, str]] = set()
        self.edge_history: list[tuple[str, str, str, int, str, Provenance]] = []
        self.events_known: dict[str, bool] = {}
        self.events: list[EventDraft] = []
        self.visibilities: dict[str, str | None] = {}  # entity/location/item id -> its visibility

    # --- loading hooks (overridden by the SQL draft) ---------------------------------------------------

    async def _load_record(self, ref: str) -> str | None:
        return None

    async def _load_fact(self, key: str) -> FactRec | None:
        return None

    async def _load_holding(self, item: str, holder: str) -> tuple[int, Provenance | None]:
        return (0, None)

    async def _load_thread(self, thread_id: str) -> ThreadRec | None:
        return None

    async def _load_edge(self, key: tuple[str, str, str]) -> EdgeRec | None:
        return None

    async def _load_event(self, ref: str) -> bool:
        return False

    async def _load_visibility(self, ref: str) -> str | None:
        return None

    # --- cached reads -------------------------------------------------------------------------------------

    async def record_kind(self, ref: str) -> str | None:
        if ref not in self.records:
            self.records[ref] = await self._load_record(ref)
        return self.records[ref]

    async def fact(self, key: str) -> FactRec | None:
        if key not in self.facts:
            self.facts[key] = await self._load_fact(key)
        return self.facts[key]

    async def held(self, item: str, holder: str) -> int:
        if (item, holder) not in self.holdings:
            self.holdings[(item, holder)] = await self._load_holding(item, holder)
        return self.holdings[(item, holder)][0]

    async def thread(self, thread_id: str) -> ThreadRec | None:
        if thread_id not in self.threads:
            self.threads[thread_id] = await self._load_thread(thread_id)
        return self.threads[thread_id]

    async def edge(self, key: tuple[str, str, str]) -> EdgeRec | None:
        if key not in self.edges:
            self.edges[key] = await self._load_edge(key)
        return self.edges[key]

    async def record_visibility(self, ref: str) -> str | None:
        if ref not in self.visibilities:
            self.visibilities[ref] = await self._load_visibility(ref)
        return self.visibilities[ref]

    async def event_exists(self, ref: str) -> bool:
        if ref not in self.events_known:
            self.events_known[ref] = await self._load_event(ref)
        return self.events_known[ref]

    # --- checks ------------------------------------------------------------------------------------------

    async def _need(self, ref: str, *kinds: str) -> str:
        kind = await self.record_kind(ref)
        if kind is None or kind not in kinds:
            what = " or ".join(kinds)
            raise UnknownRecord(f"no {what} called {ref!r} in this campaign")
        return kind

    async def _fresh(self, ref: str) -> None:
        if await self.record_kind(ref) is not None:
            raise DuplicateRecord(f"{ref!r} already exists in this campaign")

    async def _named_in(self, ref: str, what: str, event_visibility: str) -> None:
        """Refuse naming a record in an event seen by people who may not see that record."""
        vis = await self.record_visibility(ref)
        if vis is not None and not audience_sees(vis, event_visibility):
            raise InvalidChange(
                f"{what} {ref!r} is {vis}: an event seen as {event_visibility} may not name it"
            )

    # --- writes into the draft --------------------------------------------------------------------------

    def _set_fact(self, key: str, subject: str | None, field_name: str, value: Any, meta: Provenance) -> None:
        self.facts[key] = None if value is None else FactRec(subject, field_name, value, meta)
        self.dirty_facts.add(key)

    async def _add_held(self, item: str, holder: str, delta: int, meta: Provenance) -> None:
        have = await self.held(item, holder)
        self.holdings[(item, holder)] = (have + delta, meta)
        self.dirty_holdings.add((item, holder))

    async def _resolve_subject(self, key: str) -> tuple[str | None, str]:
        """Split a fact key into the longest known record id it starts with and the rest."""
        parts = key.split("-")
        for cut in range(len(parts) - 1, 0, -1):
            subject = "-".join(parts[:cut])
            if await self.record_kind(subject) is not None:
                return subject, "-".join(parts[cut:])
        return None, key

    # --- applying ------------------------------------------------------------------------------------------

    async def apply(self, change: Mutation, *, event: EventDraft, base: Provenance) -> None:
        """Validate ``change`` against the draft and record its effects; raise a LedgerError if it cannot."""
        event.witnesses.update(change.witnesses)
        if isinstance(change, Retcon | Correction):
            if isinstance(change, Retcon):
                if not await self.event_exists(change.target):
                    raise UnknownRecord(f"no event {change.target!r} to retcon in this campaign")
            elif (
                not await self.event_exists(change.target)
                and await self.record_kind(change.target) is None
                and await self.thread(change.target) is None
                and await self.fact(change.target) is None
            ):
                raise UnknownRecord(f"no record {change.target!r} to correct in this campaign")
            event.involved.add(change.target)
            for inner in change.changes:
                meta = Provenance(base.session_number, base.round_number, event.ref, inner.visibility)
                await self._apply_basic(inner, meta, event, relaxed=isinstance(change, Retcon))
                event.witnesses.update(inner.witnesses)
            return
        meta = Provenance(base.session_number, base.round_number, event.ref, change.visibility)
        await self._apply_basic(change, meta, event, relaxed=False)

    async def _apply_basic(self, c: BasicChange, meta: Provenance, ev: EventDraft, *, relaxed: bool) -> None:
        if isinstance(c, CreateEntity):
            await self._fresh(c.id)
            if c.location is not None:
                await self._need(c.location, "location")
            self.records[c.id] = "entity"
            self.visibilities[c.id] = meta.visibility
            values = {
                "kind": c.entity_kind,
                "name": c.name,
                "aliases": list(c.aliases),
                "owner_user_id": c.owner,
                "sheet": c.sheet,
                "description": c.description,
            }
            self.new_records.append(RecordRow("entity", c.id, values, [c.name, *c.aliases], meta))
            self._set_fact(fact_key(c.id, "alive"), c.id, "alive", True, meta)
            if c.location is not None:
                self._set_fact(fact_key(c.id, "location"), c.id, "location", c.location, meta)
                ev.involved.add(c.location)
            if c.hp is not None:
                self._set_fact(fact_key(c.id, "hp"), c.id, "hp", c.hp, meta)
            ev.involved.add(c.id)
        elif isinstance(c, CreateLocation):
            await self._fresh(c.id)
            self.records[c.id] = "location"
            self.visibilities[c.id] = meta.visibility
            values = {"name": c.name, "aliases": list(c.aliases), "description": c.description}
            self.new_records.append(RecordRow("location", c.id, values, [c.name, *c.aliases], meta))
            ev.involved.add(c.id)
        elif isinstance(c, CreateItem):
            await self._fresh(c.id)
            if c.holder is not None:
                await self._need(c.holder, "entity", "location")
            self.records[c.id] = "item"
            self.visibilities[c.id] = meta.visibility
            values = {
                "name": c.name,
                "aliases": list(c.aliases),
                "description": c.description,
                "properties": dict(c.properties),
            }
            self.new_records.append(RecordRow("item", c.id, values, [c.name, *c.aliases], meta))
            if c.holder is not None and c.quantity > 0:
                await self._add_held(c.id, c.holder, c.quantity, meta)
                ev.involved.add(c.holder)
            ev.involved.add(c.id)
        elif isinstance(c, SetFact):
            subject, field_name = await self._resolve_subject(c.key)
            if subject is not None and await self.record_kind(subject) == "entity":
                await self._check_entity_field(subject, field_name, c.value)
            self._set_fact(c.key, subject, field_name, c.value, meta)
            if subject is not None:
                ev.involved.add(subject)
        elif isinstance(c, SetAlive):
            await self._need(c.entity, "entity")
            self._set_fact(fact_key(c.entity, "alive"), c.entity, "alive", c.alive, meta)
            ev.involved.add(c.entity)
        elif isinstance(c, MoveEntity):
            await self._need(c.entity, "entity")
            await self._need(c.location, "location")
            self._set_fact(fact_key(c.entity, "location"), c.entity, "location", c.location, meta)
            ev.involved.update((c.entity, c.location))
        elif isinstance(c, SetHp):
            await self._need(c.entity, "entity")
            self._set_fact(fact_key(c.entity, "hp"), c.entity, "hp", c.hp, meta)
            ev.involved.add(c.entity)
        elif isinstance(c, AddCondition):
            await self._need(c.entity, "entity")
            name = f"condition-{c.condition}"
            self._set_fact(fact_key(c.entity, name), c.entity, name, True, meta)
            ev.involved.add(c.entity)
        elif isinstance(c, RemoveCondition):
            await self._need(c.entity, "entity")
            name = f"condition-{c.condition}"
            if await self.fact(fact_key(c.entity, name)) is None:
                raise InvalidChange(f"{c.entity} is not {c.condition}, so that condition cannot be removed")
            self._set_fact(fact_key(c.entity, name), c.entity, name, None, meta)
            ev.involved.add(c.entity)
        elif isinstance(c, TransferItem):
            await self._need(c.item, "item")
            if c.from_holder is not None:
                await self._need(c.from_holder, "entity", "location")
                have = await self.held(c.item, c.from_holder)
                if have < c.quantity:
                    raise NotEnoughHeld(
                        f"{c.from_holder} holds {have} of {c.item}, not the {c.quantity} this change takes"
                    )
                await self._add_held(c.item, c.from_holder, -c.quantity, meta)
                ev.involved.add(c.from_holder)
            if c.to_holder is not None:
                await self._need(c.to_holder, "entity", "location")
                await self._add_held(c.item, c.to_holder, c.quantity, meta)
                ev.involved.add(c.to_holder)
            ev.involved.add(c.item)
        elif isinstance(c, SetEdge):
            await self._need(c.source, "entity", "location")
            await self._need(c.target, "entity", "location")
            key = (c.source, c.target, c.edge_kind)
            old = await self.edge(key)
            since = old.since_session if old is not None else meta.session_number
            self.edges[key] = EdgeRec(c.attitude, c.reason, since, meta)
            self.dirty_edges.add(key)
            self.edge_history.append((c.source, c.target, c.edge_kind, c.attitude, c.reason, meta))
            ev.involved.update((c.source, c.target))
        elif isinstance(c, OpenThread):
            if await self.thread(c.id) is not None:
                raise DuplicateRecord(f"thread {c.id!r} already exists in this campaign")
            for party in c.parties:
                await self._need(party, "entity", "location")
            if c.place is not None:
                await self._need(c.place, "location")
                ev.involved.add(c.place)
            self.threads[c.id] = ThreadRec(
                c.thread_kind,
                "open",
                c.terms,
                list(c.tags),
                list(dict.fromkeys(c.parties)),
                c.expires_session,
                meta.session_number,
                meta,
                new=True,
            )
            self.dirty_threads.add(c.id)
            ev.involved.update((c.id, *c.parties))
        elif isinstance(c, ThreadTransition):
            rec = await self.thread(c.thread)
            if rec is None:
                raise UnknownRecord(f"no thread called {c.thread!r} in this campaign")
            if not relaxed and (rec.status != "open" or c.status == "open"):
                raise IllegalThreadTransition(
                    f"thread {c.thread} is {rec.status}; it cannot become {c.status} "
                    "(only a retcon can do that)"
                )
            rec.status = c.status
            rec.meta = meta
            self.dirty_threads.add(c.thread)
            ev.involved.update((c.thread, *rec.parties))
        elif isinstance(c, RecordEvent):
            for party in c.participants:
                await self._need(party, "entity")
                await self._named_in(party, "participant", meta.visibility)
            if c.place is not None:
                await self._need(c.place, "location")
                await self._named_in(c.place, "place", meta.visibility)
            if c.thread is not None:
                thread = await self.thread(c.thread)
                if thread is None:
                    raise UnknownRecord(f"no thread called {c.thread!r} in this campaign")
                if not audience_sees(thread.meta.visibility, meta.visibility):
                    raise InvalidChange(
                        f"thread {c.thread!r} is {thread.meta.visibility}: an event seen as "
                        f"{meta.visibility} may not name it"
                    )
            ev.involved.update(c.participants)
            ev.involved.update(x for x in (c.place, c.thread) if x is not None)
        else:  # pragma: no cover - the discriminated union is closed
            raise InvalidChange(f"unknown change kind {c.kind!r}")

    async def _check_entity_field(self, entity: str, field_name: str, value: Any) -> None:
        if field_name == "alive" and not isinstance(value, bool):
            raise InvalidChange(f"{entity}-alive must be true or false")
        if field_name == "hp" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise InvalidChange(f"{entity}-hp must be a whole number of at least 0")
        if field_name == "location":
            await self._need(str(value), "location")


class WorldState(BaseModel):
    """A whole campaign's current state as plain data: what the projections hold, or what the log replays to.

    Keys: facts by fact key -> (value, visibility); holdings ``item@holder`` -> quantity (zero rows dropped);
    threads id -> status; edges ``source>target:kind`` -> attitude; records id -> record kind.
    """

    model_config = ConfigDict(frozen=True)

    records: dict[str, str]
    facts: dict[str, tuple[Any, str]]
    holdings: dict[str, int]
    threads: dict[str, str]
    edges: dict[str, int]


def draft_to_state(draft: WorldDraft) -> WorldState:
    """The full state held by an in-memory draft that replayed a whole log."""
    return WorldState(
        records={k: v for k, v in draft.records.items() if v is not None},
        facts={k: (v.value, v.meta.visibility) for k, v in draft.facts.items() if v is not None},
        holdings={f"{i}@{h}": q for (i, h), (q, _m) in draft.holdings.items() if q != 0},
        threads={k: v.status for k, v in draft.threads.items() if v is not None},
        edges={f"{s}>{t}:{k}": e.attitude for (s, t, k), e in draft.edges.items() if e is not None},
    )
