"""How a round reads in Discord (issue 13): one round message, the dice first and the story under it, the
narration's source in the footer, and a long fight paginated under Discord's limits.

Through the real command tree: the real table (harbour scenario, SQLite, offline narrator) closes a round with
``/ready`` and its courier posts the round; a 30-action round goes out through the same courier.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_courier import DiscordCourier
from bot.discord_format import EMBED_TOTAL_LIMIT, MAX_EMBEDS_PER_MESSAGE
from bot.views import ActionLine, RoundReport
from tests.discord_harness import CHANNEL_ID, GUILD_ID, DiscordHarness, FakeTable, Post
from tests.test_discord_real_table import ALICE, BOB, CARA, CLAIMS, GM, _harness


@pytest.fixture
async def table_harness(tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    h = await _harness(tmp_path, seed=11)
    try:
        await h.command("campaign start", GM, name="Saltmere", scenario="harbor")
        for member, claim in CLAIMS:
            await h.command("join", member, claim=claim)
        yield h
    finally:
        await h.bot.table.aclose()


def _size(embed: dict[str, Any]) -> int:
    """An embed's characters as Discord counts them against the 6000 of a message."""
    size = len(embed.get("title", "")) + len(embed.get("description", ""))
    size += len(embed.get("footer", {}).get("text", ""))
    return size + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


def _is_dice(embed: dict[str, Any]) -> bool:
    return "results" in embed.get("title", "")


def _is_story(embed: dict[str, Any]) -> bool:
    return not _is_dice(embed) and bool(embed.get("description"))


async def test_a_round_is_one_message_with_the_dice_before_the_story(table_harness: DiscordHarness) -> None:
    h = table_harness
    await h.command("act", ALICE, text="ask Bessa Marlow whether anyone left a message for us")
    await h.command("act", BOB, text="look around the common room")
    await h.command("act", CARA, text="hold position")
    for member in (ALICE, BOB):
        await h.command("ready", member)
    closed = await h.command("ready", CARA)
    # The command's answer points at the round's message instead of repeating the dice.
    assert "round's message" in closed.text and not any(m.embeds for m in closed.messages), closed.text
    rounds = [p for p in h.channel_posts if "**Round 1**" in p.content]
    assert len(rounds) == 1, [p.content for p in h.channel_posts]
    (post,) = rounds
    kinds = ["dice" if _is_dice(e) else "story" if _is_story(e) else "?" for e in post.embeds]
    assert kinds[0] == "dice" and "story" in kinds, kinds
    assert kinds.index("story") > max(i for i, k in enumerate(kinds) if k == "dice")  # dice first
    dice, story = post.embeds[0], post.embeds[kinds.index("story")]
    assert dice["fields"][0]["name"] == "Initiative"
    assert "Bessa Marlow" in story["description"] and "**Round" not in story["description"]
    # The narration's source (the offline narrator here) is in the footer, under the story.
    assert post.embeds[-1]["footer"]["text"].startswith("narration: offline narrator"), post.embeds[-1]
    assert "footer" not in dice
    # The players are pinged on the round message, nobody else.
    assert set(post.allowed_mentions["users"]) == {ALICE.user_id, BOB.user_id, CARA.user_id}  # type: ignore[index]


def _fight(actions: int, story_sentences: int) -> RoundReport:
    return RoundReport(
        round_number=7,
        initiative=tuple(f"Fighter {i} {30 - i}" for i in range(actions)),
        actions=tuple(
            ActionLine(
                actor=f"Fighter {i}",
                summary=f"Fighter {i} attacks Fighter {(i + 1) % actions} with a boarding axe",
                rolls=(f"attack: d20 ({i % 20 + 1}) + 5 = {i % 20 + 6} vs AC 13 -> hit",) * 2,
                outcome="hit",
            )
            for i in range(actions)
        ),
        public_text=" ".join(
            f"Blow {n} lands on the slick deck as the ship rolls." for n in range(story_sentences)
        ),
        source="fallback",
        seed=77,
        seed_commitment="feed",
        dms_sent=0,
        dms_undelivered=(),
        conflicts_queued=0,
    )


async def test_a_thirty_action_fight_is_paginated_under_discords_limits() -> None:
    h = await DiscordHarness.create(FakeTable())
    courier = DiscordCourier(h.bot)
    report = _fight(30, 120)
    await courier.post_round(str(GUILD_ID), str(CHANNEL_ID), "unused", report, mention_user_ids=["201"])
    posts: list[Post] = h.channel_posts
    assert len(posts) >= 2, "a 30-action round with a long story needs more than one message"
    for post in posts:
        assert len(post.embeds) <= MAX_EMBEDS_PER_MESSAGE
        assert sum(_size(e) for e in post.embeds) <= EMBED_TOTAL_LIMIT
        assert all(
            len(e.get("description", "")) <= 4096 and len(e.get("fields", [])) <= 25 for e in post.embeds
        )
    # Only the first message carries the header and the ping.
    assert posts[0].content == "<@201> **Round 7**" and not any(p.content for p in posts[1:])
    assert posts[0].allowed_mentions == {"parse": [], "users": [201]}
    embeds = [e for p in posts for e in p.embeds]
    kinds = ["dice" if _is_dice(e) else "story" for e in embeds]
    assert kinds == sorted(kinds), kinds  # every dice embed before every story embed
    actors = [
        f["name"]
        for e in embeds
        if _is_dice(e)
        for f in e.get("fields", [])
        if f["name"].startswith("Fighter")
    ]
    assert actors == [f"Fighter {i}" for i in range(30)]  # every action once, in order
    told = " ".join(e["description"] for e in embeds if not _is_dice(e))
    assert all(f"Blow {n} lands" in told for n in range(120))  # the whole story, nothing dropped
    assert "built from the results" in embeds[-1]["footer"]["text"]
    assert sum("footer" in e for e in embeds) == 1
    assert courier.posted_round(report)
