"""Control characters and terminal escapes are removed where text enters the table (issue 9, section 5).

A NUL in an action made PostgreSQL raise a raw DBAPIError; ANSI/OSC escapes in actions and names reached the
GM's terminal and the posts. Both backends run: the NUL case is the one PostgreSQL refused.
"""

from __future__ import annotations

from pathlib import Path

from sqlmodel import select

from bot.text import clean_name, clean_text
from bot.views import Caller
from ledger.store.models import Submission
from tests.table_helpers import ALICE, WHERE, make_table, seat_everyone

HOSTILE = "\x1b]0;owned\x07\x1b[31mtake\x00 the silver\x1b[0m key\x7f"


def test_clean_text_keeps_words_and_drops_escapes() -> None:
    assert clean_text(HOSTILE) == "take the silver key"
    assert clean_text("café 🎲\nsecond line\tend") == "café 🎲\nsecond line end"
    link = "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"
    assert clean_text(link) == "click"
    assert clean_name("  Mira\u202e \x1b[1mthe\x00 Quick\n ") == "Mira the Quick"


async def test_action_with_nul_and_escapes_is_stored_clean(database_url: str, tmp_path: Path) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await seat_everyone(table)
        receipt = await table.submit(WHERE, ALICE, key="k1", text=HOSTILE)
        assert "silver key" in receipt.intent_summary
        async with table.context.session() as s:
            texts = [sub.text for sub in (await s.exec(select(Submission))).all()]
        assert texts == ["take the silver key"]
    finally:
        await table.aclose()


async def test_names_at_join_lose_escapes(database_url: str, tmp_path: Path) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await seat_everyone(table, players=())
        newcomer = Caller(user_id="2001", display_name="eve")
        view = await table.join(WHERE, newcomer, name="\x1b[5mEve\x00 the\x1b]0;x\x07 Bold")
        assert view.name == "Eve the Bold"
        claimed = await table.join(WHERE, ALICE, claim="Grey\x1b[1mrock\x00")
        assert claimed.name == "Greyrock"
    finally:
        await table.aclose()
