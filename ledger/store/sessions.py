"""Sessions of play and the table's remaining bookkeeping: sealed round seeds, late actions, deadlines, notes.

These complete :mod:`ledger.store.rounds` for the round lifecycle in ``bot.table``: a round is opened with
its seed
sealed in the same transaction as its public commitment (so a crash can never lose the seed the players were
promised), actions that arrive after a round closed wait for the next round, and the delivered messages
double as the campaign's recent narration and each player's private notes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import and_, or_
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import CampaignNotFound, RoundStateError, UnknownRecord
from ledger.store import models as m
from ledger.store.db import begin_write
from ledger.store.outbox import outbox_view
from ledger.store.reads import edge_view, item_view, location_view
from ledger.store.records import EdgeView, ItemView, LocationView, OutboxView, RoundView
from ledger.store.rounds import _round_view, get_round, utc_aware
from ledger.store.visibility import Viewer, visible_clause
from ledger.store.writes import hold_campaign, lock_campaign


@asynccontextmanager
async def _writing(session: AsyncSession) -> AsyncIterator[None]:
    """One writing transaction: the write lock first (BEGIN IMMEDIATE on SQLite), commit or roll back."""
    await begin_write(session)
    try:
        yield
        await session.commit()
    except BaseException:
        await session.rollback()
        raise


class SessionInfo(BaseModel):
    """The campaign's latest session: its number and whether it is being played now."""

    model_config = ConfigDict(frozen=True)

    number: int
    open: bool


async def latest_session(session: AsyncSession, *, campaign_id: int) -> SessionInfo:
    """The latest session (``open`` while it is played); a scenario's history counts as sessions before it."""
    row = (
        await session.exec(
            select(m.GameSession)
            .where(m.GameSession.campaign_id == campaign_id)
            .order_by(col(m.GameSession.number).desc())
        )
    ).first()
    if row is not None:
        return SessionInfo(number=row.number, open=row.status == "open")
    campaign = await session.get(m.Campaign, campaign_id)
    if campaign is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    played = int((campaign.settings or {}).get("current_session", 1)) - 1
    return SessionInfo(number=max(played, 0), open=False)


async def start_session(session: AsyncSession, *, campaign_id: int) -> SessionInfo:
    """Open the next numbered session. Raises RoundStateError when one is already open."""
    async with _writing(session):
        await lock_campaign(session, campaign_id)
        latest = await latest_session(session, campaign_id=campaign_id)
        if latest.open:
            raise RoundStateError(f"session {latest.number} is already running")
        session.add(m.GameSession(campaign_id=campaign_id, number=latest.number + 1, status="open"))
    return SessionInfo(number=latest.number + 1, open=True)


async def end_session(session: AsyncSession, *, campaign_id: int) -> SessionInfo:
    """Close the open session. Raises RoundStateError when none is open."""
    async with _writing(session):
        await lock_campaign(session, campaign_id)
        row = (
            await session.exec(
                select(m.GameSession).where(
                    m.GameSession.campaign_id == campaign_id, m.GameSession.status == "open"
                )
            )
        ).first()
        if row is None:
            raise RoundStateError("no session is running")
        row.status = "ended"
        session.add(row)
        number = row.number
    return SessionInfo(number=number, open=False)


async def end_campaign(session: AsyncSession, *, campaign_id: int) -> None:
    """Mark the campaign ended (its ledger stays readable); any open session ends with it."""
    async with _writing(session):
        await lock_campaign(session, campaign_id)
        campaign = await session.get(m.Campaign, campaign_id)
        assert campaign is not None
        campaign.status = "ended"
        session.add(campaign)
        rows = (
            await session.exec(
                select(m.GameSession).where(
                    m.GameSession.campaign_id == campaign_id, m.GameSession.status == "open"
                )
            )
        ).all()
        for row in rows:
            row.status = "ended"
            session.add(row)


async def update_settings(
    session: AsyncSession, *, campaign_id: int, changes: dict[str, Any]
) -> dict[str, Any]:
    """Merge ``changes`` into the campaign's settings; returns the new settings."""
    async with _writing(session):
        await lock_campaign(session, campaign_id)
        campaign = await session.get(m.Campaign, campaign_id)
        assert campaign is not None
        campaign.settings = {**(campaign.settings or {}), **changes}
        session.add(campaign)
        settings = dict(campaign.settings)
    return settings


