"""``tablekeeper play``: a local table driven by piped lines, printing the table's answers."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from bot.cli import main

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"

SESSION = """\
# comments and blank lines are skipped

alice: /join Greyrock
bob: /join Mira
/as cara
/join Sister Tamsin
alice: /act grab the brass spyglass
bob: snatch the spyglass [item: brass spyglass]
cara: /act give my silver dagger to Mira
cara: /act watch her hands [target: Bessa Marlow] [skill: insight]
/round status
alice: /round close
alice: /ready
bob: /ready
cara: /ready
alice: /ledger inventory
alice: /ledger threads
alice: /ledger history 3
alice: /ledger record favor-0003-01
alice: /ledger relationships Old Wei
cara: /ledger notes
alice: /ledger dispute ev-000001 that never happened
gm: /gm disputes
gm: /gm rule 1 accept the ledger was wrong
gm: /gm thread favor-0003-01 settled Greyrock kept the pier empty
gm: /gm thread favor-9999-01 settled nothing
gm: /round close
/frobnicate now
gm: /gm rule x accept
/ledger history lots
/roll 2d6+3
/roll 2d
/who
/quit
alice: this line is never read
"""


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str, *args: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["play", "--scenario", str(HARBOR), *args]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return captured.out


def _answer(out: str, command: str) -> str:
    """What the table printed after the echoed line ``> command`` (up to the next command)."""
    after = out.split(f"> {command}\n", 1)[1]
    return after.split("\n> ", 1)[0]


def test_a_short_session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = _play(monkeypatch, capsys, SESSION, "--seed", "3")
    assert "--- Campaign: The Saltmere Ledger ---" in out
    assert "alice sits down as Greyrock" in _answer(out, "alice: /join Greyrock")
    assert "bob sits down as Mira Quickfinger" in _answer(out, "bob: /join Mira")
    assert "cara sits down as Sister Tamsin" in _answer(out, "/join Sister Tamsin")
    # Free text and structured options.
    assert "declared for round 1: take 1 x brass spyglass" in _answer(
        out, "alice: /act grab the brass spyglass"
    )
    assert "take 1 x brass spyglass" in _answer(out, "bob: snatch the spyglass [item: brass spyglass]")
    insight = _answer(out, "cara: /act watch her hands [target: Bessa Marlow] [skill: insight]")
    assert "insight check against Bessa Marlow" in insight
    # A refused action: one line with the reason.
    refusal = _answer(out, "cara: /act give my silver dagger to Mira")
    assert refusal.strip() == "refused: You do not hold that. Check /ledger inventory for what you carry."
    status = _answer(out, "/round status")
    assert "acted:   Greyrock, Mira Quickfinger, Sister Tamsin" in status
    # Only the GM closes a round.
    assert _answer(out, "alice: /round close").startswith("refused: Only the GM can do that")
    # Everyone ready: the round resolves, with initiative, the opposed check, the post in the channel.
    assert "ready; round 1 waits for Mira Quickfinger, Sister Tamsin" in _answer(out, "alice: /ready")
    report = _answer(out, "cara: /ready")
    assert "--- Round 1: initiative ---" in report
    assert "contest:" in report
    assert "--- #table ---" in report and "Round 1" in report
    # The ledger views.
    assert "--- Inventory of Greyrock ---" in _answer(out, "alice: /ledger inventory")
    assert re.search(r"favor-0003-01 +favour +open", _answer(out, "alice: /ledger threads"))
    assert len(re.findall(r"^  ev-\d+ ", _answer(out, "alice: /ledger history 3"), re.M)) == 3
    assert "--- Record favor-0003-01 ---" in _answer(out, "alice: /ledger record favor-0003-01")
    assert "owes-favour" in _answer(out, "alice: /ledger relationships Old Wei")
    assert "--- Private notes of cara ---" in _answer(out, "cara: /ledger notes")
    # A dispute and the GM's ruling; the GM settles a thread.
    assert "dispute #1 on ev-000001 by alice: that never happened [open]" in out
    ruling = _answer(out, "gm: /gm rule 1 accept the ledger was wrong")
    assert "[accepted]; ruling: the ledger was wrong" in ruling
    assert "favor-0003-01 (favour) is now settled" in out
    assert _answer(out, "gm: /gm thread favor-9999-01 settled nothing").startswith("refused: ")
    assert "--- Round 2: initiative ---" in _answer(out, "gm: /round close")
    # Bad input: one line each, never a traceback.
    assert _answer(out, "/frobnicate now").strip() == "error: unknown command '/frobnicate'; type /help"
    assert _answer(out, "gm: /gm rule x accept").strip().startswith("error: usage: /gm rule")
    assert _answer(out, "/ledger history lots").strip() == "error: usage: /ledger history [N]"
    assert re.fullmatch(r"2d6\+3 = \d+ .*seed \d+\)", _answer(out, "/roll 2d6+3"))
    assert _answer(out, "/roll 2d").startswith("refused: ")
    assert "Greyrock (alice)" in _answer(out, "/who")
    assert out.rstrip().endswith("Goodbye.")
    assert "never read" not in out


def test_speaker_is_needed_and_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(monkeypatch, capsys, "/act attack the thug\n/help\n")
    assert "error: who is speaking? Start the line with 'NAME:' or use /as NAME" in out
    assert "/join NAME-or-claim" in out
    assert out.rstrip().endswith("Goodbye.")  # end of input ends the session


def test_data_folder_keeps_the_campaign(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "ledger"
    first = _play(
        monkeypatch, capsys, "alice: /join Greyrock\nalice: /act go to the harbour\n", "--data", str(data)
    )
    assert "declared for round 1: go to Saltmere Harbour" in first
    second = _play(monkeypatch, capsys, "alice: /round status\nalice: /who\n", "--data", str(data))
    assert "Continuing the campaign kept in" in second
    assert "acted:   Greyrock" in second and "Greyrock (alice)" in second


def test_missing_scenario_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["play", "--scenario", str(tmp_path / "nowhere.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such scenario file" in err


def test_a_kept_campaign_takes_new_actions_in_a_later_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = str(tmp_path / "table")
    first = _play(
        monkeypatch,
        capsys,
        "alice: /join Greyrock\nalice: /act look around\ngm: /round close\n/quit\n",
        "--data",
        data,
    )
    assert "refused" not in first and "error" not in first
    second = _play(monkeypatch, capsys, "alice: /act look around the tavern\n/quit\n", "--data", data)
    assert "refused" not in second and "error" not in second
    assert "perception" in second.lower() or "look around the tavern" in second
