"""What a round's delivery and posting send to the database: a claim or a record is ONE statement that
commits by itself, and posting reads nothing before it opens the next round.

Statements are counted with a ``before_cursor_execute`` listener on the table's engine (on SQLite a
transaction's ``BEGIN IMMEDIATE`` is such a statement; on PostgreSQL the driver's BEGIN is not, so there the
tests check what the statements do, not the BEGIN).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine

from ledger import service
from ledger.store.db import WRITE_OPTION
from ledger.store.outbox import claim_on, record_on
from tests.table_helpers import ALICE, BOB, CARA, GM, WHERE, RecordingCourier, make_table, seat_everyone


@contextmanager
def statements(engine: AsyncEngine) -> Iterator[list[str]]:
    """Every SQL statement the engine sends while the block runs, in order, whitespace folded."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)


async def _queued_dm(table: Any) -> int:
    """A pending DM in the open round of a fresh harbour campaign; returns its outbox id."""
    await seat_everyone(table)
    async with table.context.session() as s:
        campaign = await service.find_campaign(s, guild_id=WHERE.guild_id, channel_id=WHERE.channel_id)
        assert campaign is not None
        rnd = await service.current_round(s, campaign_id=campaign.id)
        assert rnd is not None
        view = await service.add_outbox(
            s,
            campaign_id=campaign.id,
            round_id=rnd.id,
            kind="dm",
            content={"text": "hi"},
            recipient_user_id="7",
        )
    return view.id


async def _status(table: Any, outbox_id: int) -> tuple[str, str | None]:
    """The message's status and external id as a fresh connection reads them (committed or nothing)."""
    async with table.context.engine.connect() as conn:
        row = (
            await conn.execute(text("SELECT status, external_id FROM outbox WHERE id = :i"), {"i": outbox_id})
        ).one()
    return row.status, row.external_id


