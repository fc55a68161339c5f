"""Build the assertion checker's :class:`~ledger.check.snapshot.WorldSnapshot` from the SQL ledger's
projections.

The checker reads only an in-memory snapshot; this module fills one from SQL for one campaign, as one
audience may know it (a :class:`~ledger.store.visibility.Viewer`): every query filters on ``visibility`` in
SQL, so
a record the audience may not see is simply absent, as it is from ``snapshot_from_world(final_world(s,
viewer))`` for a scenario. The GM audience sees everything, with each record's visibility kept, which lets
the checker tell a leak from a contradiction.

Every query is keyed by the campaign and capped (:data:`WORLD_CAP` world rows, :data:`RETCON_CAP` newest
retcons): the cost follows the size of the world (its entities, items, edges, threads and facts), never the
number of events played. It mirrors :func:`ledger.check.snapshot.snapshot_from_world` field for field (fates
of
unheld items, thread tags as aliases, value tells of short facts), so the checker judges a loaded scenario
and its file alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    thread_roles,
)
from ledger.store import models as m
from ledger.store.visibility import Viewer, visible_clause

WORLD_CAP = 20_000
RETCON_CAP = 500
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


async def _rows(session: Any, stmt: Any) -> list[Any]:
    """Rows of a Core ``select`` (tuples, one per row) through sqlmodel's ``exec``."""
    run = getattr(session, "exec", None) or session.execute
    return list((await run(stmt)).all())


def _max_hp(sheet: Mapping[str, Any] | None, hp: int | None) -> int | None:
    # As snapshot_from_world does: the sheet's max_hp (PCs), else the current hp.
    if sheet and isinstance(sheet.get("max_hp"), int):
        return int(sheet["max_hp"])
    return hp


def _owner(owner: str | None) -> str | None:
    """The user id a Viewer would carry: a scenario placeholder ``player:alice`` is the user ``alice``."""
    if owner and owner.startswith("player:"):
        return owner.removeprefix("player:")
    return owner


