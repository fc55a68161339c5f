"""Players nominate what should be remembered (issue 12): accepted only when the record supports it.

A nomination lands (a thread or a narrative event, sourced to its round, with cause ``nomination-...``) when
its words were said in a round the nominator played, by someone who was there, and the ledger does not
contradict it; a private clue stays private. Anything else waits in the GM's queue with the reason, and the
reply names the words that were not found. Through the table, ``tablekeeper play`` and the real command tree.
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.config import parse_settings
from bot.errors import InvalidAction, NotAPlayer
from bot.intent_parser import OfflineIntentParser
from bot.narrator.llm import LLMNarrator
from bot.table import Table
from bot.table.nominations import content_words, stem
from ledger import service
from ledger.store.visibility import Viewer
from tests.fake_llm import FakeLLM, FakeReply
from tests.table_helpers import ALICE, BOB, CARA, GM, WHERE, RecordingCourier, seat_everyone

PROMISE = "Bessa Marlow wipes the bar and promises Greyrock a boat at dawn, if the tide allows."


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


@pytest.fixture
async def played(database_url: str, tmp_path: Path, fake_llm: FakeLLM) -> Any:
    """One round played by Alice and Bob: the narration has Bessa's promise; Bob learns her secret by DM."""
    courier = RecordingCourier()
    table = await _table(database_url, tmp_path, fake_llm, courier)
    fake_llm.script(FakeReply(content=json.dumps({"public_text": PROMISE, "private_notes": []})))
    await seat_everyone(table, (ALICE, BOB))
    await table.submit(WHERE, ALICE, key="a", text="ask Bessa Marlow whether Harlan Voss drinks here tonight")
    await table.submit(WHERE, BOB, key="b", text="search the crates")
    await table.close_round(WHERE, GM)
    assert any(user == BOB.user_id and "cellar" in text for user, text in courier.dms), courier.dms
    assert not any(user == ALICE.user_id for user, _ in courier.dms)
    yield table
    await table.aclose()


async def _campaign_id(table: Table) -> int:
    async with table.context.session() as s:
        campaign = await service.find_campaign(s, guild_id=WHERE.guild_id, channel_id=WHERE.channel_id)
        assert campaign is not None
        return campaign.id


def test_content_words_leave_out_the_framing() -> None:
    assert set(content_words("Bessa promised us a boat at dawn")) == {"bessa", "promis", "boat", "dawn"}
    assert stem("promises") == stem("promised") == stem("swore") == "promis"


async def test_a_supported_promise_lands_as_a_thread_with_its_source(played: Table) -> None:
    view = await played.remember(WHERE, ALICE, text="Bessa promised us a boat at dawn")
    assert view.status == "accepted" and view.kind == "thread", view
    assert view.source == "round 12.1" and view.visibility == "public" and view.missing == ()
    cid = await _campaign_id(played)
    async with played.context.session() as s:
        threads = await service.threads(s, campaign_id=cid, viewer=Viewer.party())
        events = await service.history(s, campaign_id=cid, viewer=Viewer.gm(), limit=3)
    thread = next(t for t in threads if t.terms == "Bessa promised us a boat at dawn")
    assert thread.kind == "favour" and thread.status == "open"
    assert set(thread.parties) == {"npc-bessa", "pc-greyrock"}
    opened = next(e for e in events if e.kind == "open_thread")
    assert opened.cause == f"nomination-12.1-{ALICE.user_id}"
    listed = await played.gm_proposals(WHERE, GM)
    assert listed[0].origin == "player" and listed[0].status == "accepted"


