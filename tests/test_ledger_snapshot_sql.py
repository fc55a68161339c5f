"""The checker's snapshot built from the SQL ledger agrees with the one built from the scenario file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from ledger.check.snapshot import RoundFacts, Scene, WorldSnapshot, snapshot_from_world
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.scenario.format import Scenario
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.scenario.replay import final_world
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"
SCENE = Scene(location="loc-harbor", present=frozenset({"npc-old-wei", "pc-greyrock"}))


@pytest.fixture(scope="module")
def harbor() -> Scenario:
    return load_scenario(HARBOR)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


@pytest.fixture
async def harbor_id(engine: Any, harbor: Scenario) -> int:
    async with ledger_session(engine) as s:
        return await load_scenario_into(s, scenario=harbor, source="harbor.toml")


async def _from_ledger(engine: Any, cid: int, viewer: Viewer, **kw: Any) -> WorldSnapshot:
    async with ledger_session(engine) as s:
        return await snapshot_from_ledger(
            s, campaign_id=cid, audience=viewer, location=SCENE.location, present=sorted(SCENE.present), **kw
        )


def _parts(snap: WorldSnapshot) -> dict[str, Any]:
    return {
        "entities": dict(snap.entities),
        "holdings": {item: dict(by_holder) for item, by_holder in snap.holdings.items()},
        "fates": dict(snap.fates),
        "edges": sorted(snap.edges, key=lambda e: e.id),
        "threads": dict(snap.threads),
        "facts": dict(snap.facts),
        "retcons": sorted(snap.retcons, key=lambda r: r.id),
        "scene": snap.scene,
    }


async def test_gm_snapshot_agrees_with_the_scenario_file(
    engine: Any, harbor: Scenario, harbor_id: int
) -> None:
    got = _parts(await _from_ledger(engine, harbor_id, Viewer.gm()))
    want = _parts(snapshot_from_world(final_world(harbor, "gm"), scenario=harbor, scene=SCENE))
    for part, value in want.items():
        assert got[part] == value, part
    # Spot checks a narrator would trip over.
    assert got["entities"]["npc-harlan-voss"].alive is False
    assert "pc-greyrock" in got["holdings"]["item-voss-signet"]
    assert "item-silver-dagger" not in got["fates"]
    assert got["threads"]["favor-0003-01"].status == "open"
    assert got["entities"]["pc-greyrock"].owner == "alice"


async def test_party_snapshot_hides_secrets(engine: Any, harbor: Scenario, harbor_id: int) -> None:
    snap = await _from_ledger(engine, harbor_id, Viewer.party())
    allowed = {"public", "party"}
    records = [
        *snap.entities.values(),
        *(h for by_holder in snap.holdings.values() for h in by_holder.values()),
        *snap.edges,
        *snap.threads.values(),
        *snap.facts.values(),
    ]
    assert records and all(r.visibility in allowed for r in records)
    assert "item-black-pearl" not in snap.entities
    assert "npc-maren-holt-role" not in snap.facts
    # What the party may know matches the file's party view.
    world = snapshot_from_world(final_world(harbor, "party"), scenario=harbor, scene=SCENE)
    assert set(snap.entities) == set(world.entities)
    assert {k: v.alive for k, v in snap.entities.items()} == {k: v.alive for k, v in world.entities.items()}
    assert set(snap.threads) == set(world.threads)
    # Bob (Mira's player) knows what Mira found; the round and scene are carried through.
    round_facts = RoundFacts(number=3, acted=frozenset({"pc-mira"}))
    bob = await _from_ledger(engine, harbor_id, Viewer.player("bob"), round_facts=round_facts)
    assert bob.facts["npc-maren-holt-role"].value == "smuggler boss"
    assert bob.round == round_facts and bob.scene == SCENE
