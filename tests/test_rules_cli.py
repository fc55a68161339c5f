"""``tablekeeper roll``: text and JSON output, replay by seed, one-line errors with exit code 2."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def test_roll_prints_total_breakdown_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "1d20+5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    first_line = out.splitlines()[0]
    total = int(first_line.split()[0])
    assert 6 <= total <= 25
    assert "1d20 (" in first_line and "--seed 3" in out


def test_roll_json_is_one_object_and_replays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "4d6kh3", "--seed", "42", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) == {"expression", "total", "breakdown", "dice", "seed"}
    assert payload["seed"] == 42 and len(payload["dice"]) == 4
    assert payload["total"] == sum(d["value"] for d in payload["dice"] if d["kept"])
    assert main(["roll", "4d6kh3", "--seed", "42", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == payload


def test_roll_without_seed_prints_one_to_replay(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "2d8", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert main(["roll", "2d8", "--json", "--seed", str(payload["seed"])]) == 0
    assert json.loads(capsys.readouterr().out) == payload


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("3d", "Could not read '3d'"),
        ("101d6", "Too many dice: at most 100"),
        ("1" * 101, "Expression too long"),
    ],
)
def test_bad_expression_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], expr: str, message: str
) -> None:
    assert main(["roll", expr]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err
    assert captured.err.startswith("tablekeeper: ")
