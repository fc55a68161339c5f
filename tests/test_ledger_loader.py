"""Loading a scenario file into the SQL ledger gives the same world as replaying it, in one transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from ledger.errors import InvalidChange
from ledger.scenario.format import Scenario
from ledger.scenario.load import load_scenario_file, load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.scenario.replay import final_world
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"


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


async def _all(session: Any, stmt: Any) -> list[Any]:
    return list((await session.exec(stmt)).all())


async def _state(session: Any, cid: int) -> dict[str, Any]:
    """The ledger's current world in the shape of a scenario WorldView, for comparison."""
    facts = {f.key: f.value for (f,) in await _all(session, select(m.Fact).where(m.Fact.campaign_id == cid))}
    entity_ids = [e for (e,) in await _all(session, select(m.Entity.id).where(m.Entity.campaign_id == cid))]
    return {
        "alive": {e: facts.get(f"{e}-alive") for e in entity_ids},
        "location": {e: facts.get(f"{e}-location") for e in entity_ids},
        "hp": {e: facts.get(f"{e}-hp") for e in entity_ids},
        "holdings": {
            (h.item_id, h.holder_id): h.quantity
            for (h,) in await _all(session, select(m.Holding).where(m.Holding.campaign_id == cid))
            if h.quantity > 0
        },
        "threads": {
            t.id: t.status
            for (t,) in await _all(session, select(m.Thread).where(m.Thread.campaign_id == cid))
        },
        "edges": {
            (e.source_id, e.target_id, e.kind): e.attitude
            for (e,) in await _all(session, select(m.Edge).where(m.Edge.campaign_id == cid))
        },
    }


def _expected(scenario: Scenario) -> dict[str, Any]:
    w = final_world(scenario)
    return {
        "alive": {e.id: e.alive for e in w.entities.values()},
        "location": {e.id: e.location for e in w.entities.values()},
        "hp": {e.id: e.hp for e in w.entities.values()},
        "holdings": {(h.item, h.holder): h.quantity for h in w.holdings if h.quantity > 0},
        "threads": {t.id: t.status for t in w.threads.values()},
        "edges": {(e.source, e.target, e.edge_kind): e.attitude for e in w.edges},
    }


async def test_harbor_loads_as_the_replayed_world(engine: Any, harbor: Scenario) -> None:
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=harbor, guild_id="1", channel_id="2", source="harbor.toml")
    async with ledger_session(engine) as s:
        got = await _state(s, cid)
    want = _expected(harbor)
    for part in ("alive", "location", "hp", "holdings", "threads", "edges"):
        assert got[part] == want[part], part
    # The story beats a GM would check first.
    assert got["alive"]["npc-harlan-voss"] is False
    assert got["threads"]["favor-0003-01"] == "open"
    assert ("item-silver-dagger", "npc-mother-brine") in got["holdings"]
    assert ("item-silver-dagger", "pc-greyrock") not in got["holdings"]
    # The projections are exactly what replaying the event log gives.
    from ledger import service

    async with ledger_session(engine) as s:
        assert await service.projected_state(s, campaign_id=cid) == await service.rebuild_state(
            s, campaign_id=cid
        )


