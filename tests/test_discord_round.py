"""Playing through Discord with the in-memory table: a whole round, disputes, GM powers, bad input."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.discord_harness import GM_ROLE_ID, PLAYER_ROLE_ID, DiscordHarness, FakeTable, Member

GM = Member(101, "Gina", (GM_ROLE_ID,))
MIRA = Member(201, "Ana", (PLAYER_ROLE_ID,))
GREY = Member(202, "Ben", (PLAYER_ROLE_ID,))
CARA = Member(203, "Cy", (PLAYER_ROLE_ID,))


@pytest.fixture
async def table() -> FakeTable:
    return FakeTable()


@pytest.fixture
async def harness(table: FakeTable) -> DiscordHarness:
    h = await DiscordHarness.create(table)
    assert table.courier is not None
    await h.command("campaign start", GM, name="The Harbor")
    for member, name in ((MIRA, "Mira"), (GREY, "Greyrock"), (CARA, "Cara")):
        joined = await h.command("join", member, name=name)
        assert f"{name} joins the party" in joined.text
    await h.command("session start", GM)
    return h


async def test_three_players_act_ready_and_the_round_is_narrated_and_dmed(harness: DiscordHarness) -> None:
    harness.dm_closed.add(CARA.user_id)
    acted = await harness.command("act", MIRA, text="I ask Old Wei about the ship", target="npc-old-wei")
    assert acted.ephemeral and "action recorded" in acted.text and "Old Wei" in acted.text
    await harness.command("act", GREY, text="I swing at the thug", target="npc-dock-thug", skill="athletics")
    await harness.command("act", CARA, text="I whisper to Old Wei", target="npc-old-wei")

    first = await harness.command("ready", MIRA)
    assert "Waiting for: Greyrock, Cara" in first.text and not harness.channel_posts
    await harness.command("ready", GREY)
    last = await harness.command("ready", CARA)

    assert last.deferred  # acknowledged before the slow round close
    assert "Round 1: results" in last.text and "Initiative" in last.text
    assert "d20 (14) + 3 = 17" in last.text  # every action with its roll lines
    assert "built from the results" in last.text  # the narration's source in the footer
    # The public narration went to the campaign channel, pinging nobody.
    assert len(harness.channel_posts) == 1
    assert "Greyrock acts" in harness.channel_posts[0].content
    assert harness.channel_posts[0].allowed_mentions == {"parse": []}
    # Mira's private note came by DM; nobody else got a DM and the note is not in the channel.
    assert list(harness.dms) == [MIRA.user_id]
    assert "harbormaster lies" in harness.dms[MIRA.user_id][0].content
    assert "harbormaster" not in harness.channel_posts[0].content
    # Cara's DMs are closed: she is told (privately too) that her note waits in /ledger notes.
    public_notice = [m for m in last.messages if not m.ephemeral]
    assert any(f"<@{CARA.user_id}>" in m.content and "/ledger notes" in m.content for m in public_notice)
    assert any(m.ephemeral and "DMs are closed" in m.text for m in last.messages)

    notes = await harness.command("ledger notes", CARA)
    assert notes.ephemeral and "Cara a note: the harbormaster lies" in notes.text
    assert "not delivered by DM" in notes.text
    assert "No private notes" in (await harness.command("ledger notes", GREY)).text


async def test_a_dispute_and_the_gms_ruling(harness: DiscordHarness) -> None:
    for member in (MIRA, GREY, CARA):
        await harness.command("act", member, text="I look around")
        await harness.command("ready", member)
    record = await harness.command("ledger record", MIRA, id="ev-000001")
    assert "ev-000001" in record.text and "replays identically" in record.text

    raised = await harness.command("ledger dispute", MIRA, id="ev-000001", reason="Old Wei was not there")
    assert "Dispute #1 raised" in raised.text and not raised.ephemeral
    listed = await harness.command("gm disputes", GM)
    assert listed.ephemeral and "Old Wei was not there" in listed.text and "[open]" in listed.text

    ruled = await harness.command("gm rule", GM, id=1, decision="accept", note="Right, he left at dawn.")
    assert "Dispute #1 accepted" in ruled.text and "he left at dawn" in ruled.text
    rejected = await harness.command("gm rule", GM, id=1, decision="reject", note="On reflection, no.")
    assert "rejected" in rejected.text


async def test_gm_commands_refuse_a_player_privately(harness: DiscordHarness) -> None:
    for path, options in (
        ("gm disputes", {}),
        ("gm rule", {"id": 1, "decision": "accept", "note": "mine now"}),
        ("gm deadline", {"minutes": 5}),
        ("round close", {}),
        ("session end", {}),
    ):
        refused = await harness.command(path, MIRA, **options)
        assert refused.ephemeral, path
        assert refused.text.strip() == "Only the GM can do that.", path
        if refused.deferred:  # the public "thinking…" placeholder is removed, not left hanging
            assert [s.kind for s in refused.sent] == ["defer", "delete", "followup"], path
    assert not harness.channel_posts


async def test_the_gm_role_gives_gm_powers_to_someone_who_is_not_the_owner(harness: DiscordHarness) -> None:
    co_gm = Member(301, "Cog", (GM_ROLE_ID,))
    assert "Deadline" in (await harness.command("gm deadline", co_gm, minutes=15)).text
    conflicts = await harness.command("gm conflicts", co_gm)
    assert "alive(npc-old-wei)" in conflicts.text
    settled = await harness.command("gm conflict", co_gm, id=1, action="dismiss", note="poetic licence")
    assert "dismissed" in settled.text


async def test_autocomplete_offers_targets_and_records(harness: DiscordHarness) -> None:
    choices = await harness.autocomplete("act", MIRA, "target", text="I talk", target="old")
    assert choices == [{"name": "Old Wei", "value": "npc-old-wei"}]
    assert await harness.autocomplete("act", MIRA, "target", text="x", target="") == [
        {"name": "Dock Thug", "value": "npc-dock-thug"},
        {"name": "Old Wei", "value": "npc-old-wei"},
    ]
    for member in (MIRA, GREY, CARA):
        await harness.command("act", member, text="I wait")
        await harness.command("ready", member)
    assert await harness.autocomplete("ledger record", MIRA, "id", id="ev-") == [
        {"name": "ev-000001", "value": "ev-000001"}
    ]


async def test_bad_input_gets_a_private_message_and_no_traceback(harness: DiscordHarness) -> None:
    dice = await harness.command("roll", MIRA, expr="d20+++banana")
    assert dice.ephemeral and "can't read the dice" in dice.text
    target = await harness.command("act", MIRA, text="I hit it", target="npc-dragon")
    assert target.ephemeral and "There is no 'npc-dragon' here." in target.text
    huge = await harness.command("act", MIRA, text="a" * 501)
    assert huge.ephemeral and "1 to 500 characters" in huge.text
    for answer in (dice, target, huge):
        assert "Traceback" not in answer.text and "error id" not in answer.text
    status = await harness.command("round status", MIRA)
    acted = status.text.split("Acted, not ready yet")[1].split("Not acted yet")[0]
    assert "Mira" not in acted, "refused actions are not recorded"


async def test_an_unexpected_failure_shows_an_error_id_that_is_in_the_log(
    harness: DiscordHarness, table: FakeTable, caplog: pytest.LogCaptureFixture
) -> None:
    table.explode_on = "submit"
    with caplog.at_level(logging.ERROR, logger="bot.discord_client"):
        broken = await harness.command("act", MIRA, text="I open the door")
    assert broken.ephemeral
    text = broken.text
    assert text.startswith("Something went wrong (error id ") and "RuntimeError" not in text
    error_id = text.split("error id ")[1].split(")")[0]
    logged = [r for r in caplog.records if error_id in r.getMessage()]
    assert logged and logged[0].exc_info is not None  # the traceback is in the log, not in Discord


async def test_rolls_are_public_unless_private(harness: DiscordHarness) -> None:
    public = await harness.command("roll", MIRA, expr="1d20+5")
    assert not public.ephemeral and "Total: 17" in public.text and "seed 42" in public.text
    private = await harness.command("roll", MIRA, expr="1d20+5", private=True, seed=7)
    assert private.ephemeral and "seed 7" in private.text


async def test_long_lists_page_and_only_the_asker_turns_pages(harness: DiscordHarness) -> None:
    listed = await harness.command("ledger relationships", MIRA)
    assert "NPC 0 →" in listed.text and "NPC 10 →" not in listed.text and "page 1/3" in listed.text
    turned = await harness.press(listed, "Next", MIRA)
    assert "NPC 10 →" in turned.text and "page 2/3" in turned.text
    other = await harness.press(listed, "Next", GREY)
    assert other.ephemeral and "Only the player who asked" in other.text


async def test_own_inventory_is_private_and_commands_need_a_campaign(harness: DiscordHarness) -> None:
    own = await harness.command("ledger inventory", MIRA)
    assert own.ephemeral and "Silver Dagger" in own.text
    outsider = Member(999, "Zed")
    assert "use /join first" in (await harness.command("act", outsider, text="hi")).text
    ended = await harness.command("campaign end", GM)
    assert "has ended" in ended.text
    gone = await harness.command("campaign status", MIRA)
    assert gone.ephemeral and "no campaign in this channel" in gone.text


async def test_graph_is_posted_as_a_png(harness: DiscordHarness) -> None:
    drawn = await harness.command("ledger graph", MIRA)
    assert drawn.messages[0].files == ["relationships.png"]
    assert "3 relationships" in drawn.text


async def test_the_bot_closes_rounds_past_their_deadline_and_resumes_on_start(table: FakeTable) -> None:
    calls: list[str] = []

    async def tick() -> None:
        calls.append("tick")

    async def resume() -> None:
        calls.append("resume")

    table.tick = tick  # type: ignore[method-assign]
    table.resume = resume  # type: ignore[method-assign]
    h = await DiscordHarness.create(table, tick=True)
    try:
        h.bot._ready.set()  # what the gateway's READY would do
        for _ in range(50):
            await asyncio.sleep(0.01)
            if len(calls) >= 2:
                break
        assert calls[:2] == ["resume", "tick"]
    finally:
        await h.bot.close()


async def test_campaign_commands_in_a_dm_point_to_the_server(harness: DiscordHarness) -> None:
    refused = await harness.dm_command("campaign status", MIRA)
    assert refused.ephemeral and "server channel" in refused.text
    rolled = await harness.dm_command("roll", MIRA, expr="1d20")
    assert "Total: 17" in rolled.text


async def test_page_buttons_are_disabled_when_the_pager_times_out(harness: DiscordHarness) -> None:
    listed = await harness.command("ledger relationships", MIRA)
    view = harness.bot._connection._view_store._views  # the live pager, by message id
    (pager,) = {v.view for items in view.values() for v in items.values() if v.view is not None}
    await pager.on_timeout()
    edits = [s for s in harness._sent[f"tok-{listed.interaction_id}"] if s.kind == "edit"]
    assert edits and all(b["disabled"] for b in edits[-1].buttons().values())
