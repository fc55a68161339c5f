"""Shared pieces for table tests: a recording courier and a table on a real database."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.config import parse_settings
from bot.table import DMClosed, Table
from bot.views import Caller, Where

WHERE = Where(guild_id="1", channel_id="2")
GM = Caller(user_id="100", display_name="GM")
ALICE = Caller(user_id="1001", display_name="alice")  # plays Greyrock
BOB = Caller(user_id="1002", display_name="bob")  # plays Mira Quickfinger (knows the harbourmaster's secret)
CARA = Caller(user_id="1003", display_name="cara")  # plays Sister Tamsin
DAN = Caller(user_id="1004", display_name="dan")  # plays Orrin Vale
CLAIMS = {ALICE: "Greyrock", BOB: "Mira Quickfinger", CARA: "Sister Tamsin", DAN: "Orrin Vale"}
HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"


class RecordingCourier:
    """Records every public post and DM; DMs to ``closed`` users raise DMClosed like Discord's 50007."""

    def __init__(self, closed: frozenset[str] = frozenset()) -> None:
        self.public: list[tuple[str, str, str]] = []
        self.dms: list[tuple[str, str]] = []
        self.closed = closed

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        self.public.append((guild_id, channel_id, text))
        return f"m{len(self.public)}"

    async def send_dm(self, user_id: str, text: str) -> str:
        if user_id in self.closed:
            raise DMClosed(user_id)
        self.dms.append((user_id, text))
        return f"d{len(self.dms)}"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


async def make_table(
    database_url: str,
    tmp_path: Path,
    *,
    courier: RecordingCourier | None = None,
    seed: int = 5,
    clock: Clock | None = None,
) -> Table:
    """A table on ``database_url`` with seeds from ``random.Random(seed)`` and a hand-moved clock."""
    settings = parse_settings({"storage": {"database_url": database_url, "data_dir": str(tmp_path / "data")}})
    rng = random.Random(seed)
    return await Table.create(
        settings,
        courier=courier or RecordingCourier(),
        seeds=lambda: rng.randrange(1, 2**53),
        clock=clock or Clock(),
    )


async def seat_everyone(table: Table, players: tuple[Caller, ...] = (ALICE, BOB, CARA)) -> None:
    """Start the harbour campaign and let ``players`` claim their scenario characters."""
    await table.start_campaign_from_file(WHERE, GM, path=HARBOR)
    for player in players:
        await table.join(WHERE, player, claim=CLAIMS[player])
