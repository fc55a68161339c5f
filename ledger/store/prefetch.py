"""What a batch of changes will look up, loaded in one query per table before the batch is drafted.

Validating a change list asks the world many small questions (is ``npc-x`` an entity, and who may see it?
how many of ``item-y`` does ``pc-z`` hold?). Asked one by one, each is a SELECT: a round of five players
cost some thirty of them, mostly the record lookups of every prefix of every fact key. :func:`needs_of`
reads the changes and lists every id, key and pair the draft may ask about; :func:`load` answers them all
with one statement for the records (entities, locations and items together) and one per other table that
is needed at all, into a :class:`Known`: the campaign's SQL state at the time of loading, which the draft
reads before asking the database anything.

A :class:`Known` is only valid while the campaign's writer lock is held and before the batch writes: load
it after :func:`ledger.store.writes.lock_campaign`, and drop it once the batch is written. The draft copies
values out of it and never changes it, so a draft that is thrown away (a refused group) leaves it pristine
for the next attempt. An id the walk missed is still looked up on its own (and then remembered here), so a
gap in :func:`needs_of` costs a statement, never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, bindparam, cast, literal, null, select, tuple_, union_all
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col

from ledger.store import models as m
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
from ledger.store.world import EdgeRec, FactRec, Provenance, ThreadRec, fact_key

#: Record tables in the order a lookup tries them (an id found in an earlier one wins).
RECORD_TABLES: tuple[tuple[str, Any], ...] = (
    ("entity", m.Entity),
    ("location", m.Location),
    ("item", m.Item),
)


@dataclass
class Needs:
    """Every id, key and pair a batch of changes may look up, by table."""

    records: set[str] = field(default_factory=set)
    facts: set[str] = field(default_factory=set)
    holdings: set[tuple[str, str]] = field(default_factory=set)
    threads: set[str] = field(default_factory=set)
    edges: set[tuple[str, str, str]] = field(default_factory=set)
    events: set[str] = field(default_factory=set)


@dataclass
class Known:
    """What SQL held for the looked-up ids when they were loaded (a missing key: not asked yet).

    ``records`` maps an id to (record kind, visibility), both None for an id that is no record.
    """

    records: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    facts: dict[str, FactRec | None] = field(default_factory=dict)
    holdings: dict[tuple[str, str], int] = field(default_factory=dict)
    threads: dict[str, ThreadRec | None] = field(default_factory=dict)
    edges: dict[tuple[str, str, str], EdgeRec | None] = field(default_factory=dict)
    events: dict[str, bool] = field(default_factory=dict)


def needs_of(
    changes: Iterable[Mutation], *, witnesses: Iterable[str] = (), involved: Iterable[str] = ()
) -> Needs:
    """What drafting ``changes`` (with these batch ``witnesses`` and ``involved`` records) may look up."""
    needs = Needs()
    add_needs(needs, changes, witnesses=witnesses, involved=involved)
    return needs


def add_needs(
    needs: Needs, changes: Iterable[Mutation], *, witnesses: Iterable[str] = (), involved: Iterable[str] = ()
) -> None:
    """Add to ``needs`` what drafting ``changes`` may look up (mirrors :meth:`WorldDraft.apply`)."""
    needs.records.update(witnesses)
    for ref in involved:  # a record, or else a thread
        needs.records.add(ref)
        needs.threads.add(ref)
    for change in changes:
        needs.records.update(change.witnesses)
        if isinstance(change, Retcon | Correction):
            needs.events.add(change.target)
            if isinstance(change, Correction):
                needs.records.add(change.target)
                needs.threads.add(change.target)
                needs.facts.add(change.target)
            for inner in change.changes:
                needs.records.update(inner.witnesses)
                _basic_needs(needs, inner)
        else:
            _basic_needs(needs, change)


def _basic_needs(needs: Needs, c: BasicChange) -> None:
    rec = needs.records
    if isinstance(c, CreateEntity):
        rec.update(x for x in (c.id, c.location) if x is not None)
    elif isinstance(c, CreateLocation):
        rec.add(c.id)
    elif isinstance(c, CreateItem):
        rec.update(x for x in (c.id, c.holder) if x is not None)
        if c.holder is not None:
            needs.holdings.add((c.id, c.holder))
    elif isinstance(c, SetFact):
        parts = c.key.split("-")
        rec.update("-".join(parts[:cut]) for cut in range(1, len(parts)))
        if isinstance(c.value, str):  # an entity's ``location`` fact must name a location
            rec.add(c.value)
    elif isinstance(c, SetAlive | SetHp | AddCondition):
        rec.add(c.entity)
    elif isinstance(c, RemoveCondition):
        rec.add(c.entity)
        needs.facts.add(fact_key(c.entity, f"condition-{c.condition}"))
    elif isinstance(c, MoveEntity):
        rec.update((c.entity, c.location))
    elif isinstance(c, TransferItem):
        rec.add(c.item)
        for holder in (c.from_holder, c.to_holder):
            if holder is not None:
                rec.add(holder)
                needs.holdings.add((c.item, holder))
    elif isinstance(c, SetEdge):
        rec.update((c.source, c.target))
        needs.edges.add((c.source, c.target, c.edge_kind))
    elif isinstance(c, OpenThread):
        needs.threads.add(c.id)
        rec.update(c.parties)
        if c.place is not None:
            rec.add(c.place)
    elif isinstance(c, ThreadTransition):
        needs.threads.add(c.thread)
    elif isinstance(c, RecordEvent):
        rec.update(c.participants)
        if c.place is not None:
            rec.add(c.place)
        if c.thread is not None:
            needs.threads.add(c.thread)


_LOOKUPS: dict[tuple[bool, bool], Any] = {}


def _records_and_holdings(records: bool, holdings: bool) -> Any:
    """ONE statement answering which ``:ids`` are records (and whose), and what the ``:pairs`` hold.

    Rows are ``(part, a, b, n)``: ``(record kind, id, visibility, NULL)`` for each id found in a record
    table, ``("holding", item, holder, quantity)`` for each pair held. Built once per shape (bound
    parameters ``:cid``, ``:ids``, ``:pairs``), so a lookup costs no statement construction.
    """
    shape = (records, holdings)
    if shape not in _LOOKUPS:
        parts: list[Any] = []
        if records:
            ids: Any = bindparam("ids", expanding=True)
            parts += [
                select(
                    literal(kind).label("part"),
                    col(table.id).label("a"),
                    col(table.visibility).label("b"),
                    cast(null(), Integer).label("n"),
                ).where(col(table.campaign_id) == bindparam("cid"), col(table.id).in_(ids))
                for kind, table in RECORD_TABLES
            ]
        if holdings:
            H = m.Holding
            parts.append(
                select(
                    literal("holding").label("part"),
                    col(H.item_id).label("a"),
                    col(H.holder_id).label("b"),
                    col(H.quantity).label("n"),
                ).where(
                    col(H.campaign_id) == bindparam("cid"),
                    tuple_(col(H.item_id), col(H.holder_id)).in_(bindparam("pairs", expanding=True)),
                )
            )
        _LOOKUPS[shape] = union_all(*parts) if len(parts) > 1 else parts[0]
    return _LOOKUPS[shape]


_PROVENANCE = ("session_number", "round_number", "cause", "visibility")


def _cols(model: Any, names: Iterable[str]) -> list[Any]:
    """The columns ``names`` of ``model``'s table, for a Core select."""
    return [col(getattr(model, name)) for name in names]


