"""Scene retrieval: the few ledger records a narrator needs for this scene, the decisive one first.

The scene (its location, the entities present, the active threads) drives everything. Candidates come only
from indexed, LIMIT-bounded queries keyed by those ids, so the cost follows the size of the scene, not the
length of the campaign:

* threads binding someone present (``thread_party`` by entity) and the threads asked for (by primary key);
* relationship edges from or to someone present (edge primary key / ``ix_edge_target``);
* facts about someone present or the location (``ix_fact_subject``), and who lies dead at the location
  (``ix_fact_field_value``);
* holdings of someone present or lying at the location (``ix_holding_holder``);
* events involving or witnessed by someone present or the location: for each, its newest few
  (``ix_event_entity_entity`` / ``ix_event_witness_entity`` read backwards with a LIMIT), plus the permanent
  ones among its newest :data:`PERMANENT_WINDOW_PER_ENTITY` events. Older permanent *events* are reached
  through the projections they left (a thread, an edge, a death or a fact), which never age out; a
  ``permanent`` copy on ``event_entity`` with an index ``(campaign_id, entity_id, permanent, event_id)``
  would make the event recall exact.

Ranking (every score is explained in the record's ``why``):

1. permanent matters (open favours, debts, oaths, bounties, prophecies, broken oaths, feuds, deaths, events
   flagged permanent) binding someone present, and the threads the caller asked for: score >= 100;
2. current matters of the scene (open quests, conditions of those present): 60..99;
3. permanent matters tied only to the location (a death there): 50..59;
4. trivia: importance plus involvement, halved every :data:`HALF_LIFE_SESSIONS` sessions of age: < 50.

Within a tier the records most about who is present rank first (an NPC present weighs three PCs, since the
party is in every scene; a witness counts half), then the more important; on equal scores a projection comes
before an event, then ``ref`` decides. Events already explained by a retrieved projection (the thread, edge
or fact they set) are dropped, and an event is skipped once :data:`MAX_EVENTS_PER_MOMENT` records of its
moment (the batch it was applied in: session, round, cause, importance, permanence) are already chosen.
``set_hp`` events are never permanent (hit points pass). Someone named present whom the ledger records as
dead is not treated as present: a first record says so.

Visibility is applied in SQL on every query (``visibility IN :vis`` with :meth:`Viewer.visible`, the same
rule as :func:`ledger.store.visibility.visible_clause`, bound as a parameter so statements are built once),
so a
record the viewer may not see never leaves the database; names of entities the viewer may not see render as
"someone unknown".

Seven statements per scene, each built once per shape and cached (building a statement with a dozen
sub-selects costs more than running it).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict
from sqlalchemy import and_, bindparam, case, literal, or_, select, true, union_all

from ledger.recall.summaries import IndexUnavailable, SummaryHit
from ledger.store import models as m
from ledger.store.visibility import Viewer

RecordKind = Literal["thread", "edge", "fact", "event", "holding"]

MAX_RECORDS = 10
MAX_SUMMARIES = 5
HALF_LIFE_SESSIONS = 2.0
MAX_EVENTS_PER_MOMENT = 2

# Query caps: each query reads at most this many rows, whatever the campaign's length.
THREAD_CAP = 20
EDGE_CAP = 20
FACT_CAP = 120
HOLDING_CAP = 20
AT_LOCATION_CAP = 60
RECENT_EVENTS_PER_ENTITY = 8
PERMANENT_WINDOW_PER_ENTITY = 60
PERMANENT_EVENT_CAP = 20

PERMANENT_THREAD_KINDS = frozenset({"favour", "debt", "oath", "bounty", "prophecy"})
#: Edge kinds that are standing obligations or enmities, matched as words of the kind slug.
PERMANENT_EDGE_WORDS = frozenset(
    {"favour", "favor", "debt", "owes", "feud", "enemy", "enemies", "oath", "sworn", "bounty", "vengeance",
     "nemesis", "blood", "killed", "murdered", "betrayed"}
)  # fmt: skip
#: Ids of player characters start with this (docs/internals.md, "Ids").
PC_PREFIX = "pc-"
SKIPPED_EVENT_KINDS = frozenset({"create_entity", "create_location", "create_item"})
UNKNOWN_NAME = "someone unknown"


class SceneRecord(BaseModel):
    """One retrieved ledger record: a one-line rendering, its score and why it ranked there."""

    model_config = ConfigDict(frozen=True)

    ref: str
    kind: RecordKind
    text: str
    score: float
    why: str
    session: int
    permanent: bool
    visibility: str


class SceneContext(BaseModel):
    """What retrieval found for one scene, best first.

    ``present`` holds the living entities the scene was asked for; ``dead`` those named present whom the
    ledger records as dead (they are not treated as present, and a record says so). ``summaries_unavailable``
    says why no summaries came when the summary index could not answer (Chroma or its embeddings endpoint
    down); the records, read from the ledger, are complete all the same.
    """

    model_config = ConfigDict(frozen=True)

    campaign_id: int
    location: str | None
    present: tuple[str, ...]
    dead: tuple[str, ...] = ()
    current_session: int
    viewer: str
    records: tuple[SceneRecord, ...] = ()
    summaries: tuple[SummaryHit, ...] = ()
    summaries_unavailable: str | None = None

    def refs(self) -> tuple[str, ...]:
        """The records' refs in rank order."""
        return tuple(r.ref for r in self.records)