# --- rounds --------------------------------------------------------------------------------------------


def sealed_seed(round_view: RoundView) -> int:
    """The seed sealed when the round opened. Raises RoundStateError when the round has none."""
    resolution = round_view.resolution or {}
    seed = resolution.get("sealed_seed", resolution.get("seed"))
    if not isinstance(seed, int):
        raise RoundStateError(f"round {round_view.number} has no sealed seed")
    return seed


async def set_deadline(session: AsyncSession, *, round_id: int, deadline: datetime | None) -> RoundView:
    """Move a round's deadline. Raises UnknownRecord."""
    async with _writing(session):
        row = await session.get(m.Round, round_id)
        if row is None:
            raise UnknownRecord(f"no round {round_id}")
        row.deadline = deadline
        session.add(row)
    return await get_round(session, round_id=round_id)


async def due_rounds(
    session: AsyncSession, *, now: datetime, owns_guild: Callable[[str], bool] | None = None
) -> list[RoundView]:
    """Rounds still taking actions whose deadline has passed (for the deadline ticker).

    ``owns_guild``: only campaigns in the guilds it accepts (a process ticks the guilds of its own shards);
    every campaign when None. Rounds of other guilds are never loaded.
    """
    # The ticker asks often and most rounds are not due: the database filters by deadline (SQLite compares
    # its naive UTC text, so the bound is given in UTC) and only the due rows' ids and guilds come back.
    bound = now.astimezone(UTC) if now.tzinfo is not None else now
    due = (
        await session.exec(
            select(m.Round.id, m.Round.deadline, m.Campaign.guild_id)
            .join(m.Campaign, col(m.Campaign.id) == col(m.Round.campaign_id))
            .where(
                col(m.Round.state).in_(m.ACCEPTING_ROUND_STATES),
                col(m.Round.deadline).is_not(None),
                col(m.Round.deadline) <= bound,
            )
            .order_by(col(m.Round.id))
        )
    ).all()
    ids = [
        rid
        for rid, deadline, guild_id in due
        if (utc_aware(deadline) or now) <= now and (owns_guild is None or owns_guild(guild_id))
    ]
    if not ids:
        return []
    rows = (
        await session.exec(select(m.Round).where(col(m.Round.id).in_(ids)).order_by(col(m.Round.id)))
    ).all()
    return [_round_view(row) for row in rows]


async def interrupted_rounds(
    session: AsyncSession, *, owns_guild: Callable[[str], bool] | None = None
) -> list[RoundView]:
    """Rounds a crash left between closing and posting (for resuming after a restart).

    ``owns_guild``: only campaigns in the guilds it accepts; every campaign when None.
    """
    rows = (
        await session.exec(
            select(m.Round, m.Campaign.guild_id)
            .join(m.Campaign, col(m.Campaign.id) == col(m.Round.campaign_id))
            .where(col(m.Round.state).in_(("closed", "resolved", "narrated")))
            .order_by(col(m.Round.id))
        )
    ).all()
    return [_round_view(row) for row, guild_id in rows if owns_guild is None or owns_guild(guild_id)]


async def queue_late(
    session: AsyncSession,
    *,
    round_id: int,
    player_user_id: str,
    character_id: str | None,
    idempotency_key: str,
    text: str,
    intent: dict[str, Any] | None,
) -> None:
    """Keep an action that arrived after its round closed, to be carried into the next round."""
    async with _writing(session):
        row = await session.get(m.Round, round_id)
        if row is None:
            raise UnknownRecord(f"no round {round_id}")
        existing = (
            await session.exec(select(m.Submission).where(m.Submission.idempotency_key == idempotency_key))
        ).first()
        if existing is None:
            session.add(
                m.Submission(
                    round_id=round_id,
                    campaign_id=row.campaign_id,
                    player_user_id=player_user_id,
                    character_id=character_id,
                    idempotency_key=idempotency_key,
                    text=text,
                    intent=intent,
                    origin="late-moved",
                )
            )


