"""The write path in bulk (issues 12 and 14): lookups prefetched per table, groups that land or fail alone,
the transaction's memory of its campaign lock, and upserted projections that still replay from the log.

Statements are counted with a ``before_cursor_execute`` listener on the engine: what is asserted is how many
SELECTs a change list costs (a behaviour of the write path), never how long it takes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select

from ledger import service
from ledger.errors import InvalidChange, LedgerError, NotEnoughHeld, UnknownRecord
from ledger.store import models as m
from ledger.store.db import begin_write, create_engine, init_db, ledger_session
from ledger.store.prefetch import Needs
from ledger.store.sqldraft import SqlDraft
from ledger.store.visibility import Viewer
from ledger.store.writes import ChangeGroup, lock_campaign, stage_changes, stage_each, stage_groups

GM = Viewer.gm()
NPCS = [f"npc-sailor-{n}" for n in range(8)]

WORLD: list[dict[str, Any]] = [
    {"kind": "create_location", "id": "loc-quay", "name": "The Quay"},
    {"kind": "create_location", "id": "loc-cellar", "name": "Cellar", "visibility": "gm"},
    {
        "kind": "create_entity",
        "id": "pc-ada",
        "entity_kind": "pc",
        "name": "Ada",
        "location": "loc-quay",
        "hp": 9,
    },
    *[
        {
            "kind": "create_entity",
            "id": npc,
            "entity_kind": "npc",
            "name": f"Sailor {n}",
            "location": "loc-quay",
        }
        for n, npc in enumerate(NPCS)
    ],
    {"kind": "create_item", "id": "item-rope", "name": "rope", "holder": "pc-ada", "quantity": 3},
    {"kind": "open_thread", "id": "rumour-0001-01", "thread_kind": "rumour", "terms": "A ship is late"},
]


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


async def _campaign(eng: AsyncEngine) -> int:
    async with ledger_session(eng) as s:
        c = await service.create_campaign(s, name="Quay", guild_id=1, channel_id=2, owner_user_id=9)
        await service.apply_changes(
            s, campaign_id=c.id, session_number=1, round_number=None, cause="scenario", mutations=WORLD
        )
        return c.id


@contextmanager
def statements(eng: AsyncEngine) -> Iterator[list[str]]:
    """Every SQL statement the engine sends while the block runs, in order."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(eng.sync_engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(eng.sync_engine, "before_cursor_execute", count)


