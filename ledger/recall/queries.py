"""The indexed, LIMIT-bounded SQL statements retrieval reads a scene with, built once per shape and cached.

Every statement is keyed by the scene's ids (never by the campaign's length) and filters visibility in SQL
(``visibility IN :vis``, or no restriction for the GM), so a record the viewer may not see never leaves the
database. :func:`ledger.recall.retrieval.scene_context` runs them; :mod:`.candidates` turns their rows into
candidates. Every per-id sub-select reads one index range (``ix_edge_target``, the edge and event-index
primary keys, ``ix_thread_party_entity_thread``, ``ix_event_entity_entity``, ``ix_event_witness_entity``)
with its own LIMIT, so a scene costs at most a fixed number of rows per id, however long the campaign.

Statements whose shape depends on how many ids a scene has take them as numbered parameters (``a0``, ``a1``
...), padded with ``""`` (which matches nothing) up to a bucket of :data:`ID_BUCKET`, so a handful of shapes
serve every scene.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, case, false, literal, select, true, union_all

from ledger.store import models as m
from ledger.store.narrative import NARRATIVE_KINDS, significance
from ledger.store.sqlin import in_values
from ledger.store.visibility import Viewer

# Query caps: each query reads at most this many rows per id of the scene, whatever the campaign's length.
EDGES_PER_PERSON = 32  # edges from, and edges to, each person present
FACT_CAP = 120
HOLDING_CAP = 20
AT_LOCATION_CAP = 60
THREADS_PER_PARTY = 30  # threads binding each NPC present, the place, an asked thread: open ones first
OPEN_THREADS_PER_OTHER = 6  # open threads (the oldest) of each PC present and of each one-hop tie
RECENT_EVENTS_PER_ENTITY = 8  # the newest events involving or witnessed by each anchor
NOTABLE_WINDOW = 400  # how far back, in its own events, an NPC's notable events are looked for
NOTABLE_SHARED_PER_PERSON = 10  # notable events an NPC present shares with someone else present
NOTABLE_OWN_WINDOW = 120
NOTABLE_OWN_PER_PERSON = 4  # the newest notable events of an NPC present, whoever with
EVENTS_PER_THREAD = 4
PLACE_WINDOW = 300  # how far back, in the place's own events, threads opened there are looked for
PLACE_THREADS = 12  # the newest events of a closed or asked thread: its settlement and what bore on it
ID_BUCKET = 4

#: Narrative kinds that make an event notable: their significance between two people is at least
#: :data:`NOTABLE_SIGNIFICANCE` (bonds made or broken, words that change how people stand).
NOTABLE_SIGNIFICANCE = 3
NOTABLE_KINDS: tuple[str, ...] = tuple(
    k for k in NARRATIVE_KINDS if significance(k, 2) >= NOTABLE_SIGNIFICANCE
)
#: The event kind of a narrative event (``record_event`` changes).
NARRATIVE_EVENT = "record_event"
#: The name shown for an entity, location or item the viewer may not see.
UNKNOWN_NAME = "someone unknown"


def bucket(n: int) -> int:
    """``n`` rounded up to a multiple of :data:`ID_BUCKET` (0 stays 0)."""
    return -(-n // ID_BUCKET) * ID_BUCKET


def numbered(prefix: str, ids: Sequence[str]) -> dict[str, str]:
    """``{prefix0: id0, ...}`` padded with ``""`` up to the bucket of ``len(ids)``."""
    padded = [*ids, *([""] * (bucket(len(ids)) - len(ids)))]
    return {f"{prefix}{i}": x for i, x in enumerate(padded)}


async def fetch_rows(session: Any, stmt: Any, params: Mapping[str, Any] | None = None) -> list[Any]:
    """Rows of a Core ``select`` (tuples, one per row), run on the session's connection (a Core statement
    needs nothing of the ORM, whose execution path costs more than these small reads)."""
    connection = getattr(session, "connection", None)
    conn = await connection() if inspect.iscoroutinefunction(connection) else session
    return list((await conn.execute(stmt, dict(params or {}))).all())


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


#: A viewer sees at most three visibilities (public, party, its own ``player:<id>``).
MAX_VISIBILITIES = 3


def _vis(col: Any, gm: bool) -> Any:
    """``visibility IN (:v0, :v1, :v2)``, or no restriction for the GM. Plain parameters, not an expanding
    one: a statement whose parameters are all plain is compiled once and reused as it is."""
    return true() if gm else col.in_([bindparam(f"v{i}") for i in range(MAX_VISIBILITIES)])


def one_of(col: Any, prefix: str, n: int) -> Any:
    """``col IN (:<prefix>0, ... :<prefix><n-1>)`` (see :func:`numbered`), false when ``n`` is 0."""
    return col.in_([bindparam(f"{prefix}{i}") for i in range(n)]) if n else false()


def query_params(cid: int, viewer: Viewer, **more: Any) -> dict[str, Any]:
    """The parameters every statement takes (the campaign, the viewer's visibilities) and ``more``."""
    out: dict[str, Any] = {"cid": cid, **more}
    allowed = viewer.visible()
    if allowed is not None:
        padded = [*allowed, *([allowed[-1]] * MAX_VISIBILITIES)][:MAX_VISIBILITIES]
        out.update({f"v{i}": v for i, v in enumerate(padded)})
    return out


@lru_cache(maxsize=64)
def facts_stmt(gm: bool, n_subjects: int, n_ties: int, with_location: bool) -> Any:
    """Facts about the subjects ``s<i>`` (``ix_fact_subject``), whether the ties ``y<j>`` are alive, and
    (with a location) who lies dead there (``ix_fact_field_value``); the ``alive`` facts first."""
    fact = _c(m.Fact)
    parts = [
        select(_tbl(m.Fact)).where(
            fact.campaign_id == bindparam("cid"),
            one_of(fact.subject, "s", n_subjects),
            _vis(fact.visibility, gm),
        )
    ]
    if n_ties:
        parts.append(
            select(_tbl(m.Fact)).where(
                fact.campaign_id == bindparam("cid"),
                one_of(fact.subject, "y", n_ties),
                fact.field == "alive",
                _vis(fact.visibility, gm),
            )
        )
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
        parts.append(
            select(_tbl(m.Fact)).where(
                fact.campaign_id == bindparam("cid"),
                fact.field == "alive",
                fact.value_text == "false",
                fact.subject.in_(lying_here),
                _vis(fact.visibility, gm),
            )
        )
    rows = union_all(*parts).subquery()
    return _with_cause(select(rows).order_by((rows.c.field == "alive").desc(), rows.c.key).limit(FACT_CAP))


@lru_cache(maxsize=64)
def edges_stmt(gm: bool, n_people: int) -> Any:
    """Edges from (primary key) or to (``ix_edge_target``) the people ``a<i>``, at most EDGES_PER_PERSON per
    person and side: ties between two of them first, then the oldest (kinship and alliances are usually the
    oldest ties; a long feud too)."""
    edge = _c(m.Edge)
    sides = [
        select(_tbl(m.Edge))
        .where(edge.campaign_id == bindparam("cid"), one_of(side, "a", n_people), _vis(edge.visibility, gm))
        .order_by(one_of(other, "a", n_people).desc(), edge.since_session, side, other, edge.kind)
        .limit(EDGES_PER_PERSON * n_people)
        .subquery()
        for side, other in ((edge.source_id, edge.target_id), (edge.target_id, edge.source_id))
    ]
    return _with_cause(union_all(*(select(sq) for sq in sides)))


def _threads_of(prefix: str, n: int, cap: int, gm: bool, *, open_only: bool) -> Any:
    """Ids of the threads binding the entities ``<prefix><i>`` (``thread_party`` joined to each thread by
    primary key): open ones first, the oldest first; then closed ones, the most recently closed first; at
    most ``cap``."""
    party, thread = _c(m.ThreadParty), _c(m.Thread)
    is_open = thread.status == "open"
    inner = (
        select(thread.id.label("thread_id"))
        .select_from(
            _tbl(m.ThreadParty).join(
                _tbl(m.Thread), and_(thread.campaign_id == party.campaign_id, thread.id == party.thread_id)
            )
        )
        .where(
            party.campaign_id == bindparam("cid"),
            one_of(party.entity_id, prefix, n),
            _vis(thread.visibility, gm),
        )
    )
    if open_only:
        inner = inner.where(is_open).order_by(thread.opened_session, thread.id)
    else:
        inner = inner.order_by(
            is_open.desc(), case((is_open, thread.opened_session), else_=-thread.session_number), thread.id
        )
    sub = inner.limit(cap).subquery()
    return select(sub.c.thread_id)


def _placed_threads(gm: bool) -> Any:
    """Ids of the threads opened with the place ``l0`` as their place (``open_thread`` events among the
    place's PLACE_WINDOW newest), at most PLACE_THREADS."""
    ev = _c(m.Event)
    window = _newest(_c(m.EventEntity), "l0", PLACE_WINDOW)
    sub = (
        select(ev.payload["id"].as_string().label("thread_id"))
        .select_from(window.join(_tbl(m.Event), ev.id == window.c.event_id))
        .where(ev.kind == "open_thread", _vis(ev.visibility, gm))
        .order_by(window.c.event_id)
        .limit(PLACE_THREADS)
        .subquery()
    )
    return select(sub.c.thread_id)


@lru_cache(maxsize=128)
def threads_stmt(gm: bool, n_parties: int, n_pcs: int, n_ties: int, n_asked: int, with_place: bool) -> Any:
    """Threads binding the parties ``p<i>`` (NPCs present, the place: THREADS_PER_PARTY each, open first),
    the oldest open ones of the PCs present ``o<j>`` and of the one-hop ties ``r<l>``
    (OPEN_THREADS_PER_OTHER each), the asked ones (``k<m>``) and (``with_place``) those opened with the
    place ``l0`` as their place, flagged ``at_place``; each read by primary key."""
    thread = _c(m.Thread)
    parts = []
    placed = _placed_threads(gm) if with_place else None
    if placed is not None:
        parts.append(placed)
    if n_parties:
        parts.append(_threads_of("p", n_parties, THREADS_PER_PARTY * n_parties, gm, open_only=False))
    if n_pcs:
        parts.append(_threads_of("o", n_pcs, OPEN_THREADS_PER_OTHER * n_pcs, gm, open_only=True))
    if n_ties:
        parts.append(_threads_of("r", n_ties, OPEN_THREADS_PER_OTHER * n_ties, gm, open_only=True))
    if n_asked:
        parts.append(
            select(thread.id).where(thread.campaign_id == bindparam("cid"), one_of(thread.id, "k", n_asked))
        )
    if not parts:
        parts.append(select(thread.id).where(false()))
    at_place = thread.id.in_(placed) if placed is not None else false()
    return _with_cause(
        select(_tbl(m.Thread), at_place.label("at_place"))
        .where(
            thread.campaign_id == bindparam("cid"),
            thread.id.in_(union_all(*parts)),
            _vis(thread.visibility, gm),
        )
        .order_by(thread.id)
    )


@lru_cache(maxsize=64)
def holdings_stmt(gm: bool, n_holders: int) -> Any:
    """What the holders ``h<i>`` hold (``ix_holding_holder``), newest first."""
    holding = _c(m.Holding)
    return _with_cause(
        select(_tbl(m.Holding))
        .where(
            holding.campaign_id == bindparam("cid"),
            one_of(holding.holder_id, "h", n_holders),
            holding.quantity > 0,
            _vis(holding.visibility, gm),
        )
        .order_by(holding.session_number.desc(), holding.item_id, holding.holder_id)
        .limit(HOLDING_CAP)
    )


def _newest(table: Any, param: str, cap: int) -> Any:
    """The newest ``cap`` event ids of the entity ``param`` in ``table`` (its index read backwards)."""
    return (
        select(table.event_id.label("event_id"))
        .where(table.campaign_id == bindparam("cid"), table.entity_id == bindparam(param))
        .order_by(table.event_id.desc())
        .limit(cap)
        .subquery()
    )


def _notable(gm: bool) -> Any:
    """A notable narrative event the viewer may see (the kind and its ``event_kind`` read on the row)."""
    ev = _c(m.Event)
    return and_(
        ev.kind == NARRATIVE_EVENT,
        in_values(ev.payload["event_kind"].as_string(), NOTABLE_KINDS),
        _vis(ev.visibility, gm),
    )


@lru_cache(maxsize=256)
def events_stmt(gm: bool, n_anchors: int, n_npcs: int, n_threads: int, n_people: int) -> Any:
    """The event rows a scene may recall, from four kinds of bounded sub-select (each reads one index
    backwards with a LIMIT):

    * the newest RECENT_EVENTS_PER_ENTITY involving or witnessed by each anchor ``a<i>`` (people, the place,
      asked threads);
    * for each NPC present ``n<j>``: the notable narrative events it shares with another person of the scene
      (``q<l>``) among its NOTABLE_WINDOW newest, and its own newest notable ones;
    * the newest EVENTS_PER_THREAD of each thread ``t<k>`` (a settlement, the narrative events bearing on it).
    """
    ev, ee, ew = _c(m.Event), _c(m.EventEntity), _c(m.EventWitness)
    ids: list[Any] = []
    for i in range(n_anchors):
        for table in (ee, ew):
            ids.append(select(_newest(table, f"a{i}", RECENT_EVENTS_PER_ENTITY).c.event_id))
    for j in range(n_npcs):
        window = _newest(ee, f"n{j}", NOTABLE_WINDOW)
        other = _tbl(m.EventEntity).alias(f"other{j}")
        shared = (
            select(window.c.event_id.label("event_id"))
            .select_from(window.join(_tbl(m.Event), ev.id == window.c.event_id))
            .where(
                _notable(gm),
                select(other.c.event_id)
                .where(
                    other.c.event_id == window.c.event_id,
                    one_of(other.c.entity_id.concat(""), "q", n_people),
                    other.c.entity_id != bindparam(f"n{j}"),
                )
                .exists(),
            )
            .order_by(window.c.event_id.desc())
            .limit(NOTABLE_SHARED_PER_PERSON)
            .subquery()
        )
        ids.append(select(shared.c.event_id))
        own_window = _newest(ee, f"n{j}", NOTABLE_OWN_WINDOW)
        own = (
            select(own_window.c.event_id.label("event_id"))
            .select_from(own_window.join(_tbl(m.Event), ev.id == own_window.c.event_id))
            .where(_notable(gm))
            .order_by(own_window.c.event_id.desc())
            .limit(NOTABLE_OWN_PER_PERSON)
            .subquery()
        )
        ids.append(select(own.c.event_id))
    for k in range(n_threads):
        ids.append(select(_newest(ee, f"t{k}", EVENTS_PER_THREAD).c.event_id))
    cols = (ev.id, ev.ref, ev.kind, ev.payload, ev.cause, ev.session_number, ev.round_number, ev.visibility,
            ev.importance, ev.permanent)  # fmt: skip
    # No ``event.campaign_id`` test here: the ids come from this campaign's index rows, and with one SQLite
    # would walk ix_event_when over the whole campaign instead of looking the ids up by primary key.
    return select(*cols).where(ev.id.in_(union_all(*ids)), _vis(ev.visibility, gm))


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