# --- reads the table needs ---------------------------------------------------------------------------


async def all_edges(
    session: AsyncSession, *, campaign_id: int, viewer: Viewer, limit: int = 200
) -> list[EdgeView]:
    """Every relationship edge the viewer may see (for the graph and the relationships list), by source."""
    rows = (
        await session.exec(
            select(m.Edge)
            .where(m.Edge.campaign_id == campaign_id, visible_clause(viewer, m.Edge.visibility))
            .order_by(col(m.Edge.source_id), col(m.Edge.target_id), col(m.Edge.kind))
            .limit(limit)
        )
    ).all()
    return [edge_view(r) for r in rows]


async def locations(session: AsyncSession, *, campaign_id: int, viewer: Viewer) -> list[LocationView]:
    """Every location the viewer may see, by id."""
    rows = (
        await session.exec(
            select(m.Location)
            .where(m.Location.campaign_id == campaign_id, visible_clause(viewer, m.Location.visibility))
            .order_by(col(m.Location.id))
        )
    ).all()
    return [location_view(r) for r in rows]


async def recent_public(session: AsyncSession, *, campaign_id: int, limit: int = 4) -> list[str]:
    """The campaign's last ``limit`` public narrations that were delivered, oldest first."""
    rows = (
        await session.exec(
            select(m.Outbox)
            .where(m.Outbox.campaign_id == campaign_id, m.Outbox.kind == "public", m.Outbox.status == "sent")
            .order_by(col(m.Outbox.id).desc())
            .limit(limit)
        )
    ).all()
    return [str((r.content or {}).get("text", "")) for r in reversed(rows)]


async def notes_for(
    session: AsyncSession, *, campaign_id: int, user_id: str, limit: int = 25
) -> list[OutboxView]:
    """One player's private notes (DMs), newest first, whether delivered or waiting (DMs closed)."""
    rows = (
        await session.exec(
            select(m.Outbox)
            .where(
                m.Outbox.campaign_id == campaign_id,
                m.Outbox.kind == "dm",
                m.Outbox.recipient_user_id == user_id,
            )
            .order_by(col(m.Outbox.id).desc())
            .limit(limit)
        )
    ).all()
    return [outbox_view(r) for r in rows]


async def round_numbers(session: AsyncSession, *, round_ids: Sequence[int]) -> dict[int, int]:
    """Round id -> round number, for labelling notes and conflicts."""
    if not round_ids:
        return {}
    rows = (
        await session.exec(select(m.Round.id, m.Round.number).where(col(m.Round.id).in_(round_ids)))
    ).all()
    return {int(rid): int(num) for rid, num in rows if rid is not None}


async def count_events(session: AsyncSession, *, campaign_id: int) -> int:
    """How many events the campaign's history holds."""
    value = (
        await session.exec(
            select(func.count()).select_from(m.Event).where(m.Event.campaign_id == campaign_id)
        )
    ).one()
    return int(value)


# --- summaries ---------------------------------------------------------------------------------------------


async def add_summary(
    session: AsyncSession,
    *,
    campaign_id: int,
    session_number: int,
    text: str,
    event_ids: Sequence[str],
    visibility: str = "party",
    scope: str = "session",
) -> int:
    """File a summary in SQL (the authority for what it covers); returns its id for the Chroma index."""
    async with _writing(session):
        row = m.Summary(
            campaign_id=campaign_id,
            session_number=session_number,
            scope=scope,
            text=text,
            event_ids=list(event_ids),
            cause=f"session-{session_number}",
            visibility=visibility,
        )
        session.add(row)
        await session.flush()
        summary_id = row.id
    assert summary_id is not None
    return summary_id


async def summaries(session: AsyncSession, *, campaign_id: int) -> list[m.Summary]:
    """Every summary of the campaign, oldest first (to rebuild the Chroma index)."""
    rows = await session.exec(
        select(m.Summary).where(m.Summary.campaign_id == campaign_id).order_by(col(m.Summary.id))
    )
    return list(rows.all())


SUMMARY_INDEX_STATES = ("pending", "indexed", "refused")


