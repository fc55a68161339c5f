"""A round is resolved once: a second resolution of a round already resolved is refused by the ledger.

Two writers can both work out a round's resolution: two bot processes ticking the same campaign, or the GM's
/close that read the round as ``closed`` while the tick was resolving it. The first to write moves the round
closed -> resolved with its changes' events; the second must be refused whole (its events, its record), or
the round's stored resolution is no longer the one whose events the ledger holds (one took the silver key,
the other, worked out on the world the first left, found no key to take and stored a round that changed
nothing), and the round is told from the wrong record.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger import service
from ledger.errors import RoundStateError
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from tests.table_helpers import ALICE, GM, WHERE, Clock, RecordingCourier, make_table, seat_everyone


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


async def _lantern_campaign(eng: AsyncEngine) -> int:
    async with ledger_session(eng) as s:
        c = await service.create_campaign(s, name="Lantern Row", guild_id=71, channel_id=72)
        await service.apply_changes(
            s,
            campaign_id=c.id,
            session_number=1,
            round_number=None,
            cause="scenario",
            mutations=[
                {"kind": "create_location", "id": "loc-kiln", "name": "Kiln House"},
                {
                    "kind": "create_entity",
                    "id": "pc-odile",
                    "entity_kind": "pc",
                    "name": "Odile",
                    "location": "loc-kiln",
                },
                {"kind": "create_item", "id": "item-tongs", "name": "bronze tongs", "holder": "loc-kiln"},
            ],
        )
        return c.id


async def _round_one_events(s: AsyncSession, campaign_id: int) -> int:
    """How many events round 1 of the campaign wrote."""
    stmt = (
        select(func.count())
        .select_from(m.Event)
        .where(col(m.Event.campaign_id) == campaign_id, col(m.Event.round_number) == 1)
    )
    return int((await s.exec(stmt)).one())


async def _round_events(eng: AsyncEngine, campaign_id: int) -> int:
    async with ledger_session(eng) as s:
        return await _round_one_events(s, campaign_id)


TAKE = {
    "kind": "transfer_item",
    "item": "item-tongs",
    "from_holder": "loc-kiln",
    "to_holder": "pc-odile",
    "cause": "round-1.1#0",
}


async def test_a_second_resolution_of_a_resolved_round_is_refused_whole(engine: AsyncEngine) -> None:
    cid = await _lantern_campaign(engine)
    async with ledger_session(engine) as s:
        rnd = await service.open_round(s, campaign_id=cid, session_number=1, number=1, seed_commitment="c")
        await service.set_round_state(s, round_id=rnd.id, state="closed")
        await service.apply_round(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=1,
            mutations=[TAKE],
            resolution={"mutations": [TAKE], "by": "first"},
        )
        # Worked out on the world the first left: the tongs are gone, so nothing changes; it must not land.
        with pytest.raises(RoundStateError, match="already resolved"):
            await service.apply_round(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=1,
                mutations=[],
                resolution={"mutations": [], "by": "second"},
            )
        # A second resolution that does change something is refused whole too: no event of it stays.
        fact = {"kind": "set_fact", "key": "kiln-lit", "value": "yes", "cause": "round-1.1#1"}
        with pytest.raises(RoundStateError, match="already resolved"):
            await service.apply_round(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=1,
                mutations=[fact],
                resolution={"mutations": [fact], "by": "third"},
            )
        after = await service.get_round(s, round_id=rnd.id)
    assert after.state == "resolved"
    assert after.resolution == {"mutations": [TAKE], "by": "first"}
    assert await _round_events(engine, cid) == 1


async def test_a_round_resolved_by_a_skip_ahead_move_is_still_written(engine: AsyncEngine) -> None:
    """Control: a round that is not resolved yet still moves forward, also straight past resolved."""
    cid = await _lantern_campaign(engine)
    async with ledger_session(engine) as s:
        r1 = await service.open_round(s, campaign_id=cid, session_number=1, number=1, seed_commitment="c")
        await service.apply_round(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=1,
            mutations=[TAKE],
            resolution={"by": "only"},
            round_state="posted",
        )
        assert (await service.get_round(s, round_id=r1.id)).state == "posted"
    assert await _round_events(engine, cid) == 1


async def test_the_gms_close_that_read_the_round_closed_does_not_resolve_it_again(
    database_url: str, tmp_path: Path
) -> None:
    """The GM's /close reads the round while the deadline's tick is resolving it (``closed``), then waits
    for the campaign's lock. The tick resolves it (Greyrock takes the silver key) and its narrator fails,
    leaving it ``resolved``. The /close then finishes the round from what the tick stored: it neither
    resolves it again on the world the tick left (where the key is gone) nor stores a second record."""
    clock = Clock()
    courier = RecordingCourier()
    table = await make_table(database_url, tmp_path, courier=courier, clock=clock)
    gm_close: list[asyncio.Task[Any]] = []
    gm_close_round: list[int] = []

    async def schedule(step: str) -> None:
        if step == "resolve" and not gm_close:
            # The tick holds the campaign's lock, the round is closed: the GM's /close reads it and waits.
            async with table.context.session() as s:
                rnd = await service.current_round(s, campaign_id=campaign.id)
            assert rnd is not None and rnd.state == "closed"
            gm_close_round.append(rnd.id)
            gm_close.append(asyncio.create_task(table.close_round(WHERE, GM)))
            for _ in range(200):
                await asyncio.sleep(0.01)
                if table.context.lock(campaign.id)._waiters:
                    break
        elif step == "narrate" and len(gm_close) == 1:
            gm_close.append(gm_close[0])
            raise TimeoutError("the narrator's endpoint timed out")  # the tick stops at resolved

    try:
        await seat_everyone(table, (ALICE,))
        campaign = await table.campaign_status(WHERE, GM)
        await table.submit(WHERE, ALICE, key="a", text="take the silver key")
        clock.advance(11)
        table.context.before_step = schedule
        await table.tick()
        assert gm_close, "the tick never reached its resolve step"
        report = await gm_close[0]
        assert report.round_number == 1
        async with table.context.session() as s:
            unfinished = await service.unfinished_rounds(s, campaign_id=campaign.id)
            written = await _round_one_events(s, campaign.id)
            first = await service.get_round(s, round_id=gm_close_round[0])
        record = first.resolution or {}
        told = len(record.get("mutations", ())) + sum(1 for r in record.get("reveals", ()) if r["mutation"])
        assert (written, told) == (1, 1), (written, record.get("notices"), record.get("mutations"))
        assert not record.get("notices"), "the round was worked out again after the key was taken"
        told_rounds = [text for _, _, text in courier.public if text.startswith("**Round 1**")]
        assert len(told_rounds) == 1, courier.public
        assert (first.state, [r.number for r in unfinished]) == ("posted", [2])
    finally:
        await table.aclose()
