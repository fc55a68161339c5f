"""``[discord] shard_ids`` and ``shard_count``: each bot process owns a range of Discord shards.

A bad range is refused with one line naming ``discord.shard_ids``; a good one decides which guilds' campaigns
the process ticks, with Discord's formula ``(guild_id >> 22) % shard_count``, and the bot runs those shards.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.config import ConfigError, guild_shard, load_settings, parse_settings

EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.toml"


def _discord(**keys: object) -> dict[str, object]:
    return {"discord": keys}


def test_a_process_owns_the_guilds_of_its_shards() -> None:
    settings = parse_settings(_discord(sharded=True, shard_count=4, shard_ids=[3, 1]))
    assert settings.discord.shard_ids == (1, 3)
    owned = [n for n in range(8) if settings.discord.owns_guild(str((n << 22) + 12345))]
    assert owned == [1, 3, 5, 7]


@pytest.mark.parametrize(
    "keys",
    [
        {},  # one process, every shard
        {"sharded": True},  # Discord chooses the count; this process runs them all
        {"sharded": True, "shard_count": 3},  # every shard of three in this process
    ],
)
def test_without_shard_ids_a_process_owns_every_guild(keys: dict[str, object]) -> None:
    settings = parse_settings(_discord(**keys))
    assert all(settings.discord.owns_guild(str(n << 22)) for n in range(6))
    assert settings.discord.owns_guild("not-a-number")


@pytest.mark.parametrize(
    ("keys", "why"),
    [
        ({"sharded": True, "shard_count": 4, "shard_ids": [0, 4]}, "shard 4 is outside 0..3"),
        ({"sharded": True, "shard_count": 4, "shard_ids": [-1]}, "shard -1 is outside 0..3"),
        ({"sharded": True, "shard_count": 4, "shard_ids": [2, 2]}, "shard 2 is listed twice"),
        ({"sharded": True, "shard_count": 4, "shard_ids": []}, "at least one shard id"),
        ({"sharded": True, "shard_ids": [0]}, "needs discord.shard_count"),
        ({"shard_count": 2, "shard_ids": [0]}, "needs discord.sharded = true"),
        ({"sharded": True, "shard_count": 2, "shard_ids": ["one"]}, "valid integer"),
    ],
)
def test_a_bad_shard_range_is_refused_naming_the_key(keys: dict[str, object], why: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_settings(_discord(**keys))
    assert "discord.shard_ids" in str(err.value) and why in str(err.value)
    assert len(str(err.value).splitlines()) == 1


def test_a_config_file_names_its_own_path_with_the_bad_key(tmp_path: Path) -> None:
    path = tmp_path / "process-1.toml"
    path.write_text("[discord]\nsharded = true\nshard_count = 2\nshard_ids = [1, 2]\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert str(err.value).startswith(f"{path}: discord.shard_ids = [1, 2]: shard 2 is outside 0..1")


def test_the_example_config_documents_the_shard_keys() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "# shard_ids = [" in text and "# shard_count = " in text
    # Uncommented, the example's shard lines are a valid process configuration.
    lines = [
        line.removeprefix("# ") if re.match(r"# shard_\w+ = ", line) else line for line in text.splitlines()
    ]
    enabled = "\n".join(line.replace("sharded = false", "sharded = true") for line in lines)
    data = tomllib.loads(enabled)
    settings = parse_settings(data)
    assert settings.discord.shard_ids is not None and settings.discord.shard_count is not None


def test_guild_shard_is_discords_formula() -> None:
    assert guild_shard("81384788765712384", 1) == 0
    assert guild_shard(str((5 << 22) | 0x3FFFFF), 4) == 1
    assert guild_shard(str(197038439483310086), 3) == (197038439483310086 >> 22) % 3
    assert guild_shard("local", 4) == 0  # the terminal table's guild, like a DM, is on shard 0


async def test_the_bot_runs_its_shards_and_its_table_ticks_only_their_guilds(
    sqlite_url: str, tmp_path: Path
) -> None:
    from discord.ext import commands

    from bot.discord_client import build_bot
    from tests.table_helpers import make_table

    settings = parse_settings(_discord(sharded=True, shard_count=4, shard_ids=[1, 3]))
    table = await make_table(sqlite_url, tmp_path)
    try:
        assert table.context.owns_guild(str(2 << 22)), "a table alone owns every guild"
        bot = build_bot(settings, table, tick=False)
        assert isinstance(bot, commands.AutoShardedBot)
        assert bot.shard_ids == [1, 3] and bot.shard_count == 4
        assert table.context.owns_guild(str(1 << 22)) and table.context.owns_guild(str(7 << 22))
        assert not table.context.owns_guild(str(2 << 22))
    finally:
        await table.aclose()