async def test_a_claim_and_a_record_are_one_committed_statement_each(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        outbox_id = await _queued_dm(table)
        engine = table.context.engine
        with statements(engine) as claimed:
            assert await claim_on(engine, outbox_id=outbox_id) is True
        assert await _status(table, outbox_id) == ("sending", None), "the claim is durable before the send"
        assert await claim_on(engine, outbox_id=outbox_id) is False, "a claimed message is claimed once"
        with statements(engine) as recorded:
            await record_on(engine, outbox_id=outbox_id, status="sent", external_id="d1")
        assert await _status(table, outbox_id) == ("sent", "d1")
        assert [s.split()[0] for s in claimed] == ["UPDATE"], claimed
        assert [s.split()[0] for s in recorded] == ["UPDATE"], recorded
    finally:
        await table.aclose()


async def test_a_claim_on_sqlite_waits_for_a_writer_holding_the_lock_instead_of_failing(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Without its own BEGIN IMMEDIATE, the claim still queues on the busy timeout behind another writer,
    and sees what that writer committed (the writer sent the message meanwhile: the claim is refused)."""
    table = await make_table(sqlite_url, tmp_path)
    try:
        outbox_id = await _queued_dm(table)
        engine = table.context.engine
        async with engine.connect() as holder:
            holder = await holder.execution_options(**{WRITE_OPTION: True})
            await holder.begin()  # BEGIN IMMEDIATE: this connection holds the database's write lock
            await holder.execute(
                text("UPDATE outbox SET status = 'sent', external_id = 'other' WHERE id = :i"),
                {"i": outbox_id},
            )
            claim = asyncio.create_task(claim_on(engine, outbox_id=outbox_id))
            await asyncio.sleep(0.3)
            assert not claim.done(), "the claim wrote while another writer held the database"
            await holder.commit()
        assert await claim is False
        assert await _status(table, outbox_id) == ("sent", "other")
    finally:
        await table.aclose()


async def _statements_between(table: Any, first: str, last: str | None) -> tuple[list[str], Any]:
    """Play a three-player round to its end; the statements sent from the table's step ``first`` to its step
    ``last`` (None: to the end), without BEGINs and PostgreSQL's campaign row lock (``FOR NO KEY UPDATE``;
    on SQLite ``BEGIN IMMEDIATE`` holds the lock), and the round's report."""
    seen: list[str] = []
    listening: list[bool] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if listening:
            seen.append(" ".join(statement.split()))

    async def at(step: str) -> None:
        if step == first:
            listening.append(True)
        elif step == last:
            listening.clear()

    await seat_everyone(table)
    await table.submit(WHERE, ALICE, key="a", text="look around")
    await table.submit(WHERE, BOB, key="b", text="search the crates")
    await table.submit(WHERE, CARA, key="c", text="listen at the door")
    table.before_step = at
    event.listen(table.context.engine.sync_engine, "before_cursor_execute", count)
    try:
        report = await table.close_round(WHERE, GM)
    finally:
        event.remove(table.context.engine.sync_engine, "before_cursor_execute", count)
    return [s for s in seen if not s.startswith("BEGIN") and not s.endswith("UPDATE")], report


async def test_posting_a_round_reads_nothing_before_opening_the_next(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path, courier=RecordingCourier())
    try:
        seen, report = await _statements_between(table, "posted", None)
        kinds = [" ".join(s.split()[:3]) for s in seen]
        assert kinds[0] == "UPDATE round SET" and "RETURNING" in seen[0], seen
        assert not any("FROM game_session" in s and s.startswith("SELECT") for s in seen), seen
        assert not any(s.startswith("SELECT") and "FROM submission" in s for s in seen), seen
        assert [k.split()[0] for k in kinds] == ["UPDATE", "INSERT", "SELECT"], kinds
        assert report.public_text
        assert (await table.round_status(WHERE, GM)).round_number == 2
    finally:
        await table.aclose()


async def test_storing_the_narration_moves_the_round_without_reading_it(
    database_url: str, tmp_path: Path
) -> None:
    """The storing transaction: the round moved (its row returned), the messages queued, the due ones read."""
    table = await make_table(database_url, tmp_path, courier=RecordingCourier())
    try:
        seen, _ = await _statements_between(table, "narrate", "send-public")
        kinds = [" ".join(s.split()[:3]) for s in seen]
        assert kinds[0] == "UPDATE round SET" and "RETURNING" in seen[0], seen
        assert not any(s.startswith("SELECT round.") for s in seen), seen
        assert kinds[-1].startswith("SELECT outbox.id"), kinds
        assert "INSERT INTO outbox" in kinds, kinds
        assert (await table.round_status(WHERE, GM)).round_number == 2
    finally:
        await table.aclose()


class RoundPostingCourier(RecordingCourier):
    """Posts a round's dice and story as one message (``post_round``), as the Discord courier does."""

    def __init__(self) -> None:
        super().__init__()
        self.rounds: list[int] = []

    async def post_round(
        self,
        guild_id: str,
        channel_id: str,
        text: str,
        report: Any,
        *,
        mention_user_ids: Any = (),
    ) -> str:
        self.rounds.append(report.round_number)
        return await self.post_public(guild_id, channel_id, text, mention_user_ids=mention_user_ids)


async def test_posting_the_story_with_its_dice_claims_it_and_reads_only_the_report(
    database_url: str, tmp_path: Path
) -> None:
    """Between the story's claim and its record: the claim, then the report's one read (the round itself is
    what delivery already holds, not read again)."""
    courier = RoundPostingCourier()
    table = await make_table(database_url, tmp_path, courier=courier)
    seen: list[str] = []
    listening: list[bool] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if listening:
            seen.append(" ".join(statement.split()))

    async def at(step: str) -> None:
        if step == "send-public":
            listening.append(True)
        elif step == "sent-public":
            listening.clear()

    try:
        await seat_everyone(table)
        await table.submit(WHERE, ALICE, key="a", text="look around")
        table.before_step = at
        event.listen(table.context.engine.sync_engine, "before_cursor_execute", count)
        try:
            await table.close_round(WHERE, GM)
        finally:
            event.remove(table.context.engine.sync_engine, "before_cursor_execute", count)
        kinds = [" ".join(s.split()[:2]) for s in seen if not s.startswith("BEGIN")]
        assert kinds == ["UPDATE outbox", "SELECT outbox.id,"], seen
        assert courier.rounds == [1] and len(courier.public) == 1
    finally:
        await table.aclose()


async def _open_round(table: Any) -> tuple[int, int]:
    """The harbour campaign's id and its open round's id, everyone seated."""
    await seat_everyone(table)
    async with table.context.session() as s:
        campaign = await service.find_campaign(s, guild_id=WHERE.guild_id, channel_id=WHERE.channel_id)
        assert campaign is not None
        rnd = await service.current_round(s, campaign_id=campaign.id)
        assert rnd is not None
    return campaign.id, rnd.id


async def _round_state(table: Any, round_id: int) -> str:
    async with table.context.engine.connect() as conn:
        return str(
            (await conn.execute(text("SELECT state FROM round WHERE id = :i"), {"i": round_id})).scalar_one()
        )


async def test_closing_a_round_on_sqlite_is_one_statement_that_commits_by_itself(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The usual close (no follow-up owed) is the conditional UPDATE alone: no BEGIN IMMEDIATE before it.
    Closing again changes nothing and returns the round as it is."""
    from ledger.store.rounds import close_round

    table = await make_table(sqlite_url, tmp_path)
    try:
        campaign_id, round_id = await _open_round(table)
        with statements(table.context.engine) as seen:
            async with table.context.session() as s:
                view = await close_round(s, campaign_id=campaign_id, round_id=round_id)
        assert [q.split()[0] for q in seen] == ["UPDATE"], seen
        assert view.state == "closed" and await _round_state(table, round_id) == "closed"
        async with table.context.session() as s:
            again = await close_round(s, campaign_id=campaign_id, round_id=round_id)
        assert again.state == "closed" and again.id == round_id
    finally:
        await table.aclose()


async def test_a_close_on_sqlite_waits_for_a_writer_holding_the_lock(sqlite_url: str, tmp_path: Path) -> None:
    """Without its BEGIN IMMEDIATE the close still queues behind a writer (here one that resolves the round
    meanwhile) and then closes nothing: it never interleaves with another writer's transaction."""
    from ledger.store.rounds import close_round

    table = await make_table(sqlite_url, tmp_path)
    try:
        campaign_id, round_id = await _open_round(table)
        async with table.context.engine.connect() as holder:
            holder = await holder.execution_options(**{WRITE_OPTION: True})
            await holder.begin()  # BEGIN IMMEDIATE: this connection holds the database's write lock
            await holder.execute(text("UPDATE round SET state = 'resolved' WHERE id = :i"), {"i": round_id})

            async def close() -> str:
                async with table.context.session() as s:
                    return (await close_round(s, campaign_id=campaign_id, round_id=round_id)).state

            closing = asyncio.create_task(close())
            await asyncio.sleep(0.3)
            assert not closing.done(), "the close wrote while another writer held the database"
            await holder.commit()
        assert await closing == "resolved"
        assert await _round_state(table, round_id) == "resolved"
    finally:
        await table.aclose()
