"""The courier (channel posts and DMs that are not replies), message splitting and the graph picture."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord_courier import DiscordCourier
from bot.discord_format import split_text
from bot.graph_render import edge_label, render_graph
from bot.table import DMClosed
from bot.views import EdgeView, GraphView
from tests.discord_harness import CHANNEL_ID, GUILD_ID, DiscordHarness, FakeTable, sample_report


@pytest.fixture
async def harness() -> DiscordHarness:
    return await DiscordHarness.create(FakeTable())


async def test_long_narration_is_split_at_paragraphs_under_2000_characters(harness: DiscordHarness) -> None:
    courier = DiscordCourier(harness.bot)
    paragraphs = [f"Paragraph {i}. " + "The tide turns. " * 75 for i in range(3)]  # ~1200 characters each
    first_id = await courier.post_public(str(GUILD_ID), str(CHANNEL_ID), "\n\n".join(paragraphs))
    posts = harness.channel_posts
    assert len(posts) == 3 and first_id.isdigit()
    assert all(len(p.content) <= 2000 for p in posts)
    assert [p.content.split(".")[0] for p in posts] == ["Paragraph 0", "Paragraph 1", "Paragraph 2"]
    assert all(p.allowed_mentions == {"parse": []} for p in posts)


async def test_huge_narration_is_attached_and_mentions_are_limited(harness: DiscordHarness) -> None:
    courier = DiscordCourier(harness.bot)
    text = "<@201> and @everyone. " + "The storm rages on. " * 600  # 12k characters
    await courier.post_public(str(GUILD_ID), str(CHANNEL_ID), text, mention_user_ids=["201"])
    (post,) = harness.channel_posts
    assert post.files == ["narration.txt"] and "attached" in post.content
    assert post.allowed_mentions == {"parse": [], "users": [201]}


async def test_dm_to_a_closed_inbox_raises_dm_closed(harness: DiscordHarness) -> None:
    courier = DiscordCourier(harness.bot)
    assert (await courier.send_dm("201", "A secret.")).isdigit()
    assert harness.dms[201][0].content == "A secret."
    harness.dm_closed.add(202)
    with pytest.raises(DMClosed):
        await courier.send_dm("202", "Another secret.")
    assert 202 not in harness.dms


@given(st.text(alphabet=st.sampled_from("ab .!\n"), max_size=3000), st.integers(20, 500))
def test_split_text_keeps_every_word_within_the_limit(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    assert all(len(p) <= limit for p in pieces)
    squeeze = str.maketrans("", "", " \n")
    assert "".join(pieces).translate(squeeze) == text.translate(squeeze)  # nothing lost, nothing added


def test_split_text_prefers_sentence_ends() -> None:
    text = "First sentence here. " * 10 + "Last one!"
    pieces = split_text(text.strip(), 100)
    assert all(p.endswith((".", "!")) for p in pieces)


def _edge(ref: str, source: str, target: str, kind: str, attitude: int) -> EdgeView:
    return EdgeView(
        ref=ref, source=source, target=target, kind=kind, attitude=attitude, reason="", since_session=1
    )


def test_graph_png_is_deterministic_and_works_without_edges() -> None:
    view = GraphView(
        nodes=("Mira", "Old Wei", "Greyrock"),
        edges=(
            _edge("r1", "Mira", "Old Wei", "owes-favour", 40),
            _edge("r2", "Old Wei", "Mira", "enemy", -60),
        ),
    )
    png = render_graph(view)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert render_graph(view) == png
    assert render_graph(view.model_copy(update={"edges": ()})) != png
    empty = render_graph(GraphView(nodes=(), edges=()))
    assert empty.startswith(b"\x89PNG")
    assert edge_label(view.edges[0]) == "owes favour (+40)"


def test_a_huge_round_report_fits_discords_embed_limits() -> None:
    from bot.discord_format import fit_embeds, round_report_embeds
    from bot.views import ActionLine, RoundReport

    actions = tuple(
        ActionLine(
            actor=f"Goblin {i}", summary="x" * 300, rolls=("attack: " + "d20 " * 60,) * 3, outcome="miss"
        )
        for i in range(60)
    )
    report = RoundReport(
        round_number=4,
        initiative=tuple(f"Goblin {i} {i}" for i in range(60)),
        actions=actions,
        public_text="",
        source="regenerated",
        seed=9,
        seed_commitment="c0ffee",
        dms_sent=0,
        dms_undelivered=(),
        conflicts_queued=0,
    )
    embeds = round_report_embeds(report)
    shown = "\n".join(f.name or "" for e in embeds for f in e.fields)
    assert all(f"Goblin {i}" in shown for i in range(60))  # no action dropped
    assert "rewritten once" in (embeds[-1].footer.text or "")
    for group in fit_embeds(embeds):
        assert len(group) <= 10 and sum(len(e) for e in group) <= 6000
    for embed in embeds:
        assert len(embed.fields) <= 25


async def test_narration_pings_only_the_rounds_players_and_deadline_rounds_get_their_dice(
    harness: DiscordHarness,
) -> None:

    courier = DiscordCourier(harness.bot)
    await courier.post_public(
        str(GUILD_ID), str(CHANNEL_ID), "The tide turns.", mention_user_ids=["201", "202"]
    )
    (post,) = harness.channel_posts
    assert post.content.startswith("<@201> <@202>") and post.allowed_mentions == {
        "parse": [],
        "users": [201, 202],
    }
    report = sample_report()
    await courier.post_results(str(GUILD_ID), str(CHANNEL_ID), report)
    results = harness.channel_posts[-1]
    assert results.allowed_mentions == {"parse": []}
    assert "Round 2: results" in str(results.embeds)


def test_ledger_and_rules_refusals_read_as_messages_not_as_crashes() -> None:
    from bot.discord_client import describe_error
    from ledger.errors import NotEnoughHeld
    from rules.errors import DiceError

    assert describe_error(NotEnoughHeld("pc-mira holds only 2 of item-gold")) == (
        "pc-mira holds only 2 of item-gold",
        True,
    )
    assert describe_error(DiceError("Too many dice: at most 100")) == ("Too many dice: at most 100", True)
    assert describe_error(RuntimeError("boom"))[1] is False
