"""Read the labelled narration corpus (shared by the corpus test and the bench)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

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


def world_path(world: str) -> Path:
    """The JSON file of a corpus world."""
    return CORPUS / "worlds" / f"{world}.json"


def narrations() -> list[Narration]:
    """Every narration of every world, in file order."""
    out: list[Narration] = []
    for path in sorted((CORPUS / "narrations").glob("*.toml")):
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        for n in raw.get("narration", []):
            out.append(
                Narration(
                    id=n["id"],
                    world=n.get("world", path.stem),
                    round=n.get("round"),
                    expect=n["expect"],
                    kinds=tuple(n.get("kinds", ())),
                    refuted_by=tuple(n.get("refuted_by", ())),
                    text=n["text"].strip(),
                    note=n.get("note", ""),
                    known_miss=n.get("known_miss", ""),
                )
            )
    return out
