"""A large world's rows kept between rounds give the snapshot a fresh read gives (issue 14).

:mod:`ledger.check.world_rows` keeps a large campaign's world rows and reads only what the events since
changed. Every kind of change is applied through the real ledger (SQLite and PostgreSQL), one at a time, and
after each the snapshot built from the kept rows must equal, record for record and in the same order, the
one built from a whole fresh read, for the GM (every record) and the party (hidden ones absent: a fact made
secret must leave the party's kept rows). A change the payload cannot name (a new record, a retcon) reads
the whole world again. A second database whose campaign has the same id never receives the first's rows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import event

from ledger import service
from ledger.check import snapshot_sql, world_rows
from ledger.check.snapshot import WorldSnapshot
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

WORLD: list[dict[str, Any]] = [
    {"kind": "create_location", "id": "loc-quay", "name": "The Quay"},
    {"kind": "create_location", "id": "loc-hill", "name": "Gallows Hill"},
    {"kind": "create_entity", "id": "pc-ada", "entity_kind": "pc", "name": "Ada", "location": "loc-quay",
     "hp": 9},
    {"kind": "create_entity", "id": "npc-bors", "entity_kind": "npc", "name": "Bors", "location": "loc-quay",
     "hp": 7},
    {"kind": "create_entity", "id": "npc-cass", "entity_kind": "npc", "name": "Cass", "location": "loc-hill"},
    {"kind": "create_item", "id": "item-coin", "name": "silver coin", "holder": "pc-ada", "quantity": 5},
    {"kind": "create_item", "id": "item-lamp", "name": "storm lamp", "holder": "npc-bors", "quantity": 1},
    {"kind": "open_thread", "id": "debt-0001-01", "thread_kind": "debt", "terms": "Ada owes Bors 5 silver",
     "parties": ["pc-ada", "npc-bors"]},
    {"kind": "set_edge", "source": "npc-bors", "target": "pc-ada", "edge_kind": "friend", "attitude": 20},
    {"kind": "set_fact", "key": "loc-quay-weather", "value": "a cold fog off the water"},
]  # fmt: skip

# One change at a time, each of a kind the kept rows follow, then kinds that make the world be read again.
CHANGES: list[dict[str, Any]] = [
    {"kind": "set_hp", "entity": "npc-bors", "hp": 2},
    {"kind": "add_condition", "entity": "pc-ada", "condition": "poisoned"},
    {"kind": "move_entity", "entity": "npc-cass", "location": "loc-quay"},
    {"kind": "transfer_item", "item": "item-coin", "from_holder": "pc-ada", "to_holder": "npc-bors",
     "quantity": 2},
    {"kind": "transfer_item", "item": "item-lamp", "from_holder": "npc-bors", "to_holder": "pc-ada"},
    {"kind": "transfer_item", "item": "item-coin", "from_holder": "npc-bors", "quantity": 2},  # spent
    {"kind": "set_edge", "source": "npc-bors", "target": "pc-ada", "edge_kind": "friend", "attitude": -40},
    {"kind": "set_edge", "source": "npc-cass", "target": "pc-ada", "edge_kind": "rival", "attitude": -10},
    {"kind": "thread_transition", "thread": "debt-0001-01", "status": "settled"},
    {"kind": "open_thread", "id": "oath-0002-01", "thread_kind": "oath", "terms": "Cass swears to guard Ada",
     "parties": ["npc-cass", "pc-ada"]},
    {"kind": "set_fact", "key": "loc-quay-weather", "value": "rain"},
    {"kind": "set_fact", "key": "npc-bors-secret", "value": "he sold the lamp's twin", "visibility": "gm"},
    {"kind": "set_fact", "key": "loc-quay-weather", "value": "rain", "visibility": "gm"},  # now hidden
    {"kind": "remove_condition", "entity": "pc-ada", "condition": "poisoned"},
    {"kind": "set_alive", "entity": "npc-bors", "alive": False},
    {"kind": "record_event", "event_kind": "warning", "summary": "Cass warns Ada",
     "participants": ["npc-cass", "pc-ada"]},
    {"kind": "create_entity", "id": "npc-dov", "entity_kind": "npc", "name": "Dov", "location": "loc-hill"},
    {"kind": "set_hp", "entity": "pc-ada", "hp": 4},
]  # fmt: skip


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


@pytest.fixture(autouse=True)
def keep_every_world(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep even this small world (the threshold is about cost, not behaviour); start with nothing kept."""
    monkeypatch.setattr(world_rows, "WARM_AT", 0)
    world_rows.forget()


async def _campaign(eng: Any, channel: int = 2) -> int:
    async with ledger_session(eng) as s:
        c = await service.create_campaign(s, name="Quay", guild_id=1, channel_id=channel, owner_user_id=9)
        await service.apply_changes(
            s, campaign_id=c.id, session_number=1, round_number=None, cause="test", mutations=WORLD
        )
        return c.id


async def _change(eng: Any, cid: int, change: dict[str, Any]) -> None:
    async with ledger_session(eng) as s:
        await service.apply_changes(
            s, campaign_id=cid, session_number=1, round_number=1, cause="test", mutations=[change]
        )


