"""A channel post that fails is retried, a spent one waits for /gm resend, and recovery goes item by item.

The couriers here fail the way Discord does (a 5xx, a dropped connection, a missing permission); the table,
ledger, rules and offline narrator are the real ones on a real database.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.table import MissingPermission, Table
from bot.views import Where
from ledger import service
from tests.table_helpers import (
    ALICE,
    BOB,
    CARA,
    GM,
    HARBOR,
    WHERE,
    Clock,
    RecordingCourier,
    make_table,
    seat_everyone,
)


class DiscordDown(Exception):
    """Stands for a Discord 5xx or a dropped connection."""


class FlakyCourier(RecordingCourier):
    """Channel posts fail ``failures`` times (or for ever with None), then go through; DMs always work."""

    def __init__(self, failures: int | None, *, error: Exception | None = None) -> None:
        super().__init__()
        self.failures = failures
        self.error = error or DiscordDown("503 Service Unavailable")
        self.attempted: list[str] = []

    def tries(self, number: int = 1) -> int:
        """How often round ``number``'s story was handed over (failed or not)."""
        return sum(1 for text in self.attempted if text.startswith(f"**Round {number}**"))

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        self.attempted.append(text)
        if self.failures is None or self.failures > 0:
            if self.failures is not None:
                self.failures -= 1
            raise self.error
        return await super().post_public(guild_id, channel_id, text, mention_user_ids=mention_user_ids)


def _stories(courier: RecordingCourier, number: int = 1) -> list[str]:
    return [text for _, _, text in courier.public if text.startswith(f"**Round {number}**")]


async def _play_round(table: Table) -> None:
    await seat_everyone(table)
    await table.submit(WHERE, ALICE, key="a", text="take the silver key")
    await table.submit(WHERE, BOB, key="b", text="look around the tavern")
    await table.submit(WHERE, CARA, key="c", text="look around")
    await table.close_round(WHERE, GM)
    await table.gm_deadline(WHERE, GM, minutes=7 * 24 * 60)  # the next round stays open while we watch


async def test_a_post_that_fails_twice_reaches_the_channel_exactly_once(
    database_url: str, tmp_path: Path
) -> None:
    courier = FlakyCourier(failures=2)
    clock = Clock()
    table = await make_table(database_url, tmp_path, courier=courier, clock=clock)
    try:
        await _play_round(table)
        assert _stories(courier) == [], "the first try failed"
        await table.tick()
        assert _stories(courier) == [], "the retry waits for its backoff"
        clock.advance(1)
        await table.tick()  # second try fails too
        assert _stories(courier) == []
        clock.advance(2)
        await table.tick()
        assert len(_stories(courier)) == 1, "the story reached the channel on the third try"
        for _ in range(3):
            clock.advance(10)
            await table.tick()
        assert len(_stories(courier)) == 1 and courier.tries() == 3, "and never again"
        assert (await table.round_status(WHERE, GM)).round_number == 2, "play went on meanwhile"
        assert not any("could not be delivered" in c.claim for c in await table.gm_conflicts(WHERE, GM))
    finally:
        await table.aclose()


async def test_a_retry_survives_a_restart(sqlite_url: str, tmp_path: Path) -> None:
    courier = FlakyCourier(failures=1)
    clock = Clock()
    table = await make_table(sqlite_url, tmp_path, courier=courier, clock=clock)
    await _play_round(table)
    await table.aclose()
    assert _stories(courier) == []
    clock.advance(5)
    restarted = await make_table(sqlite_url, tmp_path, courier=courier, clock=clock, seed=99)
    try:
        await restarted.resume()
        assert len(_stories(courier)) == 1, "the restarted bot carried on with the retry"
    finally:
        await restarted.aclose()


async def test_a_post_that_always_fails_tells_the_gm_and_gm_resend_posts_it(
    database_url: str, tmp_path: Path
) -> None:
    courier = FlakyCourier(failures=None)
    clock = Clock()
    table = await make_table(database_url, tmp_path, courier=courier, clock=clock)
    try:
        await _play_round(table)
        for _ in range(8):
            clock.advance(10)
            await table.tick()
        assert courier.tries() == 5, "five tries of the story, then nothing more"
        notices = [t for t in courier.attempted if t.startswith("The story of round 1 is waiting")]
        assert len(notices) == 1, "the channel is told (if it can be) once"
        assert _stories(courier) == []
        to_gm = [text for user, text in courier.dms if user == GM.user_id]
        assert len(to_gm) == 1 and "/gm resend" in to_gm[0] and "Round 1" in to_gm[0]
        assert any("/gm resend" in c.claim for c in await table.gm_conflicts(WHERE, GM))
        with pytest.raises(Exception, match="Only the GM"):
            await table.gm_resend(WHERE, ALICE)
        courier.failures = 0  # Discord is back
        view = await table.gm_resend(WHERE, GM)
        assert view.round_number == 1 and view.story_posted and view.still_waiting == 0
        assert len(_stories(courier)) == 1
        clock.advance(10)
        await table.tick()
        assert len(_stories(courier)) == 1, "resent once, never twice"
        with pytest.raises(Exception, match="Nothing is waiting"):
            await table.gm_resend(WHERE, GM)
    finally:
        await table.aclose()


