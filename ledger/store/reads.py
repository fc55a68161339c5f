"""Reading the world through a :class:`~ledger.store.visibility.Viewer`: nothing the viewer may not see
leaves SQL.

Every read filters on the ``visibility`` column in the query itself. A record the viewer may not see is
treated as absent (``UnknownRecord`` / not listed), so its existence does not leak either. Entity state is
per field: a player may see where an NPC stands but not a secret condition on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, func, or_
from sqlalchemy import select as core_select
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import UnknownRecord
from ledger.store import models as m
from ledger.store.records import (
    EdgeChange,
    EdgeView,
    EntityView,
    EventView,
    FactView,
    HoldingView,
    ItemView,
    LocationView,
    NameMatch,
    RecordView,
    ThreadView,
)
from ledger.store.sqlin import in_values
from ledger.store.visibility import Viewer, can_see, visible_clause

_MAX_CAUSE_CHAIN = 20


def _t(model: Any) -> Any:
    """A model's Core table: selecting it gives plain rows (attribute access by column name), which cost far
    less to build than ORM instances; the views below read either."""
    return model.__table__


async def _core(session: AsyncSession, stmt: Any) -> Any:
    """The result of a Core statement on the session's connection (plain rows, no ORM instances)."""
    return await (await session.connection()).execute(stmt)


def _prov(row: Any) -> dict[str, Any]:
    return {
        "session_number": row.session_number,
        "round_number": row.round_number,
        "cause": row.cause,
        "visibility": row.visibility,
    }


def location_view(row: Any) -> LocationView:
    """A location row (ORM or Core) as its view."""
    return LocationView(
        id=row.id, name=row.name, aliases=tuple(row.aliases or ()), description=row.description, **_prov(row)
    )


def item_view(row: Any) -> ItemView:
    """An item row (ORM or Core) as its view."""
    return ItemView(
        id=row.id,
        name=row.name,
        aliases=tuple(row.aliases or ()),
        description=row.description,
        properties=row.properties or {},
        **_prov(row),
    )


def edge_view(row: m.Edge, history: Iterable[EdgeChange] = ()) -> EdgeView:
    """An edge row (and, when given, its earlier values) as its view."""
    return EdgeView(
        source=row.source_id,
        target=row.target_id,
        kind=row.kind,
        attitude=row.attitude,
        reason=row.reason,
        since_session=row.since_session,
        history=tuple(history),
        **_prov(row),
    )


def _entity_view(row: Any, facts: Iterable[Any]) -> EntityView:
    """An entity row (ORM or Core) with its state facts (anything with ``field`` and ``value``)."""
    state: dict[str, Any] = {"conditions": []}
    for f in facts:
        if f.field in ("alive", "location", "hp"):
            state[f.field] = f.value
        elif f.field.startswith("condition-") and (f.value is True or (isinstance(f.value, str) and f.value)):
            # true, or naming what caused it (a scenario's condition_sources: charmed by npc-vesna)
            state["conditions"].append(f.field.removeprefix("condition-"))
    state["conditions"] = tuple(sorted(state["conditions"]))
    return EntityView(
        id=row.id,
        kind=row.kind,
        name=row.name,
        aliases=tuple(row.aliases),
        description=row.description,
        owner_user_id=row.owner_user_id,
        sheet=row.sheet,
        **state,
        **_prov(row),
    )


async def get_entities(
    session: AsyncSession, *, campaign_id: int, entity_ids: Sequence[str], viewer: Viewer
) -> list[EntityView]:
    """The entities among ``entity_ids`` the viewer may see, with the state they may see, in id order."""
    if not entity_ids:
        return []
    return await _entities(session, campaign_id, _t(m.Entity).c.id.in_(list(entity_ids)), viewer)


