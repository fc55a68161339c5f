"""``/ledger record`` reads as a card (issue 13): what, when, who saw it, why, replay; for a round, the NPC
lines that woke in it and why. No Python reprs, no ids where a name is known, no field twice.

Through the real command tree and the real table (harbour scenario, SQLite, offline narrator).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.discord_harness import DiscordHarness, Outcome
from tests.test_discord_real_table import ALICE, BOB, CARA, CLAIMS, GM, _harness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    h = await _harness(tmp_path, seed=11)
    try:
        await h.command("campaign start", GM, name="Saltmere", scenario="harbor")
        for member, claim in CLAIMS:
            await h.command("join", member, claim=claim)
        await h.command("act", ALICE, text="ask Bessa Marlow whether anyone left a message for us")
        await h.command("act", BOB, text="look around the common room")
        await h.command("act", CARA, text="hold position")
        for member in (ALICE, BOB, CARA):
            await h.command("ready", member)
        yield h
    finally:
        await h.bot.table.aclose()


def _card(outcome: Outcome) -> dict[str, Any]:
    (message,) = outcome.messages
    (embed,) = message.embeds
    return embed


def _fields(embed: dict[str, Any]) -> dict[str, str]:
    names = [f["name"] for f in embed.get("fields", [])]
    assert len(names) == len(set(names)), f"a field twice: {names}"
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


def _clean(embed: dict[str, Any]) -> None:
    """Words only: no Python repr (None, a dict, a list, a tuple) and no person's or place's id."""
    parts = [embed.get("title", ""), embed.get("description", "")]
    parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", []) if f["name"] != "Replay"]
    text = "\n".join(parts)  # (the replay shows the dice as rolled: "1d20+4 [17] + 4 = 21")
    assert "None" not in text and "{'" not in text and "[" not in text and "('" not in text, text
    assert not re.search(r"\b(?:pc|npc|loc|item)-[a-z]", text), text


async def test_a_round_card_shows_the_npc_lines_that_woke_and_why(harness: DiscordHarness) -> None:
    card = _card(await harness.command("ledger record", BOB, id="round-1"))
    fields = _fields(card)
    _clean(card)
    assert "Bessa Marlow" in card["description"]  # what: the round as the channel read it
    assert fields["When"].endswith("round 1") and fields["When"].startswith("session ")
    assert "everyone" in fields["Who saw it"]
    assert fields["Narration"] == "offline narrator"
    # Bessa was spoken to: her line, the trigger and why it woke, as "<NPC>: <line> — woke on ... because ..."
    voice = fields["NPC voices"]
    assert re.match(r"Bessa Marlow: “[^”]+” — woke on being spoken to because Greyrock spoke to Bessa", voice)
    assert "attitude +30" in voice  # Bessa is fond of Greyrock (the scenario's friend edge)
    # Why: the actions behind the round; Replay: the seed against its commitment, re-resolved.
    assert "Greyrock" in fields["Why"] and "→" in fields["Why"]
    assert "matches" in fields["Replay"] and "identical" in fields["Replay"]
    assert card["footer"]["text"].startswith("round · round-")
    # "round 1" (the latest session) and "round-<session>.1" are the same card.
    session = fields["When"].split(",")[0].removeprefix("session ")
    again = _card(await harness.command("ledger record", BOB, id=f"round-{session}.1"))
    assert _fields(again) == fields


async def test_an_event_card_from_a_round_replays_its_roll(harness: DiscordHarness) -> None:
    history = await harness.command("ledger history", BOB, count=10)
    refs = re.findall(r"`(ev-\d+)` s\d+ r1:", history.text)
    assert refs, history.text
    card = _card(await harness.command("ledger record", BOB, id=refs[0]))
    fields = _fields(card)
    _clean(card)
    assert set(fields) >= {"When", "Who saw it", "Why", "Replay"}, fields
    assert fields["When"].endswith(", round 1")
    assert "round" in fields["Why"] and "#" not in fields["Why"]
    assert "matches" in fields["Replay"]
    assert "Kind" not in fields and "Session" not in fields and "Witnesses" not in fields  # said once, above
    assert card["title"] and "(event)" not in card["title"]


async def test_a_thread_card_says_each_thing_once(harness: DiscordHarness) -> None:
    card = _card(await harness.command("ledger record", BOB, id="favor-0003-01"))
    fields = _fields(card)
    _clean(card)
    assert card["title"].startswith("Wei hid a shipment")
    assert fields["When"] == "session 3" and fields["Parties"] == "Old Wei, Greyrock"
    assert "Terms" not in fields and "Opened session" not in fields and "Session" not in fields
    assert "favor-0003-01" in card["footer"]["text"]


async def test_an_unknown_round_is_a_plain_answer(harness: DiscordHarness) -> None:
    missing = await harness.command("ledger record", BOB, id="round-99")
    assert missing.ephemeral and "round" in missing.text.lower() and "error id" not in missing.text
