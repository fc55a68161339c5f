"""The checker's lemminflect tables are loaded at bot start-up, not by the first round a player sees.

Counted in a fresh process (this one may have loaded them already): every table load of lemminflect goes
through its codecs' ``load`` (and its out-of-vocabulary model's constructor), which the probe counts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.discord_harness import DiscordHarness, FakeTable

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys
import lemminflect.core.Inflections as I
import lemminflect.core.Lemmatizer as L

loads = []

def count(cls, name):
    original = getattr(cls, name)
    def counted(*args, **kwargs):
        loads.append(cls.__name__ + "." + name)
        return original(*args, **kwargs)
    setattr(cls, name, counted)

for module in (L, I):
    for attr in dir(module):
        if attr.endswith("Codec") and hasattr(getattr(module, attr), "load"):
            count(getattr(module, attr), "load")
for owner, attr in ((L, "LemmatizerRules"), (I, "MorphologyStyleModel")):
    if hasattr(owner, attr):
        count(getattr(owner, attr), "__init__")

warmed = []
if sys.argv[1] == "warm":
    from bot.warmup import warm_checker
    warm_checker()
    warmed = list(loads)
    loads.clear()

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot

snapshot = WorldSnapshot.build(
    entities=[
        Entity(id="loc-dock", kind="location", name="the docks"),
        Entity(id="npc-old-wei", kind="npc", name="Old Wei", location="loc-dock", pronoun="he"),
        Entity(id="pc-mira", kind="pc", name="Mira", location="loc-dock"),
    ],
    scene=Scene(location="loc-dock", present=frozenset({"npc-old-wei", "pc-mira"})),
)
check(
    "Old Wei scowls at Mira and mutters that the nets were torn by gulls. Mira sharpens her daggers, "
    "listens to the creaking hulls and spots three lanterns bobbing offshore; the fishmongers haggled.",
    snapshot,
)
print(json.dumps({"warmed": warmed, "check": loads}))
"""


def _probe(mode: str) -> dict[str, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mode], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    result: dict[str, list[str]] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_cold_process_loads_the_tables_on_its_first_check() -> None:
    assert _probe("cold")["check"]  # the lazy loader runs on first use: what warming is for


def test_after_warming_the_first_check_loads_nothing() -> None:
    probe = _probe("warm")
    assert {"LemmaLUCodec.load", "InflectionLUCodec.load"} <= set(probe["warmed"])
    assert probe["check"] == []


async def test_the_bot_starts_warming_when_it_sets_up_and_it_finishes() -> None:
    harness = await DiscordHarness.create(FakeTable())
    try:
        task = harness.bot._warming  # type: ignore[attr-defined]
        await task
        assert task.done() and task.exception() is None
    finally:
        await harness.close()


async def test_warming_freezes_what_start_up_allocated() -> None:
    import gc

    from bot.warmup import warm_in_background

    gc.unfreeze()
    try:
        assert gc.get_freeze_count() == 0
        await warm_in_background()
        # the start-up objects sit in the permanent generation: a full collection during a round skips them
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
