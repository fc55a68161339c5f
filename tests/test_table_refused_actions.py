"""A refused action stays refused: a chosen target never turns 'give -5 gold' into a chat (issue 9 §5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import InvalidAction
from tests.table_helpers import ALICE, BOB, DAN, WHERE, make_table, seat_everyone


@pytest.mark.parametrize(
    ("who", "text", "reason"),
    [
        (DAN, "give -5 gold to Mira", "at least 1"),  # Orrin holds no gold either: the count is refused first
        (ALICE, "give -5 gold to Mira", "at least 1"),
        (ALICE, "give 2.5 gold to Mira", "whole numbers"),
        (DAN, "give the black pearl to Mira", "do not hold"),
    ],
)
async def test_a_refused_give_with_a_target_chosen_is_refused_not_made_talk(
    sqlite_url: str, tmp_path: Path, who: object, text: str, reason: str
) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE, BOB, DAN))
        with pytest.raises(InvalidAction) as refused:
            await table.submit(WHERE, who, key="k1", text=text, target="pc-mira")  # type: ignore[arg-type]
        assert reason in str(refused.value), str(refused.value)
        status = await table.round_status(WHERE, who)  # type: ignore[arg-type]
        assert not any("Orrin" in a or "Greyrock" in a for a in status.acted), status
    finally:
        await table.aclose()


async def test_a_target_with_text_that_names_no_action_is_talking(sqlite_url: str, tmp_path: Path) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE, BOB))
        receipt = await table.submit(WHERE, ALICE, key="k1", text="hmm, well then", target="pc-mira")
        assert receipt.intent_summary == "talk to Mira Quickfinger", receipt
    finally:
        await table.aclose()
