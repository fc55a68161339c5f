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

from sqlalchemy import event as sa_event
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, SessionTransaction
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import CampaignNotFound, InvalidChange, LedgerError, RoundStateError, UnknownRecord
from ledger.store import models as m
from ledger.store.db import begin_write
from ledger.store.prefetch import Known, Needs, add_needs, load
from ledger.store.sqldraft import SqlDraft
from ledger.store.sqlin import in_values
from ledger.store.vocabulary import Correction, Mutation, Retcon, parse_mutation
from ledger.store.world import (
    EventDraft,
    Provenance,
    WorldDraft,
    WorldState,
    draft_to_state,
    event_ref,
)

DEFAULT_IMPORTANCE = 5


_LOCKS = "ledger.campaign_locks"


def _held_locks(session: AsyncSession) -> dict[int, int]:
    """The campaigns the session's current transaction has locked, each with its last event number.

    Kept in ``session.info`` beside the transaction it belongs to, so a new transaction starts empty; any
    transaction ending (a savepoint released or rolled back too: a rolled-back savepoint gives back the
    row lock and the event numbers drawn inside it) forgets them all.
    """
    sync = session.sync_session
    if not sync.info.get(_LOCKS + ".watched"):

        def forget(sess: Session, _transaction: SessionTransaction) -> None:
            sess.info.pop(_LOCKS, None)

        sa_event.listen(sync, "after_transaction_end", forget)
        sync.info[_LOCKS + ".watched"] = True
    tx = sync.get_transaction()
    held = sync.info.get(_LOCKS)
    if tx is None:
        return {}
    if held is None or held[0] is not tx:
        held = (tx, {})
        sync.info[_LOCKS] = held
    locks: dict[int, int] = held[1]
    return locks


async def lock_campaign(session: AsyncSession, campaign_id: int) -> int:
    """Take the campaign's writer lock for this transaction; returns its last event number.

    Asked again in the same transaction, it answers from memory (the lock is still held and only this
    transaction numbers the campaign's events), so a transaction that locks twice pays one statement.
    Raises CampaignNotFound when there is no such campaign.
    """
    known = _held_locks(session).get(campaign_id)
    if known is not None:
        return known
    # FOR NO KEY UPDATE (PostgreSQL): serialises this campaign's writers without blocking other transactions'
    # foreign-key checks against the campaign row (they take KEY SHARE).
    stmt = select(m.Campaign.event_seq).where(m.Campaign.id == campaign_id).with_for_update(key_share=True)
    seq = (await session.exec(stmt)).first()
    if seq is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    _held_locks(session)[campaign_id] = int(seq)
    return int(seq)


async def hold_campaign(session: AsyncSession, campaign_id: int) -> None:
    """Hold the campaign's writer lock for this transaction, when the caller needs the lock and not the
    campaign's last event number (closing, narrating or posting a round).

    On SQLite a writing transaction began with ``BEGIN IMMEDIATE`` (:func:`ledger.store.db.begin_write`),
    which already holds the database's one write lock until it ends: no statement is needed (one fewer per
    round's close, narration and posting). Elsewhere (PostgreSQL, or a transaction that is not a writing
    one) this is :func:`lock_campaign` (the row lock).
    """
    from ledger.store.db import WRITE_OPTION

    sync = (await session.connection()).sync_connection
    if sync is not None and sync.dialect.name == "sqlite" and sync.get_execution_options().get(WRITE_OPTION):
        return
    await lock_campaign(session, campaign_id)


async def _number_events(session: AsyncSession, campaign_id: int, last: int) -> None:
    """Record ``last`` as the campaign's last event number (in SQL and in the transaction's lock memory)."""
    await (await session.connection()).execute(
        update(m.Campaign).where(col(m.Campaign.id) == campaign_id).values(event_seq=last)
    )
    locks = _held_locks(session)
    if campaign_id in locks:
        locks[campaign_id] = last


