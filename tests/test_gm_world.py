"""The GM builds the world live through the real command tree (issue 12, section 1).

A blank campaign on the real table (SQLite, or PostgreSQL with ``TABLEKEEPER_TEST_DATABASE_URL``): the GM
moves the party to a new place, brings in two NPCs, spawns an encounter, hands out an item, opens a thread
and plants secrets, each answered privately with exactly what was written (cause ``gm-<id>``); bad input is
a one-line refusal that changes nothing; then three rounds are played with the new NPCs in the checker's
view, and the narration names them without a conflict.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import parse_settings
from bot.discord_courier import DiscordCourier
from bot.views import Caller, Where
from ledger import service
from ledger.store.visibility import Viewer
from tests.discord_harness import CHANNEL_ID, GM_ROLE_ID, GUILD_ID, DiscordHarness, Member

GM = Member(100, "Gina", (GM_ROLE_ID,))
ALICE = Member(1001, "alice")
BOB = Member(1002, "bob")
WHERE = Where(guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID))
GM_CALLER = Caller(user_id=str(GM.user_id), display_name=GM.name, has_gm_role=True)


async def _harness(tmp_path: Path, url: str) -> DiscordHarness:
    from bot.table import Table

    settings = parse_settings(
        {
            "discord": {"guild_ids": [GUILD_ID], "gm_role": "GM"},
            "storage": {"database_url": url, "data_dir": str(tmp_path / "data")},
        }
    )
    rng = random.Random(7)

    async def factory(courier: DiscordCourier) -> Table:
        return await Table.create(settings, courier=courier, seeds=lambda: rng.randrange(1, 2**53))

    return await DiscordHarness.create(settings=settings, table_factory=factory)


@pytest.fixture
async def harness(tmp_path: Path, database_url: str) -> AsyncIterator[DiscordHarness]:
    h = await _harness(tmp_path, database_url)
    try:
        started = await h.command("campaign start", GM, name="Blank Roads")
        assert "Blank Roads" in started.text, started.text
        for member, name in ((ALICE, "Ayla"), (BOB, "Bram")):
            joined = await h.command("join", member, name=name)
            assert f"{name} joins the party" in joined.text, joined.text
        yield h
    finally:
        await h.bot.table.aclose()


async def _events(h: DiscordHarness) -> int:
    table = h.bot.table
    status = await table.campaign_status(WHERE, GM_CALLER)
    async with table.context.session() as s:
        return len(await service.history(s, campaign_id=status.id, viewer=Viewer.gm(), limit=10_000))


async def _campaign_id(h: DiscordHarness) -> int:
    return int((await h.bot.table.campaign_status(WHERE, GM_CALLER)).id)


def _refused(outcome: Any, *words: str) -> None:
    assert outcome.ephemeral, outcome.text
    assert "error id" not in outcome.text and len(outcome.text.strip().splitlines()) == 1, outcome.text
    for word in words:
        assert word.lower() in outcome.text.lower(), outcome.text


async def _build(h: DiscordHarness) -> None:
    """The scene of the story: a new place, two NPCs, three bandits, an item, a thread."""
    moved = await h.command(
        "gm move", GM, who="party", to="The Old Mill", description="A creaking mill over a black river."
    )
    assert moved.ephemeral and "The Old Mill is discovered" in moved.text, moved.text
    assert "Ayla went to The Old Mill" in moved.text and "Bram went to The Old Mill" in moved.text
    marta = await h.command(
        "gm npc",
        GM,
        name="Marta Vell",
        description="A ferrywoman with tar-black hands.",
        attitude=30,
        pronouns="she/her",
    )
    assert marta.ephemeral and "Marta Vell enters the story at The Old Mill" in marta.text, marta.text
    assert "Marta Vell -> Ayla: regard (+30)" in marta.text
    jonah = await h.command("gm npc", GM, name="Jonah Pike", description="A nervous miller.", stats="guard")
    assert "Jonah Pike enters the story" in jonah.text, jonah.text
    spawned = await h.command("gm spawn", GM, creature="bandit", count=3)
    assert spawned.ephemeral, spawned.text
    assert "The first bandit, the second bandit and the third bandit appear" in spawned.text
    assert "Bandit 2" not in spawned.text
    item = await h.command("gm item", GM, name="Rusty Key", to="Marta Vell", description="Opens the loft.")
    assert "Rusty Key appears with Marta Vell" in item.text, item.text
    thread = await h.command(
        "gm thread-open",
        GM,
        kind="favour",
        to="Ayla",
        terms="Marta ferries the party across at dawn if Ayla finds her brother",
        **{"from": "Marta Vell"},
    )
    assert "favor-0001-01" in thread.text and "seen by everyone" in thread.text, thread.text


async def test_every_world_command_lands_privately_with_the_gm_as_cause(harness: DiscordHarness) -> None:
    h = harness
    await _build(h)
    table = h.bot.table
    cid = await _campaign_id(h)
    async with table.context.session() as s:
        marta = await service.find_entity(s, campaign_id=cid, name="Marta Vell", viewer=Viewer.party())
        bandits = await service.entities_at(
            s, campaign_id=cid, location_id="loc-the-old-mill", viewer=Viewer.party()
        )
        events = await service.history(s, campaign_id=cid, viewer=Viewer.gm(), limit=30)
        key = await service.inventory(s, campaign_id=cid, holder_id="npc-marta-vell", viewer=Viewer.gm())
    assert marta is not None and marta.location == "loc-the-old-mill" and marta.sheet
    assert marta.sheet["pronouns"] == "she/her"
    monsters = sorted(e.id for e in bandits if e.kind == "monster")
    assert monsters == ["monster-bandit-1", "monster-bandit-2", "monster-bandit-3"]
    second = next(e for e in bandits if e.id == "monster-bandit-2")
    assert second.name == "Bandit" and "the second bandit" in second.aliases and second.hp == 11
    assert [k.item_name for k in key] == ["Rusty Key"]
    assert {e.cause for e in events[:10]} == {f"gm-{GM.user_id}"}
    # Updating an NPC of the same name changes what changed, as ledger events.
    updated = await h.command(
        "gm npc", GM, name="Marta Vell", description="Soaked to the knees.", attitude=-20
    )
    assert "Marta Vell is updated" in updated.text, updated.text
    assert "Marta Vell's description: Soaked to the knees." in updated.text
    assert "Marta Vell -> Bram: regard (-20)" in updated.text
    # An item leaves the world with its fate.
    removed = await h.command("gm item-remove", GM, name="Rusty Key", fate="confiscated")
    assert "Marta Vell no longer has Rusty Key" in removed.text and "fate: confiscated" in removed.text
    # A rumour and a feud are threads too.
    rumour = await h.command(
        "gm thread-open", GM, kind="rumour", to="Jonah Pike", terms="The mill is haunted", **{"from": "Bram"}
    )
    assert "rumour-0001-01" in rumour.text, rumour.text
    # A GM secret stays hidden; a secret told now reaches one player by DM and nobody else.
    hidden = await h.command("gm secret", GM, about="Jonah Pike", text="Jonah sold the grain to the bandits.")
    assert "seen by the GM only" in hidden.text, hidden.text
    told = await h.command(
        "gm secret",
        GM,
        about="Marta Vell",
        text="Her brother leads the bandits.",
        **{"for": str(ALICE.user_id)},
    )
    assert "Sent to the player by DM" in told.text, told.text
    assert "Her brother leads the bandits." in h.dms[ALICE.user_id][-1].content
    assert BOB.user_id not in h.dms
    async with table.context.session() as s:
        alice = await service.facts(s, campaign_id=cid, viewer=Viewer.player(str(ALICE.user_id)))
        bob = await service.facts(s, campaign_id=cid, viewer=Viewer.player(str(BOB.user_id)))
        party = await service.facts(s, campaign_id=cid, viewer=Viewer.party())
    assert any(f.value == "Her brother leads the bandits." for f in alice)
    assert not any("bandits" in str(f.value) for f in [*bob, *party])
    notes = await h.command("ledger notes", ALICE)
    assert "Her brother leads the bandits." in notes.text


async def test_autocomplete_offers_creatures_places_people_items_and_players(harness: DiscordHarness) -> None:
    h = harness
    await _build(h)
    creatures = await h.autocomplete("gm spawn", GM, "creature", creature="ban")
    assert [c["value"] for c in creatures] == ["bandit"]
    places = await h.autocomplete("gm npc", GM, "location", name="X", location="the o")
    assert [c["value"] for c in places] == ["The Old Mill"]
    movers = await h.autocomplete("gm move", GM, "who", who="")
    assert movers and movers[0]["value"] == "party"
    holders = await h.autocomplete("gm item", GM, "to", name="Rope", to="mar")
    assert [c["value"] for c in holders] == ["Marta Vell"]
    items = await h.autocomplete("gm item-remove", GM, "name", name="rus", fate="lost")
    assert [c["value"] for c in items] == ["Rusty Key"]
    players = await h.autocomplete("gm secret", GM, "for", about="Marta Vell", text="x", **{"for": ""})
    assert {c["name"] for c in players} == {"Ayla", "Bram"}
    # A player is offered nothing from the GM's lists.
    assert await h.autocomplete("gm item", ALICE, "to", name="Rope", to="mar") == []


async def test_bad_input_is_a_one_line_refusal_and_changes_nothing(harness: DiscordHarness) -> None:
    h = harness
    await _build(h)
    before = await _events(h)
    _refused(await h.command("gm spawn", GM, creature="dragon"), "no creature", "dragon")
    _refused(await h.command("gm npc", GM, name="Ayla"), "player character")
    _refused(await h.command("gm spawn", GM, creature="wolf", name="Marta Vell"), "already")
    _refused(await h.command("gm npc", GM, name="The Old Mill"), "already a place")
    _refused(await h.command("gm item", GM, name="Lamp", to="Nowhere Town"), "nowhere town")
    _refused(await h.command("gm npc", GM, name="Ned", location="Nowhere Town"), "no place")
    _refused(await h.command("gm npc", ALICE, name="Evil Twin"), "only the gm")
    _refused(await h.command("gm spawn", BOB, creature="wolf"), "only the gm")
    _refused(await h.command("gm npc", GM, name="Long", description="x" * 1500), "too long")
    _refused(await h.command("gm secret", GM, about="Marta Vell", text="y" * 900), "too long")
    _refused(await h.command("gm item-remove", GM, name="Golden Goose", fate="lost"), "no item")
    _refused(
        await h.command(
            "gm thread-open", GM, kind="oath", to="Nobody Atall", terms="x", **{"from": "Marta Vell"}
        ),
        "nobody",
    )
    _refused(await h.command("gm secret", GM, about="Marta Vell", text="z", **{"for": "Zed"}), "no player")
    _refused(await h.command("gm npc", GM, name="Bandit"), "names 3 creatures")
    _refused(await h.command("gm move", GM, who="Bandit", to="The Crossroads"), "the second bandit")
    assert await _events(h) == before
    assert not h.channel_posts or all("Marta" not in p.content for p in h.channel_posts)


async def test_a_blank_campaign_built_live_plays_three_rounds_naming_the_newcomers(
    harness: DiscordHarness,
) -> None:
    from ledger.check.snapshot_sql import snapshot_from_ledger

    h = harness
    await _build(h)
    table = h.bot.table
    cid = await _campaign_id(h)
    async with table.context.session() as s:
        snap = await snapshot_from_ledger(
            s,
            campaign_id=cid,
            audience=Viewer.party(),
            location="loc-the-old-mill",
            present=["npc-marta-vell", "npc-jonah-pike", "monster-bandit-1", "pc-ayla", "pc-bram"],
        )
    ids = set(snap.entities)
    assert {"npc-marta-vell", "npc-jonah-pike", "monster-bandit-2", "item-rusty-key"} <= ids
    from ledger.recall.retrieval import scene_context

    async with table.context.session() as s:
        recalled = await scene_context(
            s,
            campaign_id=cid,
            location="loc-the-old-mill",
            present=["npc-marta-vell", "pc-ayla", "pc-bram"],
            viewer=Viewer.party(),
            current_session=1,
        )
    assert any("Marta" in r.text for r in recalled.records), recalled.records
    posts: list[str] = []
    rounds = [
        (
            ("ask Marta Vell about the ferry", "npc-marta-vell"),
            ("ask Jonah Pike about the grain", "npc-jonah-pike"),
        ),
        (("attack the first bandit", "monster-bandit-1"), ("attack the second bandit", "monster-bandit-2")),
        (("thank Marta Vell", "npc-marta-vell"), ("look around the mill", None)),
    ]
    for number, ((text_a, target_a), (text_b, target_b)) in enumerate(rounds, start=1):
        options_a = {"target": target_a} if target_a else {}
        options_b = {"target": target_b} if target_b else {}
        acted = await h.command("act", ALICE, text=text_a, **options_a)
        assert "error" not in acted.text.lower(), acted.text
        acted = await h.command("act", BOB, text=text_b, **options_b)
        assert "error" not in acted.text.lower(), acted.text
        await h.command("ready", ALICE)
        closed = await h.command("ready", BOB)
        assert f"round {number} resolves" in closed.text, closed.text
        post = h.channel_posts[-1]
        posts.append("\n".join([post.content, *(str(e.get("description", "")) for e in post.embeds)]))
    told = "\n".join(posts)
    # The GM's newcomers are heard first in the next round's story; same-named bandits read by ordinal.
    assert (
        "Marta Vell, Jonah Pike, the first bandit, the second bandit and the third bandit are here."
        in posts[0]
    )
    assert "the first bandit" in posts[1].lower() and "here." not in posts[1]
    assert "Marta Vell" in told and "Jonah Pike" in told, told
    assert "Bandit 2" not in told
    conflicts = await h.command("gm conflicts", GM)
    assert "No conflicts" in conflicts.text, conflicts.text


async def test_more_of_a_creature_continue_the_count_and_history_reads_them_by_ordinal(
    harness: DiscordHarness,
) -> None:
    h = harness
    await _build(h)
    more = await h.command("gm spawn", GM, creature="bandit")
    assert "The fourth bandit appears" in more.text, more.text
    fled = await h.command("gm move", GM, who="the second bandit", to="The Crossroads")
    assert "The second bandit went to The Crossroads" in fled.text, fled.text
    history = await h.command("ledger history", ALICE, count=20)
    assert "The second bandit enters the story" in history.text, history.text
    assert "Bandit 2" not in history.text
    # A thread only one player sees: the other player and the channel do not.
    secret_oath = await h.command(
        "gm thread-open",
        GM,
        kind="oath",
        to="Ayla",
        terms="Jonah swears to hide Ayla from the bandits",
        visibility=f"player:{ALICE.user_id}",
        **{"from": "Jonah Pike"},
    )
    assert "seen by Ayla's player only" in secret_oath.text, secret_oath.text
    assert "oath-0001-01" in (await h.command("ledger threads", ALICE)).text
    assert "oath-0001-01" not in (await h.command("ledger threads", BOB)).text


async def test_the_gm_lists_and_undoes_proposals_and_a_player_may_not(harness: DiscordHarness) -> None:
    h = harness
    listed = await h.command("gm proposals", GM)
    assert listed.ephemeral and "No proposals" in listed.text, listed.text
    _refused(await h.command("gm proposals", ALICE), "only the gm")
    _refused(await h.command("gm undo", ALICE, proposal=1), "only the gm")
    missing = await h.command("gm undo", GM, proposal=99)
    assert missing.ephemeral and "error id" not in missing.text, missing.text


async def test_a_gm_secret_is_revealed_by_a_successful_check_to_that_player_only(
    harness: DiscordHarness,
) -> None:
    h = harness
    await _build(h)
    await h.command("gm secret", GM, about="Jonah Pike", text="Jonah sold the mill's grain to the bandits.")
    for _ in range(12):  # Insight succeeds sooner or later; the seeds are fixed, so this is deterministic
        await h.command("act", ALICE, text="read his face", target="npc-jonah-pike", skill="insight")
        await h.command("act", BOB, text="look around the mill")
        await h.command("ready", ALICE)
        await h.command("ready", BOB)
        if any("grain" in p.content for p in h.dms.get(ALICE.user_id, [])):
            break
    assert any("grain to the bandits" in p.content for p in h.dms.get(ALICE.user_id, [])), h.dms
    public = [p.content + str(p.embeds) for p in h.channel_posts]
    assert public and not any("grain to the bandits" in text for text in public)
    assert not any("grain to the bandits" in p.content for p in h.dms.get(BOB.user_id, []))
