"""``tablekeeper play``: the GM builds the world live with the same ``/gm`` world commands as on Discord.

A blank-ish world (one place) is built into a playable scene by typed lines, each answered with exactly the
events written; bad lines are one-line refusals; then three rounds are played and told with the newcomers.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.play import _options

BLANK = """\
[campaign]
id = "blank"
name = "Blank Roads"
starting_location = "loc-crossroads"

[[locations]]
id = "loc-crossroads"
name = "The Crossroads"
description = "Where every road begins."
"""

SESSION = """\
alice: /join Ayla
bob: /join Bram
gm: /gm move who: party to: The Old Mill description: A creaking mill over a black river.
gm: /gm npc name: Marta Vell description: A ferrywoman with tar-black hands. attitude: 30 pronouns: she/her
gm: /gm npc name: Jonah Pike description: A nervous miller. stats: guard
gm: /gm spawn creature: bandit count: 2
gm: /gm item name: Rusty Key to: Marta Vell description: Opens the loft.
gm: /gm thread-open kind: favour from: Marta Vell to: Ayla terms: Marta ferries the party across at dawn
gm: /gm secret about: Jonah Pike text: Jonah sold the grain to the bandits.
gm: /gm secret about: Marta Vell text: Her brother leads the bandits. for: Ayla
gm: /gm npc name: Marta Vell description: Soaked to the knees.
gm: /gm item-remove name: Rusty Key fate: used up
gm: /gm spawn creature: dragon
gm: /gm npc name: Ayla
gm: /gm item name: Lamp to: Nowhere Town
gm: /gm npc name: Long description: {long}
gm: /gm npc attitude: 5
gm: /gm spawn creature: wolf count: many
bob: /gm npc name: Evil Twin
alice: /act ask Marta Vell about the ferry [target: Marta Vell]
bob: /act ask Jonah Pike about the grain [target: Jonah Pike]
alice: /ready
bob: /ready
alice: /act attack the first bandit [target: the first bandit]
bob: /act attack the second bandit [target: the second bandit]
alice: /ready
bob: /ready
alice: /act thank Marta Vell [target: Marta Vell]
bob: /act look around the mill
alice: /ready
bob: /ready
gm: /gm conflicts
/quit
""".replace("{long}", "x" * 1200)


def _answer(out: str, command: str) -> str:
    """What was printed after the echoed line that starts with ``command`` (up to the next line read)."""
    after = out.split(f"> {command}", 1)[1].split("\n", 1)[1]
    return after.split("\n> ", 1)[0]


def test_the_gm_builds_a_blank_world_into_a_scene_and_three_rounds_are_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    world = tmp_path / "blank.toml"
    world.write_text(BLANK, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(SESSION))
    assert main(["play", "--scenario", str(world), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    moved = _answer(
        out, "gm: /gm move who: party to: The Old Mill description: A creaking mill over a black river."
    )
    assert "The Old Mill is discovered" in moved and "Ayla went to The Old Mill" in moved
    marta = _answer(
        out,
        "gm: /gm npc name: Marta Vell description: A ferrywoman with tar-black hands.",
    )
    assert "Marta Vell enters the story at The Old Mill" in marta and "regard (+30)" in marta
    spawned = _answer(out, "gm: /gm spawn creature: bandit count: 2")
    assert "The first bandit and the second bandit appear." in spawned and "Bandit 2" not in spawned
    assert "Rusty Key appears with Marta Vell" in _answer(
        out, "gm: /gm item name: Rusty Key to: Marta Vell description: Opens the loft."
    )
    thread = _answer(
        out,
        "gm: /gm thread-open kind: favour from: Marta Vell to: Ayla",
    )
    assert "favor-0001-01" in thread
    hidden = _answer(out, "gm: /gm secret about: Jonah Pike text: Jonah sold the grain to the bandits.")
    assert "seen by the GM only" in hidden
    told = _answer(out, "gm: /gm secret about: Marta Vell text: Her brother leads the bandits. for: Ayla")
    assert "DM to alice (private)" in told and "Her brother leads the bandits." in told
    updated = _answer(out, "gm: /gm npc name: Marta Vell description: Soaked to the knees.")
    assert "Marta Vell is updated." in updated and "description: Soaked to the knees." in updated
    gone = _answer(out, "gm: /gm item-remove name: Rusty Key fate: used up")
    assert "Marta Vell no longer has Rusty Key" in gone and "fate: used up" in gone
    # Bad lines: one line each, nothing written.
    for line, words in (
        ("gm: /gm spawn creature: dragon", "no creature called 'dragon'"),
        ("gm: /gm npc name: Ayla", "player character"),
        ("gm: /gm item name: Lamp to: Nowhere Town", "nowhere town"),
        ("gm: /gm npc name: Long description: " + "x" * 1200, "too long"),
        ("gm: /gm npc attitude: 5", "name needed"),
        ("gm: /gm spawn creature: wolf count: many", "whole number"),
        ("bob: /gm npc name: Evil Twin", "only the gm"),
    ):
        answer = _answer(out, line).strip()
        assert len(answer.splitlines()) == 1 and words in answer.lower(), (line, answer)
        assert answer.startswith(("refused: ", "error: ")), answer
    # Three rounds, told with the newcomers, and no conflict queued.
    told_rounds = out.split("> alice: /act ask Marta Vell", 1)[1]
    assert told_rounds.count("--- #table ---") >= 3
    assert "Marta Vell" in told_rounds and "Jonah Pike" in told_rounds and "Bandit 2" not in told_rounds
    assert "no conflicts" in _answer(out, "gm: /gm conflicts").lower()


def test_options_are_read_to_the_next_known_key() -> None:
    keys = ("name", "description", "attitude")
    assert _options("name: Marta Vell description: Says: 'no' attitude: -5", keys) == {
        "name": "Marta Vell",
        "description": "Says: 'no'",
        "attitude": "-5",
    }
    assert _options("", keys) == {}
    with pytest.raises(Exception, match="KEY: VALUE"):
        _options("Marta Vell", keys)
