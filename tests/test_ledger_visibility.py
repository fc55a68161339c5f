"""Visibility: no read returns what the viewer may not see; NPCs know only what they witnessed."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from ledger import service
from ledger.errors import UnknownRecord
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer, can_see

MIRA_PLAYER = "111"
BRAM_PLAYER = "222"
SECRET = f"player:{MIRA_PLAYER}"

WORLD: list[dict[str, Any]] = [
    {"kind": "create_location", "id": "loc-harbor", "name": "The Harbor"},
    {"kind": "create_location", "id": "loc-back-room", "name": "Back Room"},
    {
        "kind": "create_entity",
        "id": "pc-mira",
        "entity_kind": "pc",
        "name": "Mira",
        "owner": MIRA_PLAYER,
        "location": "loc-harbor",
    },
    {
        "kind": "create_entity",
        "id": "pc-bram",
        "entity_kind": "pc",
        "name": "Bram",
        "owner": BRAM_PLAYER,
        "location": "loc-harbor",
    },
    {
        "kind": "create_entity",
        "id": "npc-old-wei",
        "entity_kind": "npc",
        "name": "Old Wei",
        "location": "loc-harbor",
    },
    {
        "kind": "create_entity",
        "id": "npc-guard",
        "entity_kind": "npc",
        "name": "Guard",
        "location": "loc-back-room",
    },
]

# Everything Mira's player alone may know; every id or value here contains "secret".
SECRETS: list[dict[str, Any]] = [
    {
        "kind": "create_item",
        "id": "item-secret-vial",
        "name": "secret vial",
        "holder": "pc-mira",
        "visibility": SECRET,
    },
    {
        "kind": "create_entity",
        "id": "npc-secret-spy",
        "entity_kind": "npc",
        "name": "Secret Spy",
        "location": "loc-harbor",
        "visibility": SECRET,
    },
    {"kind": "add_condition", "entity": "npc-old-wei", "condition": "secretly-cursed", "visibility": SECRET},
    {
        "kind": "set_edge",
        "source": "npc-old-wei",
        "target": "pc-mira",
        "edge_kind": "secret-debtor",
        "attitude": -50,
        "reason": "secret debt",
        "visibility": SECRET,
    },
    {
        "kind": "open_thread",
        "id": "debt-secret-01",
        "thread_kind": "debt",
        "terms": "secret terms",
        "parties": ["pc-mira", "npc-old-wei"],
        "visibility": SECRET,
    },
    {"kind": "set_fact", "key": "loc-harbor-hidden-door", "value": "secret passage", "visibility": SECRET},
    {"kind": "move_entity", "entity": "npc-old-wei", "location": "loc-back-room", "visibility": SECRET},
    {"kind": "set_hp", "entity": "pc-bram", "hp": 9, "visibility": "gm", "cause": "secret-gm-roll"},
]


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


async def _world(eng: AsyncEngine) -> tuple[int, list[str]]:
    async with ledger_session(eng) as s:
        c = await service.create_campaign(s, name="Secrets")
        await service.apply_changes(
            s, campaign_id=c.id, session_number=1, round_number=None, cause="scenario", mutations=WORLD
        )
        refs = await service.apply_changes(
            s, campaign_id=c.id, session_number=1, round_number=1, cause="round-1#1", mutations=SECRETS
        )
        # A public retcon whose own change is secret: the event is public, its secret part is not.
        refs += await service.apply_changes(
            s,
            campaign_id=c.id,
            session_number=1,
            round_number=2,
            cause="gm",
            mutations=[
                {
                    "kind": "retcon",
                    "target": refs[0],
                    "reason": "the vial was always there",
                    "changes": [
                        {
                            "kind": "set_fact",
                            "key": "pc-mira-secret-mark",
                            "value": "secret sigil",
                            "visibility": SECRET,
                        }
                    ],
                }
            ],
        )
        return c.id, refs


async def _read_everything(s: Any, cid: int, viewer: Viewer, secret_refs: list[str]) -> str:
    """Every read the ledger offers, for every record, dumped to one JSON string."""
    out: list[Any] = []
    ids = [
        "pc-mira",
        "pc-bram",
        "npc-old-wei",
        "npc-guard",
        "npc-secret-spy",
        "loc-harbor",
        "loc-back-room",
        "item-secret-vial",
    ]
    out.append(await service.get_entities(s, campaign_id=cid, entity_ids=ids, viewer=viewer))
    for ref in [*ids, "debt-secret-01", "loc-harbor-hidden-door", "npc-old-wei-location", *secret_refs]:
        with contextlib.suppress(UnknownRecord):
            out.append(await service.record(s, campaign_id=cid, ref=ref, viewer=viewer))
    for holder in ids:
        out.append(await service.inventory(s, campaign_id=cid, holder_id=holder, viewer=viewer))
        out.append(await service.relationships(s, campaign_id=cid, entity_id=holder, viewer=viewer))
        out.append(await service.facts(s, campaign_id=cid, viewer=viewer, subject=holder))
    out.append(await service.holders_of(s, campaign_id=cid, item_id="item-secret-vial", viewer=viewer))
    for loc in ("loc-harbor", "loc-back-room"):
        out.append(await service.entities_at(s, campaign_id=cid, location_id=loc, viewer=viewer))
    out.append(await service.threads(s, campaign_id=cid, viewer=viewer))
    out.append(await service.threads(s, campaign_id=cid, viewer=viewer, parties=["pc-mira"]))
    out.append(await service.history(s, campaign_id=cid, viewer=viewer, limit=1000))
    out.append(await service.history(s, campaign_id=cid, viewer=viewer, involving=["npc-old-wei"]))
    out.append(await service.facts(s, campaign_id=cid, viewer=viewer))
    for text in ("secret", "secret vial", "Secret Spy", "s"):
        out.append(await service.find_records(s, campaign_id=cid, text=text, viewer=viewer, prefix=True))
    for npc in ("npc-old-wei", "npc-guard", "npc-secret-spy"):
        out.append(await service.npc_knowledge(s, campaign_id=cid, npc_id=npc, viewer=viewer))
    return json.dumps(
        [
            [x.model_dump(mode="json") for x in o] if isinstance(o, list) else o.model_dump(mode="json")
            for o in out
        ]
    )


async def test_ledger_no_read_leaks_another_players_secret(engine: AsyncEngine) -> None:
    cid, refs = await _world(engine)
    async with ledger_session(engine) as s:
        for viewer in (Viewer.player(BRAM_PLAYER), Viewer.party(), Viewer.public()):
            dump = await _read_everything(s, cid, viewer, refs)
            assert "secret" not in dump.lower(), viewer
            assert "loc-back-room" not in json.dumps(
                (
                    await service.get_entity(s, campaign_id=cid, entity_id="npc-old-wei", viewer=viewer)
                ).model_dump()
            )
        mira = await _read_everything(s, cid, Viewer.player(MIRA_PLAYER), refs)
        for marker in (
            "item-secret-vial",
            "npc-secret-spy",
            "secretly-cursed",
            "secret-debtor",
            "debt-secret-01",
            "secret passage",
        ):
            assert marker in mira
        assert "secret-gm-roll" not in mira  # the GM's own roll stays the GM's
        gm = await _read_everything(s, cid, Viewer.gm(), refs)
        assert "secret-gm-roll" in gm


async def test_ledger_player_sees_own_secret_state_but_party_sees_public_state(engine: AsyncEngine) -> None:
    cid, _ = await _world(engine)
    async with ledger_session(engine) as s:
        wei_party = await service.get_entity(
            s, campaign_id=cid, entity_id="npc-old-wei", viewer=Viewer.party()
        )
        wei_mira = await service.get_entity(
            s, campaign_id=cid, entity_id="npc-old-wei", viewer=Viewer.player(MIRA_PLAYER)
        )
        assert wei_party.alive is True and wei_party.conditions == () and wei_party.location is None
        assert wei_mira.conditions == ("secretly-cursed",) and wei_mira.location == "loc-back-room"
        with pytest.raises(UnknownRecord):
            await service.get_entity(s, campaign_id=cid, entity_id="npc-secret-spy", viewer=Viewer.party())
        bram = await service.get_entity(
            s, campaign_id=cid, entity_id="pc-bram", viewer=Viewer.player(BRAM_PLAYER)
        )
        assert bram.hp is None  # the GM's hp roll is not shown, not even to Bram's player


async def test_ledger_npc_knows_only_what_it_witnessed(engine: AsyncEngine) -> None:
    cid, _ = await _world(engine)
    async with ledger_session(engine) as s:
        (plot,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=2,
            cause="round-2#1",
            witnesses=["pc-bram", "npc-guard"],
            mutations=[
                {"kind": "set_fact", "key": "npc-old-wei-poisoner", "value": "Bram", "visibility": "party"}
            ],
        )
        (told,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=3,
            cause="round-3#1",
            mutations=[
                {
                    "kind": "set_edge",
                    "source": "npc-guard",
                    "target": "pc-bram",
                    "edge_kind": "enemy",
                    "attitude": -60,
                    "reason": "heard the plot",
                    "witnesses": ["npc-old-wei"],
                }
            ],
        )
        guard = [e.ref for e in await service.npc_knowledge(s, campaign_id=cid, npc_id="npc-guard")]
        wei = [e.ref for e in await service.npc_knowledge(s, campaign_id=cid, npc_id="npc-old-wei")]
        assert plot in guard and plot not in wei
        assert told in wei and told not in guard


def test_ledger_viewer_visibility_rules() -> None:
    assert can_see(Viewer.player("7"), "player:7") and not can_see(Viewer.player("7"), "player:8")
    assert can_see(Viewer.party(), "party") and not can_see(Viewer.party(), "player:7")
    assert not can_see(Viewer.public(), "party") and can_see(Viewer.gm(), "gm")
    assert not can_see(Viewer.player("7"), "gm")