async def pending_summaries(session: AsyncSession, *, campaign_id: int, limit: int = 50) -> list[m.Summary]:
    """The campaign's summaries not yet in the Chroma index (oldest first, at most ``limit``): the queue that
    the index works through when it is back after an outage."""
    rows = await session.exec(
        select(m.Summary)
        .where(m.Summary.campaign_id == campaign_id, m.Summary.index_state == "pending")
        .order_by(col(m.Summary.id))
        .limit(limit)
    )
    return list(rows.all())


async def mark_summary_index_state(session: AsyncSession, *, summary_id: int, state: str) -> None:
    """Record where a summary stands in the index: ``pending``, ``indexed`` or ``refused``."""
    if state not in SUMMARY_INDEX_STATES:
        raise ValueError(f"bad summary index state {state!r} (expected one of {SUMMARY_INDEX_STATES})")
    async with _writing(session):
        row = await session.get(m.Summary, summary_id)
        if row is None:
            raise UnknownRecord(f"no summary {summary_id}")
        row.index_state = state
        session.add(row)


async def session_summary(
    session: AsyncSession, *, campaign_id: int, session_number: int, viewer: Viewer
) -> str | None:
    """The text of the session's summaries the viewer may see (history summaries joined), or None."""
    rows = (
        await session.exec(
            select(m.Summary)
            .where(
                m.Summary.campaign_id == campaign_id,
                m.Summary.session_number == session_number,
                visible_clause(viewer, m.Summary.visibility),
            )
            .order_by(col(m.Summary.id))
        )
    ).all()
    return " ".join(r.text for r in rows) or None


async def session_narrations(session: AsyncSession, *, campaign_id: int, session_number: int) -> list[str]:
    """The public narrations delivered in one session, in order."""
    rows = (
        await session.exec(
            select(m.Outbox)
            .join(m.Round, col(m.Round.id) == col(m.Outbox.round_id))
            .where(
                m.Outbox.campaign_id == campaign_id,
                m.Outbox.kind == "public",
                col(m.Outbox.status).in_(("sent", "pending", "failed")),
                m.Round.session_number == session_number,
            )
            .order_by(col(m.Outbox.id))
        )
    ).all()
    return [str((r.content or {}).get("text", "")) for r in rows]


async def find_round(
    session: AsyncSession, *, campaign_id: int, session_number: int, number: int
) -> RoundView | None:
    """A round by its session and number, or None."""
    rid = (
        await session.exec(
            select(m.Round.id).where(
                m.Round.campaign_id == campaign_id,
                m.Round.session_number == session_number,
                m.Round.number == number,
            )
        )
    ).first()
    return None if rid is None else await get_round(session, round_id=rid)


# --- delivery -------------------------------------------------------------------------------------------


async def claim_outbox(session: AsyncSession, *, outbox_id: int) -> bool:
    """Move a message from ``pending`` to ``sending``; False when someone else already took it.

    Claiming before the send makes delivery at-most-once: a process that dies mid-send leaves the message
    ``sending``, and :func:`abandon_sending` reports it instead of posting it a second time. It also keeps
    two shards of one bot from both posting the same narration.
    """
    async with _writing(session):
        row = await session.get(m.Outbox, outbox_id)
        if row is None:
            raise UnknownRecord(f"no outbox message {outbox_id}")
        if row.status != "pending":
            await session.rollback()
            return False
        row.status = "sending"
        row.updated_at = m.utcnow()
        session.add(row)
    return True


async def abandon_sending(session: AsyncSession, *, round_id: int) -> list[OutboxView]:
    """Mark the round's messages stuck in ``sending`` (a crash mid-send) as ``failed``; returns them."""
    async with _writing(session):
        rows = (
            await session.exec(
                select(m.Outbox).where(m.Outbox.round_id == round_id, m.Outbox.status == "sending")
            )
        ).all()
        for row in rows:
            row.status = "failed"
            row.updated_at = m.utcnow()
            session.add(row)
    return [outbox_view(r) for r in rows]


