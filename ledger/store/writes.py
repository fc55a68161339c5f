"""Writing the world: apply a batch of changes in one transaction, and replay the log.

Every function is async, keyword-only after the explicit ``AsyncSession``, and commits its own transaction
on success (rolling back on failure, so a refused batch leaves no trace). Callers use ``ledger.service``,
which re-exports this module, ``ledger.store.reads`` and the paperwork (``campaigns``, ``rounds``, ``outbox``,
``disputes``).

Writers of one campaign serialise on its ``campaign`` row (``SELECT ... FOR UPDATE`` on PostgreSQL,
``BEGIN IMMEDIATE`` on SQLite), which also numbers its events without gaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import CampaignNotFound, InvalidChange, LedgerError, RoundStateError, UnknownRecord
from ledger.store import models as m
from ledger.store.db import begin_write
from ledger.store.vocabulary import Correction, Mutation, Retcon, parse_mutation
from ledger.store.world import (
    EdgeRec,
    EventDraft,
    FactRec,
    Provenance,
    ThreadRec,
    WorldDraft,
    WorldState,
    draft_to_state,
    event_ref,
    value_text,
)

DEFAULT_IMPORTANCE = 5


class _SqlDraft(WorldDraft):
    """A draft that loads what it touches from one campaign's projections.

    ``fresh`` says the campaign has nothing in SQL yet (it was created in this transaction): every load
    then answers "nothing there" without asking the database, which is what makes a bulk load fast.
    """

    def __init__(self, session: AsyncSession, campaign_id: int, *, fresh: bool = False) -> None:
        super().__init__()
        self.session = session
        self.campaign_id = campaign_id
        self.fresh = fresh

    async def _scalar(self, stmt: Any) -> Any:
        if self.fresh:
            return None
        return (await self.session.exec(stmt)).first()

    async def _load_record(self, ref: str) -> str | None:
        cid = self.campaign_id
        for table, kind in ((m.Entity, "entity"), (m.Location, "location"), (m.Item, "item")):
            hit = await self._scalar(
                select(table.id, table.visibility).where(table.campaign_id == cid, table.id == ref)
            )
            if hit is not None:
                self.visibilities[ref] = str(hit[1])
                return kind
        return None

    async def _load_visibility(self, ref: str) -> str | None:
        await self.record_kind(ref)  # loads the visibility with the record
        return self.visibilities.get(ref)

    async def _load_fact(self, key: str) -> FactRec | None:
        row = await self._scalar(
            select(m.Fact).where(m.Fact.campaign_id == self.campaign_id, m.Fact.key == key)
        )
        if row is None:
            return None
        return FactRec(row.subject, row.field, row.value, _prov(row))

    async def _load_holding(self, item: str, holder: str) -> tuple[int, Provenance | None]:
        q = await self._scalar(
            select(m.Holding.quantity).where(
                m.Holding.campaign_id == self.campaign_id,
                m.Holding.item_id == item,
                m.Holding.holder_id == holder,
            )
        )
        return (0, None) if q is None else (int(q), None)

    async def _load_thread(self, thread_id: str) -> ThreadRec | None:
        row = await self._scalar(
            select(m.Thread).where(m.Thread.campaign_id == self.campaign_id, m.Thread.id == thread_id)
        )
        if row is None:
            return None
        return ThreadRec(
            row.kind,
            row.status,
            row.terms,
            list(row.tags),
            list(row.parties),
            row.expires_session,
            row.opened_session,
            _prov(row),
        )

    async def _load_edge(self, key: tuple[str, str, str]) -> EdgeRec | None:
        row = await self._scalar(
            select(m.Edge).where(
                m.Edge.campaign_id == self.campaign_id,
                m.Edge.source_id == key[0],
                m.Edge.target_id == key[1],
                m.Edge.kind == key[2],
            )
        )
        if row is None:
            return None
        return EdgeRec(row.attitude, row.reason, row.since_session, _prov(row))

    async def _load_event(self, ref: str) -> bool:
        hit = await self._scalar(
            select(m.Event.id).where(m.Event.campaign_id == self.campaign_id, m.Event.ref == ref)
        )
        return hit is not None

    async def write(self, *, importance: int, permanent: bool, base: Provenance) -> None:
        """Write the drafted events and the projections they changed (inside the caller's transaction)."""
        s, cid = self.session, self.campaign_id
        conn = await s.connection()
        if self.events:
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
            # One executemany, then the new ids by their numbers: an INSERT ... RETURNING in parameter order
            # runs row by row on SQLite, which made a 2,000-event load take seconds.
            await conn.execute(insert(m.Event), rows)
            seqs = [e.seq for e in self.events]
            by_seq = dict(
                (
                    await conn.execute(
                        select(col(m.Event.seq), col(m.Event.id)).where(
                            col(m.Event.campaign_id) == cid,
                            col(m.Event.seq) >= min(seqs),
                            col(m.Event.seq) <= max(seqs),
                        )
                    )
                )
                .tuples()
                .all()
            )
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
        tables = {"entity": m.Entity, "location": m.Location, "item": m.Item}
        for name, table in tables.items():
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
        if self.dirty_facts:
            keys = sorted(self.dirty_facts)
            await conn.execute(
                delete(m.Fact).where(col(m.Fact.campaign_id) == cid, col(m.Fact.key).in_(keys))
            )
            rows = []
            for k in keys:
                f = self.facts[k]
                if f is None:
                    continue
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
                await conn.execute(insert(m.Fact), rows)
        if self.dirty_holdings:
            pairs = sorted(self.dirty_holdings)
            await conn.execute(
                delete(m.Holding).where(
                    col(m.Holding.campaign_id) == cid,
                    tuple_(col(m.Holding.item_id), col(m.Holding.holder_id)).in_(pairs),
                )
            )
            rows = []
            for item, holder in pairs:
                qty, meta = self.holdings[(item, holder)]
                if qty > 0 and meta is not None:
                    rows.append(
                        {
                            "campaign_id": cid,
                            "item_id": item,
                            "holder_id": holder,
                            "quantity": qty,
                            **_meta(meta),
                        }
                    )
            if rows:
                await conn.execute(insert(m.Holding), rows)
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
        if self.dirty_edges:
            keys3 = sorted(self.dirty_edges)
            await conn.execute(
                delete(m.Edge).where(
                    col(m.Edge.campaign_id) == cid,
                    tuple_(col(m.Edge.source_id), col(m.Edge.target_id), col(m.Edge.kind)).in_(keys3),
                )
            )
            rows = []
            for src, tgt, kind in keys3:
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
            await conn.execute(insert(m.Edge), rows)
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


def _prov(row: Any) -> Provenance:
    return Provenance(row.session_number, row.round_number, row.cause, row.visibility)


def _meta(p: Provenance) -> dict[str, Any]:
    return {
        "session_number": p.session_number,
        "round_number": p.round_number,
        "cause": p.cause,
        "visibility": p.visibility,
    }


async def lock_campaign(session: AsyncSession, campaign_id: int) -> int:
    """Take the campaign's writer lock for this transaction; returns its last event number.

    Raises CampaignNotFound when there is no such campaign.
    """
    # FOR NO KEY UPDATE (PostgreSQL): serialises this campaign's writers without blocking other transactions'
    # foreign-key checks against the campaign row (they take KEY SHARE).
    stmt = select(m.Campaign.event_seq).where(m.Campaign.id == campaign_id).with_for_update(key_share=True)
    seq = (await session.exec(stmt)).first()
    if seq is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    return int(seq)


ROUND_ORDER = {state: i for i, state in enumerate(m.ROUND_STATES)}


def check_round_move(current: str, new: str) -> None:
    """Refuse a backward round move (open, collecting, closed, resolved, narrated, posted; skips ok)."""
    if new not in ROUND_ORDER:
        raise RoundStateError(f"{new!r} is not a round state ({', '.join(m.ROUND_STATES)})")
    if ROUND_ORDER[new] < ROUND_ORDER[current]:
        raise RoundStateError(f"the round is already {current}; it cannot go back to {new}")


def _parsed(mutations: Sequence[Mutation | dict[str, Any]]) -> list[Mutation]:
    changes: list[Mutation] = []
    for offset, raw in enumerate(mutations, start=1):
        try:
            changes.append(parse_mutation(raw) if isinstance(raw, dict) else raw)
        except InvalidChange as err:
            raise InvalidChange(f"change {offset}: {err}") from None
    return changes


async def _draft_changes(
    draft: WorldDraft,
    *,
    first_seq: int,
    changes: Sequence[Mutation],
    base: Provenance,
    cause: str,
    witnesses: Sequence[str],
    involved: Sequence[str] = (),
    own_provenance: tuple[int, bool] | None = None,
) -> None:
    """Validate and draft ``changes`` as events ``first_seq``, ``first_seq + 1``, ... of the campaign.

    ``involved`` are records every one of these events also involves (they must exist); ``own_provenance``
    (importance, permanent) stamps the events with ``base``'s session and round and those values, so events
    of many groups can be written together.
    """
    for offset, change in enumerate(changes, start=1):
        seq = first_seq + offset - 1
        ref = event_ref(seq)
        supersedes = change.target if isinstance(change, Retcon | Correction) else None
        ev = EventDraft(
            seq=seq,
            ref=ref,
            kind=change.kind,
            payload=change.model_dump(mode="json"),
            cause=change.cause or cause,
            visibility=change.visibility,
            supersedes=supersedes,
            witnesses=set(witnesses),
        )
        if own_provenance is not None:
            ev.session_number, ev.round_number = base.session_number, base.round_number
            ev.importance, ev.permanent = own_provenance
        try:
            await draft.apply(change, event=ev, base=base)
            for witness in sorted(ev.witnesses):
                if await draft.record_kind(witness) != "entity":
                    raise UnknownRecord(f"witness {witness!r} is not an entity in this campaign")
            for ref_ in involved:
                if await draft.record_kind(ref_) is None and await draft.thread(ref_) is None:
                    raise UnknownRecord(f"no record called {ref_!r} in this campaign")
                ev.involved.add(ref_)
        except LedgerError as err:
            raise type(err)(f"change {offset} ({change.kind}): {err}") from None
        draft.events.append(ev)
        draft.events_known[ref] = True


@dataclass(frozen=True)
class ChangeGroup:
    """One group of changes for :func:`stage_groups`: what one ``apply_changes`` call would be given.

    ``involved`` are records each of the group's events also involves (a history entry's place); ``label``
    names the group in a refusal (``scenario history[12]: change 1 (set_alive): ...``).
    """

    session_number: int
    round_number: int | None
    mutations: Sequence[Mutation | dict[str, Any]]
    importance: int = DEFAULT_IMPORTANCE
    permanent: bool = False
    witnesses: Sequence[str] = ()
    involved: Sequence[str] = ()
    label: str = ""


async def stage_groups(
    session: AsyncSession,
    *,
    campaign_id: int,
    cause: str,
    groups: Sequence[ChangeGroup],
    fresh: bool = False,
) -> list[list[str]]:
    """Stage many groups of changes as one batch (inside the caller's transaction); return each group's refs.

    The same validation as :func:`stage_changes`, group after group against the state the earlier ones left,
    but one draft for all of them and one bulk write at the end (events, witnesses, involved records and
    projections each inserted as many rows at once): how a scenario of thousands of history entries loads
    in a second. ``fresh`` says the campaign was created in this transaction and holds nothing yet, so
    nothing is looked up in SQL. Raises like :func:`stage_changes`, the message led by the group's label.
    """
    parsed: list[list[Mutation]] = []
    for group in groups:
        if not 0 <= group.importance <= 10:
            raise InvalidChange(f"{group.label}: importance must be 0..10, not {group.importance}")
        try:
            parsed.append(_parsed(group.mutations))
        except InvalidChange as err:
            raise InvalidChange(f"{group.label}: {err}" if group.label else str(err)) from None
    last = await lock_campaign(session, campaign_id)
    draft = _SqlDraft(session, campaign_id, fresh=fresh)
    refs: list[list[str]] = []
    seq = last + 1
    for group, changes in zip(groups, parsed, strict=True):
        base = Provenance(group.session_number, group.round_number, cause, "public")
        try:
            await _draft_changes(
                draft,
                first_seq=seq,
                changes=changes,
                base=base,
                cause=cause,
                witnesses=group.witnesses,
                involved=group.involved,
                own_provenance=(group.importance, group.permanent),
            )
        except LedgerError as err:
            raise type(err)(f"{group.label}: {err}" if group.label else str(err)) from None
        refs.append([event_ref(n) for n in range(seq, seq + len(changes))])
        seq += len(changes)
    if draft.events:
        every = Provenance(0, None, cause, "public")  # each event carries its own session and round
        await draft.write(importance=DEFAULT_IMPORTANCE, permanent=False, base=every)
        await (await session.connection()).execute(
            update(m.Campaign).where(col(m.Campaign.id) == campaign_id).values(event_seq=seq - 1)
        )
    return refs


async def stage_changes(
    session: AsyncSession,
    *,
    campaign_id: int,
    session_number: int,
    round_number: int | None,
    cause: str,
    mutations: Sequence[Mutation | dict[str, Any]],
    importance: int,
    permanent: bool,
    witnesses: Sequence[str],
    round_state: str | None,
    resolution: dict[str, Any] | None,
) -> list[str]:
    """Everything ``apply_changes`` does except commit/rollback (for callers that add their own rows).

    Public because the round runner and disputes stage their changes and commit with their own rows.
    """
    if not 0 <= importance <= 10:
        raise InvalidChange(f"importance must be 0..10, not {importance}")
    changes = _parsed(mutations)
    last = await lock_campaign(session, campaign_id)
    draft = _SqlDraft(session, campaign_id)
    base = Provenance(session_number, round_number, cause, "public")
    await _draft_changes(
        draft, first_seq=last + 1, changes=changes, base=base, cause=cause, witnesses=witnesses
    )
    round_row: m.Round | None = None
    if round_state is not None or resolution is not None:
        if round_number is None:
            raise RoundStateError("a round state needs a round_number")
        round_row = (
            await session.exec(
                select(m.Round).where(
                    m.Round.campaign_id == campaign_id,
                    m.Round.session_number == session_number,
                    m.Round.number == round_number,
                )
            )
        ).first()
        if round_row is None:
            raise UnknownRecord(f"no round {session_number}.{round_number} in campaign {campaign_id}")
        if round_state is not None:
            check_round_move(round_row.state, round_state)
    await draft.write(importance=importance, permanent=permanent, base=base)
    if changes:
        await (await session.connection()).execute(
            update(m.Campaign).where(col(m.Campaign.id) == campaign_id).values(event_seq=last + len(changes))
        )
    if round_row is not None:
        if round_state is not None:
            round_row.state = round_state
        if resolution is not None:
            round_row.resolution = resolution
        round_row.updated_at = m.utcnow()
        session.add(round_row)
        await session.flush()
    return [e.ref for e in draft.events]


async def apply_changes(
    session: AsyncSession,
    *,
    campaign_id: int,
    session_number: int,
    round_number: int | None,
    cause: str,
    mutations: Sequence[Mutation | dict[str, Any]],
    importance: int = DEFAULT_IMPORTANCE,
    permanent: bool = False,
    witnesses: Sequence[str] = (),
    round_state: str | None = None,
    resolution: dict[str, Any] | None = None,
) -> list[str]:
    """Apply ``mutations`` in order, as one transaction; return the new event refs (one per mutation).

    Every change is validated against the state left by the ones before it (unknown entity/item/location,
    not enough held, illegal thread move, duplicate id) BEFORE anything is written. Then the events (with
    ``witnesses`` + each change's own, and the entities involved), the projections and, when given, the round
    ``(session_number, round_number)``'s new ``round_state`` and ``resolution`` are written and committed.
    ``cause`` (e.g. ``round-12#3`` or ``dispute-4``) is each event's cause unless the change names its own.

    Raises a LedgerError subclass (UnknownRecord, NotEnoughHeld, IllegalThreadTransition, DuplicateRecord,
    InvalidChange, RoundStateError, CampaignNotFound) with a one-line message naming the bad change;
    nothing is written then.
    """
    await begin_write(session)
    try:
        refs = await stage_changes(
            session,
            campaign_id=campaign_id,
            session_number=session_number,
            round_number=round_number,
            cause=cause,
            mutations=mutations,
            importance=importance,
            permanent=permanent,
            witnesses=witnesses,
            round_state=round_state,
            resolution=resolution,
        )
        await session.commit()
    except IntegrityError as err:
        await session.rollback()
        raise InvalidChange(f"the ledger refused the changes: {str(err.orig).splitlines()[0]}") from None
    except BaseException:
        await session.rollback()
        raise
    return refs


async def apply_round(
    session: AsyncSession,
    *,
    campaign_id: int,
    session_number: int,
    round_number: int,
    mutations: Sequence[Mutation | dict[str, Any]],
    resolution: dict[str, Any],
    cause: str | None = None,
    round_state: str = "resolved",
    importance: int = DEFAULT_IMPORTANCE,
    permanent: bool = False,
    witnesses: Sequence[str] = (),
) -> list[str]:
    """A resolved round in one transaction: its changes, their events, its resolution json and new state.

    ``cause`` defaults to ``round-<round_number>``; give each change its own ``cause`` (``round-12#3``) to
    point at the action and roll behind it. Returns the event refs; raises like :func:`apply_changes`.
    """
    return await apply_changes(
        session,
        campaign_id=campaign_id,
        session_number=session_number,
        round_number=round_number,
        cause=cause or f"round-{round_number}",
        mutations=mutations,
        importance=importance,
        permanent=permanent,
        witnesses=witnesses,
        round_state=round_state,
        resolution=resolution,
    )


async def expire_due_threads(session: AsyncSession, *, campaign_id: int, session_number: int) -> list[str]:
    """Expire every open thread whose ``expires_session`` is before ``session_number``, in one transaction.

    Call it when a new game session starts. Each expiry is a ``thread_transition`` event (cause
    ``session-<n>``) with the thread's own visibility. Returns the new event refs (empty when none were due).
    """
    due = (
        await session.exec(
            select(m.Thread.id, m.Thread.visibility)
            .where(
                m.Thread.campaign_id == campaign_id,
                m.Thread.status == "open",
                col(m.Thread.expires_session).is_not(None),
                col(m.Thread.expires_session) < session_number,
            )
            .order_by(col(m.Thread.id))
        )
    ).all()
    if not due:
        return []
    changes: list[Mutation | dict[str, Any]] = [
        {
            "kind": "thread_transition",
            "thread": tid,
            "status": "expired",
            "reason": "its time ran out",
            "visibility": vis,
        }
        for tid, vis in due
    ]
    return await apply_changes(
        session,
        campaign_id=campaign_id,
        session_number=session_number,
        round_number=None,
        cause=f"session-{session_number}",
        mutations=changes,
    )


async def rebuild_state(session: AsyncSession, *, campaign_id: int) -> WorldState:
    """Replay the campaign's whole event log into fresh memory and return the state it arrives at.

    Compare with :func:`projected_state` to prove the projections are what the log says.
    """
    draft = WorldDraft()
    result = await session.exec(
        select(m.Event).where(m.Event.campaign_id == campaign_id).order_by(col(m.Event.seq))
    )
    for ev in result.all():
        change = parse_mutation(ev.payload)
        draft_ev = EventDraft(ev.seq, ev.ref, ev.kind, ev.payload, ev.cause, ev.visibility, ev.supersedes)
        await draft.apply(
            change, event=draft_ev, base=Provenance(ev.session_number, ev.round_number, ev.ref, "public")
        )
        draft.events_known[ev.ref] = True
    return draft_to_state(draft)


async def projected_state(session: AsyncSession, *, campaign_id: int) -> WorldState:
    """The campaign's current state as its projection tables hold it (same shape as :func:`rebuild_state`)."""
    cid = campaign_id

    async def rows(stmt: Any) -> list[Any]:
        return list((await session.exec(stmt)).all())

    records: dict[str, str] = {}
    for table, kind in ((m.Entity, "entity"), (m.Location, "location"), (m.Item, "item")):
        for r in await rows(select(table.id).where(table.campaign_id == cid)):
            records[r] = kind
    facts = {
        f.key: (f.value, f.visibility)
        for f in await rows(
            select(m.Fact.key, m.Fact.value, m.Fact.visibility).where(m.Fact.campaign_id == cid)
        )
    }
    holdings = {
        f"{h.item_id}@{h.holder_id}": h.quantity
        for h in await rows(
            select(m.Holding.item_id, m.Holding.holder_id, m.Holding.quantity).where(
                m.Holding.campaign_id == cid
            )
        )
    }
    threads = {
        t.id: t.status
        for t in await rows(select(m.Thread.id, m.Thread.status).where(m.Thread.campaign_id == cid))
    }
    edges = {
        f"{e.source_id}>{e.target_id}:{e.kind}": e.attitude
        for e in await rows(
            select(m.Edge.source_id, m.Edge.target_id, m.Edge.kind, m.Edge.attitude).where(
                m.Edge.campaign_id == cid
            )
        )
    }
    return WorldState(records=records, facts=facts, holdings=holdings, threads=threads, edges=edges)


__all__ = [
    "DEFAULT_IMPORTANCE",
    "ChangeGroup",
    "apply_changes",
    "apply_round",
    "check_round_move",
    "expire_due_threads",
    "lock_campaign",
    "projected_state",
    "rebuild_state",
    "stage_changes",
    "stage_groups",
]
