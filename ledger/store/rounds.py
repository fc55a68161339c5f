"""The table's paperwork: campaigns, members, rounds, submissions, outbox, disputes and the GM's conflicts.

Write functions commit on success and roll back on failure (raising a LedgerError with a one-line message).
Writers of one campaign serialise on its row, so concurrent submissions cannot duplicate or lose each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import CampaignNotFound, InvalidChange, RoundStateError, UnknownRecord
from ledger.store import models as m
from ledger.store.db import begin_write
from ledger.store.records import (
    CampaignView,
    ConflictView,
    DisputeView,
    MemberView,
    OutboxView,
    RoundView,
    SubmissionView,
)
from ledger.store.vocabulary import BasicChange, Correction, Retcon
from ledger.store.writes import check_round_move, lock_campaign, stage_changes

#: ``followup``: the answer to a command that closed a round (opaque reply handle from the front end, or none
#: for a round the deadline closed), delivered by the courier if a crash left it unanswered.
OUTBOX_KINDS = ("public", "dm", "followup")
OUTBOX_SOURCES = ("generated", "regenerated", "fallback")
OUTBOX_STATUSES = ("pending", "sent", "failed", "dm_closed", "skipped")
SUBMISSION_ORIGINS = ("player", "default", "late-moved")


async def _commit(session: AsyncSession) -> None:
    try:
        await session.commit()
    except IntegrityError as err:
        await session.rollback()
        raise InvalidChange(f"the ledger refused the change: {str(err.orig).splitlines()[0]}") from None


class _Tx:
    """``async with _Tx(session):`` commit on success, roll back (and keep the LedgerError) on failure."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def __aenter__(self) -> AsyncSession:
        await begin_write(self.session)
        return self.session

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            await _commit(self.session)
            return
        await self.session.rollback()
        if isinstance(exc, IntegrityError):
            raise InvalidChange(f"the ledger refused the change: {str(exc.orig).splitlines()[0]}") from None


def _build(cls: Any, data: dict[str, Any]) -> Any:
    try:
        return cls.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or cls.__name__
        raise InvalidChange(f"invalid {cls.__name__.lower()} at {where}: {first['msg']}") from None


def _campaign_view(c: m.Campaign) -> CampaignView:
    return CampaignView(
        id=c.id or 0,
        name=c.name,
        guild_id=c.guild_id,
        channel_id=c.channel_id,
        owner_user_id=c.owner_user_id,
        settings=dict(c.settings),
        status=c.status,
    )


def _round_view(r: m.Round) -> RoundView:
    return RoundView(
        id=r.id or 0,
        campaign_id=r.campaign_id,
        session_number=r.session_number,
        number=r.number,
        state=r.state,
        seed_commitment=r.seed_commitment,
        revealed_seed=r.revealed_seed,
        deadline=_aware(r.deadline),
        resolution=r.resolution,
    )


