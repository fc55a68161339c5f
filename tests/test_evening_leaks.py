"""An evening on the real command tree, with a narrator trying every route a secret has to the channel.

A GM and four players play the harbour on SQLite through the real discord.py ``CommandTree``. The narrator is
the real openai SDK talking HTTP to a scripted local server, and every draft (and its rewrite) tries to leak:

- a player's private knowledge (Mira alone learned who runs the smuggling ring);
- a GM secret said plainly (Bessa's cellar);
- a GM secret said in other words (Old Wei's fear, with a title for each name and synonyms for the rest);
- words put in a PC's mouth (a promise the player never made).

Between rounds the players also read the ledger in the channel (history, relationships, a record, the graph).
Whatever the narrator writes, nothing any of these routes carries may appear in any message the table sees:
channel posts and every non-ephemeral interaction reply. The players' own DMs may hold their own secrets.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import parse_settings
from bot.discord_courier import DiscordCourier
from bot.intent_parser import OfflineIntentParser
from bot.narrator.llm import LLMNarrator
from bot.views import Caller, Where
from tests.discord_harness import CHANNEL_ID, GM_ROLE_ID, GUILD_ID, DiscordHarness, Member
from tests.fake_llm import FakeLLM, FakeReply

GM = Member(100, "Gina", (GM_ROLE_ID,))
ALICE = Member(1001, "alice")  # Greyrock
BOB = Member(1002, "bob")  # Mira Quickfinger: alone knows the harbourmaster runs the smuggling ring
CARA = Member(1003, "cara")  # Sister Tamsin
DAN = Member(1004, "dan")  # Orrin Vale
CLAIMS = ((ALICE, "Greyrock"), (BOB, "Mira Quickfinger"), (CARA, "Sister Tamsin"), (DAN, "Orrin Vale"))
PLAYERS = tuple(member for member, _ in CLAIMS)

# Each leak route: the draft the narrator insists on, and the words none of the table's messages may hold.
PLAYER_KNOWLEDGE = (
    "Greyrock glances at the customs house. Everyone knows now that Maren Holt, the harbourmaster, "
    "runs the smuggling ring from behind her desk.",
    ("runs the smuggling ring", "smuggler boss", "cracks the cipher", "holt's seal", "knows secret"),
)
# GM-only relationships the GM reads in the channel (never narrated, only read).
GM_RECORDS = ("", ("ring's cargo", "ring's ships"))
GM_SECRET = (
    "Bessa Marlow wipes the bar. Bessa lets the smugglers keep barrels of untaxed dye in the Salty Gull's "
    "cellar, and the whole room can smell it.",
    ("untaxed dye", "dye in", "barrels of"),
)
PARAPHRASE = (
    "Across the common room, the old customs officer dreads that the port's master has laid hands on the "
    "book in the bond room that names him.",
    ("dreads", "bond room", "bond-room", "book in the", "names him"),
)
PC_PROMISE = (
    'Greyrock leans over the bar. "I swear I will do whatever you ask," Greyrock promises Bessa Marlow.',
    ("whatever you ask", "i swear"),
)
ROUTES = (PLAYER_KNOWLEDGE, GM_SECRET, PARAPHRASE, PC_PROMISE)


@pytest.fixture
async def evening(tmp_path: Path, fake_llm: FakeLLM) -> AsyncIterator[DiscordHarness]:
    """The harbour campaign on Discord, four players seated, the narrator at the scripted endpoint."""
    from bot.table import Table

    settings = parse_settings(
        {
            "discord": {"guild_ids": [GUILD_ID], "gm_role": "GM"},
            "storage": {
                "database_url": f"sqlite+aiosqlite:///{tmp_path / 'ledger.store.db'}",
                "data_dir": str(tmp_path / "data"),
            },
            "llm": {
                "enabled": True,
                "base_url": fake_llm.base_url,
                "model": "fake",
                "timeout_seconds": 30.0,
                "max_retries": 0,
                # The deterministic check alone must hold: the model is not asked to judge its own draft.
                "extract_claims": False,
            },
        }
    )
    rng = random.Random(23)
    narrator = LLMNarrator.from_settings(settings.llm, api_key="test-key")

    async def factory(courier: DiscordCourier) -> Table:
        return await Table.create(
            settings,
            courier=courier,
            narrator=narrator,
            intent_parser=OfflineIntentParser(),
            seeds=lambda: rng.randrange(1, 2**53),
        )

    harness = await DiscordHarness.create(settings=settings, table_factory=factory)
    try:
        started = await harness.command("campaign start", GM, name="Saltmere", scenario="harbor")
        assert not started.ephemeral, started.text
        for member, claim in CLAIMS:
            joined = await harness.command("join", member, claim=claim)
            assert f"{claim} joins the party" in joined.text, joined.text
        yield harness
    finally:
        await harness.bot.table.aclose()


def _seen_by_the_table(harness: DiscordHarness) -> list[str]:
    """Every text the channel shows: posts, and each interaction reply that was not ephemeral."""
    texts = [post.content for post in harness.channel_posts]
    texts += [embed.get("description", "") for post in harness.channel_posts for embed in post.embeds]
    for sent_list in harness._sent.values():
        texts += [s.text for s in sent_list if s.kind not in ("defer", "delete") and not s.ephemeral]
    return texts


def _leaks(harness: DiscordHarness) -> list[tuple[str, str]]:
    """(forbidden words, the message that holds them) for every leak the channel shows."""
    found = []
    for text in _seen_by_the_table(harness):
        lowered = text.lower()
        for _draft, words in (*ROUTES, GM_RECORDS):
            found += [(word, text) for word in words if word in lowered]
    return found


async def _play_round(harness: DiscordHarness, fake: FakeLLM, draft: str) -> None:
    """Every player acts (Alice asks Bessa about the ship), all ready; the narrator leaks twice."""
    fake._queue.clear()
    fake.script(FakeReply.draft(draft), FakeReply.draft(draft))
    await harness.command("act", ALICE, text="ask Bessa Marlow what the ship carries")
    await harness.command("act", BOB, text="look around the common room")
    await harness.command("act", CARA, text="hold position")
    await harness.command("act", DAN, text="look around the common room")
    for member in PLAYERS[:-1]:
        await harness.command("ready", member)
    closed = await harness.command("ready", PLAYERS[-1])
    assert "round's message" in closed.text, closed.text  # the dice are in the round's message (issue 13)


_SECRET_EVENT: dict[int, str] = {}


async def _mira_reads_the_ledger(harness: DiscordHarness) -> str:
    """The id of the session-10 record only Bob (Mira) may see: the harbourmaster is the smuggler boss."""
    if id(harness) not in _SECRET_EVENT:
        where = Where(guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID))
        bob = Caller(user_id=str(BOB.user_id), display_name=BOB.name)
        events = await harness.bot.table.history(where, bob, count=50)
        _SECRET_EVENT[id(harness)] = next(e.ref for e in events if "smuggler boss" in e.text)
    return _SECRET_EVENT[id(harness)]


async def _read_the_ledger_in_public(harness: DiscordHarness) -> None:
    """Bob (who knows the ring's secret) and the GM read the ledger with the commands that post publicly."""
    secret_event = await _mira_reads_the_ledger(harness)
    await harness.command("ledger history", BOB, count=50)
    await harness.command("ledger relationships", BOB)
    await harness.command("ledger relationships", GM)
    await harness.command("ledger record", GM, id=secret_event)
    await harness.command("ledger record", BOB, id=secret_event)
    graphs = [await harness.command("ledger graph", who) for who in (GM, BOB, ALICE)]
    # A graph posted in the channel is the channel's graph, whoever asked for it.
    public_graphs = {m.text for g in graphs for m in g.messages if not m.ephemeral}
    assert len(public_graphs) <= 1, public_graphs


async def test_no_leak_route_reaches_the_channel_in_an_evening(
    evening: DiscordHarness, fake_llm: FakeLLM
) -> None:
    posts_before = len(evening.channel_posts)
    await _mira_reads_the_ledger(evening)  # found while it is still among the newest 50 events
    for draft, _words in ROUTES:
        await _play_round(evening, fake_llm, draft)
        await _read_the_ledger_in_public(evening)
        assert not _leaks(evening), _leaks(evening)
    # The story still reached the channel every round, told by the narrator's fallback.
    assert len(evening.channel_posts) >= posts_before + len(ROUTES)
    assert not _leaks(evening)
    # Bob may still read his own secret, privately.
    private = await evening.command("ledger record", BOB, id=await _mira_reads_the_ledger(evening))
    assert private.ephemeral and "smuggler boss" in private.text, private.text