async def test_a_missing_permission_is_named_in_one_line_and_not_retried(
    sqlite_url: str, tmp_path: Path
) -> None:
    courier = FlakyCourier(failures=None, error=MissingPermission("Send Messages"))
    clock = Clock()
    table = await make_table(sqlite_url, tmp_path, courier=courier, clock=clock)
    try:
        await _play_round(table)
        to_gm = [text for user, text in courier.dms if user == GM.user_id]
        assert len(to_gm) == 1
        line = to_gm[0]
        assert "\n" not in line and "**Send Messages** permission" in line and "/gm resend" in line
        tries = courier.tries()
        clock.advance(60)
        await table.tick()
        assert courier.tries() == tries == 1, "no retry can help until the GM fixes the permission"
        courier.failures = 0
        assert (await table.gm_resend(WHERE, GM, round_number=1)).story_posted
        assert len(_stories(courier)) == 1
    finally:
        await table.aclose()


class Crash(Exception):
    """Stands for the process dying at that point."""


async def test_a_message_that_fails_during_resume_never_stops_another_round(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Two campaigns die with their stories unsent; on restart one channel's post raises, the other posts."""
    other = Where(guild_id="1", channel_id="3")
    courier = RecordingCourier()
    table = await make_table(sqlite_url, tmp_path, courier=courier)

    async def die(step: str) -> None:
        if step == "send-public":
            raise Crash(step)

    try:
        for where in (WHERE, other):
            await table.start_campaign_from_file(where, GM, path=HARBOR)
            await table.join(where, ALICE, claim="Greyrock")
            await table.submit(where, ALICE, key=f"a-{where.channel_id}", text="look around the tavern")
            table.before_step = die
            with pytest.raises(Crash):
                await table.close_round(where, GM)
            table.before_step = None
    finally:
        await table.aclose()

    class BrokenFirstChannel(RecordingCourier):
        async def post_public(
            self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
        ) -> str:
            if channel_id == WHERE.channel_id and self.broken:
                raise RuntimeError("a bug while posting in the first channel")
            return await super().post_public(guild_id, channel_id, text, mention_user_ids=mention_user_ids)

    restarted_courier = BrokenFirstChannel()
    restarted_courier.broken = True  # type: ignore[attr-defined]
    clock = Clock()
    restarted = await make_table(sqlite_url, tmp_path, courier=restarted_courier, clock=clock, seed=9)
    try:
        await restarted.resume()
        posted = [(channel, text) for _, channel, text in restarted_courier.public]
        assert [c for c, t in posted if t.startswith("**Round 1**")] == ["3"], "the other round recovered"
        for where in (WHERE, other):
            assert (await restarted.round_status(where, GM)).round_number == 2
        restarted_courier.broken = False  # type: ignore[attr-defined]
        clock.advance(5)
        await restarted.tick()
        firsts = [c for _, c, t in restarted_courier.public if t.startswith("**Round 1**")]
        assert sorted(firsts) == ["2", "3"], "the failing message recovered on its own, once"
    finally:
        await restarted.aclose()


async def test_a_round_skipped_at_its_deadline_is_logged_with_the_round(
    sqlite_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.errors import TableError

    clock = Clock()
    table = await make_table(sqlite_url, tmp_path, clock=clock)
    try:
        await seat_everyone(table, (ALICE,))
        await table.submit(WHERE, ALICE, key="a", text="look around the tavern")

        async def refuse(campaign_id: int, round_id: int, **_: object) -> None:
            raise TableError("the round refused to close")

        table.rounds.close_and_finish = refuse  # type: ignore[method-assign,assignment]
        clock.advance(24 * 60)
        with caplog.at_level(logging.WARNING, logger="bot.table"):
            await table.tick()
        skipped = [r for r in caplog.records if r.levelno == logging.WARNING and "skipped" in r.getMessage()]
        assert len(skipped) == 1 and "round 12.1" in skipped[0].getMessage()
        assert "refused to close" in skipped[0].getMessage()
    finally:
        await table.aclose()


async def test_outbox_rows_keep_their_attempts_for_the_next_process(sqlite_url: str, tmp_path: Path) -> None:
    courier = FlakyCourier(failures=None)
    table = await make_table(sqlite_url, tmp_path, courier=courier)
    try:
        await _play_round(table)
        campaign = await table.campaign_status(WHERE, GM)
        async with table.context.session() as s:
            from ledger.store.sessions import find_round

            first = await find_round(s, campaign_id=campaign.id, session_number=12, number=1)
            assert first is not None
            public = [m for m in await service.list_outbox(s, round_id=first.id) if m.kind == "public"]
        assert [m.status for m in public] == ["pending"], "waiting for its retry, not lost"
    finally:
        await table.aclose()


async def test_gm_resend_sends_a_story_waiting_for_its_retry_now_and_only_once(
    sqlite_url: str, tmp_path: Path
) -> None:
    courier = FlakyCourier(failures=1)
    clock = Clock()
    table = await make_table(sqlite_url, tmp_path, courier=courier, clock=clock)
    try:
        await _play_round(table)
        assert _stories(courier) == []
        view = await table.gm_resend(WHERE, GM)
        assert view.round_number == 1 and view.story_posted and view.requeued == 1
        clock.advance(10)
        await table.tick()
        assert len(_stories(courier)) == 1 and courier.tries() == 2
        assert courier.dms == [] or all(user != GM.user_id for user, _ in courier.dms), "nobody was alarmed"
    finally:
        await table.aclose()
