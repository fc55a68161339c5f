"""The narrator proposes, the system decides (issue 12): the real openai SDK over HTTP to a scripted server.

Every proposal kind is accepted and refused through the whole table (a round closed by the GM), the accepted
ones land in the round's narration transaction with cause ``narration-<session>.<round>``, the GM is told
privately what landed and what was refused, ``gm_proposals`` lists them, and an undo is a retcon that puts
the world back.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.config import parse_settings
from bot.errors import InvalidAction, NotGM
from bot.intent_parser import OfflineIntentParser
from bot.narrator.llm import LLMNarrator
from bot.table import Table
from ledger import service
from ledger.store.visibility import Viewer
from tests.fake_llm import FakeLLM, FakeReply
from tests.table_helpers import ALICE, BOB, GM, WHERE, RecordingCourier, seat_everyone

TEXTS = (
    "Rain drums on the shutters of the Salty Gull and the hearth spits sparks at the floorboards.",
    "A gull shrieks outside; somewhere a shutter bangs twice and then a cart rattles over cobbles.",
    "Fog presses against the windows while a fiddler in the corner tunes a single stubborn string.",
    "The tide bell tolls across the water and wet boots leave dark prints from the door to the bar.",
)
LEAK = "Bessa lets the smugglers keep untaxed dye in her cellar."

NPC = {
    "kind": "npc",
    "name": "Tam Reed",
    "role": "dockhand",
    "place": "",
    "description": "A wiry dockhand coiling rope by the hearth.",
}
ITEM = {
    "kind": "item",
    "name": "Tarnished Compass",
    "description": "A tarnished compass kept behind the bar.",
    "place": "",
    "holder": "Bessa Marlow",
}
THREAD = {
    "kind": "thread",
    "offer": "promise",
    "by": "Bessa Marlow",
    "to": "Greyrock",
    "terms": "Bessa will keep a room free for Greyrock until the spring tide.",
}
EVENT = {
    "kind": "event",
    "event_kind": "warning",
    "summary": "Bessa Marlow warns the party that the harbour watch drinks here on feast days.",
    "participants": ["Bessa Marlow", "Greyrock"],
    "witnesses": ["Bessa Marlow"],
}
ATTITUDE = {
    "kind": "attitude",
    "npc": "Bessa Marlow",
    "toward": "Greyrock",
    "change": 10,
    "reason": "Greyrock asked her politely for a cider.",
}


async def _table(database_url: str, tmp_path: Path, fake: FakeLLM, courier: RecordingCourier) -> Table:
    settings = parse_settings(
        {
            "storage": {"database_url": database_url, "data_dir": str(tmp_path / "data")},
            "llm": {
                "enabled": True,
                "base_url": fake.base_url,
                "model": "fake",
                "timeout_seconds": 30.0,
                "max_retries": 0,
                "extract_claims": False,
            },
        }
    )
    rng = random.Random(4)
    return await Table.create(
        settings,
        courier=courier,
        narrator=LLMNarrator.from_settings(settings.llm, api_key="test-key"),
        intent_parser=OfflineIntentParser(),
        seeds=lambda: rng.randrange(1, 2**53),
    )


def _reply(*proposals: dict[str, Any], text: str) -> FakeReply:
    return FakeReply(
        content=json.dumps({"public_text": text, "private_notes": [], "proposals": list(proposals)})
    )


async def _round(table: Table, fake: FakeLLM, *proposals: dict[str, Any], first: bool = True) -> None:
    """One round closed by the GM; the model's reply (a new text each round) carries ``proposals``."""
    if first:
        await seat_everyone(table, (ALICE, BOB))
    fake.script(_reply(*proposals, text=TEXTS[len(fake.chat_requests) % len(TEXTS)]))
    # plain actions: no check that could reveal a secret to one player this round
    await table.submit(WHERE, ALICE, key=f"a{random.random()}", text="ask Bessa Marlow for a mug of cider")
    await table.submit(WHERE, BOB, key=f"b{random.random()}", text="wait by the door")
    await table.close_round(WHERE, GM)


async def _campaign_id(table: Table) -> int:
    async with table.context.session() as s:
        campaign = await service.find_campaign(s, guild_id=WHERE.guild_id, channel_id=WHERE.channel_id)
        assert campaign is not None
        return campaign.id


def _by_kind(views: tuple[Any, ...]) -> dict[str, Any]:
    return {p.kind: p for p in views}


