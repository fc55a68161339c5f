"""Issue 9 §6 and issue 16 "Text that reaches Discord": answers a table reads as people, not as storage.

Through the real command tree and the real table (the harbour scenario on SQLite): a refused GM command
shows nobody a "thinking..." placeholder, a character's name finds its player, the round status names each
character once, the campaign starts where the party stands, messages show names instead of ids and Python
reprs, and whatever a user typed (a character's or display name) reaches the channel escaped.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord_harness import DiscordHarness, Member, Outcome
from tests.test_discord_real_table import ALICE, BOB, CARA, CLAIMS, GM, _harness


@pytest.fixture
async def fresh(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    h = await _harness(tmp_path, seed=3)
    try:
        yield h
    finally:
        await h.bot.table.aclose()


@pytest.fixture
async def harness(fresh: DiscordHarness) -> DiscordHarness:
    await fresh.command("campaign start", GM, name="Saltmere", scenario="harbor")
    for member, claim in CLAIMS:
        await fresh.command("join", member, claim=claim)
    return fresh


def _field(outcome: Outcome, name: str) -> str:
    for message in outcome.messages:
        for embed in message.embeds:
            for f in embed.get("fields", []):
                if f.get("name") == name:
                    return str(f.get("value", ""))
    raise AssertionError(f"no field {name!r} in {outcome.text}")


def _round_field(harness: DiscordHarness, name: str) -> str:
    """A field of the round's message in the channel (the dice and the story are posted there, issue 13)."""
    for post in harness.channel_posts:
        for embed in post.embeds:
            for f in embed.get("fields", []):
                if f.get("name") == name:
                    return str(f.get("value", ""))
    raise AssertionError(f"no field {name!r} in the channel's round messages")


async def test_a_players_gm_command_is_refused_without_a_public_thinking(harness: DiscordHarness) -> None:
    refused = [
        await harness.command("gm rule", ALICE, id=1, decision="accept", note="mine now"),
        await harness.command("gm retcon", ALICE, id="ev-000092", reason="never happened"),
        await harness.command("gm thread", ALICE, id="favor-0003-01", status="settled", note="paid"),
        await harness.command("session end", ALICE),
        await harness.command("round close", ALICE),
    ]
    for answer in refused:
        assert "Only the GM" in answer.text, answer.text
        assert answer.sent and all(s.ephemeral for s in answer.sent), answer.sent  # no public "thinking..."
        assert not answer.deferred


async def test_inventory_finds_a_player_by_their_characters_name(harness: DiscordHarness) -> None:
    for typed in ("Greyrock", "greyrock", "player:Greyrock", f"<@{ALICE.user_id}>"):
        shown = await harness.command("ledger inventory", BOB, player=typed)
        assert "Greyrock's inventory" in shown.text, (typed, shown.text)
        assert "gold coins" in shown.text
    nobody = await harness.command("ledger inventory", BOB, player="Nobody Atall")
    assert nobody.ephemeral and "Nobody Atall" in nobody.text


async def test_round_status_names_each_character_once(harness: DiscordHarness) -> None:
    await harness.command("act", ALICE, text="look around the tavern")
    status = await harness.command("round status", CARA)
    for name in ("Greyrock", "Mira Quickfinger", "Sister Tamsin"):
        assert status.text.count(name) == 1, status.text
    assert "Greyrock" in _field(status, "Acted, not ready yet")
    assert "Sister Tamsin" in _field(status, "Not acted yet")


async def test_the_campaign_starts_where_the_party_stands(fresh: DiscordHarness) -> None:
    started = await fresh.command("campaign start", GM, name="Saltmere", scenario="harbor")
    # The scenario's history moved the party from the harbour into the Salty Gull.
    assert _field(started, "Location") == "The Salty Gull", started.text
    for member, claim in CLAIMS:
        await fresh.command("join", member, claim=claim)
    status = await fresh.command("campaign status", GM)
    assert _field(status, "Location") == _field(started, "Location")


async def test_messages_show_names_not_ids_or_python_reprs(harness: DiscordHarness) -> None:
    raised = await harness.command("ledger dispute", ALICE, id="ev-000092", reason="Tamsin kept the potion")
    assert _field(raised, "Raised by") == f"<@{ALICE.user_id}>"  # Discord shows the member's name

    record = await harness.command("ledger record", BOB, id="ev-000092")
    assert "potion of healing passed from Sister Tamsin to Orrin Vale" in record.text
    assert "None" not in record.text and "pc-greyrock" not in record.text, record.text
    assert "Greyrock" in _field(
        record, "Who saw it"
    )  # the record card (issue 13): witnesses under who saw it
    fields = [f["name"] for m in record.messages for e in m.embeds for f in e.get("fields", [])]
    assert "cause" not in fields and fields.count("Why") == 1, fields

    choices = await harness.autocomplete("ledger record", BOB, "id", id="ev-00009")
    named = [c["name"] for c in choices if c["value"] == "ev-000092"]
    assert named == ["ev-000092 potion of healing passed from Sister Tamsin to Orrin Vale"], choices

    history = await harness.command("ledger history", BOB, count=15)
    pages = [history, await harness.press(history, "Next", BOB)]
    text = "\n".join(p.text for p in pages)
    assert "Maren Holt's role: smuggler boss" in text and "npc-maren-holt-role" not in text

    greedy = await harness.command("act", ALICE, text="give 500 gold coins to Mira")
    assert greedy.ephemeral and "holds only 70 gold coins" in greedy.text, greedy.text
    assert "item-gold-coins" not in greedy.text