class SummarySource(Protocol):
    """What retrieval needs of :class:`ledger.recall.summaries.SummaryIndex`: its keyword-only ``query``."""

    def query(
        self,
        *,
        campaign: str,
        text: str,
        visibilities: Iterable[str] | None = ...,
        entities: Sequence[str] = ...,
        n: int = ...,
    ) -> Any: ...


@dataclass
class _Candidate:
    ref: str
    kind: RecordKind
    session: int
    visibility: str
    involved: set[str]
    witnessed: set[str] = field(default_factory=set)
    importance: int = 5
    permanent: bool = False
    tier_label: str = ""  # "favour", "death", "quest" ...
    active: bool = False  # a current matter (open quest, a condition now)
    asked: bool = False  # a thread the caller asked for
    render: Any = None  # (names) -> text
    subject: tuple[str, ...] = ()  # projection identity an event would duplicate
    moment: tuple[Any, ...] = ()


def _viewer_label(viewer: Viewer) -> str:
    return f"player:{viewer.user_id}" if viewer.role == "player" else viewer.role


def _edge_ref(source: str, target: str, kind: str) -> str:
    return f"{source}>{target}:{kind}"


def _edge_permanent(kind: str) -> bool:
    return any(word in PERMANENT_EDGE_WORDS for word in kind.replace("_", "-").split("-"))


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


async def _rows(session: Any, stmt: Any, params: Mapping[str, Any] | None = None) -> list[Any]:
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


def _cause_fields(row: Any) -> dict[str, Any]:
    """Importance and moment of a projection row, from its joined cause event (defaults when it has none)."""
    if row.c_session is None:
        return {}
    return {
        "importance": int(row.c_importance),
        "moment": _moment(row.c_session, row.c_round, row.c_cause, row.c_importance, row.c_permanent),
    }


# --- statements ---------------------------------------------------------------------------------------------
# Each statement is built once per shape (number of anchors, GM or not, ...) with bound parameters and reused:
# building a SQLAlchemy statement with a dozen sub-selects costs more than running it.


def _vis(col: Any, gm: bool) -> Any:
    """``visibility IN :vis`` (an expanding parameter), or no restriction for the GM."""
    return true() if gm else col.in_(bindparam("vis", expanding=True))


def _params(cid: int, viewer: Viewer, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"cid": cid, **more}
    allowed = viewer.visible()
    if allowed is not None:
        out["vis"] = list(allowed)
    return out


@lru_cache(maxsize=64)
def _facts_stmt(gm: bool, with_location: bool) -> Any:
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
def _threads_stmt(gm: bool, n_asked: int) -> Any:
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
def _edges_stmt(gm: bool) -> Any:
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
def _holdings_stmt(gm: bool) -> Any:
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
def _events_stmt(gm: bool, n_anchors: int) -> Any:
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
def _links_stmt() -> Any:
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
def _names_stmt(gm: bool) -> Any:
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


