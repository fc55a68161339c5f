"""Read the labelled narration corpus (shared by the corpus test and the bench)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ledger.check.snapshot import WorldSnapshot, load_world, scene_at, snapshot_from_world
from ledger.scenario.reading import load_scenario
from ledger.scenario.replay import final_world

CORPUS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Narration:
    """One labelled narration: the world and round it is told in, and what the checker must say."""

    id: str
    world: str
    round: str | None
    expect: str
    kinds: tuple[str, ...]
    refuted_by: tuple[str, ...]
    text: str
    note: str = ""
    known_miss: str = ""  # why the checker gets this one wrong today (the test expects the failure)
    # records of a second, genuine problem the text also has (the checker may name them too)
    also_refuted_by: tuple[str, ...] = ()
    wrong_reason: str = ""  # a record the checker names today for a wrong reason (that test expects it)
    # a batch in the scenario format (the one `tablekeeper check --scenario` reads): ``world`` is then the
    # scenario file's stem under ``scenarios/`` beside the batch, and ``location`` the scene (--location)
    scenario: bool = False
    location: str | None = None
    folder: Path = CORPUS / "narrations"


def world_path(world: str) -> Path:
    """The JSON file of a corpus world."""
    return CORPUS / "worlds" / f"{world}.json"


def scenario_path(n: Narration) -> Path:
    """The scenario file a scenario-format narration is told in."""
    return n.folder / "scenarios" / f"{n.world}.toml"


@cache
def _scenario_world(path: Path, location: str | None) -> WorldSnapshot:
    scenario = load_scenario(path)
    world = final_world(scenario, "gm")
    scene = scene_at(world, location) if location else None
    return snapshot_from_world(world, scenario=scenario, scene=scene)


@cache
def _json_world(world: str, round_name: str | None) -> WorldSnapshot:
    return load_world(world_path(world), round_name)


def snapshot_for(n: Narration) -> WorldSnapshot:
    """The world a narration is judged against, built as ``tablekeeper check`` builds it (cached)."""
    if n.scenario:
        return _scenario_world(scenario_path(n), n.location)
    return _json_world(n.world, n.round)


def narrations(folder: Path | None = None) -> list[Narration]:
    """Every narration of every batch in ``folder`` (default: the corpus), in file order."""
    folder = folder or CORPUS / "narrations"
    out: list[Narration] = []
    for path in sorted(folder.glob("*.toml")):
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        for n in raw.get("narration", []):
            out.append(
                Narration(
                    id=n["id"],
                    world=n.get("world") or n.get("scenario") or path.stem,
                    scenario="scenario" in n,
                    location=n.get("location"),
                    folder=folder,
                    round=n.get("round"),
                    expect=n["expect"],
                    kinds=tuple(n.get("kinds", ())),
                    refuted_by=tuple(n.get("refuted_by", ())),
                    text=n["text"].strip(),
                    note=n.get("note", ""),
                    known_miss=n.get("known_miss", ""),
                    also_refuted_by=tuple(n.get("also_refuted_by", ())),
                    wrong_reason=n.get("wrong_reason", ""),
                )
            )
    return out


@dataclass(frozen=True)
class LeakCase:
    """One paraphrased-leak case or near-miss (tests/corpus/leaks): must the party's check find a leak?"""

    id: str
    world: str
    expect: str  # "leak" | "clean"
    records: tuple[str, ...]  # for a leak: the secret record, then other records that also give it away
    text: str
    known_miss: str = ""  # why the checker gets this one wrong today (the test expects the failure)


def leak_world_path(world: str) -> Path:
    """The TOML file of a leak-corpus world (worlds other than the four of the main corpus)."""
    return CORPUS / "leaks" / "worlds" / f"{world}.toml"


def leak_cases() -> list[LeakCase]:
    """Every paraphrased-leak case and near-miss, in file order."""
    out: list[LeakCase] = []
    for path in sorted((CORPUS / "leaks").glob("*.toml")):
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        for c in raw.get("case", []):
            records = (c["record"], *c.get("also", ())) if "record" in c else ()
            out.append(
                LeakCase(
                    id=c["id"],
                    world=c.get("world", path.stem),
                    expect=c["expect"],
                    records=tuple(records),
                    text=c["text"].strip(),
                    known_miss=c.get("known_miss", ""),
                )
            )
    return out
