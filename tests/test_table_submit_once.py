"""One action per player per round, also when two /act from one player arrive at the same moment."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ledger import service
from tests.table_helpers import ALICE, GM, WHERE, RecordingCourier, make_table, seat_everyone


async def test_two_acts_at_once_make_one_action_and_a_later_edit_is_the_one_resolved(
    database_url: str, tmp_path: Path
) -> None:
    courier = RecordingCourier()
    table = await make_table(database_url, tmp_path, courier=courier)
    try:
        await seat_everyone(table, (ALICE,))
        receipts = await asyncio.gather(
            table.submit(WHERE, ALICE, key="act-1", text="look around the tavern"),
            table.submit(WHERE, ALICE, key="act-2", text="look around the tavern"),
        )
        assert sorted(r.edited for r in receipts) == [False, True], "one /act recorded, the other replaced it"
        campaign = await table.campaign_status(WHERE, GM)
        async with table.context.session() as s:
            rnd = await service.current_round(s, campaign_id=campaign.id)
            assert rnd is not None
            assert len(await service.list_submissions(s, round_id=rnd.id)) == 1
        edited = await table.submit(WHERE, ALICE, key="act-3", text="take the silver key")
        assert edited.edited
        async with table.context.session() as s:
            subs = await service.list_submissions(s, round_id=rnd.id)
        assert [x.text for x in subs] == ["take the silver key"]
        report = await table.close_round(WHERE, GM)
        greyrock = [a for a in report.actions if a.actor == "Greyrock"]
        assert len(greyrock) == 1 and "key" in greyrock[0].summary.lower(), "the latest edit is what resolved"
    finally:
        await table.aclose()


async def test_many_acts_at_once_from_one_player_never_make_two_rows(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE,))
        texts = ["look around the tavern", "take the silver key", "listen at the door", "look around"]
        await asyncio.gather(
            *[table.submit(WHERE, ALICE, key=f"k{n}", text=t) for n, t in enumerate(texts * 2)]
        )
        campaign = await table.campaign_status(WHERE, GM)
        async with table.context.session() as s:
            rnd = await service.current_round(s, campaign_id=campaign.id)
            assert rnd is not None
            subs = await service.list_submissions(s, round_id=rnd.id)
        assert len(subs) == 1 and subs[0].text in texts
        assert (await table.round_status(WHERE, GM)).acted == ("Greyrock",)
    finally:
        await table.aclose()