async def scene_context(
    session: Any,
    *,
    campaign_id: int,
    location: str | None,
    present: Sequence[str],
    threads: Sequence[str] = (),
    viewer: Viewer,
    current_session: int,
    max_records: int = MAX_RECORDS,
    summaries: SummarySource | None = None,
    summary_query: str | None = None,
    summary_campaign: str | None = None,
    max_summaries: int = MAX_SUMMARIES,
) -> SceneContext:
    """Return at most ``max_records`` (<= 10) ledger records for the scene, ranked, and up to 5 summaries.

    ``location`` and ``present`` (entity ids) drive the ranking; ``threads`` are thread ids the scene is
    about (the active quest), which rank with the permanent matters. Only records ``viewer`` may see are
    read. ``summaries`` (a :class:`ledger.recall.summaries.SummaryIndex`) is queried, when given, in the
    collection
    ``summary_campaign`` (default ``str(campaign_id)``) with ``summary_query`` (default: the scene's names and
    the top records' text), the viewer's visibilities and the scene's ids, for at most 5 hits.
    Never raises for unknown ids: they simply match nothing. Never raises for the summary index either: when
    it is unavailable (:class:`~ledger.recall.summaries.IndexUnavailable`) the context holds the ledger
    records only
    and ``summaries_unavailable`` says why (summaries are an index, the ledger is the authority).
    """
    max_records = max(0, min(max_records, MAX_RECORDS))
    cid = campaign_id
    scene_ids = list(dict.fromkeys(present))
    asked_threads = list(dict.fromkeys(threads))
    here = [location] if location else []

    cands: dict[str, _Candidate] = {}

    def add(c: _Candidate) -> None:
        if c.ref not in cands:
            cands[c.ref] = c

    gm = viewer.visible() is None

    # --- facts: about those named present and the place, and who lies dead here (one query) -------------
    dead: dict[str, tuple[int, str]] = {}
    fact_rows: list[Any] = []
    if scene_ids or location:
        fact_rows = await _rows(
            session,
            _facts_stmt(gm, location is not None),
            _params(
                cid, viewer, subjects=[*scene_ids, *here], **({"location": location} if location else {})
            ),
        )
        for f in fact_rows:
            if f.subject in scene_ids and f.field == "alive" and f.value is False:
                dead[f.subject] = (int(f.session_number), f.visibility)
    living = [e for e in scene_ids if e not in dead]
    present_set = set(living)
    anchors = [*living, *here]
    for f in fact_rows:
        if f.subject in scene_ids or (location and f.subject == location):
            _add_fact(add, f, present_set, dead)
        else:
            _add_fact(add, f, present_set, dead, at_location=location)

    # --- threads binding the anchors and the ones asked for ------------------------------------------------
    if anchors or asked_threads:
        for t in await _rows(
            session,
            _threads_stmt(gm, len(asked_threads)),
            _params(cid, viewer, anchors=anchors, asked=asked_threads),
        ):
            _add_thread(add, t, asked=t.id in asked_threads)

    # --- edges from or to someone present ------------------------------------------------------------------
    if living:
        for e in await _rows(session, _edges_stmt(gm), _params(cid, viewer, living=living)):
            _add_edge(add, e)

    # --- holdings of someone present or lying here -------------------------------------------------------
    if anchors:
        for h in await _rows(session, _holdings_stmt(gm), _params(cid, viewer, anchors=anchors)):
            add(
                _Candidate(
                    ref=f"{h.item_id}@{h.holder_id}",
                    kind="holding",
                    session=h.session_number,
                    visibility=h.visibility,
                    involved={h.holder_id, h.item_id},
                    tier_label="holding",
                    render=_holding_renderer(h.item_id, h.holder_id, h.quantity),
                    **_cause_fields(h),
                )
            )

    # --- events --------------------------------------------------------------------------------------------
    event_anchors = [*anchors, *asked_threads]
    if event_anchors:
        await _add_events(session, add, cid, event_anchors, viewer, cands)

    # --- rank: score everything, pick the few, then name only what is shown --------------------------------
    scored = [(_score(c, present_set, location, current_session), c) for c in cands.values()]
    # Ties: current state (thread, edge, fact, holding) before the event that led to it, then by ref.
    scored.sort(key=lambda item: (-round(item[0], 6), item[1].kind == "event", item[1].ref))
    picked: list[tuple[float, _Candidate]] = []
    per_moment: dict[tuple[Any, ...], int] = {}
    room = max_records - len(dead)
    for score, c in scored:
        if len(picked) >= room:
            break
        if c.moment:
            if c.kind == "event" and per_moment.get(c.moment, 0) >= MAX_EVENTS_PER_MOMENT:
                continue  # this moment is already told by the records above
            per_moment[c.moment] = per_moment.get(c.moment, 0) + 1
        picked.append((score, c))
    names = await _names(session, cid, [c for _, c in picked], [*scene_ids, *here], viewer)
    chosen: list[SceneRecord] = [
        SceneRecord(
            ref=f"{entity}-alive",
            kind="fact",
            text=f"{names.get(entity, entity)} is dead (since session {died})",
            score=200.0,
            why=f"named as present, but dead since session {died}: not in the scene",
            session=died,
            permanent=True,
            visibility=visibility,
        )
        for entity, (died, visibility) in sorted(dead.items())
    ]
    for score, c in picked:
        chosen.append(
            SceneRecord(
                ref=c.ref,
                kind=c.kind,
                text=c.render(names),
                score=round(score, 3),
                why=_why(c, present_set, location, current_session, names),
                session=c.session,
                permanent=c.permanent,
                visibility=c.visibility,
            )
        )
    chosen = chosen[:max_records]

    hits: tuple[SummaryHit, ...] = ()
    unavailable: str | None = None
    if summaries is not None and max_summaries > 0:
        text = summary_query or " ".join(
            [
                *(names.get(x, x) for x in [*living, *([location] if location else [])]),
                *(r.text for r in chosen[:3]),
            ]
        )
        if text.strip():  # an empty scene has nothing to look up
            try:
                hits = await _query_summaries(
                    summaries,
                    summary_campaign or str(cid),
                    text,
                    viewer,
                    [*([location] if location else []), *living, *asked_threads],
                    min(max_summaries, MAX_SUMMARIES),
                )
            except IndexUnavailable as err:
                unavailable = str(err)

    return SceneContext(
        campaign_id=cid,
        location=location,
        present=tuple(living),
        dead=tuple(sorted(dead)),
        current_session=current_session,
        viewer=_viewer_label(viewer),
        records=tuple(chosen),
        summaries=hits,
        summaries_unavailable=unavailable,
    )


