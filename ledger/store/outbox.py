"""The outbox: every message the table owes (public posts, DMs, follow-ups), queued before it is sent.

Write functions commit on success and roll back on failure (raising a LedgerError with a one-line message).
Claiming a message for delivery and retrying it live in :mod:`.sessions`, which builds views with
:func:`outbox_view`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import bindparam, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import InvalidChange, UnknownRecord
from ledger.store import models as m
from ledger.store.db import ALONE_OPTION
from ledger.store.records import OutboxView
from ledger.store.rounds import utc_aware
from ledger.store.sqlin import in_values
from ledger.store.transaction import WriteTransaction
from ledger.store.writes import lock_campaign

#: ``followup``: the answer to a command that closed a round (opaque reply handle from the front end, or none
#: for a round the deadline closed), delivered by the courier if a crash left it unanswered.
OUTBOX_KINDS = ("public", "dm", "followup")
OUTBOX_SOURCES = ("generated", "regenerated", "fallback")
OUTBOX_STATUSES = ("pending", "sent", "failed", "dm_closed", "skipped")


_OUTBOX: Any = m.Outbox.__table__  # type: ignore[attr-defined]  # Core statements: no ORM instances


def outbox_view(o: m.Outbox) -> OutboxView:
    """The read view of one outbox row."""
    return OutboxView(
        id=o.id or 0,
        campaign_id=o.campaign_id,
        round_id=o.round_id,
        kind=o.kind,
        recipient_user_id=o.recipient_user_id,
        content=dict(o.content),
        source=o.source,
        status=o.status,
        external_id=o.external_id,
    )


async def add_outbox(
    session: AsyncSession,
    *,
    campaign_id: int,
    round_id: int | None,
    kind: str,
    content: dict[str, Any],
    recipient_user_id: str | int | None = None,
    source: str = "generated",
    replace: bool = False,
) -> OutboxView:
    """Queue a message (``public`` to the channel, ``dm`` to ``recipient_user_id``) as pending; returns it.

    Idempotent per (round, kind, recipient): queuing again returns the existing row unchanged, so a restart
    that re-queues never posts twice. With ``replace=True`` a still-pending row gets the new content and
    source (a regenerated narration); a row already sent is never changed.
    """
    async with WriteTransaction(session):  # queue_message validates (a refusal rolls the transaction back)
        await lock_campaign(session, campaign_id)
        view = await queue_message(
            session,
            campaign_id=campaign_id,
            round_id=round_id,
            kind=kind,
            content=content,
            recipient_user_id=recipient_user_id,
            source=source,
            replace=replace,
        )
    return view


async def queue_message(
    session: AsyncSession,
    *,
    campaign_id: int,
    round_id: int | None,
    kind: str,
    content: dict[str, Any],
    recipient_user_id: str | int | None = None,
    source: str = "generated",
    replace: bool = False,
) -> OutboxView:
    """:func:`add_outbox` inside the caller's writing transaction (which holds the campaign's lock)."""
    if kind not in OUTBOX_KINDS:
        raise InvalidChange(f"outbox kind must be one of {', '.join(OUTBOX_KINDS)}, not {kind!r}")
    if source not in OUTBOX_SOURCES:
        raise InvalidChange(f"outbox source must be one of {', '.join(OUTBOX_SOURCES)}")
    if kind == "dm" and recipient_user_id is None:
        raise InvalidChange("a DM needs a recipient")
    recipient = None if recipient_user_id is None else str(recipient_user_id)
    stmt = select(m.Outbox).where(
        m.Outbox.campaign_id == campaign_id,
        m.Outbox.round_id == round_id if round_id is not None else col(m.Outbox.round_id).is_(None),
        m.Outbox.kind == kind,
        m.Outbox.recipient_user_id == recipient
        if recipient is not None
        else col(m.Outbox.recipient_user_id).is_(None),
    )
    row = (await session.exec(stmt)).first() if round_id is not None else None
    if row is not None and replace and row.status == "pending":
        row.content, row.source, row.updated_at = content, source, m.utcnow()
        session.add(row)
        await session.flush()
    if row is None:
        row = m.Outbox(
            campaign_id=campaign_id,
            round_id=round_id,
            kind=kind,
            recipient_user_id=recipient,
            content=content,
            source=source,
        )
        session.add(row)
        await session.flush()
    return outbox_view(row)


async def claim_message(session: AsyncSession, *, outbox_id: int) -> bool:
    """Move a message from ``pending`` to ``sending`` in one conditional UPDATE; False when it was not pending
    (another task or shard took it, or it was already sent). The claim makes delivery at-most-once (see
    :func:`ledger.store.sessions.claim_outbox`, which does the same with a read first)."""
    table = _OUTBOX
    async with WriteTransaction(session):
        done = await (await session.connection()).execute(
            update(table)
            .where(table.c.id == outbox_id, table.c.status == "pending")
            .values(status="sending", updated_at=m.utcnow())
        )
        claimed = done.rowcount == 1
    return claimed


async def record_message(
    session: AsyncSession, *, outbox_id: int, status: str, external_id: str | int | None = None
) -> None:
    """:func:`mark_outbox` in one UPDATE (nothing read back): a claimed message's fate after its send."""
    if status not in OUTBOX_STATUSES:
        raise InvalidChange(f"outbox status must be one of {', '.join(OUTBOX_STATUSES)}")
    table = _OUTBOX
    values: dict[str, Any] = {"status": status, "updated_at": m.utcnow()}
    if external_id is not None:
        values["external_id"] = str(external_id)
    async with WriteTransaction(session):
        done = await (await session.connection()).execute(
            update(table).where(table.c.id == outbox_id).values(**values)
        )
        if done.rowcount != 1:
            raise UnknownRecord(f"no outbox message {outbox_id}")


