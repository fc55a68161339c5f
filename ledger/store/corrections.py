"""What accepting a dispute changes: the changes that undo a disputed event, derived from the history.

When the GM accepts "that record is wrong", the correction should put the world back as it was before that
event, not just note the dispute. The inverse of each change kind comes from the event itself and, where the
old value was overwritten (HP, location), from the newest earlier event that set it. Nothing is edited in
place: the caller writes these changes as a new correction event that supersedes the disputed one.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.store import models as m


async def _previous(
    session: AsyncSession, *, campaign_id: int, before_seq: int, kind: str, field: str, entity: str
) -> dict[str, Any] | None:
    """The payload of the newest ``kind`` event for ``entity`` before ``before_seq`` (indexed by entity)."""
    linked = select(m.EventEntity.event_id).where(
        m.EventEntity.campaign_id == campaign_id, m.EventEntity.entity_id == entity
    )
    rows = (
        await session.exec(
            select(m.Event)
            .where(
                m.Event.campaign_id == campaign_id,
                m.Event.seq < before_seq,
                col(m.Event.id).in_(linked),
                col(m.Event.kind).in_((kind, "create_entity")),
            )
            .order_by(col(m.Event.seq).desc())
            .limit(20)
        )
    ).all()
    for row in rows:
        payload = row.payload or {}
        if payload.get("kind") == kind and payload.get("entity") == entity:
            return payload
        if (
            payload.get("kind") == "create_entity"
            and payload.get("id") == entity
            and payload.get(field) is not None
        ):
            return {field: payload[field]}
    return None


async def undo_changes(session: AsyncSession, *, campaign_id: int, ref: str) -> list[dict[str, Any]]:
    """The changes that undo event ``ref``; empty when it is not an event or has no safe inverse."""
    event = (
        await session.exec(select(m.Event).where(m.Event.campaign_id == campaign_id, m.Event.ref == ref))
    ).first()
    if event is None:
        return []
    p = dict(event.payload or {})
    kind = p.get("kind")
    common = {"visibility": event.visibility}
    if kind == "transfer_item" and p.get("from_holder") and p.get("to_holder"):
        return [
            {
                "kind": "transfer_item",
                "item": p["item"],
                "from_holder": p["to_holder"],
                "to_holder": p["from_holder"],
                "quantity": p.get("quantity", 1),
                **common,
            }
        ]
    if kind == "set_alive":
        return [{"kind": "set_alive", "entity": p["entity"], "alive": not p.get("alive"), **common}]
    if kind == "add_condition":
        return [{"kind": "remove_condition", "entity": p["entity"], "condition": p["condition"], **common}]
    if kind == "remove_condition":
        return [{"kind": "add_condition", "entity": p["entity"], "condition": p["condition"], **common}]
    if kind in ("set_hp", "move_entity"):
        field = "hp" if kind == "set_hp" else "location"
        before = await _previous(
            session, campaign_id=campaign_id, before_seq=event.seq, kind=kind, field=field, entity=p["entity"]
        )
        if before is not None and before.get(field) is not None:
            return [{"kind": kind, "entity": p["entity"], field: before[field], **common}]
    return []