# --- candidates ---------------------------------------------------------------------------------------------


def _add_thread(add: Any, t: Any, *, asked: bool) -> None:
    permanent = t.kind in PERMANENT_THREAD_KINDS and t.status in ("open", "broken")
    active = t.status == "open"
    since = t.opened_session

    def render(names: Mapping[str, str], t: Any = t) -> str:
        text = f"{t.id} ({t.kind}, {t.status}, since session {since}): {t.terms}"
        if t.status != "open":
            text += f" [{t.status} in session {t.session_number}]"
        return text

    add(
        _Candidate(
            ref=t.id,
            kind="thread",
            session=since if t.status == "open" else t.session_number,
            visibility=t.visibility,
            involved=set(t.parties),
            permanent=permanent,
            tier_label=t.kind if t.status == "open" else f"{t.status} {t.kind}",
            active=active,
            asked=asked,
            render=render,
            subject=(t.id,),
            **_cause_fields(t),
        )
    )


def _add_edge(add: Any, e: Any) -> None:
    def render(names: Mapping[str, str], e: Any = e) -> str:
        src, tgt = names.get(e.source_id, e.source_id), names.get(e.target_id, e.target_id)
        reason = f": {e.reason}" if e.reason else ""
        since = f"since session {e.since_session}"
        return f"{src} -> {tgt}: {e.kind} (attitude {_signed(e.attitude)}, {since}){reason}"

    add(
        _Candidate(
            ref=_edge_ref(e.source_id, e.target_id, e.kind),
            kind="edge",
            session=e.session_number,
            visibility=e.visibility,
            involved={e.source_id, e.target_id},
            permanent=_edge_permanent(e.kind),
            tier_label=e.kind,
            render=render,
            subject=("edge", e.source_id, e.target_id, e.kind),
            **_cause_fields(e),
        )
    )


