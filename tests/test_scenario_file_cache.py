"""A small scenario file is read and checked once per content: the same bytes give the same validated
scenario, edited bytes are read afresh, and a bad file is refused every time (issue 14: starting a world)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ledger.scenario import reading
from ledger.scenario.format import ScenarioError
from ledger.scenario.reading import load_scenario

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"


def test_the_same_file_is_checked_once_and_an_edited_one_again(tmp_path: Path) -> None:
    world = tmp_path / "world.toml"
    shutil.copy(HARBOR, world)
    first = load_scenario(world)
    assert load_scenario(world) is first  # kept: the second start skips parsing and every check
    assert load_scenario(HARBOR) is first  # the same bytes elsewhere are the same world

    text = world.read_text(encoding="utf-8")
    assert first.campaign.name in text
    world.write_text(text.replace(first.campaign.name, "The Drowned Quay", 1), encoding="utf-8")
    edited = load_scenario(world)
    assert edited is not first and edited.campaign.name == "The Drowned Quay"
    assert load_scenario(HARBOR).campaign.name == first.campaign.name  # the original is unchanged


def test_a_bad_file_is_refused_every_time_even_after_a_good_read(tmp_path: Path) -> None:
    world = tmp_path / "world.toml"
    shutil.copy(HARBOR, world)
    load_scenario(world)
    text = world.read_text(encoding="utf-8")
    world.write_text(text.replace('starting_location = "', 'starting_location = "loc-nowhere-', 1), "utf-8")
    for _ in range(2):
        with pytest.raises(ScenarioError):
            load_scenario(world)


def test_windows_line_endings_read_like_unix_ones(tmp_path: Path) -> None:
    world = tmp_path / "world.toml"
    world.write_bytes(HARBOR.read_bytes().replace(b"\n", b"\r\n"))
    assert load_scenario(world) == load_scenario(HARBOR)


def test_a_big_file_is_not_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "MAX_CACHED_BYTES", 1024)  # harbour is 25 kB: "big" for this test
    world = tmp_path / "world.toml"
    shutil.copy(HARBOR, world)
    first = load_scenario(world)
    again = load_scenario(world)
    assert again == first and again is not first