async def _snapshot(eng: Any, cid: int, audience: Viewer) -> WorldSnapshot:
    async with ledger_session(eng) as s:
        return await snapshot_from_ledger(s, campaign_id=cid, audience=audience, location="loc-quay")


def _same(kept: WorldSnapshot, fresh: WorldSnapshot, why: str) -> None:
    assert list(kept.entities.items()) == list(fresh.entities.items()), why
    assert kept.holdings == fresh.holdings and kept.fates == fresh.fates, why
    assert kept.edges == fresh.edges, why
    assert list(kept.threads.items()) == list(fresh.threads.items()), why
    assert list(kept.facts.items()) == list(fresh.facts.items()), why
    assert kept.retcons == fresh.retcons, why


async def _fresh(eng: Any, cid: int, audience: Viewer) -> WorldSnapshot:
    """A whole read, leaving the kept rows and the records built from them as they were."""
    saved, memos = dict(world_rows._KEPT), dict(snapshot_sql._MEMOS)
    world_rows.forget()
    try:
        return await _snapshot(eng, cid, audience)
    finally:
        world_rows._KEPT.clear()
        world_rows._KEPT.update(saved)
        snapshot_sql._MEMOS.clear()
        snapshot_sql._MEMOS.update(memos)


@pytest.mark.parametrize("audience", [Viewer.gm(), Viewer.party()], ids=["gm", "party"])
async def test_kept_rows_follow_every_change_as_a_fresh_read_does(engine: Any, audience: Viewer) -> None:
    cid = await _campaign(engine)
    first = await _snapshot(engine, cid, audience)
    assert (cid, audience) in world_rows._KEPT
    _same(first, await _fresh(engine, cid, audience), "start")
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    before = first
    try:
        for change in CHANGES:
            await _change(engine, cid, change)
            statements.clear()
            kept = await _snapshot(engine, cid, audience)
            if change["kind"] == "set_hp" and change["entity"] == "npc-bors":
                # The records the change did not touch are the very objects of the last snapshot.
                assert kept.entities["pc-ada"] is before.entities["pc-ada"]
                assert kept.entities["item-lamp"] is before.entities["item-lamp"]
                assert kept.entities["npc-bors"] is not before.entities["npc-bors"]
                assert kept.entities["npc-bors"].hp == 2
            before = kept
            selects = [s for s in statements if s.lstrip().upper().startswith(("SELECT", "WITH"))]
            assert len(selects) == (2 if change["kind"] == "create_entity" else 1), change  # again whole
            _same(kept, await _fresh(engine, cid, audience), str(change))
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    # What the changes did is there (a control: the comparison above is not between two stale reads).
    last = await _snapshot(engine, cid, audience)
    assert last.entities["pc-ada"].hp == 4 and not last.entities["npc-bors"].alive
    assert last.threads["debt-0001-01"].status == "settled" and "oath-0002-01" in last.threads
    assert "npc-dov" in last.entities and set(last.holdings["item-coin"]) == {"pc-ada"}
    hidden = {"npc-bors-secret", "loc-quay-weather"}
    if audience == Viewer.party():
        assert not hidden & set(last.facts)
    else:
        assert hidden <= set(last.facts)


async def test_a_retcon_reads_the_world_again(engine: Any) -> None:
    cid = await _campaign(engine)
    await _change(engine, cid, {"kind": "set_hp", "entity": "npc-bors", "hp": 1})
    await _snapshot(engine, cid, Viewer.gm())
    async with ledger_session(engine) as s:
        hp_event = (await service.history(s, campaign_id=cid, viewer=Viewer.gm(), limit=1))[0].ref
    retcon = {"kind": "retcon", "target": hp_event, "reason": "Bors dodged",
              "changes": [{"kind": "set_hp", "entity": "npc-bors", "hp": 7}]}  # fmt: skip
    await _change(engine, cid, retcon)
    kept = await _snapshot(engine, cid, Viewer.gm())
    assert kept.entities["npc-bors"].hp == 7 and kept.retcons
    _same(kept, await _fresh(engine, cid, Viewer.gm()), "retcon")


async def test_another_database_with_the_same_campaign_id_is_not_given_the_kept_rows(
    engine: Any, tmp_path: Any
) -> None:
    cid = await _campaign(engine)
    await _snapshot(engine, cid, Viewer.gm())  # kept for (cid, gm)
    other = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'other.db'}")
    await init_db(other)
    try:
        other_cid = await _campaign(other)
        assert other_cid == cid
        await _change(other, cid, {"kind": "set_hp", "entity": "npc-bors", "hp": 3})
        snap = await _snapshot(other, cid, Viewer.gm())
        assert snap.entities["npc-bors"].hp == 3
        _same(snap, await _fresh(other, cid, Viewer.gm()), "other database")
        mine = await _snapshot(engine, cid, Viewer.gm())
        assert mine.entities["npc-bors"].hp == 7
    finally:
        await other.dispose()