def _add_fact(
    add: Any, f: Any, present: set[str], dead: Mapping[str, Any], *, at_location: str | None = None
) -> None:
    subject = f.subject
    field_name = f.field
    if subject in dead and field_name != "alive":
        return  # a dead entity named present: only the death matters
    implied = field_name in ("alive", "location", "hp") and not (field_name == "alive" and f.value is False)
    if subject in present and implied:
        return  # implied by the scene itself (they are here, alive); the checker has hp
    if field_name == "exits":
        return  # scenery the narrator gets from the location itself
    death = field_name == "alive" and f.value is False
    condition = field_name.startswith("condition-") and f.value is True
    label = "death" if death else "condition" if condition else "fact"

    def render(names: Mapping[str, str], f: Any = f) -> str:
        who = names.get(subject, subject) if subject else None
        if death:
            where = f" at {names.get(at_location, at_location)}" if at_location else ""
            return f"{who} is dead (since session {f.session_number}){where}"
        if field_name == "alive":
            return f"{who} is alive"
        if condition:
            return f"{who} is {field_name.removeprefix('condition-')} (since session {f.session_number})"
        if field_name == "location":
            return f"{who} is at {names.get(str(f.value), str(f.value))}"
        if field_name == "hp":
            return f"{who} has {f.value} HP"
        if who is not None:
            return (
                f"{who}: {field_name.replace('-', ' ')} = {_fact_value(f.value)} (session {f.session_number})"
            )
        return f"{f.key} = {_fact_value(f.value)} (session {f.session_number})"

    add(
        _Candidate(
            ref=f.key,
            kind="fact",
            session=f.session_number,
            visibility=f.visibility,
            involved={x for x in (subject, at_location) if x},
            permanent=death or bool(f.c_permanent),
            tier_label=label,
            active=condition and subject in present,
            render=render,
            subject=("fact", f.key),
            **_cause_fields(f),
        )
    )


def _fact_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _holding_renderer(item: str, holder: str, quantity: int) -> Any:
    def render(names: Mapping[str, str]) -> str:
        count = f"{quantity} x " if quantity != 1 else ""
        return f"{names.get(holder, holder)} holds {count}{names.get(item, item)}"

    return render


async def _add_events(
    session: Any, add: Any, cid: int, anchors: Sequence[str], viewer: Viewer, cands: Mapping[str, _Candidate]
) -> None:
    """Events involving or witnessed by the anchors: the newest few of each, plus permanent ones in a window.

    Two statements: the events (each anchor's newest ids read backwards from its index, with a LIMIT), then
    who they involve, who witnessed them and whether a retcon or correction superseded them.
    """

    gm = viewer.visible() is None
    params = _params(cid, viewer, **{f"a{i}": a for i, a in enumerate(anchors)})
    rows = await _rows(session, _events_stmt(gm, len(anchors)), params)
    events = {r.id: r for r in rows if r.kind not in SKIPPED_EVENT_KINDS}
    if not events:
        return
    ids = sorted(events)
    refs = [events[i].ref for i in ids]
    involved: dict[int, set[str]] = {i: set() for i in ids}
    witnessed: dict[int, set[str]] = {i: set() for i in ids}
    superseded: set[str] = set()
    for eid, ent, link in await _rows(session, _links_stmt(), {"cid": cid, "ids": ids, "refs": refs}):
        if link == "s":
            superseded.add(ent)
        elif link == "i":
            involved[eid].add(ent)
        else:
            witnessed[eid].add(ent)
    projected = {c.subject for c in cands.values() if c.subject}
    for eid in ids:
        row = events[eid]
        if row.ref in superseded:
            continue
        subject = _event_subject(row.payload)
        if subject is not None and subject in projected:
            continue  # the thread/edge/fact it set is retrieved and says the same, better
        payload = dict(row.payload or {})
        death = payload.get("kind") == "set_alive" and payload.get("alive") is False
        # Hit points are a passing state even inside a permanent moment: the death says what lasted.
        transient = payload.get("kind") == "set_hp"
        add(
            _Candidate(
                ref=row.ref,
                kind="event",
                session=int(row.session_number),
                visibility=row.visibility,
                involved=involved[eid],
                witnessed=witnessed[eid],
                importance=max(0, int(row.importance) - (3 if transient else 0)),
                permanent=(bool(row.permanent) and not transient) or death,
                tier_label="death" if death else str(row.kind).replace("_", " "),
                render=_event_renderer(row.ref, int(row.session_number), payload),
                moment=_moment(
                    row.session_number, row.round_number, row.cause, row.importance, row.permanent
                ),
            )
        )


