"""Players sit down at the table: claiming scenario characters or creating validated new ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import InvalidAction, NotFound, TableError
from bot.views import Caller
from tests.table_helpers import ALICE, BOB, GM, WHERE, make_table, seat_everyone

EVE = Caller(user_id="1005", display_name="eve")


async def test_a_new_character_from_the_standard_array_joins_where_the_party_is(
    sqlite_url: str, tmp_path: Path
) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE,))
        pc = await table.join(
            WHERE,
            EVE,
            name="Eve Lark",
            scores="8,15,14,10,13,12",
            skills="stealth, perception",
            weapon="rapier",
        )
        assert pc.name == "Eve Lark" and pc.abilities["dexterity"] == 15
        assert pc.location == "The Salty Gull"
        assert set(pc.skills) == {"stealth", "perception"}
        assert pc.hp == pc.max_hp > 0
        receipt = await table.submit(WHERE, EVE, key="e", text="sneak past Bessa")
        assert receipt.character_name == "Eve Lark"
    finally:
        await table.aclose()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"name": "Eve", "scores": "18,15,14,10,13,12"}, "standard array"),
        ({"name": "Eve", "scores": "15,15,15,15,8,8", "method": "pointbuy"}, "at most 27"),
        ({"name": "Eve", "scores": "16,8,8,8,8,8", "method": "pointbuy"}, "8 to 15"),
        ({"name": "Eve", "scores": "15,14"}, "six"),
        ({"name": "Eve", "scores": "a,b,c,d,e,f"}, "six numbers"),
        ({"name": "Eve", "weapon": "lightsaber"}, "Unknown weapon"),
        ({"name": "Eve", "skills": "basket weaving"}, "skill"),
        ({"name": ""}, "name"),
    ],
)
async def test_invalid_characters_are_refused_with_the_reason(
    sqlite_url: str, tmp_path: Path, options: dict[str, str], message: str
) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, ())
        with pytest.raises(InvalidAction) as err:
            await table.join(WHERE, EVE, **options)
        assert message.lower() in str(err.value).lower()
        with pytest.raises(TableError):
            await table.inventory(WHERE, EVE)
    finally:
        await table.aclose()


async def test_a_scenario_character_is_claimed_once_and_released_by_leaving(
    sqlite_url: str, tmp_path: Path
) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE,))
        with pytest.raises(TableError, match="already played"):
            await table.join(WHERE, BOB, claim="Greyrock")
        with pytest.raises(NotFound):
            await table.join(WHERE, BOB, claim="Old Wei")
        with pytest.raises(TableError, match="already play"):
            await table.join(WHERE, ALICE, claim="Mira Quickfinger")
        left = await table.leave(WHERE, ALICE)
        assert left.name == "Greyrock"
        assert (await table.join(WHERE, BOB, claim="greyrock")).name == "Greyrock"
        status = await table.campaign_status(WHERE, GM)
        assert any("Greyrock" in p and BOB.user_id in p for p in status.players)
    finally:
        await table.aclose()


async def test_a_blank_campaign_starts_at_the_crossroads_and_ends_cleanly(
    sqlite_url: str, tmp_path: Path
) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        view = await table.start_campaign(WHERE, GM, name="Fresh Start", scenario=None)
        assert view.name == "Fresh Start" and view.session_number == 1 and view.round_number == 1
        await table.join(WHERE, EVE, name="Eve Lark")
        await table.submit(WHERE, EVE, key="e", text="look around")
        report = await table.close_round(WHERE, GM)
        assert "Eve Lark" in report.public_text
        recap = await table.end_session(WHERE, GM)
        assert recap.session_number == 1 and "Eve Lark" in recap.text
        ended = await table.end_campaign(WHERE, GM)
        assert ended.status == "ended"
        again = await table.start_campaign(WHERE, GM, name="Second", scenario="crypt")
        assert again.name != "Fresh Start"
    finally:
        await table.aclose()


async def test_unknown_scenarios_and_paths_are_refused(sqlite_url: str, tmp_path: Path) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        for name in ("nowhere", "../../etc/passwd", "/etc/hosts"):
            with pytest.raises(NotFound, match="Available: crypt, harbor"):
                await table.start_campaign(WHERE, GM, name="x", scenario=name)
    finally:
        await table.aclose()
