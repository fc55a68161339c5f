"""A round command's first read is one SELECT that gives what the three lookups gave (issue 14).

:func:`ledger.store.channel_read.channel_table` reads the channel's campaign, its members and its round not
yet posted together. Real ledger on both backends: it must equal ``find_campaign`` + ``list_members`` +
``current_round`` in every state a command meets (no campaign, no members, no round, an inactive member, a
finished round next to the open one), and take a single statement.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event

from ledger import service
from ledger.store.db import create_engine, init_db, ledger_session


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


async def _three_reads(s: Any, guild: str, channel: str) -> tuple[Any, Any, Any] | None:
    campaign = await service.find_campaign(s, guild_id=guild, channel_id=channel)
    if campaign is None:
        return None
    members = await service.list_members(s, campaign_id=campaign.id)
    return campaign, tuple(members), await service.current_round(s, campaign_id=campaign.id)


async def _same(eng: Any, guild: str, channel: str) -> Any:
    async with ledger_session(eng) as s:
        seen: list[str] = []

        def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            seen.append(statement)

        event.listen(eng.sync_engine, "before_cursor_execute", count)
        try:
            table = await service.channel_table(s, guild_id=guild, channel_id=channel)
        finally:
            event.remove(eng.sync_engine, "before_cursor_execute", count)
        assert len([x for x in seen if x.lstrip().upper().startswith("SELECT")]) == 1
        old = await _three_reads(s, guild, channel)
    if old is None:
        assert table is None
        return None
    assert table is not None
    assert (table.campaign, table.members, table.round) == old
    return table


async def test_one_read_gives_what_the_three_lookups_gave(engine: Any) -> None:
    assert await _same(engine, "1", "2") is None  # no campaign in the channel
    async with ledger_session(engine) as s:
        c = await service.create_campaign(s, name="Quay", guild_id=1, channel_id=2, owner_user_id=9)
    bare = await _same(engine, "1", "2")
    assert bare.members == () and bare.round is None

    async with ledger_session(engine) as s:
        await service.set_member(s, campaign_id=c.id, user_id=30, character_id="pc-cass")
        await service.set_member(s, campaign_id=c.id, user_id=20, character_id="pc-bo", active=False)
        await service.set_member(s, campaign_id=c.id, user_id=10, is_gm=True)
        first = await service.open_round(
            s, campaign_id=c.id, session_number=1, number=1, seed_commitment="abc",
            deadline=datetime(2026, 12, 2, 12, 0, tzinfo=UTC),
        )  # fmt: skip
    table = await _same(engine, "1", "2")
    assert [m.user_id for m in table.members] == ["10", "20", "30"]
    assert table.round is not None and table.round.id == first.id and table.round.deadline is not None

    async with ledger_session(engine) as s:  # the first round is posted; a second one opens
        await service.set_round_state(s, round_id=first.id, state="closed")
        await service.set_round_state(s, round_id=first.id, state="resolved")
        await service.set_round_state(s, round_id=first.id, state="narrated")
        await service.set_round_state(s, round_id=first.id, state="posted")
        second = await service.open_round(
            s, campaign_id=c.id, session_number=1, number=2, seed_commitment="d"
        )
    table = await _same(engine, "1", "2")
    assert table.round is not None and table.round.id == second.id and len(table.members) == 3
    assert await _same(engine, "1", "3") is None  # another channel of the guild
