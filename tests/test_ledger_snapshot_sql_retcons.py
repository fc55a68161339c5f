"""The SQL snapshot's retcons (read in the world statement) agree with the scenario file's, per audience."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from ledger.check.snapshot import snapshot_from_world
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.scenario.replay import final_world
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

CRYPT = Path(__file__).resolve().parents[1] / "scenarios" / "crypt.toml"


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


@pytest.mark.parametrize("viewer", [Viewer.gm(), Viewer.party()], ids=["gm", "party"])
async def test_retcons_from_sql_agree_with_the_scenario_file(engine: Any, viewer: Viewer) -> None:
    scenario = load_scenario(CRYPT)
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=scenario, source="crypt.toml")
    async with ledger_session(engine) as s:
        got = await snapshot_from_ledger(s, campaign_id=cid, audience=viewer)
    want = snapshot_from_world(final_world(scenario, viewer.role), scenario=scenario)
    assert want.retcons, "the crypt scenario logs a retcon"
    assert sorted(got.retcons, key=lambda r: r.id) == sorted(want.retcons, key=lambda r: r.id)
    assert got.superseded == want.superseded