async def test_an_unsupported_nomination_is_queued_naming_the_words_not_found(played: Table) -> None:
    view = await played.remember(WHERE, ALICE, text="Bessa promised us a galleon full of gold")
    assert view.status == "queued" and view.refs == ()
    assert set(view.missing) == {"galleon", "full", "gold"}
    assert "not found in the record" in view.reason and "'galleon'" in view.reason
    queued = (await played.gm_proposals(WHERE, GM))[0]
    assert queued.status == "queued" and queued.origin == "player" and "galleon" in queued.reason
    cid = await _campaign_id(played)
    async with played.context.session() as s:
        threads = await service.threads(s, campaign_id=cid, viewer=Viewer.gm())
    assert not any("galleon" in t.terms for t in threads)


async def test_words_nobody_said_in_a_round_you_played_are_not_remembered(played: Table) -> None:
    await played.join(WHERE, CARA, claim="Sister Tamsin")  # joins after the round
    view = await played.remember(WHERE, CARA, text="Bessa promised us a boat at dawn")
    assert view.status == "queued" and "any round you played" in view.reason
    with pytest.raises(NotAPlayer):
        await played.remember(WHERE, GM, text="Bessa promised us a boat at dawn")
    with pytest.raises(InvalidAction):
        await played.remember(WHERE, ALICE, text="   ")


async def test_a_nomination_the_ledger_contradicts_is_queued(played: Table) -> None:
    """Alice said it herself, but the ledger has Harlan Voss dead: it is not remembered as true."""
    view = await played.remember(WHERE, ALICE, text="Harlan Voss drinks here tonight")
    assert view.status == "queued", view
    assert view.missing == () and "the ledger says otherwise" in view.reason


async def test_a_private_clue_stays_private(played: Table) -> None:
    clue = "Bessa lets the smugglers keep untaxed dye in her cellar"
    told = await played.remember(WHERE, ALICE, text=clue)  # Alice was not told: nothing to support it
    assert told.status == "queued" and "untaxed" in told.missing
    view = await played.remember(WHERE, BOB, text=clue)
    assert view.status == "accepted" and view.kind == "event", view
    assert view.visibility == "player:bob"
    cid = await _campaign_id(played)
    async with played.context.session() as s:
        mine = await service.history(s, campaign_id=cid, viewer=Viewer.player("bob"), limit=3)
        others = await service.history(s, campaign_id=cid, viewer=Viewer.player("alice"), limit=50)
        party = await service.history(s, campaign_id=cid, viewer=Viewer.party(), limit=50)
    landed = next(e for e in mine if e.kind == "record_event")
    assert landed.payload["event_kind"] == "discovery" and "untaxed dye" in landed.payload["summary"]
    assert landed.ref not in {e.ref for e in (*others, *party)}


async def test_undo_of_a_nomination_writes_a_retcon(played: Table) -> None:
    view = await played.remember(WHERE, ALICE, text="Bessa promised us a boat at dawn")
    undone = await played.gm_undo_proposal(WHERE, GM, proposal_id=view.proposal_id)
    assert undone.proposal.status == "undone"
    cid = await _campaign_id(played)
    async with played.context.session() as s:
        threads = await service.threads(s, campaign_id=cid, viewer=Viewer.gm())
    assert next(t for t in threads if t.terms.startswith("Bessa promised")).status == "expired"


