"""The scene a round's changes leave, applied in memory (``scene_after``), is the scene the ledger reads back
after the changes are written: the narration may then skip its second read. Real ledger (SQLite file or
PostgreSQL), the harbour scenario, the changes a round makes written through the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.scene import Scene, load_scene
from bot.scene_changes import scene_after
from ledger import service
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.store.db import create_engine, init_db, ledger_session

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"
PCS = ("pc-greyrock", "pc-mira", "pc-tamsin", "pc-orrin")


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


async def _scene(engine: Any, cid: int) -> Scene:
    async with ledger_session(engine) as s:
        return await load_scene(s, campaign_id=cid, pc_ids=PCS)


async def _write(engine: Any, cid: int, mutations: list[dict[str, Any]]) -> None:
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s, campaign_id=cid, session_number=9, round_number=1, cause="round-9.1", mutations=mutations
        )


async def test_a_rounds_state_changes_applied_in_memory_match_the_scene_read_back(engine: Any) -> None:
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=load_scenario(HARBOR), source="harbor.toml")
    before = await _scene(engine, cid)
    pc = next(p for p in PCS if p in before.creatures)
    npc = next(c for c, e in sorted(before.creatures.items()) if e.kind != "pc")
    rounds: list[list[dict[str, Any]]] = [
        [
            {"kind": "set_hp", "entity": npc, "hp": 3},
            {"kind": "add_condition", "entity": pc, "condition": "prone"},
            {"kind": "add_condition", "entity": pc, "condition": "poisoned"},
            {"kind": "set_fact", "key": f"{pc}-said-9-1", "value": "Mira to Wei: hello"},
            {"kind": "set_fact", "key": f"{pc}-death-saves", "value": "1/2"},
        ],
        [
            {"kind": "remove_condition", "entity": pc, "condition": "prone"},
            {"kind": "set_hp", "entity": pc, "hp": 0},
            {"kind": "set_fact", "key": f"{pc}-death-saves", "value": "3/2"},
            {"kind": "set_fact", "key": f"{pc}-stable", "value": True},
            {"kind": "set_alive", "entity": npc, "alive": False},
        ],
    ]
    for changes in rounds:
        expected = scene_after(before, changes)
        await _write(engine, cid, changes)
        after = await _scene(engine, cid)
        assert after != before  # the changes show in the scene ...
        assert expected == after  # ... exactly as the ledger reads them back
        before = after
    assert after.creatures[npc].alive is False and after.creatures[pc].conditions == ("poisoned",)
    assert after.facts[f"{pc}-stable"] is True


def test_changes_that_move_someone_or_something_ask_for_a_read() -> None:
    scene = Scene(campaign_id=1, locations=(), creatures={}, holdings={}, items={}, places={}, exits=())
    assert scene_after(scene, []) == scene
    assert scene_after(scene, [{"kind": "move_entity", "entity": "npc-a", "location": "loc-b"}]) is None
    transfer = {
        "kind": "transfer_item",
        "item": "item-a",
        "from_holder": None,
        "to_holder": "pc-a",
        "quantity": 1,
    }
    assert scene_after(scene, [transfer]) is None
    assert scene_after(scene, [{"kind": "set_edge", "source": "a", "target": "b"}]) is None