class DeliveryFailure(BaseModel):
    """What became of a message whose send failed: retried at ``retry_at``, or given up (``failed``)."""

    model_config = ConfigDict(frozen=True)

    outbox_id: int
    attempts: int
    gave_up: bool


async def send_failed(
    session: AsyncSession,
    *,
    outbox_id: int,
    error: str,
    now: datetime,
    retry_delays: Sequence[float],
    give_up: bool = False,
) -> DeliveryFailure:
    """Record a failed send of a claimed message: back to ``pending`` for a later try, or ``failed``.

    The n-th failure waits ``retry_delays[n-1]`` seconds; past the last delay (or with ``give_up``, when a
    retry cannot help) the message is ``failed`` and waits for the GM's resend. The attempt count, the due
    time and the error are kept in the row, so a restarted process carries on where this one stopped.
    """
    async with _writing(session):
        row = await session.get(m.Outbox, outbox_id)
        if row is None:
            raise UnknownRecord(f"no outbox message {outbox_id}")
        row.attempts += 1
        row.last_error = error[:200]
        gave_up = give_up or row.attempts > len(retry_delays)
        row.status = "failed" if gave_up else "pending"
        row.next_attempt_at = None if gave_up else now + timedelta(seconds=retry_delays[row.attempts - 1])
        row.updated_at = m.utcnow()
        session.add(row)
        failure = DeliveryFailure(outbox_id=outbox_id, attempts=row.attempts, gave_up=gave_up)
    return failure


async def due_outbox(
    session: AsyncSession,
    *,
    now: datetime,
    round_id: int | None = None,
    owns_guild: Callable[[str], bool] | None = None,
) -> list[OutboxView]:
    """Pending messages whose next try is due (never tried, or retry time passed), oldest first.

    ``owns_guild``: only messages of campaigns in the guilds it accepts; every campaign when None.
    """
    stmt = (
        select(m.Outbox, m.Campaign.guild_id)
        .join(m.Campaign, col(m.Campaign.id) == col(m.Outbox.campaign_id))
        .where(m.Outbox.status == "pending")
    )
    if round_id is not None:
        stmt = stmt.where(m.Outbox.round_id == round_id)
    rows = (await session.exec(stmt.order_by(col(m.Outbox.id)))).all()
    return [
        outbox_view(r)
        for r, guild_id in rows
        if (utc_aware(r.next_attempt_at) or now) <= now and (owns_guild is None or owns_guild(guild_id))
    ]


def _undelivered() -> Any:
    """Messages given up on, or waiting for a retry after a failed send."""
    return or_(
        col(m.Outbox.status) == "failed",
        and_(col(m.Outbox.status) == "pending", col(m.Outbox.attempts) > 0),
    )


async def requeue_failed(session: AsyncSession, *, round_id: int) -> list[OutboxView]:
    """Make a round's undelivered messages due now with fresh attempts (the GM's resend).

    Both the ``failed`` ones and those still waiting for a retry: the GM asked for them now.
    """
    async with _writing(session):
        rows = (
            await session.exec(select(m.Outbox).where(m.Outbox.round_id == round_id, _undelivered()))
        ).all()
        for row in rows:
            row.status, row.attempts, row.next_attempt_at = "pending", 0, None
            row.updated_at = m.utcnow()
            session.add(row)
    return [outbox_view(r) for r in rows]


async def latest_undelivered_round(session: AsyncSession, *, campaign_id: int) -> int | None:
    """The newest round of the campaign with a message given up on or waiting for a retry, if any."""
    row = (
        await session.exec(
            select(m.Outbox.round_id)
            .where(
                m.Outbox.campaign_id == campaign_id,
                _undelivered(),
                col(m.Outbox.round_id).is_not(None),
            )
            .order_by(col(m.Outbox.round_id).desc())
        )
    ).first()
    return row


# --- batched reads for the round's scene ---------------------------------------------------------------


async def items_by_id(
    session: AsyncSession, *, campaign_id: int, item_ids: Sequence[str], viewer: Viewer
) -> list[ItemView]:
    """The item kinds among ``item_ids`` the viewer may see, in one query."""
    if not item_ids:
        return []
    rows = (
        await session.exec(
            select(m.Item).where(
                m.Item.campaign_id == campaign_id,
                col(m.Item.id).in_(list(item_ids)),
                visible_clause(viewer, m.Item.visibility),
            )
        )
    ).all()
    return [item_view(r) for r in rows]


