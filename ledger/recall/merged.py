"""Retrieval's reads merged into three statements per scene (issue 14: fewer round trips per round).

Each statement is a UNION ALL of the bounded reads of :mod:`.queries`, every branch still filtered, ordered
and LIMITed as its own statement was, in shared columns (``part`` names the read), so a scene returns the
same rows in three round trips instead of seven:

1. :func:`people_stmt`: the edges of the people named present (:func:`~.queries.edges_stmt`) and which of
   them, and of the people at the other end of those edges, the ledger records as dead (what the next
   read's inputs depend on);
2. :func:`world_stmt`: the facts (:func:`~.queries.facts_stmt`), threads (:func:`~.queries.threads_stmt`)
   and holdings (:func:`~.queries.holdings_stmt`) of the scene;
3. :func:`recall_stmt`: the events (:func:`~.queries.events_stmt`, as a CTE), who they involve and
   witnessed and which were superseded, and the display names (as :func:`~.queries.names_stmt` reads
   them) of the ids wanted and of everyone those events involve or witnessed.

The world read takes the threads' and holdings' inputs (who is dead, among those named present and their
one-hop ties) from the first statement; retrieval checks them against the facts it reads and reads those two
again (a fourth statement) only when the facts say otherwise. All statements are built once per shape and
cached (the id lists whose count changes no LIMIT are padded to few sizes, :func:`padded`), and run alike
on SQLite and PostgreSQL. Which rows come back, and so the scene's records, are exactly those of the seven
separate reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    Boolean,
    Integer,
    String,
    bindparam,
    case,
    cast,
    func,
    literal,
    literal_column,
    null,
    select,
    union_all,
)

from ledger.recall.queries import (
    UNKNOWN_NAME,
    _c,
    _vis,
    edges_stmt,
    events_stmt,
    facts_stmt,
    holdings_stmt,
    one_of,
    threads_stmt,
)
from ledger.store import models as m
from ledger.store.sqljson import as_is, raw_json

#: Shapes (the arguments of the statement builder in :mod:`.queries`) of an optional part, or None.
FactsShape = tuple[bool, int, int, bool]
ThreadsShape = tuple[bool, int, int, int, int, bool]
HoldingsShape = tuple[bool, int]
EventsShape = tuple[bool, int, int, int, int]

#: Smallest padded sizes (see :func:`padded`): a scene's subjects and holders, its one-hop ties (at most
#: ``MAX_TIE_CANDIDATES`` of retrieval), and the ids whose names are read.
SUBJECTS_AT_LEAST = 8
TIES_AT_LEAST = 32
WANTED_AT_LEAST = 16

_CAUSE = ("c_importance", "c_permanent", "c_session", "c_round", "c_cause")
_EDGE = ("source_id", "target_id", "kind", "attitude", "reason", "since_session", "session_number")


def _part(name: str) -> Any:
    return literal_column(f"'{name}'").label("part")


def _nulls() -> dict[str, Any]:
    """Typed NULLs for every generic column (a UNION needs one type per column on PostgreSQL)."""
    text, number, json, flag = (cast(null(), String), cast(null(), Integer), cast(null(), JSON),
                                cast(null(), Boolean))  # fmt: skip
    return {
        "t1": text, "t2": text, "t3": text, "t4": text,
        "j1": raw_json(json), "n1": number, "b1": flag,
        "session_number": number, "visibility": text,
        "c_importance": number, "c_permanent": flag, "c_session": number, "c_round": number, "c_cause": text,
    }  # fmt: skip


def _generic(name: str, sub: Any, cols: Mapping[str, Any]) -> Any:
    """``SELECT '<name>' AS part, <the generic columns>`` of the subquery ``sub``; ``cols`` maps a generic
    column to an expression over it, the cause columns and provenance are taken as they are."""
    values = _nulls()
    values.update({"session_number": sub.c.session_number, "visibility": sub.c.visibility})
    values.update({c: sub.c[c] for c in _CAUSE})
    values.update(cols)
    return select(_part(name), *(v.label(k) for k, v in values.items()))


@lru_cache(maxsize=64)
def people_stmt(gm: bool, n_people: int) -> Any:
    """The edges from or to the people ``a<i>`` (as :func:`~.queries.edges_stmt` reads them, ``part`` 'e')
    and the ``alive`` facts saying one of them, or someone at the other end of one of those edges, is dead
    (``part`` 'd': ``source_id`` the subject; each subject read by ``ix_fact_subject``)."""
    e = edges_stmt(gm, n_people).cte("scene_edges")
    fact = _c(m.Fact)
    edges = select(_part("e"), *(e.c[c] for c in (*_EDGE, "visibility", *_CAUSE)))
    cols = (
        _part("d"),
        fact.subject.label("source_id"),
        cast(literal(""), String).label("target_id"),
        cast(literal(""), String).label("kind"),
        cast(literal(0), Integer).label("attitude"),
        cast(literal(""), String).label("reason"),
        cast(literal(0), Integer).label("since_session"),
        fact.session_number,
        fact.visibility,
        cast(null(), Integer).label("c_importance"),
        cast(null(), Boolean).label("c_permanent"),
        cast(null(), Integer).label("c_session"),
        cast(null(), Integer).label("c_round"),
        cast(null(), String).label("c_cause"),
    )
    dead = [
        select(*cols).where(
            fact.campaign_id == bindparam("cid"),
            who,
            fact.field == "alive",
            fact.value_text == "false",
            _vis(fact.visibility, gm),
        )
        for who in (
            one_of(fact.subject, "a", n_people),
            fact.subject.in_(select(e.c.source_id)),
            fact.subject.in_(select(e.c.target_id)),
        )
    ]
    return union_all(edges, *dead)


@lru_cache(maxsize=256)
def world_stmt(facts: FactsShape | None, threads: ThreadsShape | None, holdings: HoldingsShape | None) -> Any:
    """The scene's facts (``part`` 'f'), threads ('t') and holdings ('h'), each read as its own statement
    was (same filters, order and LIMIT), ordered by part and then as that statement orders its rows."""
    parts = []
    if facts is not None:
        f = facts_stmt(*facts).subquery("f")
        cols = {"t1": f.c.key, "t2": f.c.subject, "t3": f.c.field, "j1": raw_json(f.c.value)}
        parts.append(_generic("f", f, cols))
    if threads is not None:
        t = threads_stmt(*threads).subquery("t")
        cols = {"t1": t.c.id, "t2": t.c.kind, "t3": t.c.status, "t4": t.c.terms, "j1": raw_json(t.c.parties)}
        cols |= {"n1": t.c.opened_session, "b1": t.c.at_place}
        parts.append(_generic("t", t, cols))
    if holdings is not None:
        h = holdings_stmt(*holdings).subquery("h")
        cols = {"t1": h.c.item_id, "t2": h.c.holder_id, "n1": h.c.quantity}
        parts.append(_generic("h", h, cols))
    return union_all(*parts)


class FactRow(NamedTuple):
    """A fact as :func:`~.queries.facts_stmt` reads it (with its cause)."""

    key: str
    subject: str | None
    field: str
    value: Any
    session_number: int
    visibility: str
    c_importance: int | None
    c_permanent: bool | None
    c_session: int | None
    c_round: int | None
    c_cause: str | None


class ThreadRow(NamedTuple):
    """A thread as :func:`~.queries.threads_stmt` reads it (with its cause, and whether it is the place's)."""

    id: str
    kind: str
    status: str
    terms: str
    parties: list[str]
    opened_session: int
    at_place: bool
    session_number: int
    visibility: str
    c_importance: int | None
    c_permanent: bool | None
    c_session: int | None
    c_round: int | None
    c_cause: str | None


class HoldingRow(NamedTuple):
    """A holding as :func:`~.queries.holdings_stmt` reads it (with its cause)."""

    item_id: str
    holder_id: str
    quantity: int
    session_number: int
    visibility: str
    c_importance: int | None
    c_permanent: bool | None
    c_session: int | None
    c_round: int | None
    c_cause: str | None


class EventRow(NamedTuple):
    """An event as :func:`~.queries.events_stmt` reads it."""

    id: int
    ref: str
    kind: str
    cause: str
    visibility: str
    payload: Any
    session_number: int
    round_number: int | None
    importance: int
    permanent: bool


def world_rows(
    rows: list[Any], decode: Callable[[Any], Any] = as_is
) -> tuple[list[FactRow], list[ThreadRow], list[HoldingRow]]:
    """The facts, threads and holdings of :func:`world_stmt`'s rows, each with the attribute names its own
    statement's rows had (what :mod:`.candidates` reads). ``decode``: the reader of the JSON column
    (:func:`ledger.store.sqljson.json_reader` of the session that read the rows)."""
    facts: list[FactRow] = []
    threads: list[ThreadRow] = []
    holdings: list[HoldingRow] = []
    for part, t1, t2, t3, t4, j1, n1, b1, *cause in rows:  # the columns of _nulls(), in order
        if part == "f":
            facts.append(FactRow(t1, t2, t3, decode(j1), *cause))
        elif part == "t":
            threads.append(ThreadRow(t1, t2, t3, t4, decode(j1) if j1 is not None else [], n1, b1, *cause))
        else:
            holdings.append(HoldingRow(t1, t2, n1, *cause))
    return facts, threads, holdings


def padded(prefix: str, ids: Sequence[str], at_least: int) -> dict[str, str]:
    """``{<prefix>0: id0, ...}`` padded with ``""`` (which matches nothing) up to a power of two, at least
    ``at_least``: for the id lists whose count changes no LIMIT (the facts' subjects and ties, the holders,
    the names wanted), so that the merged statements take few shapes. Each new shape is compiled (tens of
    milliseconds for these long statements) and prepared once; a wider list costs only a few unused
    parameters."""
    size = at_least
    while size < len(ids):
        size *= 2
    return {f"{prefix}{i}": x for i, x in enumerate([*ids, *([""] * (size - len(ids)))])}


def wanted_ids(ids: Sequence[str]) -> dict[str, str]:
    """The ids whose names :func:`recall_stmt` reads, as ``w<i>`` parameters (:func:`padded`, at least
    :data:`WANTED_AT_LEAST`)."""
    return padded("w", ids, WANTED_AT_LEAST)


def _shown(model: Any, gm: bool) -> Any:
    """The name of an entity, location or item as the viewer may know it: :data:`~.queries.UNKNOWN_NAME`
    where the viewer may not see the record (decided in SQL, so the name never leaves the database)."""
    t = _c(model)
    return t.name if gm else case((_vis(t.visibility, gm), t.name), else_=literal(UNKNOWN_NAME))


@lru_cache(maxsize=256)
def recall_stmt(gm: bool, events: EventsShape | None, n_wanted: int) -> Any:
    """The events of :func:`~.queries.events_stmt` (``part`` 'e'), who they involve ('i') and witnessed
    ('w'), which were superseded ('s'), and the display names ('n') of the ids ``w<i>`` (``n_wanted`` of
    them: :func:`wanted_ids`) and of everyone those events involve or witnessed (:func:`_shown`)."""
    ev, ee, ew = _c(m.Event), _c(m.EventEntity), _c(m.EventWitness)
    text, number, json, flag = (cast(null(), String), cast(null(), Integer), cast(null(), JSON),
                                cast(null(), Boolean))  # fmt: skip

    def row(part: Any, **cols: Any) -> Any:
        """One branch: ``part`` (a name, or the column holding it) and the generic columns."""
        values: dict[str, Any] = {"n1": number, "t1": text, "t2": text, "t3": text, "t4": text}
        values["j1"] = raw_json(json)
        values |= {"n2": number, "n3": number, "n4": number, "b1": flag}
        values.update(cols)
        head = _part(part) if isinstance(part, str) else part.label("part")
        return select(head, *(v.label(k) for k, v in values.items()))

    parts: list[Any] = []
    if events is not None:
        e = events_stmt(*events).cte("scene_events")
        ids = select(e.c.id)
        payload = raw_json(e.c.payload)  # decoded by recall_rows' reader
        parts.append(
            row("e", n1=e.c.id, t1=e.c.ref, t2=e.c.kind, t3=e.c.cause, t4=e.c.visibility, j1=payload,
                n2=e.c.session_number, n3=e.c.round_number, n4=e.c.importance, b1=e.c.permanent)
        )  # fmt: skip
        links = union_all(
            *(
                select(t.event_id.label("event_id"), t.entity_id.label("entity_id"), _part(link)).where(
                    t.event_id.in_(ids)
                )
                for link, t in (("i", ee), ("w", ew))
            )
        ).cte("scene_links")
        parts.append(row(links.c.part, n1=links.c.event_id, t1=links.c.entity_id))
        parts.append(
            row("s", n1=ev.id, t1=ev.supersedes).where(
                ev.campaign_id == bindparam("cid"), ev.supersedes.in_(select(e.c.ref))
            )
        )
        # Everyone those events involve or witnessed, named by primary key lookups, with the precedence
        # the rows below give (an item's name over a place's over an entity's); NULL when none has the id.
        people = (select(links.c.entity_id.label("id")).distinct()).subquery("scene_people")
        found = [
            select(_shown(model, gm))
            .where(_c(model).campaign_id == bindparam("cid"), _c(model).id == people.c.id)
            .scalar_subquery()
            for model in (m.Item, m.Location, m.Entity)
        ]
        parts.append(row("n", t1=people.c.id, t2=func.coalesce(*found)))
    for model in (m.Entity, m.Location, m.Item):
        t = _c(model)
        asked = one_of(t.id, "w", n_wanted)
        parts.append(row("n", t1=t.id, t2=_shown(model, gm)).where(t.campaign_id == bindparam("cid"), asked))
    return union_all(*parts)


def recall_rows(
    rows: list[Any], decode: Callable[[Any], Any] = as_is
) -> tuple[list[EventRow], list[tuple[int, str, str]], dict[str, str]]:
    """The events (with the attribute names of :func:`~.queries.events_stmt`'s rows), the links (event id,
    entity or superseded ref, link) and the display names of :func:`recall_stmt`'s rows. ``decode``: the
    reader of the JSON column (:func:`ledger.store.sqljson.json_reader` of the session that read them)."""
    events: list[EventRow] = []
    links: list[tuple[int, str, str]] = []
    names: dict[str, str] = {}
    for part, n1, t1, t2, *more in rows:  # the columns of recall_stmt's row(), in order
        if part == "n":
            if t2 is not None:
                names[t1] = t2
        elif part == "e":
            t3, t4, j1, *rest = more
            events.append(EventRow(n1, t1, t2, t3, t4, decode(j1), *rest))
        else:
            links.append((n1, t1, part))
    return events, links, names


__all__ = ["padded", "people_stmt", "recall_rows", "recall_stmt", "wanted_ids", "world_rows", "world_stmt"]
