"""/campaign start world:<file> and /campaign export through the real command tree (issue 12).

The attachment arrives as Discord sends it: an option holding the attachment's id, and the attachment itself
(filename, size, url) under ``resolved.attachments``. discord.py downloads it from that url with its own HTTP
session; here the url points at a small aiohttp server on 127.0.0.1 that serves the test's bytes and counts
the downloads, so a refusal by size is seen to happen before anything is fetched.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.config import parse_settings
from bot.discord_courier import DiscordCourier
from ledger.scenario.reading import MAX_SCENARIO_BYTES, MAX_TOML_DEPTH
from tests.discord_harness import (
    CHANNEL_ID,
    GM_ROLE_ID,
    GUILD_ID,
    DiscordHarness,
    Member,
    Outcome,
    next_id,
)
from tests.test_campaign_export import _ledger

GM = Member(100, "Gina", (GM_ROLE_ID,))
ALICE = Member(1001, "alice")
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
CRYPT = (SCENARIOS / "crypt.toml").read_bytes()


class Files:
    """A local file server: ``serve(name, data)`` returns the url; ``hits`` counts downloads by name."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.hits: dict[str, int] = {}
        self.base = ""

    def serve(self, name: str, data: bytes) -> str:
        self.data[name] = data
        return f"{self.base}/attachments/{name}"

    async def handle(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        self.hits[name] = self.hits.get(name, 0) + 1
        if name not in self.data:
            return web.Response(status=404)
        return web.Response(body=self.data[name])


@pytest.fixture
async def files() -> AsyncIterator[Files]:
    served = Files()
    app = web.Application()
    app.router.add_get("/attachments/{name}", served.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    served.base = f"http://127.0.0.1:{port}"
    try:
        yield served
    finally:
        await runner.cleanup()


@pytest.fixture
async def harness(database_url: str, tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    from bot.table import Table

    settings = parse_settings(
        {
            "discord": {"guild_ids": [GUILD_ID], "gm_role": "GM"},
            "storage": {"database_url": database_url, "data_dir": str(tmp_path / "data")},
        }
    )
    rng = random.Random(3)

    async def factory(courier: DiscordCourier) -> Table:
        return await Table.create(settings, courier=courier, seeds=lambda: rng.randrange(1, 2**53))

    h = await DiscordHarness.create(settings=settings, table_factory=factory)
    # The bot never logged in: give its HTTP client the session discord.py downloads attachments with.
    session = aiohttp.ClientSession()
    h.bot.http._HTTPClient__session = session
    try:
        yield h
    finally:
        await session.close()
        await h.bot.table.aclose()


async def _start_with_world(
    h: DiscordHarness,
    files: Files,
    member: Member,
    *,
    filename: str,
    data: bytes,
    size: int | None = None,
    **options: Any,
) -> Outcome:
    """Run /campaign start with ``data`` attached as ``filename`` (``size`` as Discord declares it)."""
    attachment_id = str(next_id())
    command = h.command_data("campaign start", {**options, "world": attachment_id})
    url = files.serve(filename, data)
    command["resolved"] = {
        "attachments": {
            attachment_id: {
                "id": attachment_id,
                "filename": filename,
                "size": len(data) if size is None else size,
                "url": url,
                "proxy_url": url,
                "content_type": "application/toml",
            }
        }
    }
    return await h.raw_command(member, command)


async def _no_campaign(h: DiscordHarness) -> None:
    status = await h.command("campaign status", GM)
    assert status.ephemeral and "No campaign runs in this channel" in status.text, status.text


def _one_private_line(outcome: Outcome) -> str:
    assert outcome.ephemeral, outcome.sent
    assert len(outcome.messages) == 1 and "\n" not in outcome.text.strip(), outcome.text
    return outcome.text


async def test_a_gm_starts_a_campaign_from_their_own_world_file(
    harness: DiscordHarness, files: Files
) -> None:
    started = await _start_with_world(harness, files, GM, filename="my-crypt.toml", data=CRYPT)
    assert not started.ephemeral and "A new campaign begins: The Ashen Crypt" in started.text, started.text
    assert files.hits == {"my-crypt.toml": 1}
    status = await harness.command("campaign status", ALICE)
    assert "The Ashen Crypt" in status.text and "Session" in status.text
    joined = await harness.command("join", ALICE, claim="Dara Voss-Ash")
    assert "Dara Voss-Ash joins the party" in joined.text, joined.text


async def test_a_name_given_with_the_file_names_the_campaign(harness: DiscordHarness, files: Files) -> None:
    started = await _start_with_world(
        harness, files, GM, filename="crypt.toml", data=CRYPT, name="Under the Chapel"
    )
    assert "A new campaign begins: Under the Chapel" in started.text, started.text


async def test_an_oversize_file_is_refused_before_it_is_downloaded(
    harness: DiscordHarness, files: Files
) -> None:
    refused = await _start_with_world(
        harness, files, GM, filename="huge.toml", data=CRYPT, size=MAX_SCENARIO_BYTES + 1
    )
    line = _one_private_line(refused)
    assert "huge.toml is too large" in line and f"{MAX_SCENARIO_BYTES:,}" in line
    assert files.hits == {}, "nothing was downloaded"
    await _no_campaign(harness)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"[campaign\nname = ", "not valid TOML"),
        (b"x = " + b"[" * 200 + b"]" * 200, f"nested more than {MAX_TOML_DEPTH} levels deep"),
        (b"\xff\xfe not utf-8", "is not UTF-8 text"),
        (
            b'[campaign]\nname = "Nowhere"\nstarting_location = "loc-x"\n',
            "locations: required key is missing",
        ),
    ],
    ids=["malformed", "nested", "not-utf8", "one-problem"],
)
async def test_a_broken_file_gets_a_private_one_line_refusal_and_creates_nothing(
    harness: DiscordHarness, files: Files, data: bytes, expected: str
) -> None:
    refused = await _start_with_world(harness, files, GM, filename="broken.toml", data=data)
    line = _one_private_line(refused)
    assert expected in line and "Nothing was created" in line, line
    assert not harness.channel_posts
    await _no_campaign(harness)


