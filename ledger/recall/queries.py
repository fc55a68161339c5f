"""The indexed, LIMIT-bounded SQL statements retrieval reads a scene with, built once per shape and cached.

Every statement is keyed by the scene's ids (never by the campaign's length) and filters visibility in SQL
(``visibility IN :vis``, or no restriction for the GM), so a record the viewer may not see never leaves the
database. :func:`ledger.recall.retrieval.scene_context` runs them; :mod:`.candidates` turns their rows into
candidates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, case, literal, or_, select, true, union_all

from ledger.store import models as m
from ledger.store.visibility import Viewer

# Query caps: each query reads at most this many rows, whatever the campaign's length.
THREAD_CAP = 20
EDGE_CAP = 20
FACT_CAP = 120
HOLDING_CAP = 20
AT_LOCATION_CAP = 60
RECENT_EVENTS_PER_ENTITY = 8
PERMANENT_WINDOW_PER_ENTITY = 60
PERMANENT_EVENT_CAP = 20

#: Edge kinds that are standing obligations or enmities, matched as words of the kind slug.
PERMANENT_EDGE_WORDS = frozenset(
    {"favour", "favor", "debt", "owes", "feud", "enemy", "enemies", "oath", "sworn", "bounty", "vengeance",
     "nemesis", "blood", "killed", "murdered", "betrayed"}
)  # fmt: skip
#: The name shown for an entity, location or item the viewer may not see.
UNKNOWN_NAME = "someone unknown"


async def fetch_rows(session: Any, stmt: Any, params: Mapping[str, Any] | None = None) -> list[Any]:
    """Rows of a Core ``select`` (tuples, one per row) through sqlmodel's ``exec``."""
    run = getattr(session, "exec", None) or session.execute
    return list((await run(stmt, params=dict(params or {}))).all())


def _tbl(model: Any) -> Any:
    """The Core table of a sqlmodel model (typed loosely: sqlmodel types fields as their Python values)."""
    return model.__table__


def _c(model: Any) -> Any:
    """The Core columns of a sqlmodel model."""
    return model.__table__.c


def _with_cause(limited: Any) -> Any:
    """``SELECT <projection rows>, <the event that last set each>`` (by ``uq_event_ref``), as Core rows.

    ``limited`` is the already filtered, ordered and LIMITed projection select: the join runs on its few
    rows only. A projection row's importance and moment come from its cause event.
    """
    rows = limited.subquery()
    ev = _c(m.Event)
    return select(
        rows,
        ev.importance.label("c_importance"),
        ev.permanent.label("c_permanent"),
        ev.session_number.label("c_session"),
        ev.round_number.label("c_round"),
        ev.cause.label("c_cause"),
    ).select_from(
        rows.outerjoin(_tbl(m.Event), and_(ev.campaign_id == rows.c.campaign_id, ev.ref == rows.c.cause))
    )


# --- statements ---------------------------------------------------------------------------------------------
# Each statement is built once per shape (number of anchors, GM or not, ...) with bound parameters and reused:
# building a SQLAlchemy statement with a dozen sub-selects costs more than running it.


def _vis(col: Any, gm: bool) -> Any:
    """``visibility IN :vis`` (an expanding parameter), or no restriction for the GM."""
    return true() if gm else col.in_(bindparam("vis", expanding=True))


def query_params(cid: int, viewer: Viewer, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"cid": cid, **more}
    allowed = viewer.visible()
    if allowed is not None:
        out["vis"] = list(allowed)
    return out


@lru_cache(maxsize=64)
def facts_stmt(gm: bool, with_location: bool) -> Any:
    """Facts about the subjects, and (with a location) who lies dead there, the ``alive`` facts first."""
    fact = _c(m.Fact)
    cond = fact.subject.in_(bindparam("subjects", expanding=True))
    if with_location:
        lying_here = (
            select(fact.subject)
            .where(
                fact.campaign_id == bindparam("cid"),
                fact.field == "location",
                fact.value_text == bindparam("location"),
                _vis(fact.visibility, gm),
            )
            .limit(AT_LOCATION_CAP)
        )
        cond = or_(
            cond, and_(fact.subject.in_(lying_here), fact.field == "alive", fact.value_text == "false")
        )
    return _with_cause(
        select(_tbl(m.Fact))
        .where(fact.campaign_id == bindparam("cid"), cond, _vis(fact.visibility, gm))
        .order_by((fact.field == "alive").desc(), fact.key)
        .limit(FACT_CAP)
    )


@lru_cache(maxsize=64)
def threads_stmt(gm: bool, n_asked: int) -> Any:
    """Threads binding the anchors (``thread_party`` by entity) and the asked ones; open and recent first."""
    thread = _c(m.Thread)
    asked: Any = bindparam("asked", expanding=True)
    bound = select(_c(m.ThreadParty).thread_id).where(
        _c(m.ThreadParty).campaign_id == bindparam("cid"),
        _c(m.ThreadParty).entity_id.in_(bindparam("anchors", expanding=True)),
    )
    return _with_cause(
        select(_tbl(m.Thread))
        .where(
            thread.campaign_id == bindparam("cid"),
            or_(thread.id.in_(bound), thread.id.in_(asked)),
            _vis(thread.visibility, gm),
        )
        .order_by(
            thread.id.in_(asked).desc(),
            (thread.status == "open").desc(),
            thread.session_number.desc(),
            thread.id,
        )
        .limit(THREAD_CAP + n_asked)
    )