async def _prefetched(
    session: AsyncSession,
    campaign_id: int,
    batches: Sequence[tuple[Sequence[Mutation], Sequence[str], Sequence[str]]],
) -> Known:
    """What drafting these (changes, witnesses, involved) batches looks up, loaded: one query per table."""
    needs, known = Needs(), Known()
    for changes, witnesses, involved in batches:
        add_needs(needs, changes, witnesses=witnesses, involved=involved)
    await load(await session.connection(), campaign_id, needs, known)
    return known


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


async def _draft_group(
    draft: SqlDraft, group: ChangeGroup, changes: list[Mutation], *, first_seq: int, cause: str
) -> None:
    """Draft one group's changes from event number ``first_seq``; a refusal's message is led by its label."""
    base = Provenance(group.session_number, group.round_number, cause, "public")
    try:
        await _draft_changes(
            draft,
            first_seq=first_seq,
            changes=changes,
            base=base,
            cause=cause,
            witnesses=group.witnesses,
            involved=group.involved,
            own_provenance=(group.importance, group.permanent),
        )
    except LedgerError as err:
        raise type(err)(f"{group.label}: {err}" if group.label else str(err)) from None


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
    known = Known()
    if not fresh:
        batches = [(c, g.witnesses, g.involved) for g, c in zip(groups, parsed, strict=True)]
        known = await _prefetched(session, campaign_id, batches)
    draft = SqlDraft(session, campaign_id, fresh=fresh, known=known)
    refs: list[list[str]] = []
    seq = last + 1
    for group, changes in zip(groups, parsed, strict=True):
        await _draft_group(draft, group, changes, first_seq=seq, cause=cause)
        refs.append([event_ref(n) for n in range(seq, seq + len(changes))])
        seq += len(changes)
    if draft.events:
        every = Provenance(0, None, cause, "public")  # each event carries its own session and round
        await draft.write(importance=DEFAULT_IMPORTANCE, permanent=False, base=every)
        await _number_events(session, campaign_id, seq - 1)
    return refs


async def stage_each(
    session: AsyncSession, *, campaign_id: int, cause: str, groups: Sequence[ChangeGroup]
) -> list[list[str] | LedgerError]:
    """Stage groups of changes where each lands or is refused on its own; return each group's refs or refusal.

    In order, each group is validated against the state the groups landed before it left (as if each were
    staged by :func:`stage_groups` alone, one after the other), and a refused one leaves no trace. Unlike
    separate calls (or savepoints around each), the batch takes the lock once, loads what it looks up once
    (one query per table) and is written by one bulk write: a refusal only redrafts the batch in memory
    without the refused group. The refusal is the LedgerError :func:`stage_groups` would raise for that
    group alone. Inside the caller's transaction, like :func:`stage_groups`.
    """
    outcome: list[list[str] | LedgerError] = [[] for _ in groups]
    parsed: list[list[Mutation] | None] = []
    for n, group in enumerate(groups):
        try:
            if not 0 <= group.importance <= 10:
                raise InvalidChange(f"importance must be 0..10, not {group.importance}")
            parsed.append(_parsed(group.mutations))
        except InvalidChange as err:
            outcome[n] = InvalidChange(f"{group.label}: {err}" if group.label else str(err))
            parsed.append(None)
    last = await lock_campaign(session, campaign_id)
    batches = [(c, g.witnesses, g.involved) for g, c in zip(groups, parsed, strict=True) if c is not None]
    known = await _prefetched(session, campaign_id, batches)
    while True:
        draft = SqlDraft(session, campaign_id, known=known)  # ``known`` stays what SQL holds: drafts copy it
        seq, refused = last + 1, False
        for n, (group, changes) in enumerate(zip(groups, parsed, strict=True)):
            if changes is None or isinstance(outcome[n], LedgerError):
                continue
            try:
                await _draft_group(draft, group, changes, first_seq=seq, cause=cause)
            except LedgerError as err:
                outcome[n] = err
                refused = True
                break
            outcome[n] = [event_ref(x) for x in range(seq, seq + len(changes))]
            seq += len(changes)
        if not refused:
            break
    if draft.events:
        every = Provenance(0, None, cause, "public")  # each event carries its own session and round
        await draft.write(importance=DEFAULT_IMPORTANCE, permanent=False, base=every)
        await _number_events(session, campaign_id, seq - 1)
    return outcome


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
    last = await _draw_numbers(session, campaign_id, len(changes))
    try:
        known = await _prefetched(session, campaign_id, [(changes, witnesses, ())])
        draft = SqlDraft(session, campaign_id, known=known)
        base = Provenance(session_number, round_number, cause, "public")
        await _draft_changes(
            draft, first_seq=last + 1, changes=changes, base=base, cause=cause, witnesses=witnesses
        )
        if (round_state is not None or resolution is not None) and round_number is None:
            raise RoundStateError("a round state needs a round_number")
    except LedgerError:
        if changes:  # nothing was written: the numbers drawn go back (for a caller that does not roll back)
            await _number_events(session, campaign_id, last)
        raise
    await draft.write(importance=importance, permanent=permanent, base=base)
    if round_number is not None and (round_state is not None or resolution is not None):
        await _move_round(
            session,
            campaign_id=campaign_id,
            session_number=session_number,
            round_number=round_number,
            round_state=round_state,
            resolution=resolution,
        )
    return [e.ref for e in draft.events]


