"""Applying changes: one transaction, validated first, event-sourced, with retcons and corrections."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from ledger import service
from ledger.errors import (
    DuplicateRecord,
    IllegalThreadTransition,
    InvalidChange,
    LedgerError,
    NotEnoughHeld,
    UnknownRecord,
)
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

GM = Viewer.gm()

HARBOR: list[dict[str, Any]] = [
    {"kind": "create_location", "id": "loc-harbor", "name": "The Harbor"},
    {"kind": "create_location", "id": "loc-back-room", "name": "Back Room", "aliases": ["the back room"]},
    {
        "kind": "create_entity",
        "id": "pc-mira",
        "entity_kind": "pc",
        "name": "Mira",
        "owner": "111",
        "location": "loc-harbor",
        "hp": 12,
    },
    {
        "kind": "create_entity",
        "id": "pc-bram",
        "entity_kind": "pc",
        "name": "Bram",
        "owner": "222",
        "location": "loc-harbor",
        "hp": 15,
    },
    {
        "kind": "create_entity",
        "id": "npc-old-wei",
        "entity_kind": "npc",
        "name": "Old Wei",
        "aliases": ["Wei"],
        "location": "loc-harbor",
        "hp": 4,
    },
    {
        "kind": "create_item",
        "id": "item-gold",
        "name": "gold piece",
        "aliases": ["gp"],
        "holder": "pc-mira",
        "quantity": 10,
    },
    {"kind": "create_item", "id": "item-silver-dagger", "name": "silver dagger", "holder": "npc-old-wei"},
    {
        "kind": "open_thread",
        "id": "bounty-0001-01",
        "thread_kind": "bounty",
        "terms": "Bring in the smuggler",
        "parties": ["pc-mira"],
        "expires_session": 3,
    },
    {
        "kind": "open_thread",
        "id": "oath-0001-02",
        "thread_kind": "oath",
        "terms": "Protect Wei",
        "parties": ["pc-bram", "npc-old-wei"],
    },
]


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


async def _campaign(eng: AsyncEngine, name: str = "Harbor Nights") -> int:
    async with ledger_session(eng) as s:
        c = await service.create_campaign(s, name=name, guild_id=1, channel_id=2, owner_user_id=999)
        await service.apply_changes(
            s, campaign_id=c.id, session_number=1, round_number=None, cause="scenario", mutations=HARBOR
        )
        return c.id


async def test_ledger_applies_a_round_and_state_follows(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        refs = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=1,
            cause="round-1",
            mutations=[
                {
                    "kind": "transfer_item",
                    "item": "item-gold",
                    "from_holder": "pc-mira",
                    "to_holder": "npc-old-wei",
                    "quantity": 3,
                    "cause": "round-1#1",
                },
                {"kind": "set_hp", "entity": "npc-old-wei", "hp": 0, "cause": "round-1#2"},
                {"kind": "set_alive", "entity": "npc-old-wei", "alive": False, "cause": "round-1#2"},
                {"kind": "move_entity", "entity": "pc-bram", "location": "loc-back-room"},
                {"kind": "add_condition", "entity": "pc-bram", "condition": "poisoned"},
                {
                    "kind": "set_edge",
                    "source": "pc-bram",
                    "target": "pc-mira",
                    "edge_kind": "ally",
                    "attitude": 40,
                    "reason": "shared a drink",
                },
            ],
        )
        assert refs == [f"ev-{n:06d}" for n in range(10, 16)]
        wei = await service.get_entity(s, campaign_id=cid, entity_id="npc-old-wei", viewer=GM)
        assert (wei.alive, wei.hp, wei.location) == (False, 0, "loc-harbor")
        bram = await service.get_entity(s, campaign_id=cid, entity_id="pc-bram", viewer=GM)
        assert bram.location == "loc-back-room" and bram.conditions == ("poisoned",)
        purse = await service.inventory(s, campaign_id=cid, holder_id="pc-mira", viewer=GM)
        assert [(h.item_id, h.quantity) for h in purse] == [("item-gold", 7)]
        wei_has = await service.inventory(s, campaign_id=cid, holder_id="npc-old-wei", viewer=GM)
        assert {h.item_id: h.quantity for h in wei_has} == {"item-gold": 3, "item-silver-dagger": 1}
        here = await service.entities_at(s, campaign_id=cid, location_id="loc-harbor", viewer=GM)
        assert [e.id for e in here] == ["npc-old-wei", "pc-mira"]
        alive_here = await service.entities_at(
            s, campaign_id=cid, location_id="loc-harbor", viewer=GM, alive_only=True
        )
        assert [e.id for e in alive_here] == ["pc-mira"]
        # The record of Wei's death leads back to the roll behind it.
        rec = await service.record(s, campaign_id=cid, ref="npc-old-wei-alive", viewer=GM)
        assert rec.cause_chain[0].ref == "ev-000012" and rec.root_cause == "round-1#2"
        rels = await service.relationships(s, campaign_id=cid, entity_id="pc-mira", viewer=GM)
        assert [(r.source, r.kind, r.attitude) for r in rels] == [("pc-bram", "ally", 40)]
        assert await service.rebuild_state(s, campaign_id=cid) == await service.projected_state(
            s, campaign_id=cid
        )


@pytest.mark.parametrize(
    ("bad", "error", "words"),
    [
        (
            {
                "kind": "transfer_item",
                "item": "item-gold",
                "from_holder": "pc-mira",
                "to_holder": "pc-bram",
                "quantity": 11,
            },
            NotEnoughHeld,
            "holds 9",
        ),
        (
            {"kind": "move_entity", "entity": "npc-ghost", "location": "loc-harbor"},
            UnknownRecord,
            "npc-ghost",
        ),
        (
            {"kind": "transfer_item", "item": "item-crown", "to_holder": "pc-bram"},
            UnknownRecord,
            "item-crown",
        ),
        (
            {"kind": "create_entity", "id": "pc-mira", "entity_kind": "pc", "name": "Mira II"},
            DuplicateRecord,
            "already exists",
        ),
        ({"kind": "remove_condition", "entity": "pc-mira", "condition": "prone"}, InvalidChange, "not prone"),
        ({"kind": "set_hp", "entity": "pc-mira", "hp": -3}, InvalidChange, "hp"),
        (
            {"kind": "thread_transition", "thread": "oath-0001-02", "status": "open"},
            IllegalThreadTransition,
            "only a retcon",
        ),
    ],
)
async def test_ledger_refused_batch_leaves_no_trace(
    engine: AsyncEngine, bad: dict[str, Any], error: type[LedgerError], words: str
) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        before = await service.projected_state(s, campaign_id=cid)
        events_before = await service.history(s, campaign_id=cid, viewer=GM, limit=100)
        with pytest.raises(error) as caught:
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=2,
                cause="round-2",
                mutations=[
                    {"kind": "set_hp", "entity": "pc-bram", "hp": 1},
                    {
                        "kind": "transfer_item",
                        "item": "item-gold",
                        "from_holder": "pc-mira",
                        "to_holder": "pc-bram",
                    },
                    bad,
                ],
            )
        message = str(caught.value)
        assert words in message and "\n" not in message and message.startswith("change 3")
    async with ledger_session(engine) as s:
        assert await service.projected_state(s, campaign_id=cid) == before
        assert len(await service.history(s, campaign_id=cid, viewer=GM, limit=100)) == len(events_before)
        # Event numbering has no gap after a refusal.
        (ref,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=2,
            cause="round-2",
            mutations=[{"kind": "set_hp", "entity": "pc-bram", "hp": 2}],
        )
        assert ref == "ev-000010"


async def test_ledger_batch_sees_its_own_earlier_changes(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=None,
            cause="round-1",
            mutations=[
                {
                    "kind": "create_item",
                    "id": "item-rope",
                    "name": "rope",
                    "holder": "pc-bram",
                    "quantity": 1,
                },
                {
                    "kind": "transfer_item",
                    "item": "item-rope",
                    "from_holder": "pc-bram",
                    "to_holder": "pc-mira",
                },
                {"kind": "transfer_item", "item": "item-rope", "from_holder": "pc-mira"},
            ],
        )
        assert await service.holders_of(s, campaign_id=cid, item_id="item-rope", viewer=GM) == []
        with pytest.raises(NotEnoughHeld):
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=None,
                cause="round-2",
                mutations=[
                    {
                        "kind": "transfer_item",
                        "item": "item-silver-dagger",
                        "from_holder": "npc-old-wei",
                        "to_holder": "pc-mira",
                    },
                    {
                        "kind": "transfer_item",
                        "item": "item-silver-dagger",
                        "from_holder": "npc-old-wei",
                        "to_holder": "pc-bram",
                    },
                ],
            )


async def test_ledger_thread_finality_and_retcon(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        (expired,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=3,
            round_number=None,
            cause="session-end",
            mutations=[{"kind": "thread_transition", "thread": "bounty-0001-01", "status": "expired"}],
        )
        (broken,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=3,
            round_number=None,
            cause="round-4#1",
            mutations=[{"kind": "thread_transition", "thread": "oath-0001-02", "status": "broken"}],
        )
        with pytest.raises(IllegalThreadTransition, match="expired"):
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=3,
                round_number=None,
                cause="round-5#1",
                mutations=[{"kind": "thread_transition", "thread": "bounty-0001-01", "status": "settled"}],
            )
        with pytest.raises(IllegalThreadTransition):
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=3,
                round_number=None,
                cause="round-5#1",
                mutations=[{"kind": "thread_transition", "thread": "oath-0001-02", "status": "open"}],
            )
        (retcon,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=3,
            round_number=None,
            cause="gm",
            mutations=[
                {
                    "kind": "retcon",
                    "target": broken,
                    "reason": "Bram never left Wei's side",
                    "changes": [{"kind": "thread_transition", "thread": "oath-0001-02", "status": "open"}],
                }
            ],
        )
        (oath,) = await service.threads(s, campaign_id=cid, viewer=GM, parties=["pc-bram"])
        assert oath.status == "open" and oath.cause == retcon
        events = await service.history(s, campaign_id=cid, viewer=GM, limit=3)
        assert [e.ref for e in events] == [retcon, broken, expired]
        assert events[0].supersedes == broken and events[1].superseded_by == (retcon,)
        open_ones = await service.threads(s, campaign_id=cid, viewer=GM, status="open")
        assert [t.id for t in open_ones] == ["oath-0001-02"]
        with pytest.raises(UnknownRecord):
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=3,
                round_number=None,
                cause="gm",
                mutations=[{"kind": "retcon", "target": "ev-999999", "reason": "nope"}],
            )
        assert await service.rebuild_state(s, campaign_id=cid) == await service.projected_state(
            s, campaign_id=cid
        )


async def test_ledger_two_campaigns_share_ids_but_not_state(engine: AsyncEngine) -> None:
    first = await _campaign(engine, "one")
    second = await _campaign(engine, "two")
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s,
            campaign_id=first,
            session_number=1,
            round_number=None,
            cause="x",
            mutations=[{"kind": "set_alive", "entity": "npc-old-wei", "alive": False}],
        )
        one = await service.get_entity(s, campaign_id=first, entity_id="npc-old-wei", viewer=GM)
        two = await service.get_entity(s, campaign_id=second, entity_id="npc-old-wei", viewer=GM)
        assert (one.alive, two.alive) == (False, True)
        (found,) = await service.find_records(s, campaign_id=second, text="WEI", viewer=GM)
        assert found.ref == "npc-old-wei" and found.name == "Old Wei"


async def test_ledger_find_by_name_alias_and_prefix(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        wei = await service.find_entity(s, campaign_id=cid, name="old wei", viewer=GM)
        assert wei is not None and wei.id == "npc-old-wei"
        assert await service.find_entity(s, campaign_id=cid, name="Nobody", viewer=GM) is None
        hits = await service.find_records(s, campaign_id=cid, text="go", viewer=GM, prefix=True)
        assert [h.ref for h in hits] == ["item-gold"]
        assert await service.find_records(s, campaign_id=cid, text="%", viewer=GM, prefix=True) == []


async def test_ledger_set_fact_lands_on_entity_state(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=None,
            cause="scenario",
            mutations=[
                {"kind": "set_fact", "key": "npc-old-wei-alive", "value": False},
                {"kind": "set_fact", "key": "loc-harbor-gate-open", "value": True},
            ],
        )
        wei = await service.get_entity(s, campaign_id=cid, entity_id="npc-old-wei", viewer=GM)
        assert wei.alive is False
        (gate,) = await service.facts(s, campaign_id=cid, viewer=GM, keys=["loc-harbor-gate-open"])
        assert (gate.subject, gate.field, gate.value) == ("loc-harbor", "gate-open", True)
        with pytest.raises(InvalidChange):
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=None,
                cause="x",
                mutations=[{"kind": "set_fact", "key": "npc-old-wei-hp", "value": "lots"}],
            )


async def test_ledger_bad_input_is_one_line(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        with pytest.raises(InvalidChange) as caught:
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=None,
                cause="x",
                mutations=[
                    {
                        "kind": "set_edge",
                        "source": "pc-mira",
                        "target": "pc-bram",
                        "edge_kind": "ally",
                        "attitude": 500,
                    }
                ],
            )
        assert "attitude" in str(caught.value) and "\n" not in str(caught.value)
        with pytest.raises(LedgerError, match="no campaign"):
            await service.apply_changes(
                s, campaign_id=cid + 100, session_number=1, round_number=None, cause="x", mutations=[]
            )


async def test_ledger_expire_due_threads_at_a_new_session(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        assert await service.expire_due_threads(s, campaign_id=cid, session_number=3) == []
        (ref,) = await service.expire_due_threads(s, campaign_id=cid, session_number=4)
        statuses = {t.id: t.status for t in await service.threads(s, campaign_id=cid, viewer=GM)}
        assert statuses == {"bounty-0001-01": "expired", "oath-0001-02": "open"}
        rec = await service.record(s, campaign_id=cid, ref="bounty-0001-01", viewer=GM)
        assert rec.cause == ref and rec.root_cause == "session-4"


async def test_ledger_unknown_witness_is_refused(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        with pytest.raises(UnknownRecord, match="npc-nobody"):
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=None,
                cause="x",
                witnesses=["npc-nobody"],
                mutations=[{"kind": "set_hp", "entity": "pc-mira", "hp": 3}],
            )
        assert (await service.get_entity(s, campaign_id=cid, entity_id="pc-mira", viewer=GM)).hp == 12


async def test_ledger_next_thread_id_counts_per_kind_and_session(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        first = await service.next_thread_id(s, campaign_id=cid, thread_kind="favour", session_number=3)
        assert first == "favor-0003-01"
        await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=3,
            round_number=None,
            cause="x",
            mutations=[
                {
                    "kind": "open_thread",
                    "id": first,
                    "thread_kind": "favour",
                    "parties": ["pc-mira"],
                    "visibility": "gm",
                }
            ],
        )
        nxt = await service.next_thread_id(s, campaign_id=cid, thread_kind="favour", session_number=3)
        assert nxt == "favor-0003-02"
        assert await service.next_thread_id(s, campaign_id=cid, thread_kind="bounty", session_number=1) == (
            "bounty-0001-02"
        )