@lru_cache(maxsize=64)
def edges_stmt(gm: bool) -> Any:
    """Edges from (primary key) or to (``ix_edge_target``) someone present: ties between two of them,
    standing obligations and enmities, then the newest; at most EDGE_CAP per side."""
    edge = _c(m.Edge)
    living: Any = bindparam("living", expanding=True)
    standing = or_(*(edge.kind.contains(word) for word in sorted(PERMANENT_EDGE_WORDS)))
    sides = [
        select(_tbl(m.Edge))
        .where(edge.campaign_id == bindparam("cid"), side.in_(living), _vis(edge.visibility, gm))
        .order_by(
            (edge.source_id.in_(living) & edge.target_id.in_(living)).desc(),
            standing.desc(),
            edge.session_number.desc(),
            edge.source_id,
            edge.target_id,
            edge.kind,
        )
        .limit(EDGE_CAP)
        .subquery()
        for side in (edge.source_id, edge.target_id)
    ]
    return _with_cause(union_all(*(select(sq) for sq in sides)))


@lru_cache(maxsize=64)
def holdings_stmt(gm: bool) -> Any:
    """What the anchors hold (``ix_holding_holder``), newest first."""
    holding = _c(m.Holding)
    return _with_cause(
        select(_tbl(m.Holding))
        .where(
            holding.campaign_id == bindparam("cid"),
            holding.holder_id.in_(bindparam("anchors", expanding=True)),
            holding.quantity > 0,
            _vis(holding.visibility, gm),
        )
        .order_by(holding.session_number.desc(), holding.item_id, holding.holder_id)
        .limit(HOLDING_CAP)
    )


@lru_cache(maxsize=64)
def events_stmt(gm: bool, n_anchors: int) -> Any:
    """Each anchor's newest events (involved or witnessed), plus the permanent ones in a wider window.

    Anchor ``i`` is the parameter ``a<i>``. Every sub-select reads an index backwards with a LIMIT.
    """

    def newest(table: Any, i: int, cap: int) -> Any:
        inner = (
            select(table.event_id.label("event_id"))
            .where(table.campaign_id == bindparam("cid"), table.entity_id == bindparam(f"a{i}"))
            .order_by(table.event_id.desc())
            .limit(cap)
            .subquery()
        )
        return select(inner.c.event_id)

    def window(cap: int, tables: Sequence[Any]) -> Any:
        return union_all(*(newest(t, i, cap) for i in range(n_anchors) for t in tables))

    ev = _c(m.Event)
    cols = (ev.id, ev.ref, ev.kind, ev.payload, ev.cause, ev.session_number, ev.round_number, ev.visibility,
            ev.importance, ev.permanent)  # fmt: skip
    # No ``event.campaign_id`` test here: the ids come from this campaign's index rows, and with one SQLite
    # would walk ix_event_when over the whole campaign instead of looking the ids up by primary key.
    recent = select(*cols).where(
        ev.id.in_(window(RECENT_EVENTS_PER_ENTITY, (m.EventEntity, m.EventWitness))),
        _vis(ev.visibility, gm),
    )
    lasting = (
        select(*cols)
        .where(
            ev.id.in_(window(PERMANENT_WINDOW_PER_ENTITY, (m.EventEntity,))),
            ev.permanent.is_(True),
            _vis(ev.visibility, gm),
        )
        .order_by(ev.id.desc())
        .limit(PERMANENT_EVENT_CAP)
        .subquery()
    )
    return union_all(recent, select(lasting))


@lru_cache(maxsize=8)
def links_stmt() -> Any:
    """Who the events involve (``i``), who witnessed them (``w``), and which were superseded (``s``)."""
    ev = _c(m.Event)
    ee, ew = _c(m.EventEntity), _c(m.EventWitness)
    ids: Any = bindparam("ids", expanding=True)
    return union_all(
        select(ee.event_id, ee.entity_id, literal("i").label("link")).where(ee.event_id.in_(ids)),
        select(ew.event_id, ew.entity_id, literal("w").label("link")).where(ew.event_id.in_(ids)),
        select(ev.id, ev.supersedes, literal("s").label("link")).where(
            ev.campaign_id == bindparam("cid"), ev.supersedes.in_(bindparam("refs", expanding=True))
        ),
    )


@lru_cache(maxsize=8)
def names_stmt(gm: bool) -> Any:
    """Names of entities, locations and items; :data:`UNKNOWN_NAME` (decided in SQL) where hidden."""
    parts = []
    for model in (m.Entity, m.Location, m.Item):
        t = _c(model)
        shown = t.name if gm else case((_vis(t.visibility, gm), t.name), else_=literal(UNKNOWN_NAME))
        parts.append(
            select(t.id, shown.label("name")).where(
                t.campaign_id == bindparam("cid"), t.id.in_(bindparam("wanted", expanding=True))
            )
        )
    return union_all(*parts)