async def _draw_numbers(session: AsyncSession, campaign_id: int, count: int) -> int:
    """Take the campaign's lock and ``count`` event numbers; return the last number before them.

    Not locked yet in this transaction: ONE ``UPDATE ... RETURNING`` takes the lock (the row lock a
    ``SELECT ... FOR NO KEY UPDATE`` would take) and moves the campaign's number past the drawn ones.
    """
    if count == 0 or campaign_id in _held_locks(session):
        last = await lock_campaign(session, campaign_id)
        if count:
            await _number_events(session, campaign_id, last + count)
        return last
    stmt = (
        update(m.Campaign)
        .where(col(m.Campaign.id) == campaign_id)
        .values(event_seq=col(m.Campaign.event_seq) + count)
        .returning(col(m.Campaign.event_seq))
    )
    drawn = (await (await session.connection()).execute(stmt)).scalar_one_or_none()
    if drawn is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    _held_locks(session)[campaign_id] = int(drawn)
    return int(drawn) - count


async def _move_round(
    session: AsyncSession,
    *,
    campaign_id: int,
    session_number: int,
    round_number: int,
    round_state: str | None,
    resolution: dict[str, Any] | None,
) -> None:
    """Give the round its new state and/or resolution in one UPDATE that only matches a forward move.

    A move to ``round_state`` matches only a round still before it: a round already there was moved by
    another writer (two processes, or a /close that read the round ``closed``, both resolving it), and its
    stored resolution is the one whose events were written, so this one is refused (RoundStateError) and
    rolled back whole. Refuses (UnknownRecord, RoundStateError) like :func:`check_round_move`, reading the
    round only then. An ORM-enabled UPDATE, so a copy of the round already loaded in the session is brought
    up to date too.
    """
    where = (
        col(m.Round.campaign_id) == campaign_id,
        col(m.Round.session_number) == session_number,
        col(m.Round.number) == round_number,
    )
    values: dict[str, Any] = {"updated_at": m.utcnow()}
    stmt = update(m.Round).where(*where)
    if round_state is not None:
        check_round_move(round_state, round_state)  # a name that is no round state is refused here
        earlier = [state for state, n in ROUND_ORDER.items() if n < ROUND_ORDER[round_state]]
        stmt = stmt.where(in_values(col(m.Round.state), earlier))
        values["state"] = round_state
    if resolution is not None:
        values["resolution"] = resolution
    moved = await session.exec(stmt.values(**values))
    if moved.rowcount == 1:
        return
    current = (await session.exec(select(m.Round.state).where(*where))).first()
    if current is None:
        raise UnknownRecord(f"no round {session_number}.{round_number} in campaign {campaign_id}")
    if round_state is not None:
        check_round_move(current, round_state)
        if current == round_state:
            raise RoundStateError(f"round {session_number}.{round_number} is already {current}")
    raise RoundStateError(f"round {session_number}.{round_number} could not be moved")  # pragma: no cover


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
    "stage_each",
    "stage_groups",
]
