"""The outbox: every message the table owes (public posts, DMs, follow-ups), queued before it is sent.

Write functions commit on success and roll back on failure (raising a LedgerError with a one-line message).
Claiming a message for delivery and retrying it live in :mod:`.sessions`, which builds views with
:func:`outbox_view`.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import InvalidChange, UnknownRecord
from ledger.store import models as m
from ledger.store.records import OutboxView
from ledger.store.transaction import WriteTransaction
from ledger.store.writes import lock_campaign

#: ``followup``: the answer to a command that closed a round (opaque reply handle from the front end, or none
#: for a round the deadline closed), delivered by the courier if a crash left it unanswered.
OUTBOX_KINDS = ("public", "dm", "followup")
OUTBOX_SOURCES = ("generated", "regenerated", "fallback")
OUTBOX_STATUSES = ("pending", "sent", "failed", "dm_closed", "skipped")


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
    if kind not in OUTBOX_KINDS:
        raise InvalidChange(f"outbox kind must be one of {', '.join(OUTBOX_KINDS)}, not {kind!r}")
    if source not in OUTBOX_SOURCES:
        raise InvalidChange(f"outbox source must be one of {', '.join(OUTBOX_SOURCES)}")
    if kind == "dm" and recipient_user_id is None:
        raise InvalidChange("a DM needs a recipient")
    recipient = None if recipient_user_id is None else str(recipient_user_id)
    async with WriteTransaction(session):
        await lock_campaign(session, campaign_id)
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
        view = outbox_view(row)
    return view


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


__all__ = [
    "OUTBOX_KINDS",
    "OUTBOX_SOURCES",
    "OUTBOX_STATUSES",
    "add_outbox",
    "list_outbox",
    "mark_outbox",
    "outbox_view",
    "pending_outbox",
]