def _aware(when: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; every time the ledger returns is UTC-aware on both backends.
    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


def _submission_view(s: m.Submission, created: bool = False) -> SubmissionView:
    return SubmissionView(
        id=s.id or 0,
        round_id=s.round_id,
        player_user_id=s.player_user_id,
        character_id=s.character_id,
        idempotency_key=s.idempotency_key,
        text=s.text,
        intent=s.intent,
        ready=s.ready,
        origin=s.origin,
        created=created,
    )


def _outbox_view(o: m.Outbox) -> OutboxView:
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


# --- campaigns and members -----------------------------------------------------------------------------


async def create_campaign(
    session: AsyncSession,
    *,
    name: str,
    guild_id: str | int = "",
    channel_id: str | int = "",
    owner_user_id: str | int = "",
    settings: dict[str, Any] | None = None,
) -> CampaignView:
    """Create a campaign and its session 1; returns it (its ``id`` scopes every other call)."""
    if not name.strip():
        raise InvalidChange("a campaign needs a name")
    async with _Tx(session):
        c = m.Campaign(
            name=name.strip(),
            guild_id=str(guild_id),
            channel_id=str(channel_id),
            owner_user_id=str(owner_user_id),
            settings=settings or {},
        )
        session.add(c)
        await session.flush()
        session.add(m.GameSession(campaign_id=c.id or 0, number=1))
        view = _campaign_view(c)
    return view


async def get_campaign(session: AsyncSession, *, campaign_id: int) -> CampaignView:
    """One campaign. Raises CampaignNotFound."""
    c = await session.get(m.Campaign, campaign_id)
    if c is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    return _campaign_view(c)


async def find_campaign(
    session: AsyncSession, *, guild_id: str | int, channel_id: str | int
) -> CampaignView | None:
    """The active campaign played in this channel, or None."""
    c = (
        await session.exec(
            select(m.Campaign)
            .where(
                m.Campaign.guild_id == str(guild_id),
                m.Campaign.channel_id == str(channel_id),
                m.Campaign.status == "active",
            )
            .order_by(col(m.Campaign.id).desc())
        )
    ).first()
    return None if c is None else _campaign_view(c)


async def current_session_number(session: AsyncSession, *, campaign_id: int) -> int:
    """The number of the campaign's latest game session (1 for a new campaign). Raises CampaignNotFound."""
    number = (
        await session.exec(
            select(m.GameSession.number)
            .where(m.GameSession.campaign_id == campaign_id)
            .order_by(col(m.GameSession.number).desc())
        )
    ).first()
    if number is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    return number


async def start_session(session: AsyncSession, *, campaign_id: int) -> int:
    """Close the current game session and open the next; returns the new session number."""
    async with _Tx(session):
        await lock_campaign(session, campaign_id)
        rows = (
            await session.exec(select(m.GameSession).where(m.GameSession.campaign_id == campaign_id))
        ).all()
        for row in rows:
            if row.status == "open":
                row.status = "closed"
                session.add(row)
        number = max((r.number for r in rows), default=0) + 1
        session.add(m.GameSession(campaign_id=campaign_id, number=number))
    return number


async def set_member(
    session: AsyncSession,
    *,
    campaign_id: int,
    user_id: str | int,
    character_id: str | None = None,
    active: bool = True,
    is_gm: bool = False,
) -> MemberView:
    """Add or update a user at the table (their character, active flag, GM flag); returns the membership."""
    async with _Tx(session):
        await lock_campaign(session, campaign_id)
        row = (
            await session.exec(
                select(m.Membership).where(
                    m.Membership.campaign_id == campaign_id, m.Membership.user_id == str(user_id)
                )
            )
        ).first()
        if row is None:
            row = m.Membership(campaign_id=campaign_id, user_id=str(user_id))
        row.character_id, row.active, row.is_gm = character_id, active, is_gm
        session.add(row)
        view = MemberView(
            campaign_id=campaign_id,
            user_id=str(user_id),
            character_id=character_id,
            active=active,
            is_gm=is_gm,
        )
    return view


async def list_members(
    session: AsyncSession, *, campaign_id: int, active_only: bool = False
) -> list[MemberView]:
    """The campaign's members, by user id."""
    stmt = select(m.Membership).where(m.Membership.campaign_id == campaign_id)
    if active_only:
        stmt = stmt.where(m.Membership.active == True)  # noqa: E712 - SQL comparison
    return [
        MemberView(
            campaign_id=r.campaign_id,
            user_id=r.user_id,
            character_id=r.character_id,
            active=r.active,
            is_gm=r.is_gm,
        )
        for r in (await session.exec(stmt.order_by(col(m.Membership.user_id)))).all()
    ]


# --- rounds and submissions ----------------------------------------------------------------------------


async def open_round(
    session: AsyncSession,
    *,
    campaign_id: int,
    session_number: int,
    number: int,
    seed_commitment: str,
    deadline: datetime | None = None,
    resolution: dict[str, Any] | None = None,
) -> RoundView:
    """Open round ``number`` of ``session_number`` with the hash of its seed; returns it.

    ``resolution`` starts the round's record; the table seals the round's seed there, in the same
    transaction as its public commitment, so a crash can never lose the seed the players were promised.

    Raises RoundStateError while another round of the campaign is not yet posted, or when that number exists.
    """
    async with _Tx(session):
        await lock_campaign(session, campaign_id)
        busy = (
            await session.exec(
                select(m.Round).where(
                    m.Round.campaign_id == campaign_id, col(m.Round.state).in_(m.UNFINISHED_ROUND_STATES)
                )
            )
        ).first()
        if busy is not None:
            raise RoundStateError(
                f"round {busy.session_number}.{busy.number} is still {busy.state}; "
                "finish it before opening another"
            )
        taken = (
            await session.exec(
                select(m.Round.id).where(
                    m.Round.campaign_id == campaign_id,
                    m.Round.session_number == session_number,
                    m.Round.number == number,
                )
            )
        ).first()
        if taken is not None:
            raise RoundStateError(f"round {session_number}.{number} already exists")
        r = m.Round(
            campaign_id=campaign_id,
            session_number=session_number,
            number=number,
            seed_commitment=seed_commitment,
            deadline=deadline,
            resolution=resolution,
        )
        session.add(r)
        await session.flush()
        view = _round_view(r)
    return view


async def _round(session: AsyncSession, round_id: int) -> m.Round:
    r = await session.get(m.Round, round_id)
    if r is None:
        raise UnknownRecord(f"no round {round_id}")
    return r


async def get_round(session: AsyncSession, *, round_id: int) -> RoundView:
    """One round by id. Raises UnknownRecord."""
    return _round_view(await _round(session, round_id))


async def current_round(session: AsyncSession, *, campaign_id: int) -> RoundView | None:
    """The campaign's round that is not yet posted, or None (at most one exists)."""
    r = (
        await session.exec(
            select(m.Round).where(
                m.Round.campaign_id == campaign_id, col(m.Round.state).in_(m.UNFINISHED_ROUND_STATES)
            )
        )
    ).first()
    return None if r is None else _round_view(r)


async def last_round(session: AsyncSession, *, campaign_id: int) -> RoundView | None:
    """The campaign's most recent round in any state (to number the next one), or None."""
    r = (
        await session.exec(
            select(m.Round)
            .where(m.Round.campaign_id == campaign_id)
            .order_by(col(m.Round.session_number).desc(), col(m.Round.number).desc())
        )
    ).first()
    return None if r is None else _round_view(r)


async def unfinished_rounds(
    session: AsyncSession, *, due_by: datetime | None = None, campaign_id: int | None = None
) -> list[RoundView]:
    """Rounds not yet posted (all campaigns unless ``campaign_id``), oldest first: what a restart resumes.

    With ``due_by``, only rounds still taking actions whose deadline is at or before it (time to close them).
    """
    stmt = select(m.Round).where(col(m.Round.state).in_(m.UNFINISHED_ROUND_STATES))
    if campaign_id is not None:
        stmt = stmt.where(m.Round.campaign_id == campaign_id)
    if due_by is not None:
        stmt = stmt.where(
            col(m.Round.state).in_(m.ACCEPTING_ROUND_STATES),
            col(m.Round.deadline).is_not(None),
            col(m.Round.deadline) <= due_by,
        )
    return [_round_view(r) for r in (await session.exec(stmt.order_by(col(m.Round.id)))).all()]


async def set_round_state(
    session: AsyncSession,
    *,
    round_id: int,
    state: str,
    revealed_seed: str | None = None,
    resolution: dict[str, Any] | None = None,
) -> RoundView:
    """Move a round forward (never back), optionally revealing its seed and storing its resolution json.

    Raises RoundStateError for a backward move or unknown state, UnknownRecord for no such round.
    """
    async with _Tx(session):
        r = await _round(session, round_id)
        await lock_campaign(session, r.campaign_id)
        await session.refresh(r)
        check_round_move(r.state, state)
        r.state = state
        if revealed_seed is not None:
            r.revealed_seed = revealed_seed
        if resolution is not None:
            r.resolution = resolution
        r.updated_at = m.utcnow()
        session.add(r)
        view = _round_view(r)
    return view


async def store_resolution(session: AsyncSession, *, round_id: int, resolution: dict[str, Any]) -> RoundView:
    """Store (replace) a round's resolution json without changing its state."""
    async with _Tx(session):
        r = await _round(session, round_id)
        await lock_campaign(session, r.campaign_id)
        r.resolution = resolution
        r.updated_at = m.utcnow()
        session.add(r)
        view = _round_view(r)
    return view


async def submit(
    session: AsyncSession,
    *,
    round_id: int,
    player_user_id: str | int,
    idempotency_key: str,
    text: str = "",
    intent: dict[str, Any] | None = None,
    character_id: str | None = None,
    ready: bool = False,
    origin: str = "player",
) -> SubmissionView:
    """Record a player's action for a round; the same ``idempotency_key`` again updates it (no duplicate).

    A player has one submission per round: a call with another key updates the player's existing row (which
    keeps its first key). Returns the submission (``created`` says whether this call created it). Raises
    RoundStateError when the round no longer accepts actions (only ``open``/``collecting`` do, except
    ``origin='default'`` which the table may add while closing), InvalidChange for a bad origin or a key used
    in another round.
    """
    if origin not in SUBMISSION_ORIGINS:
        raise InvalidChange(f"origin must be one of {', '.join(SUBMISSION_ORIGINS)}")
    if not idempotency_key:
        raise InvalidChange("a submission needs an idempotency key")
    async with _Tx(session):
        r = await _round(session, round_id)
        await lock_campaign(session, r.campaign_id)
        await session.refresh(r)
        accepting = m.ACCEPTING_ROUND_STATES + (("closed",) if origin == "default" else ())
        if r.state not in accepting:
            raise RoundStateError(
                f"round {r.session_number}.{r.number} is {r.state}; it takes no more actions"
            )
        row = (
            await session.exec(select(m.Submission).where(m.Submission.idempotency_key == idempotency_key))
        ).first()
        if row is None:
            # One action per player per round: a second key (a second /act, a /ready's hold) updates the
            # player's row. Looked up under the campaign's write lock, so two at once cannot both insert.
            row = (
                await session.exec(
                    select(m.Submission).where(
                        m.Submission.round_id == round_id,
                        m.Submission.player_user_id == str(player_user_id),
                        m.Submission.origin != "late-moved",
                    )
                )
            ).first()
        created = row is None
        if row is None:
            row = m.Submission(
                round_id=round_id,
                campaign_id=r.campaign_id,
                player_user_id=str(player_user_id),
                idempotency_key=idempotency_key,
            )
        elif row.round_id != round_id or row.player_user_id != str(player_user_id):
            raise InvalidChange("that submission key belongs to another round or player")
        row.text, row.intent, row.ready, row.origin = text, intent, ready, origin
        row.character_id = character_id
        row.updated_at = m.utcnow()
        session.add(row)
        await session.flush()
        view = _submission_view(row, created)
    return view


async def set_ready(
    session: AsyncSession, *, round_id: int, player_user_id: str | int, ready: bool = True
) -> int:
    """Mark all of a player's submissions in a round ready (or not); returns how many were changed."""
    async with _Tx(session):
        r = await _round(session, round_id)
        await lock_campaign(session, r.campaign_id)
        rows = (
            await session.exec(
                select(m.Submission).where(
                    m.Submission.round_id == round_id, m.Submission.player_user_id == str(player_user_id)
                )
            )
        ).all()
        for row in rows:
            row.ready = ready
            session.add(row)
    return len(rows)


async def list_submissions(session: AsyncSession, *, round_id: int) -> list[SubmissionView]:
    """A round's submissions in the order they were first made."""
    rows = (
        await session.exec(
            select(m.Submission).where(m.Submission.round_id == round_id).order_by(col(m.Submission.id))
        )
    ).all()
    return [_submission_view(s) for s in rows]


# --- the outbox ------------------------------------------------------------------------------------------


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
    async with _Tx(session):
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
        view = _outbox_view(row)
    return view


async def mark_outbox(
    session: AsyncSession, *, outbox_id: int, status: str, external_id: str | int | None = None
) -> OutboxView:
    """Record a queued message's fate: ``sent`` (with the Discord message id), ``failed``, ``dm_closed``."""
    if status not in OUTBOX_STATUSES:
        raise InvalidChange(f"outbox status must be one of {', '.join(OUTBOX_STATUSES)}")
    async with _Tx(session):
        row = await session.get(m.Outbox, outbox_id)
        if row is None:
            raise UnknownRecord(f"no outbox message {outbox_id}")
        row.status = status
        if external_id is not None:
            row.external_id = str(external_id)
        row.updated_at = m.utcnow()
        session.add(row)
        view = _outbox_view(row)
    return view


async def pending_outbox(session: AsyncSession, *, campaign_id: int | None = None) -> list[OutboxView]:
    """Messages queued but not yet sent (all campaigns when ``campaign_id`` is None), oldest first."""
    stmt = select(m.Outbox).where(m.Outbox.status == "pending")
    if campaign_id is not None:
        stmt = stmt.where(m.Outbox.campaign_id == campaign_id)
    return [_outbox_view(o) for o in (await session.exec(stmt.order_by(col(m.Outbox.id)))).all()]


async def list_outbox(session: AsyncSession, *, round_id: int) -> list[OutboxView]:
    """Every message of a round in any status, oldest first."""
    stmt = select(m.Outbox).where(m.Outbox.round_id == round_id).order_by(col(m.Outbox.id))
    return [_outbox_view(o) for o in (await session.exec(stmt)).all()]


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
    async with _Tx(session):
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
    async with _Tx(session):
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
    async with _Tx(session):
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
    async with _Tx(session):
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
    async with _Tx(session):
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
    "add_outbox",
    "create_campaign",
    "current_round",
    "current_session_number",
    "dismiss_conflict",
    "find_campaign",
    "get_campaign",
    "get_round",
    "last_round",
    "list_conflicts",
    "list_disputes",
    "list_members",
    "list_outbox",
    "list_submissions",
    "mark_outbox",
    "open_dispute",
    "open_round",
    "pending_outbox",
    "retcon_conflict",
    "rule_dispute",
    "set_member",
    "set_ready",
    "set_round_state",
    "start_session",
    "store_resolution",
    "submit",
    "unfinished_rounds",
]
