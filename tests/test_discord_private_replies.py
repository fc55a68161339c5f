"""Issue 9 §1: a ledger reply never shows the channel what only its requester may see.

Through the real command tree and the real table (the harbour scenario on SQLite): Bob (Mira) learned in
session 10 that the harbourmaster runs the smugglers (``player:bob`` records); the GM sees GM-only facts and
edges. Whatever they ask with ``/ledger history | relationships | record | graph``, a message the whole
channel sees holds only the channel's view, and the "Show the table" button posts that view, never theirs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.views import Caller, Where
from tests.discord_harness import CHANNEL_ID, GUILD_ID, DiscordHarness, FakeTable, Member, Outcome
from tests.test_discord_real_table import ALICE, BOB, CLAIMS, GM, _harness

SHOW = "Show the table"
# What only Bob (player:bob) or only the GM may know, as it would read in a reply.
BOB_ONLY = ("smuggler boss", "knows secret", "knows-secret", "Holt's seal")
GM_ONLY = ("untaxed dye", "bond-room ledger", "guild seals", "Crane captains the ring", "Secretly runs")
SECRETS = BOB_ONLY + GM_ONLY
WHERE = Where(guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID))


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    h = await _harness(tmp_path, seed=5)
    try:
        await h.command("campaign start", GM, name="Saltmere", scenario="harbor")
        for member, claim in CLAIMS:
            await h.command("join", member, claim=claim)
        yield h
    finally:
        await h.bot.table.aclose()


def _public_text(*outcomes: Outcome) -> str:
    """Everything the whole channel could read in these answers."""
    return "\n".join(m.text for o in outcomes for m in o.messages if not m.ephemeral)


def _assert_no_secret(text: str) -> None:
    leaked = [s for s in SECRETS if s.lower() in text.lower()]
    assert not leaked, f"{leaked} reached the channel:\n{text}"


async def test_a_players_private_fact_stays_in_an_ephemeral_answer(harness: DiscordHarness) -> None:
    mine = await harness.command("ledger relationships", BOB)
    assert mine.ephemeral, "Bob's relationships hold his secret edge: only he may see the answer"
    assert "Maren Holt: knows secret" in mine.text  # he does see it himself
    assert SHOW in mine.messages[0].buttons()
    shown = await harness.press(mine, SHOW, BOB)
    assert shown.messages and not shown.ephemeral, "the button posts in the channel"
    assert "Bessa Marlow → Greyrock" in shown.text  # the party's edges are there
    _assert_no_secret(shown.text)

    history = await harness.command("ledger history", BOB, count=15)
    assert history.ephemeral and SHOW in history.messages[0].buttons()
    table = await harness.press(history, SHOW, BOB)
    assert not table.ephemeral and "History" in table.text
    _assert_no_secret(_public_text(mine, shown, history, table))


async def test_gm_only_records_and_edges_never_reach_the_channel(harness: DiscordHarness) -> None:
    record = await harness.command("ledger record", GM, id="npc-bessa-cellar")
    assert record.ephemeral and "untaxed dye" in record.text
    assert SHOW not in record.messages[0].buttons(), "nothing of a GM-only record is the table's"

    npc = await harness.command("ledger record", GM, id="npc-maren-holt")  # public NPC, secret persona
    assert npc.ephemeral and "Secretly runs" in npc.text
    public_npc = await harness.press(npc, SHOW, GM)
    assert not public_npc.ephemeral and "Maren Holt" in public_npc.text

    edges = await harness.command("ledger relationships", GM)
    assert edges.ephemeral and "guild seals" in edges.text
    public_edges = await harness.press(edges, SHOW, GM)

    history = await harness.command("ledger history", GM, count=20)
    assert history.ephemeral
    public_history = await harness.press(history, SHOW, GM)

    graph = await harness.command("ledger graph", GM)
    assert graph.ephemeral and graph.messages[0].files == ["relationships.png"]
    posted = await harness.press(graph, SHOW, GM)
    assert not posted.ephemeral and posted.messages[0].files == ["relationships.png"]
    gm = Caller(user_id=str(GM.user_id), display_name=GM.name, has_gm_role=True)
    shared = await harness.bot.table.graph(WHERE, gm, public=True)
    everything = await harness.bot.table.graph(WHERE, gm)
    assert len(shared.edges) < len(everything.edges)
    assert f"{len(shared.edges)} relationships" in posted.text, "the posted image is the table's graph"
    assert not any("guild seals" in e.reason for e in shared.edges)

    _assert_no_secret(_public_text(record, npc, public_npc, edges, public_edges, history, public_history))
    _assert_no_secret(_public_text(graph, posted))


async def test_an_answer_with_nothing_hidden_is_posted_for_the_table(harness: DiscordHarness) -> None:
    latest = await harness.command("ledger history", ALICE, count=3)
    assert latest.messages and not latest.ephemeral, latest.text
    assert SHOW not in latest.messages[0].buttons()


async def test_a_dispute_of_a_private_record_is_answered_privately(harness: DiscordHarness) -> None:
    secret = await harness.command("ledger dispute", BOB, id="ev-000083", reason="Holt is no smuggler boss")
    assert secret.ephemeral and "raised" in secret.text, secret.text
    _assert_no_secret(_public_text(secret))
    open_record = await harness.command("ledger dispute", BOB, id="ev-000092", reason="Tamsin kept it")
    assert not open_record.ephemeral and "raised" in open_record.text  # the table sees that one


async def test_the_recap_posted_for_the_table_is_the_tables() -> None:
    h = await DiscordHarness.create(FakeTable())
    gm = Member(7, "Gina")
    await h.command("campaign start", gm, name="Saltmere")
    recap = await h.command("recap", gm)
    assert recap.messages and not recap.ephemeral and "Mira owes Old Wei a favour" in recap.text
    assert FakeTable.GM_SECRET not in recap.text
