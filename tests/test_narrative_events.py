"""Narrative events in the history (issue 11): ``record_event`` changes no state, is validated by the store
(participants, place and thread exist and may be named to whoever sees the event) and is found as "events
involving X"; bulk staging writes the same ledger as change-by-change staging."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from ledger import service
from ledger.errors import InvalidChange, LedgerError, UnknownRecord
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer
from ledger.store.vocabulary import parse_mutation
from ledger.store.writes import ChangeGroup, stage_groups

GM = Viewer.gm()

WORLD: list[dict[str, Any]] = [
    {"kind": "create_location", "id": "loc-harbor", "name": "The Harbor"},
    {"kind": "create_location", "id": "loc-vault", "name": "The Vault", "visibility": "gm"},
    {"kind": "create_entity", "id": "pc-mira", "entity_kind": "pc", "name": "Mira", "owner": "111"},
    {"kind": "create_entity", "id": "npc-old-wei", "entity_kind": "npc", "name": "Old Wei"},
    {"kind": "create_entity", "id": "npc-bessa", "entity_kind": "npc", "name": "Bessa"},
    {
        "kind": "open_thread",
        "id": "debt-0001-01",
        "thread_kind": "debt",
        "terms": "Mira owes Wei ten silver",
        "parties": ["pc-mira", "npc-old-wei"],
        "place": "loc-harbor",
    },
    {
        "kind": "open_thread",
        "id": "oath-0001-02",
        "thread_kind": "oath",
        "terms": "Mira swore to find Wei's son",
        "parties": ["pc-mira", "npc-old-wei"],
        "visibility": "player:111",
    },
]

BARGAIN: dict[str, Any] = {
    "kind": "record_event",
    "event_kind": "bargain",
    "summary": "Wei agrees to wait a month for the silver if Mira brings news of the smugglers.",
    "participants": ["npc-old-wei", "pc-mira"],
    "place": "loc-harbor",
    "thread": "debt-0001-01",
    "witnesses": ["npc-bessa"],
}


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


async def _campaign(eng: AsyncEngine) -> int:
    async with ledger_session(eng) as s:
        c = await service.create_campaign(s, name="Harbor", guild_id=1, channel_id=2, owner_user_id=9)
        assert c.id is not None
        await service.apply_changes(
            s, campaign_id=c.id, session_number=1, round_number=None, cause="setup", mutations=WORLD
        )
        return c.id


async def test_a_narrative_event_changes_nothing_and_is_found_by_who_and_where(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        before = await service.projected_state(s, campaign_id=cid)
        (ref,) = await service.apply_changes(
            s, campaign_id=cid, session_number=2, round_number=3, cause="round-3", mutations=[BARGAIN]
        )
    async with ledger_session(engine) as s:
        assert await service.projected_state(s, campaign_id=cid) == before
        assert await service.rebuild_state(s, campaign_id=cid) == before
        for anchor in ("npc-old-wei", "pc-mira", "loc-harbor", "debt-0001-01"):
            found = await service.history(s, campaign_id=cid, viewer=GM, involving=[anchor], limit=1)
            assert [e.ref for e in found] == [ref], anchor
        (event,) = await service.history(s, campaign_id=cid, viewer=GM, involving=["pc-mira"], limit=1)
        assert event.kind == "record_event"
        assert (event.session_number, event.round_number) == (2, 3)
        assert event.payload["event_kind"] == "bargain"
        assert event.payload["summary"].startswith("Wei agrees")
        assert event.payload["participants"] == ["npc-old-wei", "pc-mira"]
        assert (event.payload["place"], event.payload["thread"]) == ("loc-harbor", "debt-0001-01")
        assert set(event.involved) == {"npc-old-wei", "pc-mira", "loc-harbor", "debt-0001-01"}
        assert "npc-bessa" in event.witnesses
        known = await service.npc_knowledge(s, campaign_id=cid, npc_id="npc-bessa")
        assert [e.ref for e in known] == [ref]


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"participants": ["npc-nobody"]}, UnknownRecord, "npc-nobody"),
        ({"participants": ["loc-harbor"]}, UnknownRecord, "loc-harbor"),
        ({"place": "npc-bessa"}, UnknownRecord, "npc-bessa"),
        ({"thread": "favor-0009-01"}, UnknownRecord, "favor-0009-01"),
        # A public event may not name a record only the GM sees, nor one player's private thread.
        ({"place": "loc-vault"}, InvalidChange, "loc-vault"),
        ({"thread": "oath-0001-02"}, InvalidChange, "oath-0001-02"),
    ],
)
async def test_the_store_refuses_a_narrative_event_naming_what_is_not_there_or_not_visible(
    engine: AsyncEngine, change: dict[str, Any], error: type[LedgerError], words: str
) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        with pytest.raises(error, match=words):
            await service.apply_changes(
                s,
                campaign_id=cid,
                session_number=2,
                round_number=None,
                cause="round-1",
                mutations=[{**BARGAIN, **change}],
            )


async def test_a_private_event_may_name_its_owners_private_thread(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    private = {**BARGAIN, "thread": "oath-0001-02", "visibility": "player:111", "event_kind": "promise"}
    async with ledger_session(engine) as s:
        (ref,) = await service.apply_changes(
            s, campaign_id=cid, session_number=2, round_number=None, cause="round-1", mutations=[private]
        )
        party = await service.history(s, campaign_id=cid, viewer=Viewer.party(), involving=["pc-mira"])
        mine = await service.history(s, campaign_id=cid, viewer=Viewer.player("111"), involving=["pc-mira"])
        assert ref not in {e.ref for e in party} and ref in {e.ref for e in mine}


def test_the_kind_comes_from_the_narrative_vocabulary() -> None:
    with pytest.raises(InvalidChange, match="event_kind"):
        parse_mutation({**BARGAIN, "event_kind": "haggle"})
    with pytest.raises(InvalidChange, match="summary"):
        parse_mutation({k: v for k, v in BARGAIN.items() if k != "summary"})


async def test_bulk_staging_writes_what_one_by_one_staging_writes(engine: AsyncEngine) -> None:
    later: list[tuple[int, list[dict[str, Any]]]] = [
        (2, [BARGAIN]),
        (3, [{"kind": "thread_transition", "thread": "debt-0001-01", "status": "settled", "reason": "paid"}]),
        (4, [{**BARGAIN, "event_kind": "insult", "thread": None}]),
    ]
    one = await _campaign(engine)
    async with ledger_session(engine) as s:
        for session_number, mutations in later:
            await service.apply_changes(
                s,
                campaign_id=one,
                session_number=session_number,
                round_number=None,
                cause="c",
                mutations=mutations,
            )
    async with ledger_session(engine) as s:
        c = await service.create_campaign(s, name="Bulk", guild_id=1, channel_id=3, owner_user_id=9)
        assert c.id is not None
        bulk = c.id
        groups = [ChangeGroup(1, None, WORLD), *(ChangeGroup(n, None, muts) for n, muts in later)]
        refs = await stage_groups(s, campaign_id=bulk, cause="c", groups=groups)
        await s.commit()
        assert refs[1] == [f"ev-{len(WORLD) + 1:06d}"] and refs[3] == [f"ev-{len(WORLD) + 3:06d}"]
    async with ledger_session(engine) as s:
        assert await service.projected_state(s, campaign_id=bulk) == await service.projected_state(
            s, campaign_id=one
        )
        assert await service.rebuild_state(s, campaign_id=bulk) == await service.projected_state(
            s, campaign_id=bulk
        )
        a = await service.history(s, campaign_id=one, viewer=GM, limit=100)
        b = await service.history(s, campaign_id=bulk, viewer=GM, limit=100)
        shape = [(e.ref, e.kind, e.session_number, e.payload, e.witnesses, e.involved) for e in a]
        assert [(e.ref, e.kind, e.session_number, e.payload, e.witnesses, e.involved) for e in b] == shape


async def test_a_refused_group_in_a_bulk_stage_names_its_label(engine: AsyncEngine) -> None:
    async with ledger_session(engine) as s:
        c = await service.create_campaign(s, name="Bulk", guild_id=1, channel_id=3, owner_user_id=9)
        assert c.id is not None
        bad = {**BARGAIN, "participants": ["npc-ghost"]}
        groups = [ChangeGroup(1, None, WORLD), ChangeGroup(2, None, [bad], label="history[7]")]
        with pytest.raises(UnknownRecord, match=r"^history\[7\]: change 1 \(record_event\): .*npc-ghost"):
            await stage_groups(s, campaign_id=c.id, cause="c", groups=groups, fresh=True)