async def store_narration(
    session: AsyncSession,
    *,
    round_id: int,
    public: dict[str, Any],
    notes: Sequence[tuple[str, dict[str, Any]]],
    source: str,
    conflicts: Sequence[tuple[str, str | None]],
    revealed_seed: str,
    stage: Callable[[AsyncSession], Awaitable[None]] | None = None,
    campaign_id: int | None = None,
    read_back: Callable[[AsyncSession], Awaitable[None]] | None = None,
) -> RoundView:
    """resolved -> narrated in ONE transaction: the public post, each private note, the GM's conflicts and
    the revealed seed. A crash before it leaves the round ``resolved`` (narrate again); after it, the exact
    messages to send are stored, so a restart sends these and never a second, different narration.
    ``stage`` adds the caller's own writes to the same transaction (the narrator's accepted proposals).
    ``campaign_id``: the round's campaign when the caller knows it (the lock is then taken first and the
    round is moved by one UPDATE that returns its row, with no read; otherwise its campaign is looked up).
    ``read_back`` reads what the caller needs next (the messages to deliver) in the same transaction, after
    the writes.

    Returns the round as the transaction left it (no read after the commit). Raises RoundStateError when the
    round is not ``resolved`` any more (someone else narrated it), UnknownRecord when there is no such round.
    """
    from sqlalchemy import insert, update
    from sqlalchemy import select as core_select

    from ledger.store.writes import check_round_move

    rounds, outbox, conflict = m.Round.__table__, m.Outbox.__table__, m.Conflict.__table__  # type: ignore[attr-defined]
    async with _writing(session):
        conn = await session.connection()
        if campaign_id is None:
            campaign_id = (
                await conn.execute(core_select(rounds.c.campaign_id).where(rounds.c.id == round_id))
            ).scalar_one_or_none()
            if campaign_id is None:
                raise UnknownRecord(f"no round {round_id}")
        # The campaign's writer lock first, then the round moved under it, its row returned (not read first;
        # the round is read only to say why it did not move).
        await hold_campaign(session, campaign_id)
        check_round_move("resolved", "narrated")
        now = m.utcnow()
        row = (
            await conn.execute(
                update(rounds)
                .where(
                    rounds.c.id == round_id, rounds.c.campaign_id == campaign_id, rounds.c.state == "resolved"
                )
                .values(state="narrated", revealed_seed=revealed_seed, updated_at=now)
                .returning(*rounds.c)
            )
        ).first()
        if row is None:
            found = (await conn.execute(core_select(rounds).where(rounds.c.id == round_id))).first()
            if found is None or found.campaign_id != campaign_id:
                raise UnknownRecord(f"no round {round_id} in campaign {campaign_id}")
            raise RoundStateError(f"round {found.number} is {found.state}, not resolved")
        if stage is not None:
            await stage(session)
        message = {
            "campaign_id": campaign_id,
            "round_id": round_id,
            "source": source,
            "status": "pending",
            "external_id": None,
            "attempts": 0,
            "next_attempt_at": None,
            "last_error": "",
            "created_at": now,
            "updated_at": now,
        }
        # Every message in one INSERT (the public post first, then the notes in their order).
        await conn.execute(
            insert(outbox),
            [
                {**message, "kind": "public", "recipient_user_id": None, "content": public},
                *(
                    {**message, "kind": "dm", "recipient_user_id": recipient, "content": content}
                    for recipient, content in notes
                ),
            ],
        )
        if conflicts:
            await conn.execute(
                insert(conflict),
                [
                    {
                        "campaign_id": campaign_id,
                        "round_id": round_id,
                        "claim_text": claim,
                        "refuting_ref": refuting,
                        "status": "open",
                        "note": "",
                        "retcon_event": None,
                        "created_at": now,
                    }
                    for claim, refuting in conflicts
                ],
            )
        if read_back is not None:
            await read_back(session)
    return _round_view(row)  # type: ignore[arg-type]
