"""Through the real table: one PC kills a thug and another then talks to it in the same round.

The rules refuse the talk ("Bilge is already dead"), and the channel reads "Mira Quickfinger turns to Bilge,
but Bilge is already dead" instead of a conversation with a corpse.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.table_helpers import ALICE, BOB, GM, WHERE, make_table, seat_everyone

DIES = re.compile(r"Bilge (dies|is slain|collapses, dead)")


@pytest.mark.parametrize(("seed", "too_late"), [(5, False), (11, True)], ids=["talk-first", "kill-first"])
async def test_talking_to_a_thug_killed_earlier_in_the_round_is_told_as_too_late(
    sqlite_url: str, tmp_path: Path, seed: int, too_late: bool
) -> None:
    """Seed 11: Greyrock's kill comes first in initiative; seed 5: Mira speaks to Bilge before the blow."""
    table = await make_table(sqlite_url, tmp_path, seed=seed)
    try:
        await seat_everyone(table, (ALICE, BOB))
        await table.submit(WHERE, ALICE, key="go-a", text="go to the harbour")
        await table.submit(WHERE, BOB, key="go-b", text="go to the harbour")
        await table.close_round(WHERE, GM)
        for number in range(12):
            await table.submit(WHERE, ALICE, key=f"a{number}", text="attack Bilge with my longsword")
            await table.submit(WHERE, BOB, key=f"b{number}", text="ask Bilge who pays the thugs")
            text = (await table.close_round(WHERE, GM)).public_text  # type: ignore[attr-defined]
            death = DIES.search(text)
            if death:
                break
        else:
            pytest.fail("Bilge never fell")
        after = text[death.end() :]
        assert not re.search(r"\basks Bilge\b|\bspeaks to Bilge\b", after), text
        assert ("Mira Quickfinger turns to Bilge, but Bilge is already dead." in after) is too_late, text
        assert ("asks Bilge who pays the thugs" in text[: death.start()]) is not too_late, text
        conflicts = await table.gm_conflicts(WHERE, GM)
        assert not [c for c in conflicts if "Bilge" in c.claim], conflicts
    finally:
        await table.aclose()