@pytest.fixture
async def setup(database_url: str, tmp_path: Path, fake_llm: FakeLLM) -> Any:
    courier = RecordingCourier()
    table = await _table(database_url, tmp_path, fake_llm, courier)
    yield table, fake_llm, courier
    await table.aclose()


async def test_every_kind_is_accepted_and_lands_with_the_narration_and_the_gm_is_told(setup: Any) -> None:
    table, fake, courier = setup
    await _round(table, fake, NPC, ITEM, THREAD)
    await _round(table, fake, EVENT, ATTITUDE, first=False)
    views = await table.gm_proposals(WHERE, GM)
    assert [p.status for p in views] == ["accepted"] * 5, [(p.what, p.reason) for p in views]
    assert set(_by_kind(views)) == {"npc", "item", "thread", "event", "attitude"}
    cid = await _campaign_id(table)
    gm = Viewer.gm()
    async with table.context.session() as s:
        tam = await service.get_entity(s, campaign_id=cid, entity_id="npc-tam-reed", viewer=gm)
        assert tam.name == "Tam Reed"
        events = await service.history(s, campaign_id=cid, viewer=gm, limit=30)
        born = next(e for e in events if e.kind == "create_entity" and e.payload.get("id") == "npc-tam-reed")
        assert born.cause == "narration-12.1" and born.ref == tam.cause
        assert tam.location == "loc-salty-gull"  # in the scene: the checker and retrieval see him next round
        held = await service.holders_of(s, campaign_id=cid, item_id="item-tarnished-compass", viewer=gm)
        assert [(h.holder_id, h.quantity) for h in held] == [("npc-bessa", 1)]
        threads = await service.threads(s, campaign_id=cid, viewer=gm)
        promise = next(t for t in threads if "spring tide" in t.terms)
        assert promise.status == "open" and promise.parties == ("npc-bessa", "pc-greyrock")
        edges = await service.relationships(s, campaign_id=cid, entity_id="npc-bessa", viewer=gm)
        assert any(e.target == "pc-greyrock" and "round 12.2" in e.reason for e in edges)
    notes = [text for user, text in courier.dms if user == GM.user_id]
    assert any("landed: NPC Tam Reed" in n for n in notes)
    # the next prompt shows the new NPC as present
    assert "Tam Reed" in fake.prompt_text(-1)


async def test_refused_proposals_are_kept_with_the_reason_and_nothing_lands(setup: Any) -> None:
    table, fake, courier = setup
    await _round(
        table,
        fake,
        {**NPC, "name": "Greyrock"},  # names a PC as created
        {**NPC, "name": "Old Wei"},  # a name clash
        {**ITEM, "holder": "Greyrock"},  # a PC's inventory
    )
    await _round(
        table,
        fake,
        {**EVENT, "summary": "Greyrock loses 6 hit points when a beam falls on him."},  # a PC's HP
        {**EVENT, "summary": "Harlan Voss buys the party a round of ale."},  # a contradiction: he is dead
        {**EVENT, "event_kind": "revelation", "summary": LEAK},  # a secret told
        first=False,
    )
    await _round(
        table,
        fake,
        {**ATTITUDE, "hp": -5},  # outside the vocabulary
        {**THREAD, "by": "Greyrock"},  # a PC's promise is the player's choice
        {**ATTITUDE, "change": 80},  # too big a shift
        {**ATTITUDE, "npc": "Mira Quickfinger"},  # a PC's feelings
        first=False,
    )
    views = await table.gm_proposals(WHERE, GM)
    assert all(p.status == "refused" and p.refs == () for p in views), [(p.what, p.status) for p in views]
    reasons = [p.reason for p in views]
    for expected in (
        "names a PC (Greyrock)",
        "already taken (npc-old-wei)",
        "PC's inventory (Greyrock)",
        "HP, inventory or choices (Greyrock)",
        "contradicts the ledger",
        "tell a secret",
        "no field 'hp'",
        "the player's choice",
        "more than one round may make",
        "feelings are the player's choice",
    ):
        assert any(expected in r for r in reasons), (expected, reasons)
    cid = await _campaign_id(table)
    async with table.context.session() as s:
        records = await service.find_records(s, campaign_id=cid, text="Greyrock", viewer=Viewer.gm())
        assert len(records) == 1  # no second Greyrock was created
        held = await service.inventory(s, campaign_id=cid, holder_id="pc-greyrock", viewer=Viewer.gm())
        assert all(h.cause != "narration-12.1" for h in held)
    notes = "\n".join(text for user, text in courier.dms if user == GM.user_id)
    assert "refused: NPC Greyrock" in notes and "landed" not in notes


