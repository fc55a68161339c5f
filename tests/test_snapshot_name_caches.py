"""A round's snapshot reuses the previous one's name caches while no name changed (issue 14).

The checker's name matcher and the items' looks are built from names, aliases, kinds, pronouns and
descriptions only. A fight changes hit points, conditions, places and lives every round; those must not
throw the caches away (a campaign of thousands of entities rebuilt its matcher, ~0.8 s, every round). A new
or renamed entity must: the new name has to be found in the next narration. Real ledger, both backends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from ledger import service
from ledger.check.extract import name_index
from ledger.check.extract.item_descriptions import looks
from ledger.check.judge import check
from ledger.check.snapshot import WorldSnapshot
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

WORLD: list[dict[str, Any]] = [
    {"kind": "create_location", "id": "loc-quay", "name": "The Quay"},
    {"kind": "create_location", "id": "loc-hill", "name": "Gallows Hill"},
    {
        "kind": "create_entity",
        "id": "pc-ada",
        "entity_kind": "pc",
        "name": "Ada",
        "location": "loc-quay",
        "hp": 9,
    },
    {
        "kind": "create_entity",
        "id": "npc-bors",
        "entity_kind": "npc",
        "name": "Bors Tanner",
        "location": "loc-quay",
    },
    {
        "kind": "create_item",
        "id": "item-lamp",
        "name": "storm lamp",
        "holder": "pc-ada",
        "quantity": 1,
        "description": "A brass storm lamp with a cracked green shade.",
    },
]


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


async def _change(eng: Any, cid: int, mutations: list[dict[str, Any]]) -> None:
    async with ledger_session(eng) as s:
        await service.apply_changes(
            s, campaign_id=cid, session_number=1, round_number=None, cause="test", mutations=mutations
        )


async def _snapshot(eng: Any, cid: int) -> WorldSnapshot:
    async with ledger_session(eng) as s:
        snap = await snapshot_from_ledger(
            s, campaign_id=cid, audience=Viewer.party(), location="loc-quay", present=["pc-ada", "npc-bors"]
        )
    name_index(snap)  # built by the first check of a round
    looks(snap)
    return snap


async def test_a_fight_keeps_the_name_caches_and_a_new_name_rebuilds_them(engine: Any) -> None:
    async with ledger_session(engine) as s:
        c = await service.create_campaign(s, name="Quay", guild_id=1, channel_id=2, owner_user_id=9)
        cid = c.id
    await _change(engine, cid, WORLD)
    first = await _snapshot(engine, cid)

    # A round of a fight: hit points, a condition, a death, a move. Names are as they were.
    await _change(
        engine,
        cid,
        [
            {"kind": "set_hp", "entity": "pc-ada", "hp": 3},
            {"kind": "add_condition", "entity": "pc-ada", "condition": "poisoned"},
            {"kind": "set_alive", "entity": "npc-bors", "alive": False},
        ],
    )
    second = await _snapshot(engine, cid)
    assert second.entities["pc-ada"].hp == 3 and not second.entities["npc-bors"].alive
    assert second.cache["names"] is first.cache["names"]
    assert second.cache["item-looks"] is first.cache["item-looks"]
    # The kept matcher still judges against this round's records: the dead man may not speak.
    report = check('Bors Tanner wipes his hands. "Fair wind," he says.', second)
    assert report.verdict == "conflict"
    assert any(v.refuted_by == "npc-bors-alive" for v in report.conflicts())

    # Someone new walks in: the matcher is rebuilt and knows the new name.
    await _change(
        engine,
        cid,
        [
            {
                "kind": "create_entity",
                "id": "npc-cass",
                "entity_kind": "npc",
                "name": "Cass Mirren",
                "location": "loc-hill",
            }
        ],
    )
    third = await _snapshot(engine, cid)
    assert third.cache["names"] is not second.cache["names"]
    report = check("Cass Mirren leans on the quay rail and laughs.", third)
    assert any(v.refuted_by == "npc-cass-location" for v in report.conflicts())