async def entities_around(
    session: AsyncSession, *, campaign_id: int, entity_ids: Sequence[str], viewer: Viewer
) -> list[EntityView]:
    """The entities among ``entity_ids`` and every entity standing where one of them stands (by location
    facts the viewer may see), in id order: a scene's creatures in two reads instead of two per place."""
    if not entity_ids:
        return []
    entity, fact = _t(m.Entity), _t(m.Fact)
    near = fact.alias("near")
    places = core_select(fact.c.value_text).where(
        fact.c.campaign_id == campaign_id,
        fact.c.field == "location",
        in_values(fact.c.subject, entity_ids),
        visible_clause(viewer, fact.c.visibility),
    )
    there = core_select(near.c.subject).where(
        near.c.campaign_id == campaign_id,
        near.c.field == "location",
        near.c.value_text.in_(places),
        visible_clause(viewer, near.c.visibility),
    )
    return await _entities(
        session, campaign_id, or_(in_values(entity.c.id, entity_ids), entity.c.id.in_(there)), viewer
    )


async def _entities(session: AsyncSession, campaign_id: int, which: Any, viewer: Viewer) -> list[EntityView]:
    """The entities ``which`` (a clause on the entity table) selects, with their state, in id order."""
    # Core rows (attribute access by column name), not ORM instances: a round reads these several times and
    # never writes through them, and building ORM instances cost more than the queries.
    entity, fact = _t(m.Entity), _t(m.Fact)
    rows = (
        await _core(
            session,
            core_select(entity)
            .where(entity.c.campaign_id == campaign_id, which, visible_clause(viewer, entity.c.visibility))
            .order_by(entity.c.id),
        )
    ).all()
    if not rows:
        return []
    facts = (
        await _core(
            session,
            core_select(fact.c.subject, fact.c.field, fact.c.value).where(
                fact.c.campaign_id == campaign_id,
                in_values(fact.c.subject, [r.id for r in rows]),
                visible_clause(viewer, fact.c.visibility),
            ),
        )
    ).all()
    by_subject: dict[str, list[Any]] = {}
    for f in facts:
        by_subject.setdefault(f.subject or "", []).append(f)
    return [_entity_view(r, by_subject.get(r.id, [])) for r in rows]


async def places(session: AsyncSession, *, campaign_id: int, viewer: Viewer) -> list[LocationView]:
    """Every location the viewer may see, by id (as ``sessions.locations``, read as plain rows)."""
    location = _t(m.Location)
    stmt = (
        core_select(location)
        .where(location.c.campaign_id == campaign_id, visible_clause(viewer, location.c.visibility))
        .order_by(location.c.id)
    )
    return [location_view(r) for r in (await _core(session, stmt)).all()]


async def get_entity(
    session: AsyncSession, *, campaign_id: int, entity_id: str, viewer: Viewer
) -> EntityView:
    """One entity with its state (alive, location, hp, conditions) as the viewer may see it.

    Raises UnknownRecord when there is no such entity or the viewer may not see it.
    """
    found = await get_entities(session, campaign_id=campaign_id, entity_ids=[entity_id], viewer=viewer)
    if not found:
        raise UnknownRecord(f"no entity called {entity_id!r}")
    return found[0]


async def get_location(
    session: AsyncSession, *, campaign_id: int, location_id: str, viewer: Viewer
) -> LocationView:
    """One location. Raises UnknownRecord when absent or hidden from the viewer."""
    row = (
        await session.exec(
            select(m.Location).where(
                m.Location.campaign_id == campaign_id,
                m.Location.id == location_id,
                visible_clause(viewer, m.Location.visibility),
            )
        )
    ).first()
    if row is None:
        raise UnknownRecord(f"no location called {location_id!r}")
    return location_view(row)


async def get_item(session: AsyncSession, *, campaign_id: int, item_id: str, viewer: Viewer) -> ItemView:
    """One item kind. Raises UnknownRecord when absent or hidden from the viewer."""
    row = (
        await session.exec(
            select(m.Item).where(
                m.Item.campaign_id == campaign_id,
                m.Item.id == item_id,
                visible_clause(viewer, m.Item.visibility),
            )
        )
    ).first()
    if row is None:
        raise UnknownRecord(f"no item called {item_id!r}")
    return item_view(row)


