"""The summary index's queue is worked in bulk (issue 14): the events queued summaries cover are read at
once, their new states recorded in one transaction, so the queue costs a handful of statements whatever its
length; a summary the index cannot take is refused, the rest indexed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.scenario.load import load_scenario_file
from ledger.store import models as m
from ledger.store import sessions as ledger_sessions
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.summary_queue import event_payloads, mark_summary_states
from tests.table_helpers import GM, HARBOR, WHERE, make_table


async def _states(session: AsyncSession, campaign_id: int) -> Counter[str]:
    rows = (await session.exec(select(m.Summary).where(m.Summary.campaign_id == campaign_id))).all()
    return Counter(r.index_state for r in rows)


async def test_payloads_are_read_at_once_and_states_recorded_for_one_campaign(database_url: str) -> None:
    engine = create_engine(database_url)
    await init_db(engine)
    try:
        async with ledger_session(engine) as s:
            first = await load_scenario_file(s, HARBOR)
        async with ledger_session(engine) as s:
            other = await load_scenario_file(s, HARBOR)
        async with ledger_session(engine) as s:
            rows = await ledger_sessions.pending_summaries(s, campaign_id=first, limit=500)
            refs = [ref for row in rows for ref in row.event_ids]
            assert rows and refs
            payloads = await event_payloads(s, campaign_id=first, refs=[*refs, "ev-999999"])
            assert set(payloads) == set(refs)  # an unknown ref is simply absent
            events = (await s.exec(select(m.Event).where(m.Event.campaign_id == first))).all()
            history = {e.ref: e for e in events}
            for ref in refs:
                seq, payload = payloads[ref]
                assert payload == history[ref].payload and seq == history[ref].seq

        ids = [row.id for row in rows if row.id is not None]
        states = {summary_id: "indexed" for summary_id in ids}
        states[ids[0]] = "refused"
        async with ledger_session(engine) as s:
            with pytest.raises(ValueError, match="bad summary index state"):
                await mark_summary_states(s, campaign_id=first, states={ids[1]: "lost"})
            await mark_summary_states(s, campaign_id=other, states=states)  # not that campaign's rows
            assert await _states(s, first) == Counter(pending=len(ids))
            await mark_summary_states(s, campaign_id=first, states=states)
        async with ledger_session(engine) as s:
            assert await _states(s, first) == Counter(indexed=len(ids) - 1, refused=1)
            assert set(await _states(s, other)) == {"pending"}
    finally:
        await engine.dispose()


async def test_a_start_indexes_the_history_then_a_queue_costs_a_few_statements_and_a_bad_one_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        view = await table.start_campaign_from_file(WHERE, GM, path=HARBOR)
        index = table.summaries
        assert index is not None
        async with table.context.session() as s:
            history = await _states(s, view.id)
        assert set(history) == {"indexed"} and history["indexed"] >= 10
        assert await index.count(f"campaign-{view.id}") == history["indexed"]

        # Two more summaries queue up: one the index cannot take (blank text) and one it can.
        async with table.context.session() as s:
            for text in ("   ", "The party swore to find the drowned bell."):
                await ledger_sessions.add_summary(
                    s, campaign_id=view.id, session_number=12, text=text, event_ids=[]
                )
        statements: list[str] = []
        engine = table.context.engine.sync_engine

        def count(conn: object, cursor: object, statement: str, *args: object) -> None:
            statements.append(statement)

        event.listen(engine, "before_cursor_execute", count)
        try:
            assert await table.summary_upkeep.index_pending(view.id) == 1
        finally:
            event.remove(engine, "before_cursor_execute", count)
        assert len(statements) <= 8  # rows, payloads, then one transaction: not a few per summary
        async with table.context.session() as s:
            assert await _states(s, view.id) == Counter(indexed=history["indexed"] + 1, refused=1)
        assert await index.count(f"campaign-{view.id}") == history["indexed"] + 1
        hits = await index.query(campaign=f"campaign-{view.id}", text="drowned bell", visibilities=None)
        assert hits and "drowned bell" in hits[0].text
    finally:
        await table.aclose()