async def test_at_most_three_land_per_round(setup: Any) -> None:
    table, fake, _ = setup
    extra = {**NPC, "name": "Pell Nask"}
    await _round(table, fake, NPC, ITEM, THREAD, extra)
    views = await table.gm_proposals(WHERE, GM)
    assert sum(p.status == "accepted" for p in views) == 3
    pell = next(p for p in views if "Pell Nask" in p.what)
    assert pell.status == "refused" and "limit of 3" in pell.reason


async def test_undo_writes_a_retcon_and_the_world_goes_back(setup: Any) -> None:
    table, fake, _ = setup
    await _round(table, fake, NPC, ITEM, THREAD)
    cid = await _campaign_id(table)
    gm = Viewer.gm()
    async with table.context.session() as s:
        before = await service.relationships(s, campaign_id=cid, entity_id="npc-bessa", viewer=gm)
    to_grey = [(e.kind, e.attitude) for e in before if e.source == "npc-bessa" and e.target == "pc-greyrock"]
    await _round(table, fake, ATTITUDE, first=False)
    views = _by_kind(await table.gm_proposals(WHERE, GM))
    with pytest.raises(NotGM):
        await table.gm_undo_proposal(WHERE, ALICE, proposal_id=views["npc"].id)
    for kind in ("npc", "item", "thread", "attitude"):
        undone = await table.gm_undo_proposal(WHERE, GM, proposal_id=views[kind].id)
        assert undone.proposal.status == "undone" and undone.retcon_event == undone.proposal.undo_event
    with pytest.raises(InvalidAction):
        await table.gm_undo_proposal(WHERE, GM, proposal_id=views["npc"].id)  # once only
    async with table.context.session() as s:
        tam = await service.get_entity(s, campaign_id=cid, entity_id="npc-tam-reed", viewer=gm)
        assert tam.alive is False  # out of play; the ledger keeps the record
        held = await service.holders_of(s, campaign_id=cid, item_id="item-tarnished-compass", viewer=gm)
        assert held == []
        threads = await service.threads(s, campaign_id=cid, viewer=gm)
        assert next(t for t in threads if "spring tide" in t.terms).status == "expired"
        after = await service.relationships(s, campaign_id=cid, entity_id="npc-bessa", viewer=gm)
        history = await service.history(s, campaign_id=cid, viewer=gm, limit=8)
    back = [(e.kind, e.attitude) for e in after if e.source == "npc-bessa" and e.target == "pc-greyrock"]
    assert back == to_grey and to_grey  # the shift is taken back to the attitude before it
    retcons = [e for e in history if e.kind == "retcon"]
    assert len(retcons) == 4 and all(e.cause == f"gm-{GM.user_id}" for e in retcons)
    assert {e.supersedes for e in retcons} == {
        views[k].refs[0] for k in ("npc", "item", "thread", "attitude")
    }


async def test_the_prompt_asks_to_propose_what_is_invented(setup: Any) -> None:
    table, fake, _ = setup
    await _round(table, fake)
    prompt = fake.prompt_text(0)
    assert "Propose what you invent" in prompt and "Do not invent named people" not in prompt
    schema = fake.chat_requests[0]["response_format"]["json_schema"]["schema"]
    assert "proposals" in schema["properties"]
    assert await table.gm_proposals(WHERE, GM) == ()  # no proposals, nothing listed


async def test_two_threads_in_one_round_get_their_own_ids(setup: Any) -> None:
    table, fake, _ = setup
    rumour = {**THREAD, "offer": "rumour", "to": "", "terms": "Word is the lighthouse lamp burns green."}
    quest = {
        **THREAD,
        "offer": "quest",
        "to": "",
        "terms": "Bessa offers a purse for news of the green lamp.",
    }
    await _round(table, fake, rumour, quest)
    views = await table.gm_proposals(WHERE, GM)
    assert [p.status for p in views] == ["accepted", "accepted"], [(p.what, p.reason) for p in views]
    cid = await _campaign_id(table)
    async with table.context.session() as s:
        threads = await service.threads(s, campaign_id=cid, viewer=Viewer.party())
    opened = [t for t in threads if "green" in t.terms]
    assert len({t.id for t in opened}) == 2 and {t.kind for t in opened} == {"quest"}
    assert {tag for t in opened for tag in t.tags} == {"rumour", "quest-offer"}