def _tells(value: Any) -> tuple[str, ...]:
    # As snapshot_from_world does: a short secret value ("smuggler boss") gives the secret away in text.
    return (value,) if isinstance(value, str) and 3 < len(value) <= 40 else ()


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

    def vis(col: Any) -> Any:
        return visible_clause(audience, col)

    state: dict[str, dict[str, Any]] = {}
    plain_facts: list[Fact] = []
    for f in (
        row
        for row in await _rows(
            session,
            select(_t(m.Fact))
            .where(_c(m.Fact).campaign_id == cid, vis(_c(m.Fact).visibility))
            .order_by(_c(m.Fact).key)
            .limit(WORLD_CAP),
        )
    ):
        if f.subject is not None and (f.field in ENTITY_STATE_FIELDS or f.field.startswith("condition-")):
            st = state.setdefault(f.subject, {"conditions": set(), "sources": []})
            if f.field.startswith("condition-"):
                cond = f.field.removeprefix("condition-")
                if f.value is True or (isinstance(f.value, str) and f.value):
                    st["conditions"].add(cond)
                if isinstance(f.value, str) and f.value:
                    st["sources"].append((cond, f.value))  # a condition fact whose value names its source
            else:
                st[f.field] = f.value
            continue
        plain_facts.append(Fact(key=f.key, value=f.value, visibility=f.visibility, tells=_tells(f.value)))

    entities: list[Entity] = []
    for e in await _rows(
        session,
        select(_t(m.Entity))
        .where(_c(m.Entity).campaign_id == cid, vis(_c(m.Entity).visibility))
        .order_by(_c(m.Entity).id)
        .limit(WORLD_CAP),
    ):
        st = state.get(e.id, {"conditions": set(), "sources": []})
        hp = st.get("hp")
        entities.append(
            Entity(
                id=e.id,
                kind=e.kind,
                name=e.name,
                aliases=tuple(Alias(a) for a in e.aliases),
                alive=bool(st.get("alive", True)),
                location=st.get("location"),
                hp=hp if isinstance(hp, int) else None,
                max_hp=_max_hp(e.sheet, hp if isinstance(hp, int) else None),
                conditions=frozenset(st["conditions"]),
                owner=_owner(e.owner_user_id),
                visibility=e.visibility,
                condition_sources=tuple(st["sources"]),
            )
        )
    for loc in await _rows(
        session,
        select(_t(m.Location))
        .where(_c(m.Location).campaign_id == cid, vis(_c(m.Location).visibility))
        .order_by(_c(m.Location).id)
        .limit(WORLD_CAP),
    ):
        entities.append(
            Entity(
                id=loc.id,
                kind="location",
                name=loc.name,
                aliases=tuple(Alias(a) for a in loc.aliases),
                visibility=loc.visibility,
            )
        )
    items: list[tuple[str, str]] = []
    for it in await _rows(
        session,
        select(_t(m.Item))
        .where(_c(m.Item).campaign_id == cid, vis(_c(m.Item).visibility))
        .order_by(_c(m.Item).id)
        .limit(WORLD_CAP),
    ):
        items.append((it.id, it.visibility))
        entities.append(
            Entity(
                id=it.id,
                kind="item",
                name=it.name,
                aliases=tuple(Alias(a) for a in it.aliases),
                visibility=it.visibility,
            )
        )

    holdings = [
        Holding(item=h.item_id, holder=h.holder_id, quantity=h.quantity, visibility=h.visibility)
        for h in await _rows(
            session,
            select(_t(m.Holding))
            .where(
                _c(m.Holding).campaign_id == cid, _c(m.Holding).quantity > 0, vis(_c(m.Holding).visibility)
            )
            .order_by(_c(m.Holding).item_id, _c(m.Holding).holder_id)
            .limit(WORLD_CAP),
        )
    ]
    held = {h.item for h in holdings}
    # As snapshot_from_world does: an item nobody (visibly) holds any more was sold, used up or destroyed.
    fates = [ItemFate(item, GONE_FATE, visibility) for item, visibility in items if item not in held]

    edges = [
        Edge(
            id=edge_id(e.source_id, e.target_id, e.kind),
            source=e.source_id,
            target=e.target_id,
            kind=e.kind,
            attitude=e.attitude,
            reason=e.reason,
            visibility=e.visibility,
        )
        for e in await _rows(
            session,
            select(_t(m.Edge))
            .where(_c(m.Edge).campaign_id == cid, vis(_c(m.Edge).visibility))
            .order_by(_c(m.Edge).source_id, _c(m.Edge).target_id, _c(m.Edge).kind)
            .limit(WORLD_CAP),
        )
    ]
    by_id = {e.id: e for e in entities}
    threads = [
        Thread(
            id=t.id,
            kind=t.kind,
            status=t.status,
            parties=tuple(t.parties),
            terms=t.terms,
            aliases=tuple(t.tags),
            visibility=t.visibility,
            roles=thread_roles(t.parties, t.terms, by_id, t.kind),
        )
        for t in await _rows(
            session,
            select(_t(m.Thread))
            .where(_c(m.Thread).campaign_id == cid, vis(_c(m.Thread).visibility))
            .order_by(_c(m.Thread).id)
            .limit(WORLD_CAP),
        )
    ]
    retcons = await _retcons(session, cid, audience)
    return WorldSnapshot.build(
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


async def _retcons(session: Any, cid: int, audience: Viewer) -> list[Retcon]:
    """The logged retcons, oldest first (``supersedes`` is indexed; corrections are fixes, not retcons).

    A retcon is named by its target: the event ref, or the scenario history id that event came from
    (``settings["history_events"]`` written by the loader), as ``snapshot_from_world`` names it.
    """
    rows = await _rows(
        session,
        select(_c(m.Event).id, _c(m.Event).payload, _c(m.Event).supersedes)
        .where(
            _c(m.Event).campaign_id == cid,
            _c(m.Event).supersedes.is_not(None),
            _c(m.Event).kind == "retcon",
            visible_clause(audience, _c(m.Event).visibility),
        )
        .order_by(_c(m.Event).id.desc())
        .limit(RETCON_CAP),
    )
    if not rows:
        return []
    settings = (await _rows(session, select(_c(m.Campaign).settings).where(_c(m.Campaign).id == cid)))[0][
        0
    ] or {}
    history = {ref: hid for hid, ref in dict(settings.get("history_events") or {}).items()}
    out: list[Retcon] = []
    for _id, payload, target in sorted(rows, key=lambda r: r[0]):
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
