"""Hostile or broken files given to the command line: one line naming the problem, never a traceback.

Issue 9 section 5: nested TOML, huge strings, huge files, a byte-order mark, `check`'s exit status, each
configuration problem named by its own setting, and issue 16: a start-up failure keeps its traceback.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parent.parent
HARBOUR = ROOT / "scenarios" / "harbor.toml"
TOKEN_ENV = "TK_TEST_DISCORD_TOKEN"


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def _err_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()


NESTED = {
    "array": "a = " + "[" * 500 + "]" * 500 + "\n",
    "table": "a = " + "{b = " * 500 + "1" + "}" * 500 + "\n",
}


@pytest.mark.parametrize("shape", sorted(NESTED))
def test_deeply_nested_toml_is_refused_by_every_command(
    shape: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(TOKEN_ENV, "not-a-real-token")
    nested = _write(tmp_path / "nested.toml", NESTED[shape])
    narration = _write(tmp_path / "n.txt", "Gulls cry.")
    commands = [
        ["scenario", "validate", nested],
        ["check", "--scenario", nested, "--narration", narration],
        ["recall", "--scenario", nested, "--at", "loc-harbor"],
        ["run", "--config", nested],
        ["play", "--scenario", nested, "--data", str(tmp_path / "data")],
    ]
    for argv in commands:
        assert main(argv) == 2, argv
        lines = _err_lines(capsys)
        assert len(lines) == 1 and "nested more than 32 levels" in lines[0], (argv, lines)


def test_a_huge_string_is_not_echoed_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HARBOUR.read_text(encoding="utf-8").replace(
        'starting_location = "loc-harbor"', 'starting_location = "' + "x" * 3_000_000 + '"'
    )
    assert main(["scenario", "validate", _write(tmp_path / "big.toml", text)]) == 1
    err = capsys.readouterr().err
    assert len(err) < 2000 and "3,000,000 characters" in err


def test_a_file_over_the_size_cap_is_refused_before_parsing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.toml"
    path.write_text("# padding\n" * 500_000, encoding="utf-8")  # 5 MB of comments
    for argv in (["scenario", "validate", str(path)], ["play", "--scenario", str(path)]):
        assert main(argv) == 2
        lines = _err_lines(capsys)
        assert len(lines) == 1 and "file too large" in lines[0]


def test_many_problems_print_the_first_twenty_then_a_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_facts = "".join(f'\n[[facts]]\nkey = "Bad Key {i}"\nvalue = "v"\n' for i in range(500))
    path = _write(tmp_path / "many.toml", HARBOUR.read_text(encoding="utf-8") + bad_facts)
    assert main(["scenario", "validate", path]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 21
    assert re.search(r"\.\.\. and \d+ more problems$", lines[-1])


def test_a_scenario_with_a_byte_order_mark_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "bom.toml", "\ufeff" + HARBOUR.read_text(encoding="utf-8"))
    assert main(["scenario", "validate", path]) == 0
    assert capsys.readouterr().out.startswith("ok: 'The Saltmere Ledger'")


def test_a_config_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    from bot.config import load_settings

    path = _write(tmp_path / "c.toml", "\ufeff[rounds]\ndeadline_minutes = 3\n")
    assert load_settings(path).rounds.deadline_minutes == 3


@pytest.mark.parametrize("body", ["[campaign]\nid = 3\n", "x = ["])
def test_errors_name_the_file_once(
    body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _write(tmp_path / "broken-world.toml", body)
    narration = _write(tmp_path / "n.txt", "Gulls cry.")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for argv in (
        ["check", "--scenario", bad, "--narration", narration],
        ["play", "--scenario", bad],
        ["recall", "--scenario", bad, "--at", "loc-harbor"],
    ):
        assert main(argv) == 2, argv
        lines = _err_lines(capsys)
        assert len(lines) == 1 and lines[0].count("broken-world.toml") == 1, (argv, lines)


def test_check_exit_status_is_0_clean_1_conflict_2_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = _write(tmp_path / "clean.txt", "Gulls cry over the harbour as the tide comes in.")
    conflict = _write(tmp_path / "conflict.txt", "Behind the bar stands Harlan Voss, polishing a mug.")
    assert main(["check", "--scenario", str(HARBOUR), "--narration", clean]) == 0
    assert main(["check", "--scenario", str(HARBOUR), "--narration", conflict]) == 1
    assert main(["check", "--scenario", str(HARBOUR), "--narration", conflict, "--json"]) == 1
    assert main(["check", "--scenario", str(tmp_path / "none.toml"), "--narration", clean]) == 2
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "0 clean, 1 conflict" in capsys.readouterr().out


# --- configuration: each problem names its own setting --------------------------------------------------


def _run(tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setenv(TOKEN_ENV, "not-a-real-token")
    return main(
        [
            "run",
            "--config",
            _write(tmp_path / "config.toml", f'[discord]\ntoken_env = "{TOKEN_ENV}"\n' + body),
        ]
    )


def test_unwritable_data_dir_is_named_as_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert _run(tmp_path, f'[storage]\ndata_dir = "{blocker / "data"}"\n', monkeypatch) == 2
    lines = _err_lines(capsys)
    assert len(lines) == 1 and "storage.data_dir" in lines[0] and "database_url" not in lines[0]


def test_chroma_server_down_is_named_as_chroma(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    body = f'[storage]\ndata_dir = "{tmp_path}"\n[chroma]\nmode = "http"\nhost = "127.0.0.1"\nport = 9\n'
    assert _run(tmp_path, body, monkeypatch) == 2
    lines = _err_lines(capsys)
    assert len(lines) == 1 and "chroma.host" in lines[0] and "database_url" not in lines[0]


def test_llm_base_url_must_be_http(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    body = f'[storage]\ndata_dir = "{tmp_path}"\n[llm]\nenabled = true\nbase_url = "ftp:/x"\n'
    assert _run(tmp_path, body, monkeypatch) == 2
    lines = _err_lines(capsys)
    assert len(lines) == 1 and "llm.base_url" in lines[0]


def test_missing_llm_key_for_a_remote_endpoint_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TK_TEST_NO_SUCH_KEY", raising=False)
    body = (
        f'[storage]\ndata_dir = "{tmp_path}"\n[llm]\nenabled = true\n'
        'base_url = "https://llm.example.invalid/v1"\napi_key_env = "TK_TEST_NO_SUCH_KEY"\n'
    )
    assert _run(tmp_path, body, monkeypatch) == 2
    lines = _err_lines(capsys)
    assert len(lines) == 1 and "llm.api_key_env" in lines[0] and "TK_TEST_NO_SUCH_KEY" in lines[0]


def test_startup_failure_keeps_one_line_and_logs_the_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.table import Table

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug while opening the table")

    monkeypatch.setattr(Table, "create", broken)
    body = f'[storage]\ndata_dir = "{tmp_path}"\n'
    assert _run(tmp_path, body, monkeypatch) == 2
    lines = _err_lines(capsys)
    assert len(lines) == 1 and "a bug while opening the table" in lines[0]
    log = (tmp_path / "tablekeeper.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "RuntimeError: a bug while opening the table" in log
    assert str(tmp_path / "tablekeeper.log") in lines[0]
    monkeypatch.setenv(TOKEN_ENV, "not-a-real-token")
    argv = ["run", "--debug", "--config", str(tmp_path / "config.toml")]
    assert main(argv) == 2
    assert "Traceback" in capsys.readouterr().err


def test_broken_rules_data_fails_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import rules.srd as srd

    monkeypatch.setattr(srd, "_read", lambda filename: {"creature": {"goblin": {"armor_class": "tall"}}})
    srd.bestiary.cache_clear()
    srd.weapons.cache_clear()
    try:
        assert main(["scenario", "validate", str(HARBOUR)]) == 2
        lines = _err_lines(capsys)
        monkeypatch.setenv(TOKEN_ENV, "not-a-real-token")
        config = _write(
            tmp_path / "c.toml", f'[discord]\ntoken_env = "{TOKEN_ENV}"\n[storage]\ndata_dir = "{tmp_path}"\n'
        )
        assert main(["run", "--config", config]) == 2  # the bot does not start on broken rules data
        lines += _err_lines(capsys)
    finally:
        srd.bestiary.cache_clear()
        srd.weapons.cache_clear()
    assert len(lines) == 2 and all(
        re.search(r"rules data is invalid: (bestiary|weapons)\.toml: ", line) for line in lines
    )


def test_rules_data_with_a_bom_or_deep_nesting() -> None:
    from rules.errors import DataError
    from rules.srd import parse_toml

    assert parse_toml("weapons.toml", '\ufeff[weapon.club]\nname = "Club"\n') == {
        "weapon": {"club": {"name": "Club"}}
    }
    with pytest.raises(DataError, match=r"weapons\.toml: not valid TOML \(nested too deeply\)"):
        parse_toml("weapons.toml", NESTED["array"])
