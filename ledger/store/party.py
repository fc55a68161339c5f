"""Which records a campaign's recent history names, read lightly: the ids its newest events are about.

Finding where a scenario's party stands (before anyone joins) needs only the ids the newest events name,
not those events' views (witnesses, involved records, what supersedes them: four reads and a model per event),
so a campaign's status costs one small read here instead (issue 14: starting a campaign).
"""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.store import models as m

__all__ = ["recent_subjects"]


async def recent_subjects(session: AsyncSession, *, campaign_id: int, limit: int = 500) -> list[str]:
    """The ids (sorted, distinct) the campaign's newest ``limit`` events are about: each event payload's
    ``entity`` (a change to a creature) or ``id`` (a record created). The GM's view: nothing is filtered.
    """
    rows = await session.exec(
        select(m.Event.payload)
        .where(m.Event.campaign_id == campaign_id)
        .order_by(col(m.Event.seq).desc())
        .limit(limit)
    )
    found = {str(p.get("entity") or p.get("id") or "") for p in rows.all() if isinstance(p, dict)}
    return sorted(found - {""})
