"""Build the assertion checker's :class:`~ledger.check.snapshot.WorldSnapshot` from the SQL ledger's
projections.

The checker reads only an in-memory snapshot; this module fills one from SQL for one campaign, as one
audience may know it (a :class:`~ledger.store.visibility.Viewer`): every query filters on ``visibility`` in
SQL, so
a record the audience may not see is simply absent, as it is from ``snapshot_from_world(final_world(s,
viewer))`` for a scenario. The GM audience sees everything, with each record's visibility kept, which lets
the checker tell a leak from a contradiction.

Every query is keyed by the campaign and capped (:mod:`ledger.check.world_rows`: world rows, newest
retcons): the cost follows the size of the world (its entities, items, edges, threads and facts), never the
number of events played. It mirrors :func:`ledger.check.snapshot.snapshot_from_world` field for field (fates
of unheld items, thread tags as aliases, value tells of short facts, an item's description and the unit its
quantity counts, pronouns from the sheet, thread roles and condition sources from facts), so the checker
judges a loaded scenario and its file alike (tests/test_snapshot_parity.py compares them field by field).
"""

from __future__ import annotations

import functools
import json
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import select

from ledger.check.snapshot import (
    Alias,
    Edge,
    Entity,
    Fact,
    Holding,
    ItemFate,
    Retcon,
    RoundFacts,
    Scene,
    Thread,
    WorldSnapshot,
    record_facts,
    thread_roles,
)
from ledger.check.world_rows import WorldRow, is_kept, world_parts
from ledger.store import models as m
from ledger.store.sqljson import json_reader
from ledger.store.visibility import Viewer

ENTITY_STATE_FIELDS = ("alive", "location", "hp")
GONE_FATE = "sold, used up or destroyed"


def _c(model: Any) -> Any:
    """The Core columns of a sqlmodel table (typed loosely: sqlmodel types fields as their Python values)."""
    return model.__table__.c


def _t(model: Any) -> Any:
    """The Core table of a sqlmodel model: selecting it gives plain rows (attribute access by column name)
    instead of ORM instances, which are costly to build and never needed here (nothing is written)."""
    return model.__table__


def edge_id(source: str, target: str, kind: str) -> str:
    """The checker's id of an edge (as the scenario snapshot names it): ``edge-<source>-<target>-<kind>``."""
    return f"edge-{source}-{target}-{kind}"


async def _rows(session: Any, stmt: Any, params: Mapping[str, Any] | None = None) -> list[Any]:
    """Rows of a Core ``select`` (tuples, one per row) through sqlmodel's ``exec``; ``params``: the values
    of the statement's bound parameters."""
    if params is not None:
        exec_ = getattr(session, "exec", None)
        result = await (exec_(stmt, params=params) if exec_ is not None else session.execute(stmt, params))
        return list(result.all())
    run = getattr(session, "exec", None) or session.execute
    return list((await run(stmt)).all())


def _pronoun(sheet: Mapping[str, Any] | None) -> str | None:
    # As snapshot_from_world does: the pronoun the loader kept in the sheet (ledger.scenario.pronouns).
    value = sheet.get("pronoun") if sheet else None
    return value if isinstance(value, str) else None


def _max_hp(sheet: Mapping[str, Any] | None, hp: int | None) -> int | None:
    # As snapshot_from_world does: the sheet's max_hp (PCs), else the current hp.
    if sheet and isinstance(sheet.get("max_hp"), int):
        return int(sheet["max_hp"])
    return hp


def _unit(properties: Mapping[str, Any] | None) -> str | None:
    # As snapshot_from_world does: what an item's quantity counts, from its properties ("litre", "mithqal").
    value = properties.get("unit") if isinstance(properties, Mapping) else None
    return str(value) if value else None


def _owner(owner: str | None) -> str | None:
    """The user id a Viewer would carry: a scenario placeholder ``player:alice`` is the user ``alice``."""
    if owner and owner.startswith("player:"):
        return owner.removeprefix("player:")
    return owner


def _tells(value: Any) -> tuple[str, ...]:
    # As snapshot_from_world does: a short secret value ("smuggler boss") gives the secret away in text.
    return (value,) if isinstance(value, str) and 3 < len(value) <= 40 else ()


