"""The summary index's queue in bulk: what queued summaries cover and their new states, a statement each.

A summary row waits as ``pending`` until the Chroma index holds it (:mod:`bot.table.summaries`). Indexing a
queue one summary at a time cost a read per event ref and a transaction per summary (about 200 statements
to start the harbour campaign); these helpers read every covered event's payload in one query and record
every summary's new state in one writing transaction, so a queue of any length costs a handful of statements.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.store import models as m
from ledger.store.db import begin_write
from ledger.store.sessions import SUMMARY_INDEX_STATES

__all__ = ["event_payloads", "mark_summary_states"]

#: Refs per ``IN (...)`` list: well under SQLite's and asyncpg's parameter limits.
_CHUNK = 900


async def event_payloads(
    session: AsyncSession, *, campaign_id: int, refs: Iterable[str]
) -> dict[str, tuple[int, dict[str, Any]]]:
    """Event ref -> (its seq, its payload) for every one of ``refs`` the campaign has (GM view: no filter).

    Refs it does not have are absent. One query per 900 refs; what a summary states is judged from these.
    """
    wanted = sorted(set(refs))
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        rows = await session.exec(
            select(m.Event.ref, m.Event.seq, m.Event.payload).where(
                m.Event.campaign_id == campaign_id, col(m.Event.ref).in_(chunk)
            )
        )
        for ref, seq, payload in rows.all():
            out[ref] = (seq, dict(payload or {}))
    return out


async def mark_summary_states(session: AsyncSession, *, campaign_id: int, states: Mapping[int, str]) -> None:
    """Record each summary's index state (summary id -> ``pending``/``indexed``/``refused``) in one writing
    transaction: one UPDATE per state. Ids of another campaign are left alone."""
    if not states:
        return
    bad = sorted({s for s in states.values() if s not in SUMMARY_INDEX_STATES})
    if bad:
        raise ValueError(f"bad summary index state {bad[0]!r} (expected one of {SUMMARY_INDEX_STATES})")
    by_state: dict[str, list[int]] = {}
    for summary_id, state in states.items():
        by_state.setdefault(state, []).append(summary_id)
    await begin_write(session)
    try:
        connection = await session.connection()
        for state, unsorted in sorted(by_state.items()):
            ids = sorted(unsorted)
            for start in range(0, len(ids), _CHUNK):
                await connection.execute(
                    update(m.Summary)
                    .where(
                        col(m.Summary.campaign_id) == campaign_id,
                        col(m.Summary.id).in_(ids[start : start + _CHUNK]),
                    )
                    .values(index_state=state)
                )
        await session.commit()
    except BaseException:
        await session.rollback()
        raise