async def find_records(
    session: AsyncSession,
    *,
    campaign_id: int,
    text: str,
    viewer: Viewer,
    kinds: Sequence[str] | None = None,
    prefix: bool = False,
    limit: int = 25,
) -> list[NameMatch]:
    """Records whose name or an alias equals ``text`` (case-insensitive), or starts with it when ``prefix``.

    ``kinds`` narrows to ``entity``/``location``/``item``. For parsers (exact) and autocomplete (prefix).
    """
    folded = text.strip().casefold()
    if not folded:
        return []
    cond: ColumnElement[bool]
    if prefix:
        escaped = folded.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        cond = col(m.NameIndex.name_folded).like(escaped + "%", escape="\\")
    else:
        cond = col(m.NameIndex.name_folded) == folded
    stmt = select(m.NameIndex).where(
        m.NameIndex.campaign_id == campaign_id, cond, visible_clause(viewer, m.NameIndex.visibility)
    )
    if kinds:
        stmt = stmt.where(col(m.NameIndex.record_kind).in_(list(kinds)))
    hits = (
        await session.exec(stmt.order_by(col(m.NameIndex.name_folded), col(m.NameIndex.ref)).limit(limit))
    ).all()
    names: dict[str, str] = {}
    for table in (m.Entity, m.Location, m.Item):
        refs = [h.ref for h in hits]
        if refs:
            for rid, name in (
                await session.exec(
                    select(table.id, table.name).where(
                        table.campaign_id == campaign_id, col(table.id).in_(refs)
                    )
                )
            ).all():
                names[rid] = name
    seen: set[str] = set()
    out: list[NameMatch] = []
    for h in hits:
        if h.ref in seen:
            continue
        seen.add(h.ref)
        out.append(
            NameMatch(
                ref=h.ref, record_kind=h.record_kind, name=names.get(h.ref, h.ref), matched=h.name_folded
            )
        )
    return out


async def find_entity(
    session: AsyncSession, *, campaign_id: int, name: str, viewer: Viewer
) -> EntityView | None:
    """The entity called ``name`` (or with that alias or id), case-insensitive; None if none or ambiguous."""
    matches = await find_records(session, campaign_id=campaign_id, text=name, viewer=viewer, kinds=["entity"])
    if len(matches) != 1:
        try:
            return await get_entity(session, campaign_id=campaign_id, entity_id=name.strip(), viewer=viewer)
        except UnknownRecord:
            return None
    return await get_entity(session, campaign_id=campaign_id, entity_id=matches[0].ref, viewer=viewer)


async def _holdings(session: AsyncSession, campaign_id: int, viewer: Viewer, where: Any) -> list[HoldingView]:
    holding, item = _t(m.Holding), _t(m.Item)
    stmt = (
        core_select(
            holding.c.item_id,
            holding.c.holder_id,
            holding.c.quantity,
            holding.c.session_number,
            holding.c.round_number,
            holding.c.cause,
            holding.c.visibility,
            item.c.name.label("item_name"),
        )
        .select_from(
            holding.join(
                item, (item.c.campaign_id == holding.c.campaign_id) & (item.c.id == holding.c.item_id)
            )
        )
        .where(
            holding.c.campaign_id == campaign_id,
            where,
            holding.c.quantity > 0,
            visible_clause(viewer, holding.c.visibility),
            visible_clause(viewer, item.c.visibility),
        )
        .order_by(holding.c.holder_id, holding.c.item_id)
    )
    return [
        HoldingView(
            item_id=h.item_id, item_name=h.item_name, holder_id=h.holder_id, quantity=h.quantity, **_prov(h)
        )
        for h in (await _core(session, stmt)).all()
    ]


