"""The world rows a checker snapshot is built from, read in one statement, and kept between rounds when the
world is large: the next read asks only for the rows the events since then changed.

:func:`world_parts` answers the campaign's projections (facts, entities, locations, items, holdings, edges,
threads) and its newest retcons, as one audience may see them, by part. :mod:`ledger.check.snapshot_sql`
builds the snapshot from them.

Why keep them: a long campaign's world holds thousands of records, and a round changes a handful. Reading
and copying every row each round cost ~150 ms at 2,000 NPCs (and the garbage it left made full collections
frequent). A world of :data:`WARM_AT` rows or more is kept per (campaign, audience) with the newest event it
reflects (its seq, ref and time, the *anchor*). The next read is one statement: the anchor event again (it
proves this is the same campaign of the same database), every event since, and the fact, holding, edge and
thread rows those events last wrote (``cause`` is the event's ref). The kept rows those events name are
dropped, the rows read back put in (a row the audience may no longer see, or that went away, is simply not
read back). A change whose rows cannot be named from its payload (a new record, a retcon, a correction), too
many events since, or an anchor that does not match: the whole world is read again, as for a small world.
Rows are ordered by their keys in Python (code point order, as SQLite sorts text), on both backends, so a
kept world and a fresh read list the same records in the same order.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import Integer, String, bindparam, cast, literal_column, null, select, true, union_all
from sqlalchemy.types import JSON

from ledger.store import models as m
from ledger.store.sqljson import raw_json
from ledger.store.visibility import Viewer, visible_clause

WORLD_CAP = 20_000  # rows per part: a bigger part is cut (and such a world is never kept)
RETCON_CAP = 500  # the newest logged retcons
WARM_AT = 2_000  # a world of at least this many rows is kept between reads
EVENTS_AT_MOST = 256  # more events since the kept read than this: the whole world is read again
KEPT = 16  # (campaign, audience) worlds kept in a process: at most ~0.7 KB a row, ~6 MB for 2,000 NPCs
PARTS = ("fact", "entity", "location", "item", "holding", "edge", "thread", "retcon")
#: The parts whose rows a logged change writes, named by key by :func:`_changed_keys`.
CHANGED_PARTS = ("fact", "holding", "edge", "thread")


class WorldRow(NamedTuple):
    """One row of the world statement, copied out of SQLAlchemy's row: reading a named field of a plain
    tuple costs a fraction of a ``Row`` attribute (~70 ms of a 2,000-NPC world's snapshot went to those).
    ``part`` names the table; ``k1``-``k3`` are its keys, ``t1``/``t2`` text, ``n`` a number, ``j1``/``j2``
    JSON (see the readers in :mod:`ledger.check.snapshot_sql` for each part's mapping)."""

    part: str
    k1: Any
    k2: Any
    k3: Any
    t1: Any
    t2: Any
    n: Any
    j1: Any
    j2: Any
    visibility: str


def _c(model: Any) -> Any:
    """The Core columns of a sqlmodel table (selecting them gives plain rows, not ORM instances)."""
    return model.__table__.c


def _specs() -> dict[str, tuple[Any, dict[str, Any], list[Any], tuple[Any, ...]]]:
    """Per projection part: its table, its columns in the shared names, its order and its own filter."""
    fact, entity, loc, item = _c(m.Fact), _c(m.Entity), _c(m.Location), _c(m.Item)
    holding, edge, thread = _c(m.Holding), _c(m.Edge), _c(m.Thread)
    return {
        "fact": (
            m.Fact,
            {"k1": fact.key, "k2": fact.subject, "k3": fact.field, "j1": fact.value},
            [fact.key],
            (),
        ),
        "entity": (
            m.Entity,
            {
                "k1": entity.id,
                "k3": entity.kind,
                "t1": entity.name,
                "t2": entity.owner_user_id,
                "j1": entity.aliases,
                "j2": entity.sheet,
            },
            [entity.id],
            (),
        ),
        "location": (m.Location, {"k1": loc.id, "t1": loc.name, "j1": loc.aliases}, [loc.id], ()),
        "item": (
            m.Item,
            {
                "k1": item.id,
                "t1": item.name,
                "t2": item.description,
                "j1": item.aliases,
                "j2": item.properties,
            },
            [item.id],
            (),
        ),
        "holding": (
            m.Holding,
            {"k1": holding.item_id, "k2": holding.holder_id, "n": holding.quantity},
            [holding.item_id, holding.holder_id],
            (holding.quantity > 0,),
        ),
        "edge": (
            m.Edge,
            {
                "k1": edge.source_id,
                "k2": edge.target_id,
                "k3": edge.kind,
                "t1": edge.reason,
                "n": edge.attitude,
            },
            [edge.source_id, edge.target_id, edge.kind],
            (),
        ),
        "thread": (
            m.Thread,
            {
                "k1": thread.id,
                "k3": thread.kind,
                "t1": thread.status,
                "t2": thread.terms,
                "j1": thread.tags,
                "j2": thread.parties,
            },
            [thread.id],
            (),
        ),
    }


def _branch(
    part: str,
    model: Any,
    cols: Mapping[str, Any],
    order: Sequence[Any],
    where: Sequence[Any],
    audience: Viewer | None,
    cap: int = WORLD_CAP,
) -> Any:
    """One part of a world statement: ``part``, the shared columns, the visibility; ``audience`` None reads
    every row (the events: only their keys are used, nothing of them reaches a snapshot)."""
    c = _c(model)
    text, number, json = cast(null(), String), cast(null(), Integer), cast(null(), JSON)
    values: dict[str, Any] = {"k1": text, "k2": text, "k3": text, "t1": text, "t2": text, "n": number,
                              "j1": json, "j2": json}  # fmt: skip
    values.update(cols)
    seen = [visible_clause(audience, c.visibility)] if audience is not None else []
    inner = (
        select(
            literal_column(f"'{part}'").label("part"),
            *(value.label(name) for name, value in values.items()),
            c.visibility.label("visibility"),
        )
        .where(c.campaign_id == bindparam("campaign_id", type_=Integer), *seen, *where)
        .order_by(*order)
        .limit(cap)
        .subquery(part)
    )
    return select(*inner.c)


def _finish(parts: list[Any]) -> Any:
    """The union of ``parts`` with its JSON columns as the driver gives them (SQLite's text is decoded by
    :func:`ledger.store.sqljson.json_reader`, remembered; asyncpg's values come decoded)."""
    world = union_all(*parts).subquery("world")
    raw = {name: raw_json(world.c[name]).label(name) for name in ("j1", "j2")}
    return select(*(raw.get(c.name, c) for c in world.c))


def _anchor(where: Any, audience: Viewer | None = None) -> Any:
    """The ``anchor`` part: an event's ref (k1), seq (n) and time (t1), by ``where``."""
    ev = _c(m.Event)
    cols = {"k1": ev.ref, "n": ev.seq, "t1": cast(ev.created_at, String)}
    return _branch("anchor", m.Event, cols, [ev.seq.desc()], [where], audience, cap=1)


@functools.lru_cache(maxsize=128)
def world_stmt(audience: Viewer) -> Any:
    """The whole world as ``audience`` may see it, in ONE statement: every projection part (each capped at
    :data:`WORLD_CAP` rows in its own order), the newest :data:`RETCON_CAP` logged retcons (``supersedes``
    is indexed; corrections are fixes, not retcons) and the newest event (the anchor a kept world starts
    from). Built once per audience: building the union and its cache key was a large part of a snapshot."""
    ev = _c(m.Event)
    parts = [
        _branch(part, model, cols, order, where, audience)
        for part, (model, cols, order, where) in _specs().items()
    ]
    parts.append(
        _branch(  # k1 the retconned event's ref, n the retcon event's id, j1 its payload
            "retcon",
            m.Event,
            {"k1": ev.supersedes, "n": ev.id, "j1": ev.payload},
            [ev.id.desc()],
            [ev.supersedes.is_not(None), ev.kind == "retcon"],
            audience,
            cap=RETCON_CAP,
        )
    )
    parts.append(_anchor(true()))  # the newest event
    return _finish(parts)


@functools.lru_cache(maxsize=128)
def changes_stmt(audience: Viewer) -> Any:
    """What changed since the kept anchor (``since``, a seq), in ONE statement: the anchor event again,
    every event after it (k1 ref, k3 kind, n seq, t1 time, j1 payload: at most :data:`EVENTS_AT_MOST` + 1),
    and the fact, holding, edge and thread rows those events wrote last, as ``audience`` may see them."""
    ev = _c(m.Event)
    since = bindparam("since", type_=Integer)
    refs = select(ev.ref).where(ev.campaign_id == bindparam("campaign_id"), ev.seq > since)
    parts = [_anchor(ev.seq == since)]
    parts.append(
        _branch(
            "event",
            m.Event,
            {"k1": ev.ref, "k3": ev.kind, "n": ev.seq, "t1": cast(ev.created_at, String), "j1": ev.payload},
            [ev.seq],
            [ev.seq > since],
            None,
            cap=EVENTS_AT_MOST + 1,
        )
    )
    for part in CHANGED_PARTS:
        model, cols, order, where = _specs()[part]
        parts.append(_branch(part, model, cols, order, [*where, _c(model).cause.in_(refs)], audience))
    return _finish(parts)


#: How many of (k1, k2, k3) name a row of each part (the rest are data: a fact's subject and field).
_KEY_LENGTH = {"fact": 1, "entity": 1, "location": 1, "item": 1, "holding": 2, "edge": 3, "thread": 1}
Key = tuple[str, ...]


def row_key(row: WorldRow) -> Key:
    """A row's key in its part, which is also its order (as the full read's ``ORDER BY k1, k2, k3``)."""
    return tuple(k or "" for k in (row.k1, row.k2, row.k3)[: _KEY_LENGTH[row.part]])


@dataclass
class _Kept:
    """A kept world: the anchor event (seq, ref, time) and the rows by part, by :func:`row_key`."""

    anchor: tuple[int, str, str]
    parts: dict[str, dict[Key, WorldRow]]
    retcons: list[WorldRow]


_KEPT: OrderedDict[tuple[int, Viewer], _Kept] = OrderedDict()

#: Entity fields whose change kind names the fact it writes (``<entity>-<field>``).
_ENTITY_FIELD = {"set_hp": "hp", "set_alive": "alive", "move_entity": "location"}


def _changed_keys(kind: str, change: Mapping[str, Any]) -> list[tuple[str, Key]] | None:
    """The (part, key) of every row a logged change wrote, from its payload; None when its rows cannot be
    named (a new record, a retcon, a correction, a kind this does not know): the world is read again."""
    if kind in _ENTITY_FIELD:
        return [("fact", (f"{change['entity']}-{_ENTITY_FIELD[kind]}",))]
    if kind in ("add_condition", "remove_condition"):
        return [("fact", (f"{change['entity']}-condition-{change['condition']}",))]
    if kind == "set_fact":
        return [("fact", (str(change["key"]),))]
    if kind == "transfer_item":
        holders = (change.get("from_holder"), change.get("to_holder"))
        return [("holding", (str(change["item"]), str(h))) for h in holders if h]
    if kind == "set_edge":
        return [("edge", (str(change["source"]), str(change["target"]), str(change["edge_kind"])))]
    if kind == "open_thread":
        return [("thread", (str(change["id"]),))]
    if kind == "thread_transition":
        return [("thread", (str(change["thread"]),))]
    if kind == "record_event":
        return []  # a narrative event writes no projection
    return None


async def world_parts(
    session: Any, cid: int, audience: Viewer, decode: Any, run: Any
) -> dict[str, list[WorldRow]]:
    """The world's rows by part (:data:`PARTS`), each part in key order; from the kept world and what
    changed since when this campaign's world is kept, else read whole (and kept when large).

    ``decode`` reads a JSON column of this session; ``run(stmt, params)`` runs a statement, giving rows."""
    key = (cid, audience)
    kept = _KEPT.get(key)
    if kept is not None:
        rows = [
            WorldRow._make(r)
            for r in await run(changes_stmt(audience), {"campaign_id": cid, "since": kept.anchor[0]})
        ]
        if _apply(kept, rows, decode):
            _KEPT.move_to_end(key)
            return _listed(kept)
        del _KEPT[key]
    rows = [WorldRow._make(r) for r in await run(world_stmt(audience), {"campaign_id": cid})]
    by_part: dict[str, dict[Key, WorldRow]] = {part: {} for part in PARTS if part != "retcon"}
    retcons: list[WorldRow] = []
    anchor: tuple[int, str, str] | None = None
    for row in rows:
        if row.part == "retcon":
            retcons.append(row)
        elif row.part == "anchor":
            anchor = (int(row.n), str(row.k1), str(row.t1))
        else:
            by_part[row.part][row_key(row)] = row
    for part, table in by_part.items():
        by_part[part] = dict(sorted(table.items()))
    fresh = _Kept(anchor or (0, "", ""), by_part, retcons)
    size = sum(len(t) for t in by_part.values())
    if anchor is not None and size >= WARM_AT and all(len(t) < WORLD_CAP for t in by_part.values()):
        _KEPT[key] = fresh
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
    return _listed(fresh)


def _apply(kept: _Kept, rows: list[WorldRow], decode: Any) -> bool:
    """Bring ``kept`` up to date with the rows of :func:`changes_stmt`; False (``kept`` then unusable) when
    the anchor does not match or a change cannot be followed."""
    anchor = next((r for r in rows if r.part == "anchor"), None)
    if anchor is None or (int(anchor.n), str(anchor.k1), str(anchor.t1)) != kept.anchor:
        return False
    events = sorted((r for r in rows if r.part == "event"), key=lambda r: int(r.n))
    if len(events) > EVENTS_AT_MOST:
        return False
    if not events:
        return True
    gone: list[tuple[str, Key]] = []
    for ev in events:
        keys = _changed_keys(str(ev.k3), decode(ev.j1) or {})
        if keys is None:
            return False
        gone += keys
    for part, k in gone:
        kept.parts[part].pop(k, None)
    added: set[str] = set()
    for row in rows:
        if row.part in CHANGED_PARTS:
            table = kept.parts[row.part]
            k = row_key(row)
            if k not in table:
                added.add(row.part)
            table[k] = row
    for part in added:
        kept.parts[part] = dict(sorted(kept.parts[part].items()))
    last = events[-1]
    kept.anchor = (int(last.n), str(last.k1), str(last.t1))
    return True


def _listed(kept: _Kept) -> dict[str, list[WorldRow]]:
    """The kept rows as fresh lists per part (a later update never changes a list already handed out)."""
    out = {part: list(table.values()) for part, table in kept.parts.items()}
    out["retcon"] = list(kept.retcons)
    return out


def is_kept(cid: int, audience: Viewer) -> bool:
    """True when this campaign's world is kept for ``audience`` (its next read hands back the same row objects
    for what did not change)."""
    return (cid, audience) in _KEPT


def forget() -> None:
    """Drop every kept world (tests, and a process that restored its database from a backup)."""
    _KEPT.clear()


__all__ = [
    "PARTS",
    "RETCON_CAP",
    "WORLD_CAP",
    "WorldRow",
    "changes_stmt",
    "forget",
    "world_parts",
    "world_stmt",
]
