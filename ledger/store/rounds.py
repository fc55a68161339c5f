"""Rounds and submissions: opening a round with its seed's commitment, moving it forward, players' actions.

Write functions commit on success and roll back on failure (raising a LedgerError with a one-line message).
Writers of one campaign serialise on its row, so concurrent submissions cannot duplicate or lose each other.
The rest of the table's paperwork: :mod:`.campaigns`, :mod:`.outbox`, :mod:`.disputes`, :mod:`.sessions`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, update
from sqlalchemy import select as core_select
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import InvalidChange, RoundStateError, UnknownRecord
from ledger.store import models as m
from ledger.store.coreread import core_rows
from ledger.store.records import RoundView, SubmissionView
from ledger.store.sqlin import in_values
from ledger.store.transaction import WriteTransaction
from ledger.store.writes import check_round_move, hold_campaign, lock_campaign

SUBMISSION_ORIGINS = ("player", "default", "late-moved")


def _round_view(r: m.Round) -> RoundView:
    return RoundView(
        id=r.id or 0,
        campaign_id=r.campaign_id,
        session_number=r.session_number,
        number=r.number,
        state=r.state,
        seed_commitment=r.seed_commitment,
        revealed_seed=r.revealed_seed,
        deadline=utc_aware(r.deadline),
        resolution=r.resolution,
    )


def _t(model: Any) -> Any:
    """The Core table of a model: statements on it skip building ORM instances (the hot path needs none)."""
    return model.__table__


def utc_aware(when: datetime | None) -> datetime | None:
    """``when`` made UTC-aware: SQLite hands back naive datetimes; every time the ledger returns is aware."""
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
    async with WriteTransaction(session):
        await lock_campaign(session, campaign_id)
        busy = (
            await session.exec(
                select(m.Round).where(
                    m.Round.campaign_id == campaign_id,
                    in_values(col(m.Round.state), m.UNFINISHED_ROUND_STATES),
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
    rows = await core_rows(session, _CURRENT_ROUND, {"campaign_id": campaign_id})
    return _round_view(rows[0]) if rows else None


# A prebuilt Core lookup (:mod:`.coreread`): compiled once, no ORM instance built.
_CURRENT_ROUND = (
    core_select(_t(m.Round))
    .where(
        _t(m.Round).c.campaign_id == bindparam("campaign_id"),
        in_values(_t(m.Round).c.state, m.UNFINISHED_ROUND_STATES),
    )
    .limit(1)
)


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
    stmt = select(m.Round).where(in_values(col(m.Round.state), m.UNFINISHED_ROUND_STATES))
    if campaign_id is not None:
        stmt = stmt.where(m.Round.campaign_id == campaign_id)
    if due_by is not None:
        stmt = stmt.where(
            in_values(col(m.Round.state), m.ACCEPTING_ROUND_STATES),
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
    async with WriteTransaction(session):
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
    async with WriteTransaction(session):
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
    async with WriteTransaction(session):
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
    async with WriteTransaction(session):
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


# --- the round's own transitions, one short transaction each (the table's hot path) ----------------------


async def close_round(
    session: AsyncSession,
    *,
    campaign_id: int,
    round_id: int,
    followup: dict[str, Any] | None = None,
    followup_recipient: str | None = None,
) -> RoundView:
    """ONE transaction: queue the follow-up owed to the command that closes the round (when ``followup``, and
    the round is not posted yet), then close the round if it still takes actions; returns the round as it is.

    The follow-up row exists before (never after) the round is closed, so a crash in between still answers
    the command. A round that was already closed (or further) is returned unchanged: closing is idempotent.
    """
    from ledger.store.outbox import queue_message

    rounds = _t(m.Round)
    if followup is None and not session.in_transaction():
        alone = await _close_alone(session, campaign_id=campaign_id, round_id=round_id)
        if alone is not None:
            return alone
    async with WriteTransaction(session):
        await hold_campaign(session, campaign_id)
        conn = await session.connection()
        if followup is None:  # the usual close: one conditional UPDATE that returns the closed round
            closed = (await conn.execute(_close_statement(campaign_id, round_id))).first()
            if closed is not None:
                return _round_view(closed)  # type: ignore[arg-type]
            # not (or no longer) taking actions, or no such round: read it as it is, below
        row = (await conn.execute(core_select(rounds).where(rounds.c.id == round_id))).first()
        if row is None or row.campaign_id != campaign_id:
            raise UnknownRecord(f"no round {round_id} in campaign {campaign_id}")
        view = _round_view(row)  # type: ignore[arg-type]
        if followup is not None and view.state != "posted":
            await queue_message(
                session,
                campaign_id=campaign_id,
                round_id=round_id,
                kind="followup",
                recipient_user_id=followup_recipient,
                content=followup,
                replace=True,
            )
        if view.state in m.ACCEPTING_ROUND_STATES:
            await conn.execute(
                update(_t(m.Round))
                .where(_t(m.Round).c.id == round_id)
                .values(state="closed", updated_at=m.utcnow())
            )
            view = view.model_copy(update={"state": "closed"})
    return view


def _close_statement(campaign_id: int, round_id: int) -> Any:
    """The usual close: one conditional UPDATE (the round still takes actions) that returns the round."""
    rounds = _t(m.Round)
    return (
        update(rounds)
        .where(
            rounds.c.id == round_id,
            rounds.c.campaign_id == campaign_id,
            in_values(rounds.c.state, m.ACCEPTING_ROUND_STATES),
        )
        .values(state="closed", updated_at=m.utcnow())
        .returning(*rounds.c)
    )


async def _close_alone(session: AsyncSession, *, campaign_id: int, round_id: int) -> RoundView | None:
    """SQLite's usual close: the conditional UPDATE that returns the closed round, as a statement that
    commits by itself (:data:`ledger.store.db.ALONE_OPTION`: no ``BEGIN IMMEDIATE`` before it, one
    statement and one thread trip fewer per round). SQLite's autocommit takes the database's one write
    lock, so the statement still queues behind (and never interleaves with) another writer's transaction,
    as the campaign lock would order it. None when the round no longer takes actions (or is not there):
    the caller then reads it in a transaction as before; None at once on PostgreSQL, where writers order on
    the campaign row and an UPDATE outside that lock could close a round while a submission is written."""
    from sqlalchemy.ext.asyncio import AsyncEngine

    from ledger.store.db import ALONE_OPTION

    engine = session.bind
    if not isinstance(engine, AsyncEngine) or engine.dialect.name != "sqlite":
        return None

    async with engine.connect() as conn:
        conn = await conn.execution_options(**{ALONE_OPTION: True})
        async with conn.begin():
            closed = (await conn.execute(_close_statement(campaign_id, round_id))).first()
    return _round_view(closed) if closed is not None else None  # type: ignore[arg-type]


def _post_statement() -> Any:
    """narrated -> posted for round ``rid`` of campaign ``cid``, returning the campaign's newest session (its
    number and status) and whether late actions wait in the round, so posting reads nothing else before it
    opens the next round (two statements fewer per round; no row when the round is not narrated)."""
    rounds, sessions, subs = _t(m.Round), _t(m.GameSession), _t(m.Submission)

    def newest(column: Any) -> Any:
        return (
            core_select(column)
            .where(sessions.c.campaign_id == bindparam("cid"))
            .order_by(sessions.c.number.desc())
            .limit(1)
            .scalar_subquery()
        )

    late = core_select(subs.c.id).where(subs.c.round_id == bindparam("rid"), subs.c.origin == "late-moved")
    return (
        update(rounds)
        .where(rounds.c.id == bindparam("rid"), rounds.c.state == "narrated")
        .values(state="posted", updated_at=bindparam("now"))
        .returning(
            newest(sessions.c.number).label("number"),
            newest(sessions.c.status).label("status"),
            late.exists().label("late"),
        )
    )


_POST = _post_statement()


async def post_and_open_next(
    session: AsyncSession,
    *,
    rnd: RoundView,
    seed_commitment: str,
    deadline: datetime | None,
    resolution: dict[str, Any],
    read_back: Callable[[AsyncSession], Awaitable[None]] | None = None,
) -> RoundView | None:
    """ONE transaction: narrated -> posted, and the next round of the open session opened with its sealed
    seed (``resolution``), the late actions of ``rnd`` carried into it. Returns the new round, or None when
    no session is open (the round is posted all the same). ``read_back`` reads what the caller needs next
    (the round's report) in the same transaction, after the writes and before the commit, so it costs no
    transaction of its own.

    Raises RoundStateError when ``rnd`` is not ``narrated`` any more (another task posted it). ``rnd`` is
    the campaign's newest round (at most one round is unfinished, and it is the last one opened), so the next
    one is numbered after it, or 1 in a new session.
    """
    rounds = _t(m.Round)
    async with WriteTransaction(session):
        await hold_campaign(session, rnd.campaign_id)
        conn = await session.connection()
        # One statement: the move, the campaign's newest session and whether late actions wait (RETURNING).
        latest = (
            await conn.execute(_POST, {"rid": rnd.id, "cid": rnd.campaign_id, "now": m.utcnow()})
        ).first()
        if latest is None:
            raise RoundStateError(f"round {rnd.session_number}.{rnd.number} is not narrated any more")
        if latest.status != "open":
            if read_back is not None:
                await read_back(session)
            return None
        number = rnd.number + 1 if rnd.session_number == latest.number else 1
        values = {
            "campaign_id": rnd.campaign_id,
            "session_number": latest.number,
            "number": number,
            "state": "open",
            "seed_commitment": seed_commitment,
            "deadline": deadline,
            "resolution": resolution,
            "opened_at": m.utcnow(),
            "updated_at": m.utcnow(),
        }
        new_id = (await conn.execute(insert(rounds).values(**values).returning(rounds.c.id))).scalar_one()
        subs = _t(m.Submission)
        late = (
            (
                await conn.execute(
                    core_select(subs)
                    .where(subs.c.round_id == rnd.id, subs.c.origin == "late-moved")
                    .order_by(subs.c.id)
                )
            ).all()
            if latest.late
            else ()
        )
        carried: dict[str, dict[str, Any]] = {}
        for sub in late:  # one per player: the last late action, under the first's key (as submit)
            first = carried.get(sub.player_user_id, {}).get("idempotency_key")
            carried[sub.player_user_id] = {
                "round_id": new_id,
                "campaign_id": rnd.campaign_id,
                "player_user_id": sub.player_user_id,
                "character_id": sub.character_id,
                "idempotency_key": first or f"carried:{sub.idempotency_key}"[:128],
                "text": sub.text,
                "intent": sub.intent,
                "ready": False,
                "origin": "player",
                "created_at": m.utcnow(),
                "updated_at": m.utcnow(),
            }
        if carried:
            await conn.execute(insert(subs), list(carried.values()))
        if read_back is not None:
            await read_back(session)
    return RoundView(
        id=new_id,
        campaign_id=rnd.campaign_id,
        session_number=latest.number,
        number=number,
        state="open",
        seed_commitment=seed_commitment,
        revealed_seed=None,
        deadline=utc_aware(deadline),
        resolution=resolution,
    )


async def round_conflicts(session: AsyncSession, *, round_id: int) -> int:
    """How many conflicts the round queued for the GM (any status)."""
    table = _t(m.Conflict)
    value = (
        await (await session.connection()).execute(
            core_select(func.count()).select_from(table).where(table.c.round_id == round_id)
        )
    ).scalar_one()
    return int(value)


__all__ = [
    "SUBMISSION_ORIGINS",
    "close_round",
    "current_round",
    "get_round",
    "last_round",
    "list_submissions",
    "open_round",
    "post_and_open_next",
    "round_conflicts",
    "set_ready",
    "set_round_state",
    "store_resolution",
    "submit",
    "unfinished_rounds",
    "utc_aware",
]
