"""Disputes and the GM's conflict queue: what players and the fact check raise, and the GM's rulings on it.

Accepting a dispute writes a ``correction`` event and retconning a conflict a ``retcon`` event, each in the
same transaction as the ruling; rejecting or dismissing writes nothing to the world. Write functions commit
on success and roll back on failure (raising a LedgerError with a one-line message).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import InvalidChange, UnknownRecord
from ledger.store import models as m
from ledger.store.records import ConflictView, DisputeView
from ledger.store.transaction import WriteTransaction
from ledger.store.vocabulary import BasicChange, Correction, Retcon
from ledger.store.writes import lock_campaign, stage_changes


def _build(cls: Any, data: dict[str, Any]) -> Any:
    try:
        return cls.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or cls.__name__
        raise InvalidChange(f"invalid {cls.__name__.lower()} at {where}: {first['msg']}") from None


def _dispute_view(d: m.Dispute) -> DisputeView:
    return DisputeView(
        id=d.id or 0,
        campaign_id=d.campaign_id,
        record_ref=d.record_ref,
        user_id=d.user_id,
        reason=d.reason,
        status=d.status,
        ruling_note=d.ruling_note,
        ruling_event=d.ruling_event,
    )


def _conflict_view(c: m.Conflict) -> ConflictView:
    return ConflictView(
        id=c.id or 0,
        campaign_id=c.campaign_id,
        round_id=c.round_id,
        claim_text=c.claim_text,
        refuting_ref=c.refuting_ref,
        status=c.status,
        note=c.note,
        retcon_event=c.retcon_event,
    )


# --- disputes ---------------------------------------------------------------------------------------------


async def open_dispute(
    session: AsyncSession,
    *,
    campaign_id: int,
    record_ref: str,
    user_id: str | int,
    reason: str,
    session_number: int = 0,
) -> DisputeView:
    """A player objects to a record; returns the open dispute.

    Raises InvalidChange without a reason, and when the same player already has an open dispute of the same
    record (checked under the campaign's write lock, so two at once cannot both be filed).
    """
    if not reason.strip():
        raise InvalidChange("a dispute needs a reason")
    async with WriteTransaction(session):
        await lock_campaign(session, campaign_id)
        open_already = (
            await session.exec(
                select(m.Dispute).where(
                    m.Dispute.campaign_id == campaign_id,
                    m.Dispute.record_ref == record_ref,
                    m.Dispute.user_id == str(user_id),
                    m.Dispute.status == "open",
                )
            )
        ).first()
        if open_already is not None:
            raise InvalidChange(
                f"You already disputed {record_ref}: dispute #{open_already.id} waits for the GM's ruling."
            )
        d = m.Dispute(
            campaign_id=campaign_id,
            record_ref=record_ref,
            user_id=str(user_id),
            reason=reason.strip(),
            session_number=session_number,
        )
        session.add(d)
        await session.flush()
        view = _dispute_view(d)
    return view


async def rule_dispute(
    session: AsyncSession,
    *,
    dispute_id: int,
    accept: bool,
    note: str = "",
    changes: Sequence[BasicChange | dict[str, Any]] = (),
    session_number: int | None = None,
    round_number: int | None = None,
    visibility: str = "public",
) -> DisputeView:
    """The GM rules on an open dispute. Accepting writes a ``correction`` event (cause ``dispute-<id>``) that
    points at the disputed record and applies ``changes``, in the same transaction; rejecting writes nothing
    to the world. Raises RoundStateError-free LedgerErrors: UnknownRecord, InvalidChange (already ruled), and
    whatever the correction's changes raise.
    """
    async with WriteTransaction(session):
        d = await session.get(m.Dispute, dispute_id)
        if d is None:
            raise UnknownRecord(f"no dispute {dispute_id}")
        await lock_campaign(session, d.campaign_id)
        await session.refresh(d)
        if d.status != "open":
            raise InvalidChange(f"dispute {dispute_id} was already {d.status}")
        d.status = "accepted" if accept else "rejected"
        d.ruling_note = note
        if accept:
            correction = _build(
                Correction,
                {
                    "target": d.record_ref,
                    "reason": note or d.reason,
                    "changes": list(changes),
                    "visibility": visibility,
                },
            )
            (ref,) = await stage_changes(
                session,
                campaign_id=d.campaign_id,
                session_number=d.session_number if session_number is None else session_number,
                round_number=round_number,
                cause=f"dispute-{dispute_id}",
                mutations=[correction],
                importance=6,
                permanent=False,
                witnesses=(),
                round_state=None,
                resolution=None,
            )
            d.ruling_event = ref
        session.add(d)
        view = _dispute_view(d)
    return view


async def list_disputes(
    session: AsyncSession, *, campaign_id: int, status: str | None = "open"
) -> list[DisputeView]:
    """The campaign's disputes (open ones by default), oldest first."""
    stmt = select(m.Dispute).where(m.Dispute.campaign_id == campaign_id)
    if status is not None:
        stmt = stmt.where(m.Dispute.status == status)
    return [_dispute_view(d) for d in (await session.exec(stmt.order_by(col(m.Dispute.id)))).all()]


# --- the GM's conflict queue ------------------------------------------------------------------------------


async def add_conflict(
    session: AsyncSession,
    *,
    campaign_id: int,
    round_id: int | None,
    claim_text: str,
    refuting_ref: str | None = None,
) -> ConflictView:
    """Queue a narration claim the ledger refuted, for the GM; returns it (status ``open``)."""
    async with WriteTransaction(session):
        await lock_campaign(session, campaign_id)
        c = m.Conflict(
            campaign_id=campaign_id, round_id=round_id, claim_text=claim_text, refuting_ref=refuting_ref
        )
        session.add(c)
        await session.flush()
        view = _conflict_view(c)
    return view


async def list_conflicts(
    session: AsyncSession, *, campaign_id: int, status: str | None = "open"
) -> list[ConflictView]:
    """The GM's queue (open conflicts by default), oldest first."""
    stmt = select(m.Conflict).where(m.Conflict.campaign_id == campaign_id)
    if status is not None:
        stmt = stmt.where(m.Conflict.status == status)
    return [_conflict_view(c) for c in (await session.exec(stmt.order_by(col(m.Conflict.id)))).all()]


async def _open_conflict(session: AsyncSession, conflict_id: int) -> m.Conflict:
    c = await session.get(m.Conflict, conflict_id)
    if c is None:
        raise UnknownRecord(f"no conflict {conflict_id}")
    await lock_campaign(session, c.campaign_id)
    await session.refresh(c)
    if c.status != "open":
        raise InvalidChange(f"conflict {conflict_id} was already {c.status}")
    return c


async def dismiss_conflict(session: AsyncSession, *, conflict_id: int, note: str = "") -> ConflictView:
    """The GM lets a conflict stand as told-but-not-true; nothing in the world changes."""
    async with WriteTransaction(session):
        c = await _open_conflict(session, conflict_id)
        c.status, c.note = "dismissed", note
        session.add(c)
        view = _conflict_view(c)
    return view


async def retcon_conflict(
    session: AsyncSession,
    *,
    conflict_id: int,
    target: str,
    reason: str,
    changes: Sequence[BasicChange | dict[str, Any]],
    session_number: int,
    round_number: int | None = None,
    visibility: str = "public",
) -> ConflictView:
    """The GM makes the narration true: a ``retcon`` event superseding event ``target`` applies ``changes``
    (thread finality lifted), and the conflict is marked ``retconned``, in one transaction.
    """
    async with WriteTransaction(session):
        c = await _open_conflict(session, conflict_id)
        retcon = _build(
            Retcon, {"target": target, "reason": reason, "changes": list(changes), "visibility": visibility}
        )
        (ref,) = await stage_changes(
            session,
            campaign_id=c.campaign_id,
            session_number=session_number,
            round_number=round_number,
            cause=f"conflict-{conflict_id}",
            mutations=[retcon],
            importance=6,
            permanent=False,
            witnesses=(),
            round_state=None,
            resolution=None,
        )
        c.status, c.note, c.retcon_event = "retconned", reason, ref
        session.add(c)
        view = _conflict_view(c)
    return view


__all__ = [
    "add_conflict",
    "dismiss_conflict",
    "list_conflicts",
    "list_disputes",
    "open_dispute",
    "retcon_conflict",
    "rule_dispute",
]