def _prov(row: Any) -> Provenance:
    return Provenance(row.session_number, row.round_number, row.cause, row.visibility)


async def load(conn: AsyncConnection, campaign_id: int, needs: Needs, known: Known) -> None:
    """Answer every need ``known`` does not hold yet from SQL: one statement per table with anything to ask.

    The records of all three record tables and the holdings come back in ONE statement (a UNION).
    """
    cid = campaign_id
    ids = sorted(needs.records - known.records.keys())
    pairs = sorted(needs.holdings - known.holdings.keys())
    if ids or pairs:
        found: dict[str, tuple[str, str]] = {}
        held: dict[tuple[str, str], int] = {}
        order = {kind: n for n, (kind, _t) in enumerate(RECORD_TABLES)}
        params = {"cid": cid, "ids": ids, "pairs": pairs}
        for part, a, b, n in await conn.execute(_records_and_holdings(bool(ids), bool(pairs)), params):
            if part == "holding":
                held[(a, b)] = int(n)
            elif a not in found or order[part] < order[found[a][0]]:
                found[a] = (str(part), str(b))
        for ref in ids:
            hit = found.get(ref)
            known.records[ref] = (hit[0], hit[1]) if hit is not None else (None, None)
        for pair in pairs:
            known.holdings[pair] = held.get(pair, 0)
    keys = sorted(needs.facts - known.facts.keys())
    if keys:
        F = m.Fact
        fields = ("key", "subject", "field", "value", *_PROVENANCE)
        rows = await conn.execute(
            select(*_cols(F, fields)).where(col(F.campaign_id) == cid, col(F.key).in_(keys))
        )
        facts = {r.key: FactRec(r.subject, r.field, r.value, _prov(r)) for r in rows}
        for key in keys:
            known.facts[key] = facts.get(key)
    threads = sorted(needs.threads - known.threads.keys())
    if threads:
        T = m.Thread
        fields = ("id", "kind", "status", "terms", "tags", "parties", "expires_session", "opened_session")
        rows = await conn.execute(
            select(*_cols(T, (*fields, *_PROVENANCE))).where(
                col(T.campaign_id) == cid, col(T.id).in_(threads)
            )
        )
        recs = {
            r.id: ThreadRec(
                r.kind,
                r.status,
                r.terms,
                list(r.tags),
                list(r.parties),
                r.expires_session,
                r.opened_session,
                _prov(r),
            )
            for r in rows
        }
        for tid in threads:
            known.threads[tid] = recs.get(tid)
    edges = sorted(needs.edges - known.edges.keys())
    if edges:
        E = m.Edge
        rows = await conn.execute(
            select(
                *_cols(E, ("source_id", "target_id", "kind", "attitude", "reason", "since_session")),
                *_cols(E, _PROVENANCE),
            ).where(
                col(E.campaign_id) == cid,
                tuple_(col(E.source_id), col(E.target_id), col(E.kind)).in_(edges),
            )
        )
        got = {
            (r.source_id, r.target_id, r.kind): EdgeRec(r.attitude, r.reason, r.since_session, _prov(r))
            for r in rows
        }
        for key3 in edges:
            known.edges[key3] = got.get(key3)
    refs = sorted(needs.events - known.events.keys())
    if refs:
        Ev = m.Event
        found_refs = await conn.execute(
            select(col(Ev.ref)).where(col(Ev.campaign_id) == cid, col(Ev.ref).in_(refs))
        )
        hits = set(found_refs.scalars())
        for ref in refs:
            known.events[ref] = ref in hits


__all__ = ["Known", "Needs", "add_needs", "load", "needs_of"]
