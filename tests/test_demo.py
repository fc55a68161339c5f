"""``tablekeeper demo``: offline, shows every part of a session, and the same seed prints the same bytes."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.demo import DEFAULT_SEED


def _demo(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", *args]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The demo with the default seed (twice) and with another seed, run from an empty folder."""
    cwd = tmp_path_factory.mktemp("cwd")
    before = Path.cwd()
    os.chdir(cwd)
    try:
        first = _demo()
        again = _demo("--seed", str(DEFAULT_SEED))
        other = _demo("--seed", str(DEFAULT_SEED + 1))
        leftovers = sorted(p.name for p in cwd.iterdir())
    finally:
        os.chdir(before)
    return {"first": first, "again": again, "other": other, "leftovers": "\n".join(leftovers)}


def test_demo_shows_every_part_of_the_session(runs: dict[str, str]) -> None:
    out = runs["first"]
    # Four players join the scenario's characters; at least four rounds are played.
    for claim in ("Greyrock", "Mira Quickfinger", "Sister Tamsin", "Orrin Vale"):
        assert f"sits down as {claim}" in out
    rounds = re.findall(r"^--- Round (\d+): initiative ---$", out, re.M)
    assert len(rounds) >= 4
    # Free text and structured options.
    assert "[item: brass spyglass]" in out and "[skill: insight]" in out and "[target: Bessa Marlow]" in out
    assert 'alice (Greyrock): "go to the harbour" -> declared for round 2: go to Saltmere Harbour' in out
    # A bad action is refused with its reason, and nothing changes.
    assert "refused: You do not hold that." in out
    assert "nothing changed: yes" in out
    # Two players grab the same item: an opposed check, and the report says who won.
    assert "opposed check over the spyglass:" in out
    assert "contest:" in out
    # A fight in initiative order, with rolls; the thugs fight back on their own.
    assert re.search(r"^  (Tarry Jack|Bilge) +(success|failure) +\1 (hits|misses) ", out, re.M)
    assert re.search(r"attack: 1d20\+\d+ \[\d+\] \+ \d+ = \d+ vs \d+ \((hit|miss)\)", out)
    # A secret (a GM-only fact of the scenario) revealed by DM to one player only.
    public = out.split("=== The public channel", 1)[1].split("=== Each player's DMs", 1)[0]
    dms = out.split("=== Each player's DMs", 1)[1].split("=== The ledger at the end", 1)[0]
    assert "--- DM to cara (Sister Tamsin) ---" in dms
    secrets = (
        "untaxed dye in the Salty Gull's cellar",
        "fears the harbourmaster has found the bond-room ledger",
    )
    told = [secret for secret in secrets if secret in dms]
    assert told, dms
    assert not any(secret in public for secret in told)
    # Old Wei's favour comes back through retrieval, then the GM settles it.
    assert re.search(r"favor-0003-01 \(Old Wei's favour, open since session 3\) surfaced at rank \d+", out)
    assert "Session summaries retrieved" in out
    assert "favor-0003-01 (favour) is now settled" in out
    assert re.search(r"favor-0003-01 +favour +settled", out)
    # A dispute, the GM's ruling, and the correction in history.
    assert "[accepted]; ruling: Accepted: the record is corrected" in out
    assert re.search(r"correction +correction of ev-\d+: Accepted: the record is corrected +dispute-1", out)
    # The final ledger: inventories, threads, history, seeds with a replay check.
    assert "--- Inventory of Orrin Vale ---" in out and "--- Threads ---" in out
    assert "--- Last 12 history lines ---" in out
    replays = re.findall(r"matches; re-resolving gives identical results", out)
    assert len(replays) >= 4
    assert "DIFFERS" not in out and "DOES NOT match" not in out


def test_demo_output_is_plain_and_free_of_paths_and_timestamps(runs: dict[str, str]) -> None:
    out = runs["first"]
    assert "\x1b[" not in out  # not a TTY: no colour codes
    assert "tablekeeper-demo-" not in out and "/tmp" not in out
    assert "Traceback" not in out
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", out)  # no wall-clock timestamps
    assert runs["leftovers"] == ""  # nothing written to the working folder


def test_same_seed_same_bytes_other_seed_other_rolls(runs: dict[str, str]) -> None:
    assert runs["first"] == runs["again"]
    assert runs["first"] != runs["other"]

    def seeds(text: str) -> list[str]:
        return re.findall(r"^seed (\d+) \(commitment", text, re.M)

    def rolls(text: str) -> list[str]:
        return re.findall(r"\[\d+(?:, \d+)*\]", text)

    assert seeds(runs["first"]) != seeds(runs["other"])
    assert rolls(runs["first"]) != rolls(runs["other"])


def test_bad_seed_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tablekeeper: --seed")
