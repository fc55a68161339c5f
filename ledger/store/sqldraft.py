"""The world draft over SQL: reads one campaign's projections through a prefetched cache, writes in bulk.

:class:`SqlDraft` is :class:`ledger.store.world.WorldDraft` loading what it touches from one campaign's
projection tables (through :class:`ledger.store.prefetch.Known`, so a batch costs one lookup per table, not
one per id) and writing the drafted events and projections back with a handful of Core statements: the
events in one multi-row ``INSERT ... RETURNING`` (their new ids come back with it), their witnesses and
involved records in one insert each, new records and names in one insert per table, and the changed facts,
holdings and edges as upserts (``INSERT ... ON CONFLICT DO UPDATE``; a fact or holding that went away is
deleted). Used by :mod:`ledger.store.writes`, inside the caller's transaction and the campaign's lock.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from sqlalchemy import delete, insert, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.store import models as m
from ledger.store.prefetch import Known, Needs, load
from ledger.store.world import EdgeRec, FactRec, Provenance, ThreadRec, WorldDraft, value_text

#: The events' insert, giving back each new row's number and id.
_INSERT_EVENTS = insert(m.Event).returning(col(m.Event.seq), col(m.Event.id))


class SqlDraft(WorldDraft):
    """A draft that loads what it touches from one campaign's projections.

    ``known`` holds what SQL answered so far (give it a prefetched one, :func:`ledger.store.prefetch.load`);
    anything it lacks is loaded on demand and remembered there. ``fresh`` says the campaign has nothing in
    SQL yet (it was created in this transaction): every load then answers "nothing there" without asking
    the database, which is what makes a bulk load fast.
    """

    def __init__(
        self, session: AsyncSession, campaign_id: int, *, fresh: bool = False, known: Known | None = None
    ) -> None:
        super().__init__()
        self.session = session
        self.campaign_id = campaign_id
        self.fresh = fresh
        self.known = known if known is not None else Known()

    async def _ask(self, needs: Needs) -> None:
        if not self.fresh:
            await load(await self.session.connection(), self.campaign_id, needs, self.known)

    async def _load_record(self, ref: str) -> str | None:
        if ref not in self.known.records:
            await self._ask(Needs(records={ref}))
        kind, vis = self.known.records.get(ref, (None, None))
        if kind is not None:
            self.visibilities[ref] = vis
        return kind

    async def _load_visibility(self, ref: str) -> str | None:
        await self.record_kind(ref)  # loads the visibility with the record
        return self.visibilities.get(ref)

    async def _load_fact(self, key: str) -> FactRec | None:
        if key not in self.known.facts:
            await self._ask(Needs(facts={key}))
        return copy.copy(self.known.facts.get(key))

    async def _load_holding(self, item: str, holder: str) -> tuple[int, Provenance | None]:
        if (item, holder) not in self.known.holdings:
            await self._ask(Needs(holdings={(item, holder)}))
        return (self.known.holdings.get((item, holder), 0), None)

    async def _load_thread(self, thread_id: str) -> ThreadRec | None:
        if thread_id not in self.known.threads:
            await self._ask(Needs(threads={thread_id}))
        rec = self.known.threads.get(thread_id)
        # A copy: the draft moves a thread's status in place, and the cache must stay what SQL holds.
        return (
            None if rec is None else dataclasses.replace(rec, tags=list(rec.tags), parties=list(rec.parties))
        )

    async def _load_edge(self, key: tuple[str, str, str]) -> EdgeRec | None:
        if key not in self.known.edges:
            await self._ask(Needs(edges={key}))
        return copy.copy(self.known.edges.get(key))

    async def _load_event(self, ref: str) -> bool:
        if ref not in self.known.events:
            await self._ask(Needs(events={ref}))
        return self.known.events.get(ref, False)

    async def write(self, *, importance: int, permanent: bool, base: Provenance) -> None:
        """Write the drafted events and the projections they changed (inside the caller's transaction)."""
        conn = await self.session.connection()
        if self.events:
            await self._write_events(conn, importance=importance, permanent=permanent, base=base)
        await self._write_records(conn)
        await self._write_facts(conn)
        await self._write_holdings(conn)
        await self._write_threads(conn)
        await self._write_edges(conn)

    async def _write_events(
        self, conn: AsyncConnection, *, importance: int, permanent: bool, base: Provenance
    ) -> None:
        cid = self.campaign_id
        now = m.utcnow()
        rows = [
            {
                "campaign_id": cid,
                "seq": e.seq,
                "ref": e.ref,
                "kind": e.kind,
                "payload": e.payload,
                "cause": e.cause,
                "session_number": base.session_number if e.session_number is None else e.session_number,
                "round_number": base.round_number if e.session_number is None else e.round_number,
                "visibility": e.visibility,
                "importance": importance if e.importance is None else e.importance,
                "permanent": permanent if e.permanent is None else e.permanent,
                "supersedes": e.supersedes,
                "created_at": now,
            }
            for e in self.events
        ]
        seqs = [e.seq for e in self.events]
        if conn.dialect.insert_executemany_returning:
            # Multi-row INSERT ... RETURNING (SQLAlchemy's "insertmanyvalues"): the new ids come back with the
            # insert. Not in parameter order (asking for that runs row by row on SQLite), so by their numbers.
            result = await conn.execute(_INSERT_EVENTS, rows)
            by_seq: dict[int, Any] = {int(seq): eid for seq, eid in result.all()}
        else:  # pragma: no cover - every supported backend returns rows from a multi-row insert
            await conn.execute(insert(m.Event), rows)
            found = await conn.execute(
                select(col(m.Event.seq), col(m.Event.id)).where(
                    col(m.Event.campaign_id) == cid,
                    col(m.Event.seq) >= min(seqs),
                    col(m.Event.seq) <= max(seqs),
                )
            )
            by_seq = {int(seq): eid for seq, eid in found.all()}
        ids = [by_seq[seq] for seq in seqs]
        witnesses = [
            {"event_id": eid, "entity_id": w, "campaign_id": cid}
            for eid, e in zip(ids, self.events, strict=True)
            for w in sorted(e.witnesses)
        ]
        involved = [
            {"event_id": eid, "entity_id": x, "campaign_id": cid}
            for eid, e in zip(ids, self.events, strict=True)
            for x in sorted(e.involved)
        ]
        if witnesses:
            await conn.execute(insert(m.EventWitness), witnesses)
        if involved:
            await conn.execute(insert(m.EventEntity), involved)

    async def _write_records(self, conn: AsyncConnection) -> None:
        cid = self.campaign_id
        for name, table in (("entity", m.Entity), ("location", m.Location), ("item", m.Item)):
            new = [
                {"campaign_id": cid, "id": rec.id, **rec.values, **_meta(rec.meta)}
                for rec in self.new_records
                if rec.table == name
            ]
            if new:
                await conn.execute(insert(table), new)
        names = {
            (rec.id, n.casefold()): {
                "campaign_id": cid,
                "ref": rec.id,
                "name_folded": n.casefold(),
                "record_kind": rec.table,
                "visibility": rec.meta.visibility,
            }
            for rec in self.new_records
            for n in rec.names
        }
        if names:
            await conn.execute(insert(m.NameIndex), list(names.values()))

    async def _write_facts(self, conn: AsyncConnection) -> None:
        if not self.dirty_facts:
            return
        cid = self.campaign_id
        keys = sorted(self.dirty_facts)
        gone = [k for k in keys if self.facts[k] is None]
        if gone:
            await conn.execute(
                delete(m.Fact).where(col(m.Fact.campaign_id) == cid, col(m.Fact.key).in_(gone))
            )
        rows = []
        for k in keys:
            f = self.facts[k]
            if f is not None:
                rows.append(
                    {
                        "campaign_id": cid,
                        "key": k,
                        "subject": f.subject,
                        "field": f.field,
                        "value": f.value,
                        "value_text": value_text(f.value),
                        **_meta(f.meta),
                    }
                )
        if rows:
            await _upsert(conn, m.Fact, ("campaign_id", "key"), rows)

    async def _write_holdings(self, conn: AsyncConnection) -> None:
        if not self.dirty_holdings:
            return
        cid = self.campaign_id
        gone, rows = [], []
        for item, holder in sorted(self.dirty_holdings):
            qty, meta = self.holdings[(item, holder)]
            if qty > 0 and meta is not None:
                rows.append(
                    {"campaign_id": cid, "item_id": item, "holder_id": holder, "quantity": qty, **_meta(meta)}
                )
            else:
                gone.append((item, holder))
        if gone:
            await conn.execute(
                delete(m.Holding).where(
                    col(m.Holding.campaign_id) == cid,
                    tuple_(col(m.Holding.item_id), col(m.Holding.holder_id)).in_(gone),
                )
            )
        if rows:
            await _upsert(conn, m.Holding, ("campaign_id", "item_id", "holder_id"), rows)

    async def _write_threads(self, conn: AsyncConnection) -> None:
        cid = self.campaign_id
        new_threads: list[dict[str, Any]] = []
        new_parties: list[dict[str, Any]] = []
        for tid in sorted(self.dirty_threads):
            t = self.threads[tid]
            assert t is not None
            if t.new:
                new_threads.append(
                    {
                        "campaign_id": cid,
                        "id": tid,
                        "kind": t.kind,
                        "status": t.status,
                        "terms": t.terms,
                        "tags": t.tags,
                        "parties": t.parties,
                        "expires_session": t.expires_session,
                        "opened_session": t.opened_session,
                        **_meta(t.meta),
                    }
                )
                new_parties += [{"campaign_id": cid, "thread_id": tid, "entity_id": p} for p in t.parties]
            else:
                await conn.execute(
                    update(m.Thread)
                    .where(col(m.Thread.campaign_id) == cid, col(m.Thread.id) == tid)
                    .values(status=t.status, **_meta(t.meta))
                )
        if new_threads:
            await conn.execute(insert(m.Thread), new_threads)
        if new_parties:
            await conn.execute(insert(m.ThreadParty), new_parties)

    async def _write_edges(self, conn: AsyncConnection) -> None:
        cid = self.campaign_id
        if self.dirty_edges:
            rows = []
            for src, tgt, kind in sorted(self.dirty_edges):
                e = self.edges[(src, tgt, kind)]
                assert e is not None
                rows.append(
                    {
                        "campaign_id": cid,
                        "source_id": src,
                        "target_id": tgt,
                        "kind": kind,
                        "attitude": e.attitude,
                        "reason": e.reason,
                        "since_session": e.since_session,
                        **_meta(e.meta),
                    }
                )
            await _upsert(conn, m.Edge, ("campaign_id", "source_id", "target_id", "kind"), rows)
        if self.edge_history:
            await conn.execute(
                insert(m.EdgeHistory),
                [
                    {
                        "campaign_id": cid,
                        "source_id": src,
                        "target_id": tgt,
                        "kind": kind,
                        "attitude": att,
                        "reason": reason,
                        **_meta(meta),
                    }
                    for src, tgt, kind, att, reason, meta in self.edge_history
                ],
            )


_UPSERTS: dict[tuple[str, str, tuple[str, ...]], Any] = {}


async def _upsert(
    conn: AsyncConnection, table: Any, keys: tuple[str, ...], rows: list[dict[str, Any]]
) -> None:
    """Insert ``rows`` into ``table``, overwriting every other column of a row whose ``keys`` already exist.

    One statement where a delete-then-insert took two; every row carries the same columns, so the result is
    the same rows either way. The statement is built once per table, backend and columns.
    """
    columns = tuple(c for c in rows[0] if c not in keys)
    shape = (conn.dialect.name, table.__tablename__, columns)
    if shape not in _UPSERTS:
        stmt = (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(table)
        _UPSERTS[shape] = stmt.on_conflict_do_update(
            index_elements=list(keys), set_={c: stmt.excluded[c] for c in columns}
        )
    await conn.execute(_UPSERTS[shape], rows)


def _meta(p: Provenance) -> dict[str, Any]:
    return {
        "session_number": p.session_number,
        "round_number": p.round_number,
        "cause": p.cause,
        "visibility": p.visibility,
    }


__all__ = ["SqlDraft"]