async def test_initiative_reads_as_a_name_and_a_total(harness: DiscordHarness) -> None:
    for member in (ALICE, BOB, CARA):
        await harness.command("act", member, text="look around the tavern")
    closed = None
    for member in (ALICE, BOB, CARA):
        closed = await harness.command("ready", member)
    assert closed is not None
    order = _round_field(harness, "Initiative").splitlines()
    assert order and all(re.fullmatch(r"\d+\. .+ \(initiative -?\d+\)", line) for line in order), order


HOSTILE_NAME = "# [Free gold](https://evil.io) **LOUD**"  # 36 of the 40 characters a name may have


async def test_user_text_reaches_the_channel_escaped(harness: DiscordHarness) -> None:
    dan = Member(1004, "__Dan__ *bold* @everyone")  # a display name full of markdown
    joined = await harness.command("join", dan, name=HOSTILE_NAME)
    assert not joined.ephemeral, joined.text
    title = joined.messages[0].embeds[0]["title"]
    assert title == r"\# \[Free gold](https://evil.io) \*\*LOUD\*\* joins the party", title

    await harness.command("session end", GM)
    started = await harness.command("session start", GM)
    players = _field(started, "Players (4)")
    line = next(p for p in players.splitlines() if "Free gold" in p)
    assert line.startswith(r"\# \[Free gold]"), line  # no header, no masked link, no mass mention

    for member in (ALICE, BOB, CARA, dan):
        await harness.command("act", member, text="look around the tavern")
    for member in (ALICE, BOB, CARA):
        await harness.command("ready", member)
    ready = await harness.command("ready", dan)  # the last one: the round's results are posted
    assert r"\# \[Free gold](https://evil.io) \*\*LOUD\*\* is ready" in ready.text, (
        ready.text
    )  # the character
    assert "@everyone" not in ready.text
    public = "\n".join(m.text for o in (joined, started, ready) for m in o.messages if not m.ephemeral)
    assert not re.search(r"(?<!\\)\[Free gold\]\(", public), public
    assert "**LOUD**" not in public and "@everyone" not in public
    assert "`" in _round_field(harness, "Sister Tamsin")  # the bot's own formatting (rolls as code) stays
    # The round's message: its header stays bold; the story (an embed under the dice) names the character
    # as typed.
    rounds = [p for p in harness.channel_posts if "**Round " in p.content]
    story = [
        e.get("description", "") for p in rounds for e in p.embeds if "Free gold" in e.get("description", "")
    ]
    assert story, "the narration names the character"
    for post in story:
        assert not re.search(r"(?<!\\)\[Free gold\]\(", post), post
        assert "**LOUD**" not in post, post


INTERNAL_ID = re.compile(r"(?<![a-z])(?:item|npc|pc|loc|monster)-[a-z0-9]|scenario:|round-\d")


async def test_ids_appear_only_where_a_player_types_them(harness: DiscordHarness) -> None:
    answers = {
        "sheet": await harness.command("join", Member(1004, "dan"), claim="Orrin Vale"),
        "inventory": await harness.command("ledger inventory", BOB, player="Greyrock"),
        "relationships": await harness.command("ledger relationships", ALICE),
        "history": await harness.command("ledger history", ALICE, count=5),
        "record": await harness.command("ledger record", BOB, id="ev-000083"),
    }
    for what, answer in answers.items():
        assert answer.messages, what
        assert not INTERNAL_ID.search(answer.text), (what, answer.text)
    assert "ev-000097" in answers["history"].text  # a ref a player types in /ledger record or dispute
    assert not re.search(r"`ev-\d+` s\d+( r\d+)? [a-z_]+:", answers["history"].text)  # no raw change kinds
    bessa = await harness.command("ledger record", ALICE, id="npc-bessa")
    assert bessa.messages[0].embeds[0]["title"] == "Bessa Marlow", bessa.text
    assert "← the scenario" in answers["history"].text
    assert "player:bob" not in answers["record"].text and "one player only" in answers["record"].text