_CLAIM = (
    update(_OUTBOX)
    .where(_OUTBOX.c.id == bindparam("oid"), _OUTBOX.c.status == "pending")
    .values(status="sending", updated_at=bindparam("now"))
)


async def _write_alone(engine: AsyncEngine, stmt: Any, params: dict[str, Any]) -> int:
    """Run one writing statement as a transaction of its own on a bare connection (no ORM session: a
    delivery's claims and records are one UPDATE each, and a session cost more than the statement);
    returns its row count. The statement commits by itself: no ``BEGIN`` and ``COMMIT`` around it (SQLite's
    autocommit, :data:`ledger.store.db.ALONE_OPTION`; PostgreSQL's ``AUTOCOMMIT``), as atomic and durable
    as the transaction it used to open, one statement (SQLite) or two round trips (PostgreSQL) fewer."""
    async with engine.connect() as conn:
        alone = {ALONE_OPTION: True} if conn.dialect.name == "sqlite" else {"isolation_level": "AUTOCOMMIT"}
        conn = await conn.execution_options(**alone)
        async with conn.begin():
            done = await conn.execute(stmt, params)
        return int(done.rowcount)


async def claim_on(engine: AsyncEngine, *, outbox_id: int) -> bool:
    """:func:`claim_message` on ``engine`` in a transaction of its own (the delivery's hot path)."""
    return await _write_alone(engine, _CLAIM, {"oid": outbox_id, "now": m.utcnow()}) == 1


async def record_on(
    engine: AsyncEngine, *, outbox_id: int, status: str, external_id: str | int | None = None
) -> None:
    """:func:`record_message` on ``engine`` in a transaction of its own (the delivery's hot path)."""
    if status not in OUTBOX_STATUSES:
        raise InvalidChange(f"outbox status must be one of {', '.join(OUTBOX_STATUSES)}")
    values: dict[str, Any] = {"status": status, "updated_at": m.utcnow()}
    if external_id is not None:
        values["external_id"] = str(external_id)
    stmt = update(_OUTBOX).where(_OUTBOX.c.id == bindparam("oid")).values(**values)
    if await _write_alone(engine, stmt, {"oid": outbox_id}) != 1:
        raise UnknownRecord(f"no outbox message {outbox_id}")


async def answer_followups(session: AsyncSession, *, round_id: int, recipients: Iterable[str]) -> int:
    """Mark the round's pending follow-ups to ``recipients`` sent (their commands answered themselves), in one
    UPDATE; returns how many."""
    wanted = sorted(set(recipients))
    if not wanted:
        return 0
    table = _OUTBOX
    async with WriteTransaction(session):
        done = await (await session.connection()).execute(
            update(table)
            .where(
                table.c.round_id == round_id,
                table.c.kind == "followup",
                table.c.status == "pending",
                table.c.recipient_user_id.in_(wanted),
            )
            .values(status="sent", external_id="reply", updated_at=m.utcnow())
        )
        count = int(done.rowcount)
    return count


