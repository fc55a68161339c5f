"""A round's snapshot reuses the previous snapshot's name index only when the names it is built from are
unchanged (entities, fact tells, thread aliases), and that index is the one a fresh build would give."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from ledger.check.extract.names import name_index
from ledger.check.snapshot import WorldSnapshot
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


async def _snap(engine: Any, cid: int, present: tuple[str, ...] = ("pc-greyrock",)) -> WorldSnapshot:
    async with ledger_session(engine) as s:
        return await snapshot_from_ledger(
            s, campaign_id=cid, audience=Viewer.gm(), location="loc-harbor", present=present
        )


def _fresh(snap: WorldSnapshot) -> WorldSnapshot:
    """The same world with an empty cache (what a first snapshot would build its index from)."""
    return replace(snap, cache={})


async def test_the_name_index_is_handed_on_only_while_the_names_stay_the_same(engine: Any) -> None:
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=load_scenario(HARBOR), source="harbor.toml")
    first = await _snap(engine, cid)
    index = name_index(first)
    # Same names, another scene: the index is handed on, and equals a fresh build.
    second = await _snap(engine, cid, present=("pc-greyrock", "npc-old-wei"))
    assert second.cache.get("names") is index
    assert name_index(_fresh(second)) == index
    # A renamed entity: a new index, built from the new names.
    async with ledger_session(engine) as s:
        await s.exec(update(m.Entity).where(m.Entity.id == "npc-old-wei").values(name="Old Wei the Elder"))  # type: ignore[call-overload,arg-type]
        await s.commit()
    third = await _snap(engine, cid)
    assert "names" not in third.cache
    renamed = name_index(third)
    assert renamed != index and renamed == name_index(_fresh(third))
    assert ("old", "wei", "the", "elder") in renamed.names
    # Unchanged again: handed on from the renamed one.
    fourth = await _snap(engine, cid)
    assert fourth.cache.get("names") is renamed