async def test_a_file_with_many_problems_lists_the_first_twenty_privately(
    harness: DiscordHarness, files: Files
) -> None:
    locations = "".join(
        f'[[locations]]\nid = "loc-{i}"\nname = "P{i}"\nexits = ["loc-nowhere"]\n' for i in range(30)
    )
    bad = f'[campaign]\nname = "Bad"\nstarting_location = "loc-0"\n{locations}'.encode()
    refused = await _start_with_world(harness, files, GM, filename="bad.toml", data=bad)
    assert refused.ephemeral
    lines = refused.text.splitlines()
    assert lines[0] == "bad.toml is not a valid world (30 problems); nothing was created."
    assert len(lines) == 1 + 20 + 1 and lines[-1] == "... and 10 more."
    assert "unknown location 'loc-nowhere'" in lines[1]
    await _no_campaign(harness)


async def test_a_world_file_must_be_toml_and_comes_alone(harness: DiscordHarness, files: Files) -> None:
    wrong = await _start_with_world(harness, files, GM, filename="world.txt", data=CRYPT)
    assert "Attach the world as a .toml scenario file" in _one_private_line(wrong)
    both = await _start_with_world(harness, files, GM, filename="crypt.toml", data=CRYPT, scenario="harbor")
    assert "not both" in _one_private_line(both)
    assert files.hits == {}
    await _no_campaign(harness)


async def test_the_bundled_worlds_and_a_blank_one_still_start(harness: DiscordHarness) -> None:
    choices = await harness.autocomplete("campaign start", GM, "scenario", scenario="")
    assert [c["value"] for c in choices][:1] == ["blank"] and {"harbor", "crypt"} <= {
        c["value"] for c in choices
    }
    blank = await harness.command("campaign start", GM, name="Fresh Start", scenario="blank")
    assert "A new campaign begins: Fresh Start" in blank.text and "The Crossroads" in blank.text, blank.text
    await harness.command("campaign end", GM)
    bundled = await harness.command("campaign start", GM, name="Saltmere", scenario="harbor")
    assert "A new campaign begins: The Saltmere Ledger" in bundled.text, bundled.text


async def test_only_the_gm_exports_and_the_export_starts_the_same_ledger(
    harness: DiscordHarness, files: Files
) -> None:
    await _start_with_world(harness, files, GM, filename="crypt.toml", data=CRYPT)
    await harness.command("join", ALICE, claim="Dara Voss-Ash")
    await harness.command("act", ALICE, text="look around")
    await harness.command("round close", GM)
    refused = await harness.command("campaign export", ALICE)
    assert refused.ephemeral and "Only the GM" in refused.text and not any(m.files for m in refused.messages)
    exported = await harness.command("campaign export", GM)
    assert exported.ephemeral and "exported" in exported.text, exported.text
    assert [f for m in exported.messages for f in m.files] == ["the-ashen-crypt.toml"]
    assert "would not load back" not in exported.text
    # The file the GM got (the same export, read from the table), started again in this channel.
    table = harness.bot.table
    from bot.views import Caller, Where

    where = Where(guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID))
    text = (await table.export_campaign(where, Caller(user_id=str(GM.user_id), display_name="Gina"))).text
    first = await _campaign_id(table, where)
    await harness.command("campaign end", GM)
    again = await _start_with_world(harness, files, GM, filename="the-ashen-crypt.toml", data=text.encode())
    assert "A new campaign begins: The Ashen Crypt" in again.text, again.text
    second = await _campaign_id(table, where)
    assert second != first
    before, after = await _ledger(table, first), await _ledger(table, second)
    assert before == after


async def _campaign_id(table: Any, where: Any) -> int:
    from ledger import service

    async with table.context.session() as s:
        campaign = await service.find_campaign(s, guild_id=where.guild_id, channel_id=where.channel_id)
        assert campaign is not None
        return int(campaign.id)