async def round_messages(
    session: AsyncSession, *, round_id: int, now: datetime
) -> tuple[list[OutboxView], bool]:
    """The round's messages due now (pending, never tried or their retry time passed), oldest first, and
    whether any is stuck ``sending`` (a crash mid-send): one read for the delivery of a round."""
    rows = (
        await session.exec(
            select(m.Outbox)
            .where(m.Outbox.round_id == round_id, in_values(col(m.Outbox.status), ("pending", "sending")))
            .order_by(col(m.Outbox.id))
        )
    ).all()
    due = [
        outbox_view(r) for r in rows if r.status == "pending" and (utc_aware(r.next_attempt_at) or now) <= now
    ]
    return due, any(r.status == "sending" for r in rows)


async def mark_outbox(
    session: AsyncSession, *, outbox_id: int, status: str, external_id: str | int | None = None
) -> OutboxView:
    """Record a queued message's fate: ``sent`` (with the Discord message id), ``failed``, ``dm_closed``."""
    if status not in OUTBOX_STATUSES:
        raise InvalidChange(f"outbox status must be one of {', '.join(OUTBOX_STATUSES)}")
    async with WriteTransaction(session):
        row = await session.get(m.Outbox, outbox_id)
        if row is None:
            raise UnknownRecord(f"no outbox message {outbox_id}")
        row.status = status
        if external_id is not None:
            row.external_id = str(external_id)
        row.updated_at = m.utcnow()
        session.add(row)
        view = outbox_view(row)
    return view


async def pending_outbox(session: AsyncSession, *, campaign_id: int | None = None) -> list[OutboxView]:
    """Messages queued but not yet sent (all campaigns when ``campaign_id`` is None), oldest first."""
    stmt = select(m.Outbox).where(m.Outbox.status == "pending")
    if campaign_id is not None:
        stmt = stmt.where(m.Outbox.campaign_id == campaign_id)
    return [outbox_view(o) for o in (await session.exec(stmt.order_by(col(m.Outbox.id)))).all()]


async def list_outbox(session: AsyncSession, *, round_id: int) -> list[OutboxView]:
    """Every message of a round in any status, oldest first."""
    stmt = select(m.Outbox).where(m.Outbox.round_id == round_id).order_by(col(m.Outbox.id))
    return [outbox_view(o) for o in (await session.exec(stmt)).all()]


class RoundReportRows(BaseModel):
    """What a round's report reads: its messages in any status (oldest first) and how many conflicts it
    queued for the GM, read once (see :func:`report_rows`)."""

    model_config = ConfigDict(frozen=True)

    messages: tuple[OutboxView, ...]
    conflicts: int


async def report_rows(session: AsyncSession, *, round_id: int) -> RoundReportRows:
    """A round's messages and its conflict count in ONE statement (the count rides on each message row as a
    scalar subquery; a round with no message at all asks for the count alone). Works inside the caller's
    writing transaction too, so the posting transaction can read its round's report before it commits."""
    from sqlalchemy import func
    from sqlalchemy import select as core_select

    conflict: Any = m.Conflict.__table__  # type: ignore[attr-defined]
    count = core_select(func.count()).select_from(conflict).where(conflict.c.round_id == round_id)
    conn = await session.connection()
    rows = (
        await conn.execute(
            core_select(_OUTBOX, count.scalar_subquery().label("conflicts"))
            .where(_OUTBOX.c.round_id == round_id)
            .order_by(_OUTBOX.c.id)
        )
    ).all()
    if rows:
        return RoundReportRows(
            messages=tuple(outbox_view(r) for r in rows),  # type: ignore[arg-type]
            conflicts=int(rows[0].conflicts),
        )
    return RoundReportRows(messages=(), conflicts=int((await conn.execute(count)).scalar_one()))


__all__ = [
    "OUTBOX_KINDS",
    "OUTBOX_SOURCES",
    "OUTBOX_STATUSES",
    "RoundReportRows",
    "add_outbox",
    "answer_followups",
    "claim_message",
    "claim_on",
    "list_outbox",
    "mark_outbox",
    "outbox_view",
    "pending_outbox",
    "queue_message",
    "record_message",
    "record_on",
    "report_rows",
    "round_messages",
]
