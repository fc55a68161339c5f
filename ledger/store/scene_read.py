"""The round's scene in ONE statement (issue 14): the PCs and everyone standing where they stand, those
entities' state facts, every place, what the scene's creatures and places hold, and the death-save,
stability and exits facts of the scene, as a UNION ALL of bounded reads.

Reading a scene took five statements (entities, their state facts, places, holdings, then the facts keyed by
the ids the first reads returned). Every later read's inputs are derived in SQL here instead (the PCs'
places as a CTE, the creatures as a CTE of ids, the keys as ``id || '-stable'`` ...), so one round trip
returns the rows those five statements returned. Read as the GM (the rules see everything that is there):
no visibility filter, as :func:`ledger.store.reads.entities_around` and the others read for ``Viewer.gm()``.
The statement is built once per number of PCs and cached.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import JSON, Integer, String, bindparam, cast, literal_column, null, or_, select, union_all
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.store import models as m
from ledger.store.reads import _entity_view
from ledger.store.records import EntityView, FactView, HoldingView, ItemView, LocationView
from ledger.store.sqljson import raw_json, text_json

_STATE_SUFFIXES = ("-death-saves", "-stable")


class SceneRows(NamedTuple):
    """What the five scene reads returned: the entities around the PCs (id order, with their state), every
    place (id order), what those entities and the PCs' places hold (holder, then item; quantity > 0) and
    those items (id order), and the death-save and stability facts of those entities and the exits of those
    places (key order)."""

    entities: list[EntityView]
    places: list[LocationView]
    holdings: list[HoldingView]
    items: list[ItemView]
    keyed: list[FactView]


class _EntityRow(NamedTuple):
    """An entity row under the names :func:`ledger.store.reads._entity_view` reads."""

    id: str
    kind: str
    name: str
    aliases: Any
    description: str
    owner_user_id: str | None
    sheet: Any
    session_number: int
    round_number: int | None
    cause: str
    visibility: str


class _State(NamedTuple):
    """A state fact of an entity (what :func:`ledger.store.reads._entity_view` reads of it)."""

    field: str
    value: Any


def _t(model: Any) -> Any:
    return model.__table__


@lru_cache(maxsize=32)
def scene_stmt(n_pcs: int) -> Any:
    """The scene of the PCs ``p0`` ... ``p<n-1>`` in campaign ``cid``, every branch in the generic columns
    ``part, t1..t7, j1, j2, n1..n3`` (typed alike, as a UNION needs on PostgreSQL)."""
    fact, near, keyed = _t(m.Fact), _t(m.Fact).alias("near"), _t(m.Fact).alias("keyed")
    entity, location, holding, item = _t(m.Entity), _t(m.Location), _t(m.Holding), _t(m.Item)
    cid: Any = bindparam("cid")
    pcs: list[Any] = [bindparam(f"p{i}") for i in range(n_pcs)]
    here = (
        select(fact.c.value_text.label("place"))
        .where(fact.c.campaign_id == cid, fact.c.field == "location", fact.c.subject.in_(pcs))
        .cte("scene_here")
    )
    there = select(near.c.subject).where(
        near.c.campaign_id == cid, near.c.field == "location", near.c.value_text.in_(select(here.c.place))
    )
    around = (
        select(entity.c.id.label("id"))
        .where(entity.c.campaign_id == cid, or_(entity.c.id.in_(pcs), entity.c.id.in_(there)))
        .cte("scene_around")
    )
    text, number, json_null = cast(null(), String), cast(null(), Integer), raw_json(cast(null(), JSON))

    def row(part: str, **cols: Any) -> Any:
        values: dict[str, Any] = {f"t{i}": text for i in range(1, 8)}
        values |= {"j1": json_null, "j2": json_null, "n1": number, "n2": number, "n3": number}
        values.update(cols)
        return select(literal_column(f"'{part}'").label("part"), *(v.label(k) for k, v in values.items()))

    def prov(t: Any) -> dict[str, Any]:
        return {"n1": t.c.session_number, "n2": t.c.round_number, "t6": t.c.cause, "t7": t.c.visibility}

    holders = union_all(select(around.c.id), select(here.c.place))
    parts = [
        row("e", t1=entity.c.id, t2=entity.c.kind, t3=entity.c.name, t4=entity.c.description,
            t5=entity.c.owner_user_id, j1=raw_json(entity.c.aliases), j2=raw_json(entity.c.sheet),
            **prov(entity)).where(entity.c.campaign_id == cid, entity.c.id.in_(select(around.c.id))),
        row("f", t1=fact.c.subject, t2=fact.c.field, j1=raw_json(fact.c.value)).where(
            fact.c.campaign_id == cid, fact.c.subject.in_(select(around.c.id))
        ),
        row("l", t1=location.c.id, t3=location.c.name, t4=location.c.description,
            j1=raw_json(location.c.aliases), **prov(location)).where(location.c.campaign_id == cid),
        row("h", t1=holding.c.item_id, t2=holding.c.holder_id, n3=holding.c.quantity, **prov(holding)).where(
            holding.c.campaign_id == cid, holding.c.holder_id.in_(holders), holding.c.quantity > 0
        ),
        row("i", t1=item.c.id, t3=item.c.name, t4=item.c.description, j1=raw_json(item.c.aliases),
            j2=raw_json(item.c.properties), **prov(item)).where(
            item.c.campaign_id == cid,
            item.c.id.in_(
                select(holding.c.item_id).where(
                    holding.c.campaign_id == cid, holding.c.holder_id.in_(holders), holding.c.quantity > 0
                )
            ),
        ),
        row("k", t1=keyed.c.key, t2=keyed.c.subject, t3=keyed.c.field, j1=raw_json(keyed.c.value),
            **prov(keyed)).where(
            keyed.c.campaign_id == cid,
            keyed.c.key.in_(
                union_all(
                    *(select(around.c.id.concat(suffix)) for suffix in _STATE_SUFFIXES),
                    select(here.c.place.concat("-exits")),
                )
            ),
        ),
    ]  # fmt: skip
    return union_all(*parts)


def _decoder(session: Any) -> Any:
    """JSON values decoded afresh (never shared: a scene's sheets and properties are handed on to callers)."""
    if not text_json(session):
        return lambda raw: raw
    return lambda raw: json.loads(raw) if isinstance(raw, str) else raw


async def scene_rows(session: AsyncSession, *, campaign_id: int, pc_ids: list[str]) -> SceneRows:
    """The scene around ``pc_ids`` as :class:`SceneRows`, in one statement."""
    conn = await session.connection()
    params: dict[str, Any] = {"cid": campaign_id, **{f"p{i}": pc for i, pc in enumerate(pc_ids)}}
    rows = (await conn.execute(scene_stmt(len(pc_ids)), params)).all()
    decode = _decoder(conn)
    entity_rows: list[Any] = []
    state: dict[str, list[tuple[str, Any]]] = {}
    places: list[LocationView] = []
    held: list[Any] = []
    items: dict[str, ItemView] = {}
    keyed: list[FactView] = []
    for r in rows:
        part = r.part
        if part == "f":
            state.setdefault(r.t1 or "", []).append(_State(r.t2, decode(r.j1)))
            continue
        if part == "h":
            held.append(r)
            continue
        provenance = {"session_number": r.n1, "round_number": r.n2, "cause": r.t6, "visibility": r.t7}
        if part == "e":
            entity_rows.append(r)
        elif part == "l":
            places.append(
                LocationView(
                    id=r.t1, name=r.t3, aliases=tuple(decode(r.j1) or ()), description=r.t4, **provenance
                )
            )
        elif part == "i":
            items[r.t1] = ItemView(
                id=r.t1,
                name=r.t3,
                aliases=tuple(decode(r.j1) or ()),
                description=r.t4,
                properties=decode(r.j2) or {},
                **provenance,
            )
        elif part == "k":
            keyed.append(FactView(key=r.t1, subject=r.t2, field=r.t3, value=decode(r.j1), **provenance))
    entities = [
        _entity_view(
            _EntityRow(
                r.t1, r.t2, r.t3, decode(r.j1) or (), r.t4, r.t5, decode(r.j2), r.n1, r.n2, r.t6, r.t7
            ),
            state.get(r.t1, []),
        )
        for r in sorted(entity_rows, key=lambda r: r.t1)
    ]
    holdings = [
        HoldingView(
            item_id=r.t1,
            item_name=items[r.t1].name,
            holder_id=r.t2,
            quantity=r.n3,
            session_number=r.n1,
            round_number=r.n2,
            cause=r.t6,
            visibility=r.t7,
        )
        for r in sorted(held, key=lambda r: (r.t2, r.t1))
        if r.t1 in items  # as the join of ``held_items``: a holding of no known item is not read
    ]
    places.sort(key=lambda p: p.id)
    keyed.sort(key=lambda f: f.key)
    return SceneRows(entities, places, holdings, [items[i] for i in sorted(items)], keyed)


__all__ = ["SceneRows", "scene_rows", "scene_stmt"]