class _Memo:
    """The records built from a kept world's rows (:mod:`ledger.check.world_rows`), each with the rows it was
    built from. A kept world hands back the very same row objects for what did not change, so a record whose
    rows are the same objects is the same record: a round of a 2,000-NPC world rebuilt ~3,000 entities and
    ~7,000 facts it could take as they were (and the garbage made full collections frequent)."""

    __slots__ = ("records",)

    def __init__(self) -> None:
        self.records: dict[tuple[str, str], tuple[tuple[WorldRow, ...], Any]] = {}


#: Per (campaign, audience) whose world is kept: the records its last snapshot built.
_MEMOS: dict[tuple[int, Viewer], _Memo] = {}


def _memo_for(cid: int, audience: Viewer) -> _Memo | None:
    """The last snapshot's records when this world's rows are kept between reads; else None (forgotten)."""
    if not is_kept(cid, audience):
        _MEMOS.pop((cid, audience), None)
        return None
    return _MEMOS.get((cid, audience), _Memo())


def _remembered(
    memo: _Memo | None, built: _Memo | None, key: tuple[str, str], rows: tuple[WorldRow, ...], make: Any
) -> Any:
    """The record ``make()`` builds from ``rows``: the remembered one when its rows are the same objects."""
    if memo is not None:
        hit = memo.records.get(key)
        if (
            hit is not None
            and len(hit[0]) == len(rows)
            and all(a is b for a, b in zip(hit[0], rows, strict=True))
        ):
            if built is not None:
                built.records[key] = hit
            return hit[1]
    record = make()
    if built is not None:
        built.records[key] = (rows, record)
    return record


def _plain_fact(f: WorldRow, decode: Callable[[Any], Any]) -> Fact:
    """A fact that is not an entity's state (k1 key, j1 value)."""
    value = decode(f.j1)
    if isinstance(value, (list, dict)) and value is not f.j1:  # kept: its own copy, not the shared one
        value = json.loads(f.j1)
    return Fact(key=f.k1, value=value, visibility=f.visibility, tells=_tells(value))


def _creature(rows: tuple[WorldRow, ...], decode: Callable[[Any], Any]) -> Entity:
    """A PC, NPC or monster from its entity row (k1 id, k3 kind, t1 name, t2 owner, j1 aliases, j2 sheet)
    and its state facts (alive, location, hp, condition-x; a condition's text value names its source)."""
    e, *facts = rows
    conditions: set[str] = set()
    sources: list[tuple[str, str]] = []
    st: dict[str, Any] = {}
    for f in facts:
        field = f.k3 or ""
        value = decode(f.j1)
        if field.startswith("condition-"):
            cond = field.removeprefix("condition-")
            if value is True or (isinstance(value, str) and value):
                conditions.add(cond)
            if isinstance(value, str) and value:
                sources.append((cond, value))
        else:
            st[field] = value
    hp = st.get("hp")
    sheet = decode(e.j2)
    return Entity(
        id=e.k1,
        kind=e.k3,
        name=e.t1,
        aliases=tuple(Alias(a) for a in decode(e.j1) or ()),
        alive=bool(st.get("alive", True)),
        location=st.get("location"),
        hp=hp if isinstance(hp, int) else None,
        max_hp=_max_hp(sheet, hp if isinstance(hp, int) else None),
        conditions=frozenset(conditions),
        owner=_owner(e.t2),
        visibility=e.visibility,
        condition_sources=tuple(sources),
        pronoun=_pronoun(sheet),
    )


def _thing(row: WorldRow, decode: Callable[[Any], Any]) -> Entity:
    """A place (k1 id, t1 name, j1 aliases) or an item (the same, t2 description, j2 properties)."""
    aliases = tuple(Alias(a) for a in decode(row.j1) or ())
    if row.part == "location":
        return Entity(id=row.k1, kind="location", name=row.t1, aliases=aliases, visibility=row.visibility)
    return Entity(
        id=row.k1,
        kind="item",
        name=row.t1,
        aliases=aliases,
        visibility=row.visibility,
        description=row.t2 or "",
        unit=_unit(decode(row.j2)),
    )