def _moment(
    session_number: int, round_number: int | None, cause: str, importance: int, permanent: bool
) -> tuple[Any, ...]:
    """The batch an event was applied in (one action, one history entry): the same session, round, cause,
    importance and permanence. Its records repeat each other, so only a few of them are kept."""
    return (int(session_number), round_number, cause, int(importance), bool(permanent))


def _event_subject(payload: Mapping[str, Any] | None) -> tuple[str, ...] | None:
    if not payload:
        return None
    kind = payload.get("kind")
    if kind == "open_thread":
        return (str(payload.get("id")),)
    if kind == "thread_transition":
        return (str(payload.get("thread")),)
    if kind == "set_edge":
        return ("edge", str(payload.get("source")), str(payload.get("target")), str(payload.get("edge_kind")))
    if kind == "set_fact":
        return ("fact", str(payload.get("key")))
    entity = payload.get("entity")
    if kind == "set_alive":
        return ("fact", f"{entity}-alive")
    if kind == "set_hp":
        return ("fact", f"{entity}-hp")
    if kind in ("add_condition", "remove_condition"):
        return ("fact", f"{entity}-condition-{payload.get('condition')}")
    return None


def _event_renderer(ref: str, session_number: int, payload: Mapping[str, Any]) -> Any:
    def render(names: Mapping[str, str]) -> str:
        return f"{ref} (session {session_number}): {_describe(payload, names)}"

    return render


