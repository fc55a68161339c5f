"""A player files one open dispute per record: the second is refused with one line and files nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.errors import TableError
from tests.table_helpers import ALICE, BOB, GM, WHERE, make_table, seat_everyone


async def test_the_same_dispute_cannot_be_filed_twice(database_url: str, tmp_path: Path) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await seat_everyone(table)
        last = (await table.history(WHERE, ALICE, count=1))[0]
        first = await table.dispute(WHERE, ALICE, ref=last.ref, reason="Orrin never went to the tavern")
        with pytest.raises(TableError, match=f"already disputed.*#{first.id}") as refused:
            await table.dispute(WHERE, ALICE, ref=last.ref, reason="He really did not")
        assert "\n" not in str(refused.value)
        # Another player may dispute the same record, and after the ruling Alice may dispute it again.
        other = await table.dispute(WHERE, BOB, ref=last.ref, reason="I saw him outside")
        assert [d.id for d in await table.gm_disputes(WHERE, GM)] == [first.id, other.id]
        await table.gm_rule(WHERE, GM, dispute_id=first.id, accept=False, note="He was there")
        again = await table.dispute(WHERE, ALICE, ref=last.ref, reason="New evidence")
        assert again.status == "open"
    finally:
        await table.aclose()


async def test_two_identical_disputes_at_once_file_one(database_url: str, tmp_path: Path) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await seat_everyone(table)
        last = (await table.history(WHERE, ALICE, count=1))[0]
        results = await asyncio.gather(
            *[table.dispute(WHERE, ALICE, ref=last.ref, reason="wrong") for _ in range(3)],
            return_exceptions=True,
        )
        assert sum(1 for r in results if isinstance(r, TableError)) == 2
        assert len(await table.gm_disputes(WHERE, GM)) == 1
    finally:
        await table.aclose()