async def snapshot_from_ledger(
    session: Any,
    *,
    campaign_id: int,
    audience: Viewer,
    location: str | None = None,
    present: Sequence[str] = (),
    round_facts: RoundFacts | None = None,
) -> WorldSnapshot:
    """Return the world of ``campaign_id`` as ``audience`` may know it, set in the scene (location, present).

    Entities (PCs, NPCs, monsters, locations, items) carry names, aliases, alive/location/hp/conditions from
    the fact projection; holdings, edges, threads and facts are the current projections; retcons are the
    campaign.s logged retcon events with the records they overruled. Nothing is written.
    """
    cid = campaign_id
    _json = json_reader(session)  # the JSON columns j1, j2 (raw_json): decoded once per distinct text
    parts = await world_parts(session, cid, audience, _json, functools.partial(_rows, session))

    memo = _memo_for(cid, audience)  # None unless this world's rows are kept between reads
    built = _Memo() if memo is not None else None
    state_rows: dict[str, list[WorldRow]] = {}
    plain_facts: list[Fact] = []
    for f in parts["fact"]:  # k1 key, k2 subject, k3 field, j1 value
        field = f.k3 or ""
        if f.k2 is not None and (field in ENTITY_STATE_FIELDS or field.startswith("condition-")):
            state_rows.setdefault(f.k2, []).append(f)
            continue
        plain_facts.append(_remembered(memo, built, ("fact", f.k1), (f,), lambda f=f: _plain_fact(f, _json)))
    # As snapshot_from_world does: item fates and thread roles are facts about those records, not plain facts.
    told = record_facts(((f.key, f.value) for f in plain_facts), (it.k1 for it in parts["item"]), ())
    if told.keys:
        plain_facts = [f for f in plain_facts if f.key not in told.keys]

    entities: list[Entity] = []
    for e in parts["entity"]:  # k1 id, k3 kind, t1 name, t2 owner, j1 aliases, j2 sheet
        rows = (e, *state_rows.get(e.k1, ()))
        entities.append(_remembered(memo, built, ("entity", e.k1), rows, lambda r=rows: _creature(r, _json)))
    for loc in parts["location"]:
        entities.append(
            _remembered(memo, built, ("location", loc.k1), (loc,), lambda r=loc: _thing(r, _json))
        )
    items: list[tuple[str, str]] = []
    for it in parts["item"]:
        items.append((it.k1, it.visibility))
        entities.append(_remembered(memo, built, ("item", it.k1), (it,), lambda r=it: _thing(r, _json)))
    if built is not None:
        _MEMOS[(cid, audience)] = built
        for dropped in [k for k in _MEMOS if not is_kept(*k)]:  # worlds no longer kept
            del _MEMOS[dropped]

    holdings = [  # k1 item, k2 holder, n quantity
        Holding(item=h.k1, holder=h.k2, quantity=h.n, visibility=h.visibility) for h in parts["holding"]
    ]
    held = {h.item for h in holdings}
    # As snapshot_from_world does: an item nobody (visibly) holds any more was sold, used up or destroyed.
    fates = [
        ItemFate(item, told.fates.get(item, GONE_FATE), visibility)
        for item, visibility in items
        if item not in held
    ]

    edges = [  # k1 source, k2 target, k3 kind, t1 reason, n attitude
        Edge(
            id=edge_id(e.k1, e.k2, e.k3),
            source=e.k1,
            target=e.k2,
            kind=e.k3,
            attitude=e.n,
            reason=e.t1,
            visibility=e.visibility,
        )
        for e in parts["edge"]
    ]
    by_id = {e.id: e for e in entities}
    threads = [  # k1 id, k3 kind, t1 status, t2 terms, j1 tags, j2 parties
        Thread(
            id=t.k1,
            kind=t.k3,
            status=t.t1,
            parties=tuple(parties),
            terms=t.t2,
            aliases=tuple(_json(t.j1) or ()),
            visibility=t.visibility,
            roles=told.roles.get(t.k1) or thread_roles(list(parties), t.t2, by_id, t.k3),
        )
        for t in parts["thread"]
        for parties in (_json(t.j2) or (),)
    ]
    retcons = await _retcons(session, cid, parts["retcon"], _json)
    snapshot = WorldSnapshot.build(
        entities=entities,
        holdings=holdings,
        fates=fates,
        edges=edges,
        threads=threads,
        facts=plain_facts,
        retcons=retcons,
        scene=Scene(location=location, present=frozenset(present)),
        round=round_facts,
    )
    _hand_on_names(cid, audience, snapshot)
    return snapshot


#: The last snapshot's name inputs per (campaign, audience): its entities' names (:func:`_names_of`), threads
#: and fact tells, and its cache (where the checker leaves the indexes it builds from names). At most
#: :data:`NAMES_KEPT` are kept.
_LAST_NAMES: OrderedDict[tuple[int, Viewer], tuple[Any, Any, Any, dict[str, Any]]] = OrderedDict()
NAMES_KEPT = 256