async def test_a_change_list_touching_many_ids_costs_one_lookup_per_table(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    changes: list[dict[str, Any]] = [
        *[{"kind": "set_hp", "entity": npc, "hp": 3} for npc in NPCS],
        *[{"kind": "set_fact", "key": f"{npc}-mood-today", "value": "grim"} for npc in NPCS],
        {
            "kind": "transfer_item",
            "item": "item-rope",
            "from_holder": "pc-ada",
            "to_holder": NPCS[0],
            "quantity": 2,
        },
        {"kind": "remove_condition", "entity": "pc-ada", "condition": "prone"},
    ]
    async with ledger_session(engine) as s:
        refusal = "change 18 \\(remove_condition\\): pc-ada is not prone"
        with statements(engine) as seen, pytest.raises(InvalidChange, match=refusal):
            await service.apply_changes(
                s, campaign_id=cid, session_number=1, round_number=1, cause="round-1", mutations=changes
            )
    selects = [x for x in seen if x.startswith("SELECT")]
    # ONE statement for every record and holding asked about (18 ids, each fact key's prefixes, two
    # holdings) and one for the condition's fact; asked one by one, it was dozens.
    assert len(selects) == 2, selects
    writes = [x for x in seen if x.startswith(("INSERT", "UPDATE", "DELETE"))]
    # refused: nothing written but the campaign's lock, its numbers drawn and given back
    assert len(writes) == 2 and all(x.startswith("UPDATE campaign SET event_seq") for x in writes), writes
    assert await _event_seq(engine, cid) == len(WORLD)

    async with ledger_session(engine) as s:
        with statements(engine) as seen:
            refs = await service.apply_changes(
                s, campaign_id=cid, session_number=1, round_number=1, cause="round-1", mutations=changes[:-1]
            )
        assert len(refs) == 17
        # the lock draws the numbers (an UPDATE ... RETURNING), one lookup, and the events come back from
        # their insert: no read of the new event rows, no SELECT but the lookup
        assert [x for x in seen if x.startswith("SELECT")] == [x for x in seen if "AS part" in x], seen
        assert len([x for x in seen if x.startswith("SELECT")]) == 1, seen
        assert len([x for x in seen if not x.startswith(("BEGIN", "COMMIT"))]) <= 6, seen
        sailor = await service.get_entity(s, campaign_id=cid, entity_id=NPCS[5], viewer=GM)
        assert sailor.hp == 3
        # the key's subject is its longest prefix that is a record (every prefix was asked in one go)
        facts = await service.facts(s, campaign_id=cid, viewer=GM, subject=NPCS[5])
        assert {(f.key, f.field, f.value) for f in facts} >= {(f"{NPCS[5]}-mood-today", "mood-today", "grim")}
        held = await service.inventory(s, campaign_id=cid, holder_id=NPCS[0], viewer=GM)
        assert [(h.item_id, h.quantity) for h in held] == [("item-rope", 2)]


async def test_every_kind_of_change_is_looked_up_before_it_is_checked(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the changes name is asked once per table up front; checking them asks SQL nothing more."""
    cid = await _campaign(engine)
    late: list[Needs] = []  # lookups the draft had to make itself: what the prefetch missed
    ask = SqlDraft._ask

    async def asked_late(self: SqlDraft, needs: Needs) -> None:
        late.append(needs)
        await ask(self, needs)

    monkeypatch.setattr(SqlDraft, "_ask", asked_late)
    changes: list[dict[str, Any]] = [
        {"kind": "create_location", "id": "loc-pier", "name": "Pier"},
        {
            "kind": "create_entity",
            "id": "npc-tam",
            "entity_kind": "npc",
            "name": "Tam",
            "location": "loc-pier",
        },
        {"kind": "create_item", "id": "item-net", "name": "net", "holder": "npc-tam"},
        {"kind": "move_entity", "entity": "pc-ada", "location": "loc-cellar", "visibility": "gm"},
        {"kind": "set_alive", "entity": NPCS[1], "alive": False, "witnesses": [NPCS[2]]},
        {"kind": "add_condition", "entity": "pc-ada", "condition": "prone"},
        {"kind": "set_edge", "source": NPCS[2], "target": "pc-ada", "edge_kind": "regard", "attitude": 9},
        {"kind": "open_thread", "id": "quest-0001-01", "thread_kind": "quest", "parties": ["pc-ada"]},
        {"kind": "thread_transition", "thread": "rumour-0001-01", "status": "settled"},
        {
            "kind": "record_event",
            "event_kind": "meeting",
            "summary": "Ada meets Tam on the pier.",
            "participants": ["pc-ada", "npc-tam"],
            "place": "loc-pier",
            "thread": "quest-0001-01",
        },
        {
            "kind": "correction",
            "target": "pc-ada-hp",
            "reason": "misread",
            "changes": [{"kind": "set_hp", "entity": "pc-ada", "hp": 8}],
        },
        {
            "kind": "retcon",
            "target": "ev-000001",
            "reason": "it was a wharf",
            "changes": [{"kind": "set_fact", "key": "loc-quay-smell", "value": "tar"}],
        },
    ]
    async with ledger_session(engine) as s:
        with statements(engine) as seen:
            refs = await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=1,
                cause="r",
                mutations=changes,
                witnesses=["pc-ada"],
            )
        assert len(refs) == len(changes)
        assert late == []
        selects = [x for x in seen if x.startswith("SELECT")]
        tables = sorted(x.split(" FROM ")[1].split()[0] for x in selects)
        # records and holdings (one UNION), facts, threads, edges, events: one statement each
        assert tables == ["edge", "entity", "event", "fact", "thread"], selects
        assert await service.projected_state(s, campaign_id=cid) == await service.rebuild_state(
            s, campaign_id=cid
        )


async def test_prefetched_lookups_keep_the_refusals_and_visibility_rules(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    cases: list[tuple[dict[str, Any], type[LedgerError], str]] = [
        ({"kind": "set_hp", "entity": "loc-quay", "hp": 1}, UnknownRecord, "no entity called 'loc-quay'"),
        (
            {"kind": "move_entity", "entity": "pc-ada", "location": "npc-sailor-1"},
            UnknownRecord,
            "no location",
        ),
        (
            {"kind": "transfer_item", "item": "item-rope", "from_holder": "pc-ada", "quantity": 4},
            NotEnoughHeld,
            "pc-ada holds 3 of item-rope, not the 4",
        ),
        (
            {"kind": "record_event", "event_kind": "meeting", "summary": "x", "place": "loc-cellar"},
            InvalidChange,
            "place 'loc-cellar' is gm: an event seen as public may not name it",
        ),
        ({"kind": "retcon", "target": "ev-009999", "reason": "no", "changes": []}, UnknownRecord, "no event"),
    ]
    for change, error, message in cases:
        async with ledger_session(engine) as s:
            with pytest.raises(error, match=message.replace("(", "\\(")):
                await service.apply_changes(
                    s, campaign_id=cid, session_number=1, round_number=1, cause="r", mutations=[change]
                )


async def test_stage_each_refuses_one_group_and_lands_the_rest_in_order(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)

    def group(*changes: dict[str, Any]) -> ChangeGroup:
        return ChangeGroup(session_number=1, round_number=2, mutations=list(changes))

    first = group({"kind": "create_entity", "id": "npc-tam", "entity_kind": "npc", "name": "Tam"})
    clash = group(
        {"kind": "set_hp", "entity": "pc-ada", "hp": 2},
        {"kind": "create_entity", "id": "npc-tam", "entity_kind": "npc", "name": "Tam again"},
    )
    after = group({"kind": "move_entity", "entity": "npc-tam", "location": "loc-quay"})  # needs the first
    bad_shape = group({"kind": "set_hp", "entity": "pc-ada"})
    async with ledger_session(engine) as s:
        await begin_write(s)
        with statements(engine) as seen:
            outcome = await stage_each(
                s, campaign_id=cid, cause="narration-1.2", groups=[first, clash, after, bad_shape]
            )
        await s.commit()
    assert not [x for x in seen if "SAVEPOINT" in x]
    last = (await _event_seq(engine, cid)) - 2
    assert outcome[0] == [f"ev-{last + 1:06d}"] and outcome[2] == [f"ev-{last + 2:06d}"]
    assert isinstance(outcome[1], LedgerError) and isinstance(outcome[3], InvalidChange)
    # the refusal is the one the group alone would get
    async with ledger_session(engine) as s:
        await begin_write(s)
        with pytest.raises(type(outcome[1])) as alone:
            await stage_groups(s, campaign_id=cid, cause="x", groups=[clash])
        await s.rollback()
    assert str(outcome[1]) == str(alone.value) and "change 2 (create_entity)" in str(outcome[1])
    async with ledger_session(engine) as s:
        ada = await service.get_entity(s, campaign_id=cid, entity_id="pc-ada", viewer=GM)
        assert ada.hp == 9  # the refused group left no trace, not even its valid first change
        tam = await service.get_entity(s, campaign_id=cid, entity_id="npc-tam", viewer=GM)
        assert (tam.name, tam.location) == ("Tam", "loc-quay")
        assert await service.projected_state(s, campaign_id=cid) == await service.rebuild_state(
            s, campaign_id=cid
        )


async def _event_seq(eng: AsyncEngine, cid: int) -> int:
    async with ledger_session(eng) as s:
        seq = (await s.exec(select(m.Campaign.event_seq).where(m.Campaign.id == cid))).first()
        assert seq is not None
        return int(seq)


async def test_a_second_lock_in_one_transaction_is_remembered_until_a_savepoint_rolls_back(
    engine: AsyncEngine,
) -> None:
    cid = await _campaign(engine)
    start = await _event_seq(engine, cid)
    set_hp = [{"kind": "set_hp", "entity": "pc-ada", "hp": 4}]
    kw: dict[str, Any] = {
        "campaign_id": cid,
        "session_number": 1,
        "round_number": None,
        "cause": "t",
        "importance": 5,
        "permanent": False,
        "witnesses": (),
        "round_state": None,
        "resolution": None,
    }
    async with ledger_session(engine) as s:
        await begin_write(s)
        with statements(engine) as seen:
            assert await lock_campaign(s, cid) == start
            assert await lock_campaign(s, cid) == start
        assert len([x for x in seen if "FROM campaign" in x]) == 1, seen
        refs = await stage_changes(s, mutations=set_hp, **kw)
        assert refs == [f"ev-{start + 1:06d}"]
        assert await lock_campaign(s, cid) == start + 1  # remembered with the new number
        nested = await s.begin_nested()
        await stage_changes(s, mutations=set_hp, **kw)
        await nested.rollback()
        # the savepoint's event is gone, and so is the memory of it: the number is read again
        with statements(engine) as seen:
            assert await lock_campaign(s, cid) == start + 1
        assert len([x for x in seen if "FROM campaign" in x]) == 1, seen
        refs = await stage_changes(s, mutations=set_hp, **kw)
        assert refs == [f"ev-{start + 2:06d}"]
        await s.commit()
    async with ledger_session(engine) as s:
        # a new transaction reads the lock again (another writer may have moved the number meanwhile)
        with statements(engine) as seen:
            await begin_write(s)
            assert await lock_campaign(s, cid) == start + 2
        assert len([x for x in seen if "FROM campaign" in x]) == 1, seen
        await s.rollback()
        events = await service.history(s, campaign_id=cid, viewer=GM, limit=5)
        assert sorted(e.seq for e in events)[-2:] == [start + 1, start + 2]
    assert await _event_seq(engine, cid) == start + 2


async def test_upserted_projections_match_the_replayed_log(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    rounds: list[list[dict[str, Any]]] = [
        [
            {"kind": "add_condition", "entity": "pc-ada", "condition": "prone"},
            {
                "kind": "set_edge",
                "source": NPCS[1],
                "target": "pc-ada",
                "edge_kind": "regard",
                "attitude": 5,
                "reason": "a",
            },
            {
                "kind": "transfer_item",
                "item": "item-rope",
                "from_holder": "pc-ada",
                "to_holder": NPCS[1],
                "quantity": 1,
            },
        ],
        [
            {"kind": "remove_condition", "entity": "pc-ada", "condition": "prone"},
            {
                "kind": "set_edge",
                "source": NPCS[1],
                "target": "pc-ada",
                "edge_kind": "regard",
                "attitude": -5,
                "reason": "b",
            },
            {
                "kind": "transfer_item",
                "item": "item-rope",
                "from_holder": "pc-ada",
                "to_holder": NPCS[1],
                "quantity": 2,
            },
            {"kind": "set_hp", "entity": "pc-ada", "hp": 1},
        ],
    ]
    for n, changes in enumerate(rounds, start=1):
        async with ledger_session(engine) as s:
            await service.apply_changes(
                s, campaign_id=cid, session_number=1, round_number=n, cause=f"r{n}", mutations=changes
            )
    async with ledger_session(engine) as s:
        projected = await service.projected_state(s, campaign_id=cid)
        assert projected == await service.rebuild_state(s, campaign_id=cid)
        assert "pc-ada-condition-prone" not in projected.facts
        assert projected.facts["pc-ada-hp"][0] == 1
        assert projected.edges[f"{NPCS[1]}>pc-ada:regard"] == -5
        assert (
            "item-rope@pc-ada" not in projected.holdings and projected.holdings[f"item-rope@{NPCS[1]}"] == 3
        )
