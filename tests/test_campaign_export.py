"""/campaign export (issue 12): a played campaign out as a scenario file, and back in as the same ledger.

Each bundled world is loaded into a ledger, played for two rounds through the table (claimed and newly made
characters, the rules' changes, narration), exported by its GM, and the file loaded into a fresh campaign
through the GM's upload path. The two ledgers are compared: the projected state (records, facts with their
visibility, holdings, threads, edges), every entity, place, item and thread as the GM reads it, and the event
history (kind, payload, session, round, visibility, witnesses, involved records, what it supersedes).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.errors import NoCampaign, NotGM
from bot.table import Table
from bot.views import Caller, Where
from ledger import service
from ledger.scenario.export import toml_value, write_scenario
from ledger.scenario.reading import parse_scenario
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer
from tests.table_helpers import ALICE, BOB, CARA, GM, HARBOR, WHERE, make_table

CRYPT = HARBOR.with_name("crypt.toml")
ELSEWHERE = Where(guild_id="1", channel_id="3")
GM_VIEW = Viewer.gm()
PROVENANCE_CAUSE = {"cause"}  # the loader gives every event scenario:<file>; the rest must match


async def _campaign_id(table: Table, where: Where) -> int:
    async with table.context.session() as s:
        campaign = await service.find_campaign(s, guild_id=where.guild_id, channel_id=where.channel_id)
        assert campaign is not None
        return campaign.id


async def _ledger(table: Table, campaign_id: int) -> dict[str, Any]:
    """The campaign's ledger as plain data, without causes (an import names its file as every cause)."""
    async with table.context.session() as s:
        state = await service.projected_state(s, campaign_id=campaign_id)
        ids = sorted(k for k, kind in state.records.items() if kind == "entity")
        entities = await service.get_entities(s, campaign_id=campaign_id, entity_ids=ids, viewer=GM_VIEW)
        places = await ledger_sessions.locations(s, campaign_id=campaign_id, viewer=GM_VIEW)
        item_ids = sorted(k for k, kind in state.records.items() if kind == "item")
        items = await ledger_sessions.items_by_id(
            s, campaign_id=campaign_id, item_ids=item_ids, viewer=GM_VIEW
        )
        threads = await service.threads(s, campaign_id=campaign_id, viewer=GM_VIEW)
        edges = await ledger_sessions.all_edges(s, campaign_id=campaign_id, viewer=GM_VIEW, limit=10_000)
        events = await service.history(s, campaign_id=campaign_id, viewer=GM_VIEW, limit=100_000)

    def plain(rows: Any) -> list[dict[str, Any]]:
        return sorted(
            (r.model_dump(exclude=PROVENANCE_CAUSE | {"history"}) for r in rows), key=lambda d: repr(d)
        )

    return {
        "state": state.model_dump(),
        "entities": plain(entities),
        "locations": plain(places),
        "items": plain(items),
        "threads": plain(threads),
        "edges": plain(edges),
        "events": [
            (
                e.ref,
                e.kind,
                {k: v for k, v in e.payload.items() if k != "cause"},
                e.session_number,
                e.round_number,
                e.visibility,
                e.witnesses,
                e.involved,
                e.supersedes,
                e.permanent,
            )
            for e in reversed(events)
        ],
    }


async def _play_two_rounds(table: Table, *rounds: dict[Caller, str]) -> None:
    for number, actions in enumerate(rounds, start=1):
        for caller, text in actions.items():
            await table.submit(WHERE, caller, key=f"{caller.user_id}-{number}", text=text)
        report = await table.close_round(WHERE, GM)
        assert report.public_text


async def _round_trip(table: Table) -> tuple[dict[str, Any], dict[str, Any], str]:
    exported = await table.export_campaign(WHERE, GM)
    assert exported.problems == (), exported.problems
    tomllib.loads(exported.text)  # the writer's TOML is TOML
    await table.start_campaign_from_upload(
        ELSEWHERE, GM, filename=exported.filename, data=exported.text.encode("utf-8")
    )
    before = await _ledger(table, await _campaign_id(table, WHERE))
    after = await _ledger(table, await _campaign_id(table, ELSEWHERE))
    return before, after, exported.text