async def held_items(
    session: AsyncSession, *, campaign_id: int, holder_ids: Sequence[str], viewer: Viewer
) -> tuple[list[HoldingView], list[ItemView]]:
    """What each of ``holder_ids`` holds (by holder, then item) and those items' kinds, in ONE read: a
    scene's holdings and the items they are of."""
    if not holder_ids:
        return [], []
    holding, item = _t(m.Holding), _t(m.Item)
    prov = ("session_number", "round_number", "cause", "visibility")
    stmt = (
        core_select(
            holding.c.item_id,
            holding.c.holder_id,
            holding.c.quantity,
            *(holding.c[name].label(f"h_{name}") for name in prov),
            *(
                item.c[name].label(f"i_{name}")
                for name in (*prov, "name", "aliases", "description", "properties")
            ),
        )
        .select_from(
            holding.join(
                item, (item.c.campaign_id == holding.c.campaign_id) & (item.c.id == holding.c.item_id)
            )
        )
        .where(
            holding.c.campaign_id == campaign_id,
            in_values(holding.c.holder_id, holder_ids),
            holding.c.quantity > 0,
            visible_clause(viewer, holding.c.visibility),
            visible_clause(viewer, item.c.visibility),
        )
        .order_by(holding.c.holder_id, holding.c.item_id)
    )
    holdings: list[HoldingView] = []
    items: dict[str, ItemView] = {}
    for r in (await _core(session, stmt)).all():
        holdings.append(
            HoldingView(
                item_id=r.item_id,
                item_name=r.i_name,
                holder_id=r.holder_id,
                quantity=r.quantity,
                **{name: getattr(r, f"h_{name}") for name in prov},
            )
        )
        if r.item_id not in items:
            items[r.item_id] = ItemView(
                id=r.item_id,
                name=r.i_name,
                aliases=tuple(r.i_aliases or ()),
                description=r.i_description,
                properties=r.i_properties or {},
                **{name: getattr(r, f"i_{name}") for name in prov},
            )
    return holdings, [items[i] for i in sorted(items)]


async def inventory(
    session: AsyncSession, *, campaign_id: int, holder_id: str, viewer: Viewer
) -> list[HoldingView]:
    """What ``holder_id`` (an entity or a location) holds, as the viewer may see it, by item id."""
    return await _holdings(session, campaign_id, viewer, m.Holding.holder_id == holder_id)


async def holders_of(
    session: AsyncSession, *, campaign_id: int, item_id: str, viewer: Viewer
) -> list[HoldingView]:
    """Who holds ``item_id`` and how many, as the viewer may see it."""
    return await _holdings(session, campaign_id, viewer, m.Holding.item_id == item_id)


async def entities_at(
    session: AsyncSession, *, campaign_id: int, location_id: str, viewer: Viewer, alive_only: bool = False
) -> list[EntityView]:
    """Entities the viewer may see standing at ``location_id`` (by a location fact the viewer may see)."""
    ids = (
        await session.exec(
            select(m.Fact.subject).where(
                m.Fact.campaign_id == campaign_id,
                m.Fact.field == "location",
                m.Fact.value_text == location_id,
                visible_clause(viewer, m.Fact.visibility),
            )
        )
    ).all()
    found = await get_entities(
        session, campaign_id=campaign_id, entity_ids=[i for i in ids if i], viewer=viewer
    )
    return [e for e in found if not alive_only or e.alive is not False]


async def relationships(
    session: AsyncSession, *, campaign_id: int, entity_id: str, viewer: Viewer, with_history: bool = True
) -> list[EdgeView]:
    """Edges from or to ``entity_id`` the viewer may see, each with its visible history (oldest first)."""
    edges = (
        await session.exec(
            select(m.Edge)
            .where(
                m.Edge.campaign_id == campaign_id,
                or_(col(m.Edge.source_id) == entity_id, col(m.Edge.target_id) == entity_id),
                visible_clause(viewer, m.Edge.visibility),
            )
            .order_by(col(m.Edge.source_id), col(m.Edge.target_id), col(m.Edge.kind))
        )
    ).all()
    history: dict[tuple[str, str, str], list[EdgeChange]] = {}
    if with_history and edges:
        rows = (
            await session.exec(
                select(m.EdgeHistory)
                .where(
                    m.EdgeHistory.campaign_id == campaign_id,
                    or_(col(m.EdgeHistory.source_id) == entity_id, col(m.EdgeHistory.target_id) == entity_id),
                    visible_clause(viewer, m.EdgeHistory.visibility),
                )
                .order_by(col(m.EdgeHistory.id))
            )
        ).all()
        for h in rows:
            history.setdefault((h.source_id, h.target_id, h.kind), []).append(
                EdgeChange(attitude=h.attitude, reason=h.reason, **_prov(h))
            )
    return [edge_view(e, history.get((e.source_id, e.target_id, e.kind), [])) for e in edges]


def _thread_view(t: m.Thread) -> ThreadView:
    return ThreadView(
        id=t.id,
        kind=t.kind,
        status=t.status,
        terms=t.terms,
        tags=tuple(t.tags),
        parties=tuple(t.parties),
        expires_session=t.expires_session,
        opened_session=t.opened_session,
        **_prov(t),
    )