async def test_campaign_settings_provenance_and_placeholders(engine: Any, harbor: Scenario) -> None:
    async with ledger_session(engine) as s:
        # From the file, the cause is named after it.
        cid = await load_scenario_file(s, HARBOR, owner_user_id="99")
    async with ledger_session(engine) as s:
        camp = (await s.exec(select(m.Campaign).where(m.Campaign.id == cid))).scalar_one()
        assert camp.name == "The Saltmere Ledger"
        assert camp.owner_user_id == "99"
        assert camp.settings["current_session"] == 12
        assert camp.settings["starting_location"] == "loc-harbor"
        assert camp.settings["default_action"] == "holds position"
        assert camp.settings["scenario"] == "harbor.toml"
        assert camp.settings["history_events"]["h-voss-killed"].startswith("ev-")
        assert camp.settings["placeholder_owners"]["player:alice"] == ["pc-greyrock"]
        grey = (
            await s.exec(select(m.Entity).where(m.Entity.campaign_id == cid, m.Entity.id == "pc-greyrock"))
        ).scalar_one()
        assert grey.owner_user_id == "player:alice"
        assert grey.sheet is not None and grey.sheet["class"] == "fighter" and grey.sheet["max_hp"] == 44
        causes = {c for (c,) in await _all(s, select(m.Event.cause).where(m.Event.campaign_id == cid))}
        assert causes == {"scenario:harbor.toml"}
        # The death was written in session 7, permanent, witnessed by the party.
        (death,) = [
            e
            for (e,) in await _all(
                s, select(m.Event).where(m.Event.campaign_id == cid, m.Event.kind == "set_alive")
            )
            if e.payload.get("entity") == "npc-harlan-voss"
        ]
        assert (death.session_number, death.round_number, death.permanent) == (7, 6, True)
        witnesses = {
            w
            for (w,) in await _all(
                s, select(m.EventWitness.entity_id).where(m.EventWitness.event_id == death.id)
            )
        }
        assert {"pc-greyrock", "pc-mira"} <= witnesses
        # Mira's discovery stays hers: the fact and its event are player:bob.
        fact = (
            await s.exec(select(m.Fact).where(m.Fact.campaign_id == cid, m.Fact.key == "npc-maren-holt-role"))
        ).scalar_one()
        assert (fact.visibility, fact.session_number) == ("player:bob", 10)
        # The correction targets the ambush's first event, not the history id.
        (corr,) = [
            e
            for (e,) in await _all(
                s, select(m.Event).where(m.Event.campaign_id == cid, m.Event.kind == "correction")
            )
        ]
        assert corr.supersedes is not None and corr.supersedes.startswith("ev-")
        summaries = await _all(s, select(m.Summary).where(m.Summary.campaign_id == cid))
        # Every entry is kept (issue 11): one without changes is a narrative event with its summary.
        assert len(summaries) == len(harbor.history)


async def test_loading_twice_makes_two_independent_campaigns(engine: Any, harbor: Scenario) -> None:
    async with ledger_session(engine) as s:
        first = await load_scenario_into(s, scenario=harbor)
    async with ledger_session(engine) as s:
        second = await load_scenario_into(s, scenario=harbor)
    assert first != second
    from ledger import service

    # Changing one leaves the other alone.
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s,
            campaign_id=first,
            session_number=12,
            round_number=None,
            cause="test",
            mutations=[
                {
                    "kind": "thread_transition",
                    "thread": "favor-0003-01",
                    "status": "settled",
                    "reason": "paid",
                }
            ],
        )
    async with ledger_session(engine) as s:
        a, b = await _state(s, first), await _state(s, second)
        assert a["threads"]["favor-0003-01"] == "settled"
        assert b["threads"]["favor-0003-01"] == "open"
        counts = {
            cid: n
            for cid, n in await _all(
                s, select(m.Event.campaign_id, func.count()).group_by(m.Event.campaign_id)
            )
        }
        assert counts[second] == counts[first] - 1


async def test_a_refused_load_leaves_nothing(
    engine: Any, harbor: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ledger.scenario.load as loader

    real = loader.stage_groups

    async def failing(*args: Any, **kwargs: Any) -> list[list[str]]:
        # Everything is staged (written into the transaction), then refused before the commit.
        await real(*args, **kwargs)
        raise InvalidChange("refused on purpose")

    monkeypatch.setattr(loader, "stage_groups", failing)
    with pytest.raises(InvalidChange, match="refused on purpose"):
        async with ledger_session(engine) as s:
            await load_scenario_into(s, scenario=harbor)
    async with ledger_session(engine) as s:
        for table in (m.Campaign, m.Event, m.Entity, m.Fact, m.Thread):
            assert (await s.exec(select(func.count()).select_from(table))).scalar_one() == 0, table


def test_loader_stages_through_the_public_step_imported_plainly() -> None:
    """Issue 16: the loader looked up a private ``_stage`` under four names through importlib."""
    import inspect

    import ledger.scenario.load
    import ledger.store.writes

    assert ledger.scenario.load.stage_groups is ledger.store.writes.stage_groups
    assert "stage_groups" in ledger.store.writes.__all__
    assert "importlib" not in inspect.getsource(ledger.scenario.load)
    assert not hasattr(ledger.store.writes, "_stage")