def test_remember_in_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``tablekeeper play``: a nomination nothing in the record supports goes to the GM, said plainly."""
    from bot.cli import main

    lines = (
        "alice: /join Greyrock",
        "alice: /remember Bessa promised us a galleon",
        "gm: /remember the boat at dawn",
    )
    script = "\n".join((*lines, "/quit", ""))
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    harbor = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"
    assert main(["play", "--scenario", str(harbor), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    answer = out.split("> alice: /remember Bessa promised us a galleon\n", 1)[1].split("\n> ", 1)[0]
    assert answer.startswith("sent to the GM (proposal #1): nothing of it was said"), answer
    assert "refused: You have no character" in out.split("> gm: /remember the boat at dawn\n", 1)[1]


async def test_remember_and_the_gm_proposals_through_the_real_command_tree(
    tmp_path: Path, fake_llm: FakeLLM
) -> None:
    """/remember and /gm proposals, /gm undo as Discord sends them, over the real table and the fake model."""
    from bot.discord_courier import DiscordCourier
    from tests.discord_harness import GM_ROLE_ID, GUILD_ID, DiscordHarness, Member

    gm, alice, bob = Member(100, "Gina", (GM_ROLE_ID,)), Member(1001, "alice"), Member(1002, "bob")
    settings = parse_settings(
        {
            "discord": {"guild_ids": [GUILD_ID], "gm_role": "GM"},
            "storage": {
                "database_url": f"sqlite+aiosqlite:///{tmp_path / 'ledger.store.db'}",
                "data_dir": str(tmp_path / "data"),
            },
            "llm": {"enabled": True, "base_url": fake_llm.base_url, "model": "fake", "max_retries": 0},
        }
    )
    rng = random.Random(4)

    async def factory(courier: DiscordCourier) -> Table:
        return await Table.create(
            settings,
            courier=courier,
            narrator=LLMNarrator.from_settings(settings.llm, api_key="test-key"),
            intent_parser=OfflineIntentParser(),
            claim_extractor=None,
            seeds=lambda: rng.randrange(1, 2**53),
        )

    h = await DiscordHarness.create(settings=settings, table_factory=factory)
    try:
        await h.command("campaign start", gm, name="Saltmere", scenario="harbor")
        for member, claim in ((alice, "Greyrock"), (bob, "Mira Quickfinger")):
            await h.command("join", member, claim=claim)
        npc = {"kind": "npc", "name": "Tam Reed", "role": "dockhand", "place": "", "description": "Wiry."}
        body = {"public_text": PROMISE, "private_notes": [], "proposals": [npc]}
        fake_llm.script(FakeReply(content=json.dumps(body)))
        await h.command("act", alice, text="ask Bessa Marlow whether Harlan Voss drinks here tonight")
        await h.command("act", bob, text="wait by the door")
        await h.command("ready", alice)
        await h.command("ready", bob)

        kept = await h.command("remember", alice, text="Bessa promised us a boat at dawn")
        assert kept.ephemeral and "Remembered" in kept.text and "round 12.1" in kept.text, kept.text
        queued = await h.command("remember", alice, text="Bessa promised us a galleon")
        assert queued.ephemeral and "Sent to the GM" in queued.text and "“galleon”" in queued.text, (
            queued.text
        )

        listed = await h.command("gm proposals", gm)
        assert listed.ephemeral and "Tam Reed" in listed.text and "galleon" in listed.text, listed.text
        refused = await h.command("gm proposals", alice)
        assert "Only the GM" in refused.text
        ids = [p.id for p in await h.bot.table.gm_proposals(_where(), _gm()) if "Tam Reed" in p.what]
        undone = await h.command("gm undo", gm, proposal=ids[0])
        assert undone.ephemeral and "undone" in undone.text, undone.text
    finally:
        await h.bot.table.aclose()


def _where() -> Any:
    from bot.views import Where
    from tests.discord_harness import CHANNEL_ID, GUILD_ID

    return Where(guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID))


def _gm() -> Any:
    return GM.model_copy(update={"has_gm_role": True})


async def test_undoing_a_private_clue_stays_private(played: Table) -> None:
    view = await played.remember(WHERE, BOB, text="Bessa lets the smugglers keep untaxed dye in her cellar")
    assert view.status == "accepted"
    undone = await played.gm_undo_proposal(WHERE, GM, proposal_id=view.proposal_id)
    cid = await _campaign_id(played)
    async with played.context.session() as s:
        party = await service.history(s, campaign_id=cid, viewer=Viewer.party(), limit=50)
        bobs = await service.history(s, campaign_id=cid, viewer=Viewer.player("bob"), limit=5)
    assert undone.retcon_event in {e.ref for e in bobs}
    assert undone.retcon_event not in {e.ref for e in party}
