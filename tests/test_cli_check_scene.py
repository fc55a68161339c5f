"""``tablekeeper check --scenario`` without ``--location`` judges the scene the party stands in now.

The crypt scenario opens in the chapel, and its history takes the party down the crypt stair with Sefa. A
narration of that stair is the scene a GM means; judged against the empty chapel, every NPC beside the party
read as absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from ledger.check.snapshot import party_location, snapshot_from_world
from ledger.scenario.reading import load_scenario
from ledger.scenario.replay import final_world

CRYPT = Path(__file__).resolve().parent.parent / "scenarios" / "crypt.toml"


def test_the_default_scene_is_where_the_living_pcs_stand() -> None:
    scenario = load_scenario(CRYPT)
    world = final_world(scenario, "gm")
    assert world.starting_location == "loc-chapel"
    assert party_location(world) == "loc-crypt-stair"
    snap = snapshot_from_world(world, scenario=scenario)
    assert snap.scene.location == "loc-crypt-stair"
    assert {"pc-dara", "pc-fennick", "npc-sefa"} <= snap.scene.present
    assert "monster-skeleton-1" not in snap.scene.present  # dead on the stair: not in the scene


def test_a_world_without_placed_pcs_keeps_the_starting_location() -> None:
    scenario = load_scenario(CRYPT)
    world = final_world(scenario, "gm")
    nobody = type(world)(
        **{**world.__dict__, "entities": {k: v for k, v in world.entities.items() if v.kind != "pc"}}
    )
    assert party_location(nobody) == "loc-chapel"


def test_cli_check_of_the_party_scene_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    narration = tmp_path / "n.txt"
    narration.write_text(
        "Water drips down the worn steps. Sefa crouches beside Dara, listening for the Choir below.",
        encoding="utf-8",
    )
    assert main(["check", "--scenario", str(CRYPT), "--narration", str(narration)]) == 0
    assert "verdict: clean" in capsys.readouterr().out
    # the chapel, named on purpose, is still a scene the caller can ask for: Sefa is not there
    assert (
        main(["check", "--scenario", str(CRYPT), "--narration", str(narration), "--location", "loc-chapel"])
        == 1
    )
