"""``tablekeeper run``: every misconfiguration ends with one line naming what to fix, before connecting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

TOKEN_ENV = "TK_TEST_DISCORD_TOKEN"


def _config(tmp_path: Path, body: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(body, encoding="utf-8")
    return str(path)


def test_missing_token_exits_2_naming_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    config = _config(tmp_path, f'[discord]\ntoken_env = "{TOKEN_ENV}"\nguild_ids = [1]\n')
    assert main(["run", "--config", config]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and TOKEN_ENV in err and "Traceback" not in err


def test_default_token_variable_is_named_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TABLEKEEPER_DISCORD_TOKEN", raising=False)
    assert main(["run", "--config", _config(tmp_path, "")]) == 2
    assert "TABLEKEEPER_DISCORD_TOKEN" in capsys.readouterr().err


def test_invalid_setting_exits_2_naming_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(TOKEN_ENV, "not-a-real-token")
    config = _config(tmp_path, f'[discord]\ntoken_env = "{TOKEN_ENV}"\nshard_count = 0\n')
    assert main(["run", "--config", config]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "discord.shard_count" in err


def test_missing_config_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "no such configuration file" in capsys.readouterr().err


def test_unreachable_database_exits_2_naming_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(TOKEN_ENV, "not-a-real-token")
    config = _config(
        tmp_path,
        f'[discord]\ntoken_env = "{TOKEN_ENV}"\n'
        f'[storage]\ndatabase_url = "postgresql+asyncpg://nobody@127.0.0.1:9/none"\n'
        f'data_dir = "{tmp_path}"\n',
    )
    assert main(["run", "--config", config]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "storage.database_url" in err


def test_unreachable_discord_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    monkeypatch.setenv(TOKEN_ENV, "not-a-real-token")
    # A closed local port: the login fails at once, nothing leaves the machine.
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    config = _config(tmp_path, f'[discord]\ntoken_env = "{TOKEN_ENV}"\n[storage]\ndata_dir = "{tmp_path}"\n')
    assert main(["run", "--config", config]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot reach Discord" in err
