"""Proposals and nominations kept for the GM: what the narrator proposed or a player nominated, and its fate.

A row is written inside the caller's transaction (the round's narration, or a nomination's own write), so a
proposal's changes and its record land together. Nothing is deleted: undoing one marks it ``undone`` with
the retcon event that took it back. Also here: the record a nomination is checked against (each round's
submitted words, its posted narration and the private notes sent to one player).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import UnknownRecord
from ledger.store import models as m

STATUSES: tuple[str, ...] = ("accepted", "refused", "queued", "undone")


class ProposalRecord(BaseModel):
    """One stored proposal, as read back."""

    model_config = ConfigDict(frozen=True)

    id: int
    campaign_id: int
    round_id: int | None
    origin: str
    author: str
    kind: str
    summary: str
    payload: dict[str, Any]
    changes: tuple[dict[str, Any], ...]
    refs: tuple[str, ...]
    status: str
    reason: str
    visibility: str
    cause: str
    undo_event: str | None


class RoundRecord(BaseModel):
    """What was said in one round: each PC's submitted words, the posted narration, one player's notes."""

    model_config = ConfigDict(frozen=True)

    round_id: int
    session_number: int
    number: int
    texts: dict[str, str]  # pc id -> submitted words
    players: dict[str, str]  # pc id -> user id
    narration: str
    notes: tuple[str, ...]  # private notes sent to the asking player


def _view(row: m.Proposal) -> ProposalRecord:
    assert row.id is not None
    return ProposalRecord(
        id=row.id,
        campaign_id=row.campaign_id,
        round_id=row.round_id,
        origin=row.origin,
        author=row.author,
        kind=row.kind,
        summary=row.summary,
        payload=dict(row.payload or {}),
        changes=tuple(row.changes or ()),
        refs=tuple(str(r) for r in row.refs or ()),
        status=row.status,
        reason=row.reason,
        visibility=row.visibility,
        cause=row.cause,
        undo_event=row.undo_event,
    )


async def add_proposal(
    session: AsyncSession,
    *,
    campaign_id: int,
    round_id: int | None,
    origin: str,
    kind: str,
    summary: str,
    status: str,
    author: str = "",
    payload: dict[str, Any] | None = None,
    changes: Sequence[dict[str, Any]] = (),
    refs: Sequence[str] = (),
    reason: str = "",
    visibility: str = "public",
    cause: str = "",
) -> int:
    """Add one proposal row in the caller's transaction (flushed, not committed); return its id."""
    row = new_proposal(
        campaign_id=campaign_id,
        round_id=round_id,
        origin=origin,
        kind=kind,
        summary=summary,
        status=status,
        author=author,
        payload=payload,
        changes=changes,
        refs=refs,
        reason=reason,
        visibility=visibility,
        cause=cause,
    )
    session.add(row)
    await session.flush()
    assert row.id is not None
    return row.id


def new_proposal(
    *,
    campaign_id: int,
    round_id: int | None,
    origin: str,
    kind: str,
    summary: str,
    status: str,
    author: str = "",
    payload: dict[str, Any] | None = None,
    changes: Sequence[dict[str, Any]] = (),
    refs: Sequence[str] = (),
    reason: str = "",
    visibility: str = "public",
    cause: str = "",
) -> m.Proposal:
    """A proposal row to add to a session (many can be added and written with one flush)."""
    if status not in STATUSES:
        raise ValueError(f"unknown proposal status {status!r}")
    return m.Proposal(
        campaign_id=campaign_id,
        round_id=round_id,
        origin=origin,
        author=author,
        kind=kind,
        summary=summary[:2000],
        payload=dict(payload or {}),
        changes=list(changes),
        refs=list(refs),
        status=status,
        reason=reason[:1000],
        visibility=visibility,
        cause=cause[:120],
    )


async def list_proposals(
    session: AsyncSession, *, campaign_id: int, limit: int = 50, status: str | None = None
) -> list[ProposalRecord]:
    """The campaign's newest proposals first (all statuses unless ``status`` is given)."""
    stmt = select(m.Proposal).where(m.Proposal.campaign_id == campaign_id)
    if status is not None:
        stmt = stmt.where(m.Proposal.status == status)
    rows = (await session.exec(stmt.order_by(col(m.Proposal.id).desc()).limit(limit))).all()
    return [_view(r) for r in rows]


async def get_proposal(session: AsyncSession, *, campaign_id: int, proposal_id: int) -> ProposalRecord:
    """One proposal of the campaign; raises UnknownRecord when there is none with that id."""
    row = await session.get(m.Proposal, proposal_id)
    if row is None or row.campaign_id != campaign_id:
        raise UnknownRecord(f"no proposal #{proposal_id} in this campaign")
    return _view(row)


async def mark_undone(session: AsyncSession, *, proposal_id: int, undo_event: str) -> None:
    """Mark a proposal undone by ``undo_event`` (in the caller's transaction)."""
    row = await session.get(m.Proposal, proposal_id)
    if row is None:
        raise UnknownRecord(f"no proposal #{proposal_id}")
    row.status = "undone"
    row.undo_event = undo_event
    row.updated_at = m.utcnow()
    session.add(row)
    await session.flush()


async def round_records(
    session: AsyncSession, *, campaign_id: int, user_id: str, limit: int = 40
) -> list[RoundRecord]:
    """The newest ``limit`` narrated rounds, newest first: submitted words, narration, ``user_id``'s notes."""
    rounds = (
        await session.exec(
            select(m.Round)
            .where(m.Round.campaign_id == campaign_id, col(m.Round.state).in_(("narrated", "posted")))
            .order_by(col(m.Round.id).desc())
            .limit(limit)
        )
    ).all()
    ids = [r.id for r in rounds if r.id is not None]
    public: dict[int, str] = {}
    notes: dict[int, list[str]] = {}
    if ids:
        rows = (
            await session.exec(
                select(m.Outbox).where(
                    col(m.Outbox.round_id).in_(ids), col(m.Outbox.kind).in_(("public", "dm"))
                )
            )
        ).all()
        for row in rows:
            text = str((row.content or {}).get("text", ""))
            if row.round_id is None:
                continue
            if row.kind == "public":
                public[row.round_id] = text
            elif row.recipient_user_id == user_id:
                notes.setdefault(row.round_id, []).append(text)
    out: list[RoundRecord] = []
    for r in rounds:
        assert r.id is not None
        record = r.resolution or {}
        out.append(
            RoundRecord(
                round_id=r.id,
                session_number=r.session_number,
                number=r.number,
                texts={str(k): str(v) for k, v in (record.get("texts") or {}).items()},
                players={str(k): str(v) for k, v in (record.get("players") or {}).items()},
                narration=public.get(r.id, ""),
                notes=tuple(notes.get(r.id, ())),
            )
        )
    return out
