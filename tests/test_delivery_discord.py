"""Delivery failures through the real bot, command tree, courier and table (SQLite, offline narrator).

Discord's REST is the harness's recording fake; here it refuses the channel post the way Discord does (403
Missing Permissions, or a 503), and the test follows what the GM and the players would see.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.config import parse_settings
from bot.discord_courier import DiscordCourier
from bot.table import MissingPermission, ReplyExpired
from tests.discord_harness import (
    APP_ID,
    CHANNEL_ID,
    GM_ROLE_ID,
    GUILD_ID,
    DiscordHarness,
    Member,
    sample_report,
)

GM = Member(100, "Gina", (GM_ROLE_ID,))
ALICE = Member(1001, "alice")  # Greyrock


class ChannelRefuses:
    """Wraps the harness's REST: channel posts fail with ``status`` while ``on`` is true (DMs go through)."""

    def __init__(self, harness: DiscordHarness, status: int) -> None:
        self.inner = harness.bot.http.request
        self.harness = harness
        self.status = status
        self.on = True
        harness.bot.http.request = self  # type: ignore[method-assign]

    async def __call__(self, route: Any, **kwargs: Any) -> Any:
        is_channel = route.method == "POST" and route.path == "/channels/{channel_id}/messages"
        if self.on and is_channel and int(route.url.split("/")[-2]) == CHANNEL_ID:
            response = SimpleNamespace(status=self.status, reason="refused")
            if self.status == 403:
                raise discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})  # type: ignore[arg-type]
            raise discord.DiscordServerError(response, {"code": 0, "message": "Service Unavailable"})  # type: ignore[arg-type]
        return await self.inner(route, **kwargs)


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    from bot.table import Table

    settings = parse_settings(
        {
            "discord": {"guild_ids": [GUILD_ID], "gm_role": "GM"},
            "storage": {
                "database_url": f"sqlite+aiosqlite:///{tmp_path / 'ledger.store.db'}",
                "data_dir": str(tmp_path / "data"),
            },
        }
    )
    rng = random.Random(3)

    async def factory(courier: DiscordCourier) -> Table:
        return await Table.create(settings, courier=courier, seeds=lambda: rng.randrange(1, 2**53))

    h = await DiscordHarness.create(settings=settings, table_factory=factory)
    try:
        started = await h.command("campaign start", GM, name="Saltmere", scenario="harbor")
        assert not started.ephemeral, started.text
        joined = await h.command("join", ALICE, claim="Greyrock")
        assert "joins the party" in joined.text, joined.text
        yield h
    finally:
        await h.bot.table.aclose()


def _stories(h: DiscordHarness) -> list[str]:
    return [p.content for p in h.channel_posts if "**Round 1**" in p.content]


async def test_a_missing_permission_tells_the_gm_which_one_and_gm_resend_posts_the_story(
    harness: DiscordHarness,
) -> None:
    refusing = ChannelRefuses(harness, 403)
    await harness.command("act", ALICE, text="look around the tavern")
    ready = await harness.command("ready", ALICE)
    assert "Round 1: results" in str([s.embeds for s in ready.sent]), "the player still gets the dice"
    assert _stories(harness) == []
    (to_gm,) = [p.content for p in harness.dms.get(GM.user_id, [])]
    assert "**Send Messages** permission" in to_gm and "/gm resend" in to_gm
    refused = await harness.command("gm resend", ALICE)
    assert refused.ephemeral and "Only the GM" in refused.text
    refusing.on = False  # the GM grants the permission
    resent = await harness.command("gm resend", GM)
    assert resent.ephemeral and "everything is delivered" in resent.text, resent.text
    assert len(_stories(harness)) == 1


async def test_a_discord_outage_is_retried_by_the_ticker_and_posts_once(harness: DiscordHarness) -> None:
    table = harness.bot.table
    now = [discord.utils.utcnow()]
    table.clock = lambda: now[0]
    refusing = ChannelRefuses(harness, 503)
    await harness.command("act", ALICE, text="look around the tavern")
    await harness.command("ready", ALICE)
    assert _stories(harness) == []
    refusing.on = False
    now[0] += timedelta(minutes=1)
    await table.tick()
    await table.tick()
    assert len(_stories(harness)) == 1
    assert harness.dms.get(GM.user_id, []) == [], "a retry that worked bothers nobody"


async def test_the_courier_answers_a_live_reply_handle_and_refuses_an_expired_one(
    harness: DiscordHarness,
) -> None:
    from discord.webhook.async_ import async_context

    async_context.set(harness.adapter)
    courier = DiscordCourier(harness.bot)
    fresh = discord.utils.time_snowflake(discord.utils.utcnow())
    await courier.answer(f"{APP_ID}:{fresh}:tok-fresh", "Round 2 resolved.", sample_report())
    calls = [(method, payload) for method, url, payload in harness.webhook_calls if "tok-fresh" in url]
    assert len(calls) == 1 and calls[0][1]["content"] == "Round 2 resolved."
    assert "Round 2: results" in str(calls[0][1]["embeds"])
    old = discord.utils.time_snowflake(discord.utils.utcnow() - timedelta(minutes=20))
    with pytest.raises(ReplyExpired):
        await courier.answer(f"{APP_ID}:{old}:tok-old", "Round 2 resolved.", sample_report())
    assert not [u for _, u, _ in harness.webhook_calls if "tok-old" in u]


async def test_the_courier_names_the_permission_a_refused_post_needed(harness: DiscordHarness) -> None:
    ChannelRefuses(harness, 403)
    courier = DiscordCourier(harness.bot)
    with pytest.raises(MissingPermission) as text_refused:
        await courier.post_public(str(GUILD_ID), str(CHANNEL_ID), "The tide turns.")
    assert text_refused.value.permission == "Send Messages"
    with pytest.raises(MissingPermission) as file_refused:
        await courier.post_public(str(GUILD_ID), str(CHANNEL_ID), "The storm rages on. " * 600)
    assert file_refused.value.permission == "Attach Files"
    with pytest.raises(MissingPermission) as embeds_refused:
        await courier.post_results(str(GUILD_ID), str(CHANNEL_ID), sample_report())
    assert embeds_refused.value.permission == "Embed Links"