#: The checker's caches built from the entities' names alone (what :func:`_names_of` keeps), the threads'
#: aliases and the facts' tells: the name matcher, the items' looks (from names and descriptions) and the
#: PCs (by kind).
NAME_CACHES = ("names", "item-looks", "item-looks-by-head", "pc-ids")


def _names_of(entities: Mapping[str, Entity]) -> tuple[tuple[object, ...], ...]:
    """What the name caches read of each entity: id, kind, name, aliases, visibility, pronoun and
    description, in the snapshot's order. Not hit points, place, life or conditions: those change every
    round of a fight, and a campaign of thousands of entities rebuilt its name matcher each time (~0.8 s)."""
    return tuple(
        (e.id, e.kind, e.name, e.aliases, e.visibility, e.pronoun, e.description) for e in entities.values()
    )


def _hand_on_names(cid: int, audience: Viewer, snapshot: WorldSnapshot) -> None:
    """Give ``snapshot`` the name caches of the campaign's previous snapshot when the names did not change.

    The checker's name matcher (``ledger.check.extract.names.name_index``, cached on a snapshot as
    ``"names"``) and the other :data:`NAME_CACHES` are built from the entities' names (:func:`_names_of`),
    the facts' tells and the threads' aliases, nothing else; rebuilding them was several ms of every round
    although a round rarely renames anything. The inputs are compared by value (frozen records), so a
    snapshot of another database that happens to share the key never receives a foreign index."""
    key = (cid, audience)
    tells = tuple((f.key, f.tells) for f in snapshot.facts.values() if f.tells)
    names = _names_of(snapshot.entities)
    last = _LAST_NAMES.get(key)
    if last is not None:
        last_names, threads, last_tells, cache = last
        if last_tells == tells and last_names == names and threads == snapshot.threads:
            snapshot.cache.update({k: cache[k] for k in NAME_CACHES if k in cache})
        _LAST_NAMES.move_to_end(key)
    _LAST_NAMES[key] = (names, snapshot.threads, tells, snapshot.cache)
    while len(_LAST_NAMES) > NAMES_KEPT:
        _LAST_NAMES.popitem(last=False)


def superseded_by(change: Mapping[str, Any]) -> tuple[str, ...]:
    """The checker record ids a retcon's change rewrites, as ``snapshot_from_world`` lists them."""
    kind = change.get("kind")
    entity = change.get("entity")
    if kind == "set_alive":
        return (f"{entity}-alive",)
    if kind == "move_entity":
        return (f"{entity}-location",)
    if kind in ("add_condition", "remove_condition"):
        return (f"{entity}-condition-{change.get('condition')}",)
    if kind == "transfer_item":
        return (f"{change.get('item')}-holder", f"{change.get('item')}-quantity")
    if kind == "set_edge":
        return (edge_id(str(change.get("source")), str(change.get("target")), str(change.get("edge_kind"))),)
    if kind == "thread_transition":
        return (str(change.get("thread")),)
    if kind == "set_fact":
        return (str(change.get("key")),)
    return ()


async def _retcons(
    session: Any, cid: int, rows: Sequence[Any], decode: Callable[[Any], Any] = lambda v: v
) -> list[Retcon]:
    """The logged retcons (the world statement's ``retcon`` rows), oldest first.

    A retcon is named by its target: the event ref, or the scenario history id that event came from
    (``settings["history_events"]`` written by the loader), as ``snapshot_from_world`` names it.
    """
    if not rows:
        return []
    settings = (await _rows(session, select(_c(m.Campaign).settings).where(_c(m.Campaign).id == cid)))[0][
        0
    ] or {}
    history = {ref: hid for hid, ref in dict(settings.get("history_events") or {}).items()}
    out: list[Retcon] = []
    for _id, payload, target in sorted(((r.n, decode(r.j1), r.k1) for r in rows), key=lambda r: r[0]):
        payload = payload or {}
        ids = tuple(r for inner in payload.get("changes") or () for r in superseded_by(inner))
        out.append(
            Retcon(
                id=history.get(str(target), str(target)),
                reason=str(payload.get("reason", "")),
                supersedes=ids,
            )
        )
    return out


__all__ = ["edge_id", "snapshot_from_ledger", "superseded_by"]
