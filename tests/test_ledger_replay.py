"""Event sourcing: replaying the log always arrives at exactly what the projections hold."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncEngine

from ledger import service
from ledger.errors import LedgerError
from ledger.store.db import create_engine, init_db, ledger_session

ENTITIES = ["pc-a", "pc-b", "npc-c"]
HOLDERS = [*ENTITIES, "loc-x", "loc-y"]
ITEMS = ["item-coin", "item-gem"]
THREADS = ["quest-1", "oath-2"]
VIS = ["public", "party", "player:1", "gm"]

START: list[dict[str, Any]] = [
    {"kind": "create_location", "id": "loc-x", "name": "X"},
    {"kind": "create_location", "id": "loc-y", "name": "Y"},
    *[
        {"kind": "create_entity", "id": e, "entity_kind": "pc", "name": e, "location": "loc-x", "hp": 5}
        for e in ENTITIES
    ],
    {"kind": "create_item", "id": "item-coin", "name": "coin", "holder": "pc-a", "quantity": 5},
    {"kind": "create_item", "id": "item-gem", "name": "gem", "holder": "loc-y", "quantity": 1},
    {"kind": "open_thread", "id": "quest-1", "thread_kind": "quest", "parties": ["pc-a"]},
    {"kind": "open_thread", "id": "oath-2", "thread_kind": "oath", "parties": ["pc-b", "npc-c"]},
]

ent, holder, item, thread, vis = (st.sampled_from(x) for x in (ENTITIES, HOLDERS, ITEMS, THREADS, VIS))
basic = st.one_of(
    st.builds(
        lambda e, a, v: {"kind": "set_alive", "entity": e, "alive": a, "visibility": v},
        ent,
        st.booleans(),
        vis,
    ),
    st.builds(lambda e, h: {"kind": "set_hp", "entity": e, "hp": h}, ent, st.integers(0, 9)),
    st.builds(
        lambda e, loc, v: {"kind": "move_entity", "entity": e, "location": loc, "visibility": v},
        ent,
        st.sampled_from(["loc-x", "loc-y", "loc-z"]),
        vis,
    ),
    st.builds(
        lambda e, c: {"kind": "add_condition", "entity": e, "condition": c},
        ent,
        st.sampled_from(["prone", "hidden"]),
    ),
    st.builds(
        lambda e, c: {"kind": "remove_condition", "entity": e, "condition": c},
        ent,
        st.sampled_from(["prone", "hidden"]),
    ),
    st.builds(
        lambda i, f, t, q, v: {
            "kind": "transfer_item",
            "item": i,
            "from_holder": f,
            "to_holder": t,
            "quantity": q,
            "visibility": v,
        },
        item,
        st.none() | holder,
        st.none() | holder,
        st.integers(1, 4),
        vis,
    ).filter(lambda d: (d["from_holder"] or d["to_holder"]) and d["from_holder"] != d["to_holder"]),
    st.builds(
        lambda s, t, a: {"kind": "set_edge", "source": s, "target": t, "edge_kind": "ally", "attitude": a},
        ent,
        ent,
        st.integers(-100, 100),
    ),
    st.builds(
        lambda t, s: {"kind": "thread_transition", "thread": t, "status": s},
        thread,
        st.sampled_from(["settled", "expired", "broken", "open"]),
    ),
    st.builds(
        lambda k, v: {"kind": "set_fact", "key": k, "value": v},
        st.sampled_from(["pc-a-alive", "loc-x-gate-open", "npc-c-hp", "world-weather"]),
        st.booleans() | st.integers(0, 3),
    ),
)
change = st.one_of(
    basic,
    st.builds(
        lambda cs: {"kind": "retcon", "target": "ev-000001", "reason": "gm", "changes": cs},
        st.lists(basic, max_size=2),
    ),
)
batches = st.lists(st.lists(change, min_size=1, max_size=4), min_size=1, max_size=4)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=batches)
async def test_ledger_replay_matches_projections(
    engine: AsyncEngine, plan: list[list[dict[str, Any]]]
) -> None:
    async with ledger_session(engine) as s:
        cid = (await service.create_campaign(s, name="replay")).id
        await service.apply_changes(
            s, campaign_id=cid, session_number=1, round_number=None, cause="start", mutations=START
        )
        for n, batch in enumerate(plan, start=1):
            before = await service.projected_state(s, campaign_id=cid)
            try:
                await service.apply_changes(
                    s, campaign_id=cid, session_number=1, round_number=n, cause=f"round-{n}", mutations=batch
                )
            except LedgerError:
                assert await service.projected_state(s, campaign_id=cid) == before
        assert await service.rebuild_state(s, campaign_id=cid) == await service.projected_state(
            s, campaign_id=cid
        )