async def threads(
    session: AsyncSession,
    *,
    campaign_id: int,
    viewer: Viewer,
    status: str | Sequence[str] | None = None,
    parties: Sequence[str] | None = None,
    thread_ids: Sequence[str] | None = None,
) -> list[ThreadView]:
    """Threads the viewer may see, optionally only with ``status`` and binding any of ``parties``, by id."""
    stmt = select(m.Thread).where(
        m.Thread.campaign_id == campaign_id, visible_clause(viewer, m.Thread.visibility)
    )
    if status is not None:
        stmt = stmt.where(in_values(col(m.Thread.status), [status] if isinstance(status, str) else status))
    if thread_ids is not None:
        stmt = stmt.where(in_values(col(m.Thread.id), thread_ids))
    if parties is not None:
        bound = select(m.ThreadParty.thread_id).where(
            m.ThreadParty.campaign_id == campaign_id, in_values(col(m.ThreadParty.entity_id), parties)
        )
        stmt = stmt.where(col(m.Thread.id).in_(bound))
    return [_thread_view(t) for t in (await session.exec(stmt.order_by(col(m.Thread.id)))).all()]


def _visible_payload(payload: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The payload without the nested changes (of a retcon or correction) the viewer may not see."""
    nested = payload.get("changes")
    if not isinstance(nested, list):
        return payload
    kept = [c for c in nested if can_see(viewer, str(c.get("visibility", "public")))]
    return payload if len(kept) == len(nested) else {**payload, "changes": kept}


_THREAD_PREFIX = {"favour": "favor"}


async def next_thread_id(
    session: AsyncSession, *, campaign_id: int, thread_kind: str, session_number: int
) -> str:
    """A fresh thread id ``<kind>-<session:04>-<seq:02>`` (``favor-0003-01``) for an ``open_thread`` change.

    Counts every thread of that kind and session, visible or not, so ids never collide.
    """
    prefix = f"{_THREAD_PREFIX.get(thread_kind, thread_kind)}-{session_number:04d}-"
    taken = (
        await session.exec(
            select(m.Thread.id).where(
                m.Thread.campaign_id == campaign_id, col(m.Thread.id).startswith(prefix)
            )
        )
    ).all()
    numbers = [int(t.removeprefix(prefix)) for t in taken if t.removeprefix(prefix).isdigit()]
    return f"{prefix}{max(numbers, default=0) + 1:02d}"


async def _entities_by_event(
    session: AsyncSession, table: type[m.EventWitness] | type[m.EventEntity], ids: Sequence[int | None]
) -> dict[int, list[str]]:
    """Event id -> the entity ids a link table (witnesses, or what an event involves) holds for it."""
    out: dict[int, list[str]] = {}
    rows = await session.exec(select(table.event_id, table.entity_id).where(col(table.event_id).in_(ids)))
    for eid, ent in rows.all():
        out.setdefault(eid, []).append(ent)
    return out


async def _event_views(
    session: AsyncSession, campaign_id: int, rows: Sequence[Any], viewer: Viewer, links: bool = True
) -> list[EventView]:
    """Event rows (ORM or Core) as views; ``links=False`` leaves witnesses, involved and superseded_by empty
    (three reads saved where nobody looks at them)."""
    if not rows:
        return []
    ids = [r.id for r in rows]
    witnesses: dict[int, list[str]] = {}
    involved: dict[int, list[str]] = {}
    later: dict[str, list[str]] = {}
    if links:
        witnesses = await _entities_by_event(session, m.EventWitness, ids)
        involved = await _entities_by_event(session, m.EventEntity, ids)
        for ref, sup in (
            await session.exec(
                select(m.Event.ref, m.Event.supersedes).where(
                    m.Event.campaign_id == campaign_id,
                    col(m.Event.supersedes).in_([r.ref for r in rows]),
                    visible_clause(viewer, m.Event.visibility),
                )
            )
        ).all():
            if sup is not None:
                later.setdefault(sup, []).append(ref)
    return [
        EventView(
            ref=r.ref,
            seq=r.seq,
            kind=r.kind,
            payload=_visible_payload(r.payload, viewer),
            importance=r.importance,
            permanent=r.permanent,
            supersedes=r.supersedes,
            superseded_by=tuple(sorted(later.get(r.ref, []))),
            witnesses=tuple(sorted(witnesses.get(r.id or 0, []))),
            involved=tuple(sorted(involved.get(r.id or 0, []))),
            created_at=r.created_at,
            **_prov(r),
        )
        for r in rows
    ]


async def history(
    session: AsyncSession,
    *,
    campaign_id: int,
    viewer: Viewer,
    limit: int = 20,
    involving: Sequence[str] | None = None,
    session_number: int | None = None,
    round_number: int | None = None,
    links: bool = True,
) -> list[EventView]:
    """The last ``limit`` events the viewer may see, newest first, each with its cause and what it supersedes.

    ``involving`` keeps events that involve any of those ids (entities, locations, items, threads).
    Corrected or retconned events stay listed next to the events that supersede them. ``links=False``: one
    read, the events' witnesses, involved ids and superseding refs left empty (for callers that read none).
    """
    stmt = select(m.Event).where(
        m.Event.campaign_id == campaign_id, visible_clause(viewer, m.Event.visibility)
    )
    if involving is not None:
        hit = select(m.EventEntity.event_id).where(
            m.EventEntity.campaign_id == campaign_id, col(m.EventEntity.entity_id).in_(list(involving))
        )
        stmt = stmt.where(col(m.Event.id).in_(hit))
    if session_number is not None:
        stmt = stmt.where(m.Event.session_number == session_number)
    if round_number is not None:
        stmt = stmt.where(m.Event.round_number == round_number)
    order: Any = col(m.Event.seq)
    if session_number is not None:
        # ``seq + 0``: one session's events are found by (session, round) first. Ordered by the bare column,
        # SQLite walks the whole history backwards along the seq index to find them (25 ms at 100k events).
        order = order + 0
    rows = (await session.exec(stmt.order_by(order.desc()).limit(limit))).all()
    return await _event_views(session, campaign_id, rows, viewer, links)


async def npc_knowledge(
    session: AsyncSession,
    *,
    campaign_id: int,
    npc_id: str,
    viewer: Viewer | None = None,
    limit: int = 100,
) -> list[EventView]:
    """Events ``npc_id`` witnessed or was told of (listed as a witness), newest first.

    An NPC who was not in the back room does not know what was said there. By default (``viewer=None``)
    this is the NPC's own knowledge, secrets included, for its dialogue context; pass a viewer to also
    restrict to what that viewer may see.
    """
    seen = select(m.EventWitness.event_id).where(
        m.EventWitness.campaign_id == campaign_id, m.EventWitness.entity_id == npc_id
    )
    stmt = select(m.Event).where(m.Event.campaign_id == campaign_id, col(m.Event.id).in_(seen))
    if viewer is not None:
        stmt = stmt.where(visible_clause(viewer, m.Event.visibility))
    rows = (await session.exec(stmt.order_by(col(m.Event.seq).desc()).limit(limit))).all()
    return await _event_views(session, campaign_id, rows, viewer or Viewer.gm())


async def npc_knowledge_of(
    session: AsyncSession,
    *,
    campaign_id: int,
    npc_ids: Sequence[str],
    viewer: Viewer | None = None,
    limit: int = 100,
    links: bool = True,
) -> dict[str, list[EventView]]:
    """:func:`npc_knowledge` for several NPCs in one read (plus the three reads of the events' links, unless
    ``links=False``): NPC id -> its newest ``limit`` witnessed events, newest first (every NPC is a key)."""
    out: dict[str, list[EventView]] = {npc: [] for npc in npc_ids}
    if not npc_ids:
        return out
    witness, event = _t(m.EventWitness), _t(m.Event)
    w, e = witness.c, event.c
    rank = func.row_number().over(partition_by=w.entity_id, order_by=e.seq.desc()).label("rank")
    ranked = (
        select(w.entity_id.label("npc"), e.id.label("event_id"), rank)
        .select_from(witness.join(event, e.id == w.event_id))
        .where(w.campaign_id == campaign_id, w.entity_id.in_(list(npc_ids)), e.campaign_id == campaign_id)
    )
    if viewer is not None:
        ranked = ranked.where(visible_clause(viewer, e.visibility))
    sub = ranked.subquery()
    rows = (
        await _core(
            session,
            core_select(sub.c.npc, event)
            .select_from(sub.join(event, e.id == sub.c.event_id))
            .where(sub.c.rank <= limit)
            .order_by(sub.c.npc, e.seq.desc()),
        )
    ).all()
    events = {row.id: row for row in rows}
    seen = await _event_views(session, campaign_id, list(events.values()), viewer or Viewer.gm(), links)
    views = {view.seq: view for view in seen}
    for row in rows:
        out[row.npc].append(views[row.seq])
    return out


async def facts(
    session: AsyncSession,
    *,
    campaign_id: int,
    viewer: Viewer,
    subject: str | None = None,
    keys: Sequence[str] | None = None,
) -> list[FactView]:
    """Current facts the viewer may see, by key; optionally of one ``subject`` or only ``keys``."""
    fact = _t(m.Fact)
    stmt = core_select(fact).where(
        fact.c.campaign_id == campaign_id, visible_clause(viewer, fact.c.visibility)
    )
    if subject is not None:
        stmt = stmt.where(fact.c.subject == subject)
    if keys is not None:
        stmt = stmt.where(fact.c.key.in_(list(keys)))
    return [
        FactView(key=f.key, subject=f.subject, field=f.field, value=f.value, **_prov(f))
        for f in (await _core(session, stmt.order_by(fact.c.key))).all()
    ]


async def _event_row(session: AsyncSession, campaign_id: int, ref: str, viewer: Viewer) -> m.Event | None:
    return (
        await session.exec(
            select(m.Event).where(
                m.Event.campaign_id == campaign_id,
                m.Event.ref == ref,
                visible_clause(viewer, m.Event.visibility),
            )
        )
    ).first()


async def record(session: AsyncSession, *, campaign_id: int, ref: str, viewer: Viewer) -> RecordView:
    """Any record by ref (event ``ev-000123``, entity, location, item, thread or fact key), with its causes.

    ``cause_chain`` follows causes through events (newest first) as far as the viewer may see;
    ``root_cause`` is the first cause that is not an event: the roll (``round-12#3``) or ruling behind it.
    Raises UnknownRecord when there is no such record or the viewer may not see it.
    """
    kind: str
    data: dict[str, Any]
    prov: dict[str, Any]
    ev = await _event_row(session, campaign_id, ref, viewer)
    if ev is not None:
        (view,) = await _event_views(session, campaign_id, [ev], viewer)
        kind, data, prov = "event", view.model_dump(mode="json"), _prov(ev)
    else:
        found: Any = None
        for table, name in (
            (m.Entity, "entity"),
            (m.Location, "location"),
            (m.Item, "item"),
            (m.Thread, "thread"),
        ):
            found = (
                await session.exec(
                    select(table).where(
                        table.campaign_id == campaign_id,
                        table.id == ref,
                        visible_clause(viewer, table.visibility),
                    )
                )
            ).first()
            if found is not None:
                kind = name
                break
        if found is None:
            found = (
                await session.exec(
                    select(m.Fact).where(
                        m.Fact.campaign_id == campaign_id,
                        m.Fact.key == ref,
                        visible_clause(viewer, m.Fact.visibility),
                    )
                )
            ).first()
            kind = "fact"
        if found is None:
            raise UnknownRecord(f"no record {ref!r}")
        data, prov = found.model_dump(mode="json"), _prov(found)
    chain: list[EventView] = []
    cause: str | None = prov["cause"]
    root: str | None = None
    seen = {ref}
    while cause and cause not in seen and len(chain) < _MAX_CAUSE_CHAIN:
        seen.add(cause)
        row = await _event_row(session, campaign_id, cause, viewer)
        if row is None:
            # Not an event (a roll or a ruling), or an event this viewer may not see: stop either way.
            if not cause.startswith("ev-"):
                root = cause
            break
        chain.extend(await _event_views(session, campaign_id, [row], viewer))
        cause = row.cause
    return RecordView(ref=ref, record_kind=kind, data=data, cause_chain=tuple(chain), root_cause=root, **prov)