def _in_session_one(ledger: Any) -> Any:
    """``ledger`` with session 0 (a blank campaign's first place, made before play) read as session 1."""
    if isinstance(ledger, dict):
        return {k: max(1, v) if k == "session_number" else _in_session_one(v) for k, v in ledger.items()}
    if isinstance(ledger, list):
        return [_in_session_one(x) for x in ledger]
    if isinstance(ledger, tuple) and len(ledger) == 10 and isinstance(ledger[3], int):  # an event
        return (*ledger[:3], max(1, ledger[3]), *ledger[4:])
    return ledger


def _assert_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert before["state"] == after["state"]
    for part in ("entities", "locations", "items", "threads", "edges"):
        assert sorted(before[part], key=repr) == sorted(after[part], key=repr), part
    assert len(before["events"]) == len(after["events"])
    for old, new in zip(before["events"], after["events"], strict=True):
        assert old == new


async def test_the_harbour_played_two_rounds_exports_and_loads_back_the_same(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await table.start_campaign_from_file(WHERE, GM, path=HARBOR)
        await table.join(WHERE, ALICE, claim="Greyrock")
        await table.join(WHERE, BOB, claim="Mira Quickfinger")
        await table.join(WHERE, CARA, name="Wren Ashdown")  # a character made at the table, owned by cara
        await _play_two_rounds(
            table,
            {ALICE: "take the silver key", BOB: "look around the tavern", CARA: "attack Bessa Marlow"},
            {ALICE: "give the silver key to Mira", BOB: "look around", CARA: "attack Bessa Marlow"},
        )
        before, after, text = await _round_trip(table)
        _assert_same(before, after)
        assert any(e[3] == 12 and e[4] in (1, 2) for e in before["events"]), "the rounds wrote events"
        assert 'owner = "1003"' in text or 'owner = "1003"' in text  # the new PC keeps its player
        world = parse_scenario(text)
        assert world.campaign.current_session == 13  # session 12 was played: the import plays the next
        assert world.campaign.starting_location == "loc-harbor"
        assert {h.id for h in world.history} >= {
            "h-voss-killed",
            "h-dagger-sold",
            "h-dock-ambush",
        }  # history ids kept
    finally:
        await table.aclose()


async def test_the_crypt_with_its_retcon_exports_and_loads_back_the_same(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await table.start_campaign_from_file(WHERE, GM, path=CRYPT)
        await table.join(WHERE, ALICE, claim="Dara Voss-Ash")
        await table.join(WHERE, BOB, name="Wren Ashdown")
        await _play_two_rounds(
            table,
            {ALICE: "attack the skeleton", BOB: "look around"},
            {ALICE: "look around", BOB: "talk to Acolyte Sefa"},
        )
        before, after, text = await _round_trip(table)
        _assert_same(before, after)
        assert any(e[1] == "retcon" for e in after["events"])
        assert 'kind = "retcon", target = "h-stair-fight"' in text  # the retcon names its history id
    finally:
        await table.aclose()


async def test_a_blank_campaign_exports_and_an_unplayed_load_keeps_its_session(
    sqlite_url: str, tmp_path: Path
) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await table.start_campaign(WHERE, GM, name="Fresh Start", scenario="blank")
        exported = await table.export_campaign(WHERE, GM)
        assert exported.problems == ()
        world = parse_scenario(exported.text)
        assert [loc.id for loc in world.locations] == ["loc-crossroads"]  # the PCs' one placeholder place
        assert world.campaign.name == "Fresh Start" and world.campaign.starting_location == "loc-crossroads"
        loaded = await table.start_campaign_from_upload(
            ELSEWHERE, GM, filename="fresh.toml", data=exported.text.encode()
        )
        assert loaded.name == "Fresh Start" and loaded.location == "The Crossroads"
        # An unplayed scenario keeps the session it was about to play.
        await table.end_campaign(WHERE, GM)
        await table.start_campaign_from_file(WHERE, GM, path=HARBOR)
        again = parse_scenario((await table.export_campaign(WHERE, GM)).text)
        assert again.campaign.current_session == 12
    finally:
        await table.aclose()


async def test_a_blank_campaign_the_gm_built_and_played_exports_and_loads_back_the_same(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await table.start_campaign(WHERE, GM, name="Built Live", scenario="blank")
        await table.join(WHERE, ALICE, name="Ada Quill")
        await table.gm_move(WHERE, GM, who="party", to="The Mill", description="A mill over a cold stream.")
        await table.gm_npc(WHERE, GM, name="Marta Vell", description="The miller.", attitude=20)
        await table.gm_npc(WHERE, GM, name="Oskar Brand", description="A carter.", location="The Mill")
        await table.gm_spawn(WHERE, GM, creature="bandit", count=2)
        await table.gm_item(WHERE, GM, name="brass key", to="Marta Vell")
        await table.gm_item(WHERE, GM, name="copper coins", to="Ada Quill", quantity=5)
        await table.gm_thread_open(
            WHERE, GM, kind="favour", from_="Marta Vell", to="Ada Quill", terms="A boat at dawn"
        )
        await table.gm_thread_open(
            WHERE, GM, kind="rumour", from_="Oskar Brand", to="Marta Vell", terms="The mill is cursed"
        )
        await table.gm_secret(WHERE, GM, about="Marta Vell", text="She hides the bandits' loot")
        await table.gm_secret(WHERE, GM, about="Oskar Brand", text="He owes the bandits", for_="Ada Quill")
        await _play_two_rounds(table, {ALICE: "attack the bandit"}, {ALICE: "talk to Marta Vell"})
        before, after, text = await _round_trip(table)
        assert before["events"][0][1:4] == ("create_location", before["events"][0][2], 0)  # the Crossroads
        _assert_same(_in_session_one(before), after)  # a file's sessions start at 1
        assert 'thread_kind = "rumour"' in text
    finally:
        await table.aclose()


async def test_only_the_gm_exports(sqlite_url: str, tmp_path: Path) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        with pytest.raises(NoCampaign):
            await table.export_campaign(WHERE, GM)
        await table.start_campaign_from_file(WHERE, GM, path=HARBOR)
        await table.join(WHERE, ALICE, claim="Greyrock")
        with pytest.raises(NotGM):
            await table.export_campaign(WHERE, ALICE)
    finally:
        await table.aclose()


def test_the_writer_escapes_what_toml_needs_escaped() -> None:
    tricky = 'quote " backslash \\ tab \t newline \n bell \x07 del \x7f é ✓'
    value = {"a b": tricky, "n": -3, "f": 0.5, "big": 1e300, "t": True, "list": [1, "x"], "none": None}
    parsed = tomllib.loads(f"v = {toml_value(value)}")["v"]
    assert parsed == {"a b": tricky, "n": -3, "f": 0.5, "big": 1e300, "t": True, "list": [1, "x"]}


def test_a_ledger_without_a_place_cannot_be_written() -> None:
    from ledger.scenario.export import ExportError

    with pytest.raises(ExportError, match="no location"):
        write_scenario(name="x", settings={}, events=[])


async def test_the_command_line_exports_a_campaign_of_a_ledger_file(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from bot.cli import main

    table = await make_table(sqlite_url, tmp_path)
    try:
        await table.start_campaign_from_file(WHERE, GM, path=CRYPT)
        campaign_id = await _campaign_id(table, WHERE)
    finally:
        await table.aclose()
    db = sqlite_url.removeprefix("sqlite+aiosqlite:///")
    out = tmp_path / "crypt-export.toml"
    args = ["export", "--db", db, "--campaign", str(campaign_id), "--out", str(out)]
    code = await asyncio.to_thread(main, args)
    assert code == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith(f"wrote {out}: ")
    assert parse_scenario(out.read_text(encoding="utf-8")).campaign.name == "The Ashen Crypt"
    missing = ["export", "--db", db, "--campaign", "99", "--out", str(out)]
    assert await asyncio.to_thread(main, missing) == 2
    assert "no campaign 99" in capsys.readouterr().err
    nowhere = ["export", "--db", str(tmp_path / "none.db"), "--campaign", "1", "--out", str(out)]
    assert await asyncio.to_thread(main, nowhere) == 2