def _describe(p: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One line for one change, in words."""

    def n(ref: Any) -> str:
        return names.get(str(ref), str(ref))

    kind = p.get("kind")
    if kind == "set_alive":
        return (
            f"{n(p.get('entity'))} died"
            if p.get("alive") is False
            else f"{n(p.get('entity'))} came back to life"
        )
    if kind == "move_entity":
        return f"{n(p.get('entity'))} went to {n(p.get('location'))}"
    if kind == "set_hp":
        return f"{n(p.get('entity'))} was at {p.get('hp')} HP"
    if kind == "add_condition":
        return f"{n(p.get('entity'))} became {p.get('condition')}"
    if kind == "remove_condition":
        return f"{n(p.get('entity'))} was no longer {p.get('condition')}"
    if kind == "transfer_item":
        qty = int(p.get("quantity") or 1)
        what = f"{qty} x {n(p.get('item'))}" if qty != 1 else n(p.get("item"))
        src, dst = p.get("from_holder"), p.get("to_holder")
        if src and dst:
            return f"{n(src)} gave {what} to {n(dst)}"
        if dst:
            return f"{n(dst)} gained {what}"
        return f"{n(src)} gave up {what} (sold, used up or destroyed)"
    if kind == "set_edge":
        reason = f": {p.get('reason')}" if p.get("reason") else ""
        return (
            f"{n(p.get('source'))} -> {n(p.get('target'))} became {p.get('edge_kind')} "
            f"(attitude {_signed(int(p.get('attitude') or 0))}){reason}"
        )
    if kind == "open_thread":
        return f"{p.get('thread_kind')} {p.get('id')} opened: {p.get('terms')}"
    if kind == "thread_transition":
        reason = f": {p.get('reason')}" if p.get("reason") else ""
        return f"{p.get('thread')} became {p.get('status')}{reason}"
    if kind == "set_fact":
        return f"{p.get('key')} = {_fact_value(p.get('value'))}"
    if kind in ("retcon", "correction"):
        inner = "; ".join(_describe(c, names) for c in p.get("changes") or ())
        return f"{kind} of {p.get('target')} ({p.get('reason')}): {inner}"
    return str(kind)


async def _names(
    session: Any, cid: int, cands: Iterable[_Candidate], extra: Sequence[str], viewer: Viewer
) -> dict[str, str]:
    """Display names of every id the candidates mention, in one statement.

    A record the viewer may not see gives :data:`UNKNOWN_NAME` instead (decided in SQL, so the name never
    leaves the database): a telling name must not leak through a visible edge or event.
    """
    refs: set[str] = set(extra)
    for c in cands:
        refs |= c.involved | c.witnessed
        if c.kind == "holding":
            refs |= set(c.ref.split("@", 1))
    refs.discard("")
    if not refs:
        return {}
    rows = await _rows(
        session, _names_stmt(viewer.visible() is None), _params(cid, viewer, wanted=sorted(refs))
    )
    return {ref: name for ref, name in rows}


# --- scoring ------------------------------------------------------------------------------------------------


def _tier(c: _Candidate, present: set[str], location: str | None) -> tuple[str, list[str], bool, int]:
    """(tier, present ids bound, at the location, capped importance) of a candidate."""
    bound = sorted((c.involved | c.witnessed) & present)
    at_location = location is not None and location in c.involved
    importance = max(0, min(10, c.importance))
    if c.asked:
        return "asked", bound, at_location, importance
    if c.permanent and bound:
        return "permanent", bound, at_location, importance
    if c.active and bound:
        return "current", bound, at_location, importance
    if c.permanent and at_location:
        return "here", bound, at_location, importance
    return "trivia", bound, at_location, importance


def _decay(c: _Candidate, current_session: int) -> tuple[int, float]:
    age = max(0, current_session - c.session)
    return age, 0.5 ** (age / HALF_LIFE_SESSIONS)


def _presence(c: _Candidate, bound: Sequence[str]) -> float:
    """How much a record is about the people in the scene, 0..1.

    PCs are in nearly every scene, so the NPCs present are what make a scene this scene: each NPC bound by
    the record weighs as much as three PCs. Having only witnessed an event counts half.
    """
    npcs = sorted((1.0 if x in c.involved else 0.5) for x in bound if not x.startswith(PC_PREFIX))
    pcs = sorted((1.0 if x in c.involved else 0.5) for x in bound if x.startswith(PC_PREFIX))
    weight = 3 * sum(npcs[-2:]) + sum(pcs[-3:])
    return min(weight / 9.0, 1.0)


def _score(c: _Candidate, present: set[str], location: str | None, current_session: int) -> float:
    """A candidate's score; see the module docstring for the tiers."""
    tier, bound, at_location, importance = _tier(c, present, location)
    presence = _presence(c, bound)
    here = 2 if at_location else 0
    if tier == "asked":
        return 120.0 + 20 * presence + importance
    if tier == "permanent":
        return 100.0 + 30 * presence + importance + (5 if c.active else 0) + here
    if tier == "current":
        return min(60.0 + 24 * presence + importance + here, 99.0)
    if tier == "here":
        return 50.0 + min(importance, 9)
    _age, decay = _decay(c, current_session)
    return min((importance + 9 * presence + here) * decay, 49.0)


def _why(
    c: _Candidate, present: set[str], location: str | None, current_session: int, names: Mapping[str, str]
) -> str:
    """Why a candidate ranked where it did, in words (only built for the records shown)."""
    tier, bound, _at_location, importance = _tier(c, present, location)
    who = ", ".join(names.get(x, x) for x in bound)
    how = "witnessed by" if bound and not (set(bound) & c.involved) else "involving"
    place = names.get(location, location) if location else ""
    if tier == "asked":
        return f"the scene's active {c.tier_label}" + (f" {how} {who} (present)" if bound else "")
    if tier == "permanent":
        return f"permanent {c.tier_label} {how} {who} (present)"
    if tier == "current":
        return f"current {c.tier_label} {how} {who} (present)"
    if tier == "here":
        return f"permanent {c.tier_label} at {place}"
    age, decay = _decay(c, current_session)
    where = f"{how} {who} (present)" if bound else f"at {place}" if _at_location else "nearby"
    return f"{c.tier_label} {where}, importance {importance}, {age} sessions old (x{decay:.2f})"


async def _query_summaries(
    index: SummarySource,
    campaign: str,
    text: str,
    viewer: Viewer,
    entities: Sequence[str],
    limit: int,
) -> tuple[SummaryHit, ...]:
    """Ask the summary index (``SummaryIndex.query``; a sync ``query`` runs in a thread) for the scene.

    Raises :class:`~ledger.recall.summaries.IndexUnavailable` when the index cannot answer.
    """
    kwargs: dict[str, Any] = {
        "campaign": campaign,
        "text": text,
        "visibilities": viewer.visible(),
        "entities": tuple(entities),
        "n": limit,
    }
    if inspect.iscoroutinefunction(index.query):
        raw = await index.query(**kwargs)
    else:
        raw = await asyncio.to_thread(lambda: index.query(**kwargs))
    return tuple(raw or ())[:limit]


__all__ = [
    "MAX_RECORDS",
    "MAX_SUMMARIES",
    "SceneContext",
    "SceneRecord",
    "SummaryHit",
    "SummarySource",
    "scene_context",
]
