"""The command tree as Discord will show it: every command and parameter described, inputs bounded."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from tests.discord_harness import GUILD_ID, DiscordHarness, FakeTable

EXPECTED = {
    "campaign start",
    "campaign status",
    "campaign export",
    "campaign end",
    "session start",
    "session end",
    "join",
    "leave",
    "act",
    "ready",
    "round status",
    "round close",
    "roll",
    "ledger inventory",
    "ledger relationships",
    "ledger threads",
    "ledger history",
    "ledger record",
    "ledger notes",
    "ledger dispute",
    "ledger graph",
    "gm disputes",
    "gm rule",
    "gm retcon",
    "gm thread",
    "gm deadline",
    "gm conflicts",
    "gm conflict",
    "gm resend",
    "gm npc",
    "gm spawn",
    "gm move",
    "gm item",
    "gm item-remove",
    "gm thread-open",
    "gm secret",
    "gm proposals",
    "gm undo",
    "recap",
    "remember",
}


@pytest.fixture
async def harness() -> DiscordHarness:
    return await DiscordHarness.create(FakeTable())


def _leaves(harness: DiscordHarness) -> dict[str, app_commands.Command[Any, ..., Any]]:
    found: dict[str, app_commands.Command[Any, ..., Any]] = {}
    for command in harness.bot.tree.walk_commands(guild=discord.Object(GUILD_ID)):
        if isinstance(command, app_commands.Command):
            found[command.qualified_name] = command
    return found


async def test_every_command_is_there_and_synced_to_the_configured_guild(harness: DiscordHarness) -> None:
    assert set(_leaves(harness)) == EXPECTED
    synced = [url for method, url, _ in harness.http_calls if method == "PUT" and url.endswith("/commands")]
    assert synced == [f"{discord.http.Route.BASE}/applications/900000000000000001/guilds/{GUILD_ID}/commands"]


async def test_every_command_and_parameter_has_a_real_description(harness: DiscordHarness) -> None:
    for name, command in _leaves(harness).items():
        assert command.description and command.description != "…", name
        assert len(command.description) <= 100, name
        for param in command.parameters:
            assert param.description and param.description != "…", f"/{name} {param.name}"
    payload = harness.bot.tree.get_command("ledger", guild=discord.Object(GUILD_ID)).to_dict(harness.bot.tree)
    assert payload["description"]


async def test_inputs_are_bounded_and_skills_are_the_eighteen_5e_skills(harness: DiscordHarness) -> None:
    leaves = _leaves(harness)
    act = {p.name: p for p in leaves["act"].parameters}
    assert act["text"].required
    sent = {o["name"]: o for o in leaves["act"].to_dict(harness.bot.tree)["options"]}
    assert sent["text"]["max_length"] == 500  # Discord itself refuses longer text
    assert len(act["skill"].choices) == 18
    assert {c.name for c in act["skill"].choices} >= {"Sleight of Hand", "Animal Handling", "Stealth"}
    assert act["target"].autocomplete and act["item"].autocomplete
    history = {p.name: p for p in leaves["ledger history"].parameters}
    assert (history["count"].min_value, history["count"].max_value) == (1, 50)
    rule = {p.name: p for p in leaves["gm rule"].parameters}
    assert [c.value for c in rule["decision"].choices] == ["accept", "reject"]
    for name, option in (
        ("ledger record", "id"),
        ("ledger relationships", "npc"),
        ("ledger inventory", "player"),
        ("campaign start", "scenario"),
        ("gm rule", "id"),
        ("gm conflict", "id"),
        ("gm thread", "id"),
        ("join", "claim"),
    ):
        params = {p.name: p for p in leaves[name].parameters}
        assert params[option].autocomplete, f"/{name} {option}"


async def test_without_guild_ids_the_commands_sync_globally() -> None:
    from bot.config import DiscordSettings, Settings

    h = await DiscordHarness.create(FakeTable(), settings=Settings(discord=DiscordSettings(guild_ids=())))
    synced = [url for method, url, _ in h.http_calls if method == "PUT"]
    assert synced == [f"{discord.http.Route.BASE}/applications/900000000000000001/commands"]


def test_sharded_setting_builds_an_auto_sharded_bot() -> None:
    from discord.ext import commands

    from bot.config import DiscordSettings, Settings
    from bot.discord_client import build_bot

    sharded = build_bot(Settings(discord=DiscordSettings(sharded=True, shard_count=2)), tick=False)
    single = build_bot(Settings(), tick=False)
    assert isinstance(sharded, commands.AutoShardedBot) and sharded.shard_count == 2
    assert not isinstance(single, commands.AutoShardedBot)
    for bot in (sharded, single):
        assert bot.intents.value == discord.Intents(guilds=True).value  # no message content, no members
