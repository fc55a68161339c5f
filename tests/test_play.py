"""``tablekeeper play``: a local table driven by piped lines, printing the table's answers."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
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


class _ScriptedStdin:
    """A stdin without a file descriptor; a callable among the lines runs first (move a clock, delete)."""

    def __init__(self, lines: list[str | Callable[[], object]]) -> None:
        self.lines = list(lines)

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        while self.lines:
            item = self.lines.pop(0)
            if callable(item):
                item()
                continue
            return item + "\n"
        return ""


def _play_in(monkeypatch: pytest.MonkeyPatch, stdin: object, *args: str) -> int:
    monkeypatch.setattr(sys, "stdin", stdin)
    return main(["play", "--scenario", str(HARBOR), *args])


async def test_play_closes_a_round_at_its_deadline(tmp_path: Path) -> None:
    """Issue 9 section 6: play kept collecting 8 minutes past the deadline; the tick now closes the round."""
    from bot.cli.play import GM_NAME, PlaySession
    from bot.terminal import Screen, TerminalCourier
    from bot.views import Where
    from tests.table_helpers import Clock, make_table

    clock = Clock()
    courier = TerminalCourier()
    table = await make_table(
        f"sqlite+aiosqlite:///{tmp_path / 'l.db'}", tmp_path, clock=clock, courier=courier
    )  # type: ignore[arg-type]
    screen_out = io.StringIO()
    try:
        session = PlaySession(
            table, courier, Screen(screen_out, rich=False), Where(guild_id="l", channel_id="t")
        )
        await table.start_campaign_from_file(session.where, session.caller(GM_NAME), path=HARBOR)
        stdin = _ScriptedStdin(
            [
                "alice: /join Greyrock",
                "bob: /join Mira",
                "alice: /act look around",
                lambda: clock.advance(60),  # an hour later, bob never acted
                "alice: /round status",
            ]
        )
        assert await session.loop(stdin) is True  # type: ignore[arg-type]
    finally:
        await table.aclose()
    out = screen_out.getvalue()
    status = _answer(out, "alice: /round status")
    assert "Round 2" in status  # round 1 closed at its deadline before the command ran
    assert "--- #table ---" in out and "Round 1" in out.split("> alice: /round status", 1)[1]


def test_deleted_data_folder_is_noticed_and_the_campaign_saved_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import shutil

    data = tmp_path / "kept"
    stdin = _ScriptedStdin(
        [
            "alice: /join Greyrock",
            "alice: /act look around",
            lambda: shutil.rmtree(data),
            "bob: /join Mira",
        ]
    )
    assert _play_in(monkeypatch, stdin, "--data", str(data)) == 1
    out = capsys.readouterr().out
    assert "was deleted during play; the campaign was saved again" in out
    assert "bob sits down" not in out  # it stopped instead of playing on into nothing
    again = _play(monkeypatch, capsys, "alice: /round status\n/who\n", "--data", str(data))
    assert "acted:   Greyrock" in again and "Greyrock (alice)" in again


def test_unusable_data_folder_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A data folder where the database cannot be opened printed 70 lines of traceback."""
    data = tmp_path / "data"
    (data / "tablekeeper.db").mkdir(parents=True)  # what sqlite cannot open, even for root
    assert main(["play", "--scenario", str(HARBOR), "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tablekeeper.db there is not a file" in err and "Traceback" not in err
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["play", "--scenario", str(HARBOR), "--data", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot use as data folder" in err


def test_first_ctrl_c_stops_play_without_a_traceback(tmp_path: Path) -> None:
    """The first Ctrl-C was swallowed (stdin was read on the event loop); a second printed a traceback."""
    import signal
    import subprocess
    import threading

    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--scenario", str(HARBOR), "--data", str(tmp_path / "d")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        started = threading.Event()

        def watch() -> None:
            for line in proc.stdout:  # type: ignore[union-attr]
                if "Type /help" in line:
                    started.set()

        threading.Thread(target=watch, daemon=True).start()
        assert started.wait(300), "play did not start"
        proc.send_signal(signal.SIGINT)  # stdin stays open: play is waiting for a line
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the first Ctrl-C did not stop play")
        err = proc.stderr.read() if proc.stderr else ""
        assert proc.returncode == 130
        assert "Traceback" not in err and "CancelledError" not in err
        assert err.strip() == "tablekeeper: interrupted"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_terminal_escapes_in_typed_lines_are_not_echoed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 9: ANSI/OSC escapes in an action were echoed to the terminal (colours, a retitled window)."""
    out = _play(
        monkeypatch,
        capsys,
        "alice: /join Grey\x1b[31mrock\x1b[0m\nalice: /act look\x1b]0;owned\x07 around\x00\n",
    )
    assert "\x1b" not in out and "\x07" not in out and "\x00" not in out
    assert "alice sits down as Greyrock" in out
    assert "> alice: /act look around" in out


@pytest.mark.parametrize("rich", [False, True])
def test_the_screen_never_prints_terminal_escapes(rich: bool) -> None:
    """Whatever reaches the screen (a narration, a name from an old ledger) cannot drive the terminal."""
    from bot.terminal import Screen

    out = io.StringIO()
    screen = Screen(out, rich=rich)
    screen.line("\x1b]0;owned\x07the tide \x1b[31mturns\x1b[0m")
    screen.panel("#table", "Old Wei\x1b[2J nods.")
    screen.table("who", ["name"], [["Mira\x1b]8;;http://x\x1b\\"]])
    text = out.getvalue()
    assert "the tide turns" in text and "Old Wei nods." in text
    assert "owned" not in text and "\x1b]" not in text and "\x1b[2J" not in text and "\x07" not in text
