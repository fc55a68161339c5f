"""Several scenes read in the statements of one, and a scene's read begun before a round and ended after it
(issue 14: a round read its scene twice, for the GM's discoveries before its changes and for the party's
narration after them, six statements).

:func:`read_scenes` runs each step (:mod:`.steps`) of several asks as ONE statement: each ask's statement
as it would run alone (its parameters and CTEs renamed apart, :func:`tagged`), side by side in a UNION ALL
with the ask's number as a last column, its rows handed back to that ask only. Every ask keeps its own
viewer's visibility filter in SQL: a row read for the GM's ask never reaches the party's. Asks given as
``prepare`` run step 1 only (:class:`Prepared` keeps its rows).

:func:`prepared_context` ends a prepared ask later (after the round's changes are written): step 1's rows
are taken as prepared, which is the caller's promise that nothing step 1 reads (edges, who is dead, who is
named present, the place) changed meanwhile; steps 2 and 3 are read as :func:`~.retrieval.scene_context`
reads them. So the context is the one :func:`~.retrieval.scene_context` gives for the same scene.

(Ending a prepared ask in ONE statement, steps 2 and 3 side by side with step 3's inputs guessed from a
step 2 read before the round, was tried: one statement fewer, but ~4 ms more CPU per round at 1k events,
the price of that early step 2 read.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import bindparam, literal_column, select, union_all
from sqlalchemy.sql import visitors
from sqlalchemy.sql.elements import BindParameter
from sqlalchemy.sql.selectable import CTE

from ledger.recall.queries import fetch_rows
from ledger.recall.retrieval import SceneContext, SummarySource, ranked
from ledger.recall.steps import PeopleRows, Read, SceneAsk, SceneRead
from ledger.store.sqljson import json_reader


class Prepared(NamedTuple):
    """An ask whose step 1 was read before a change: its rows."""

    ask: SceneAsk
    people: PeopleRows


class PeopleRow(NamedTuple):
    """A row of :func:`~.merged.people_stmt` (an edge, or a death), its ask column left off."""

    part: str
    source_id: str
    target_id: str
    kind: str
    attitude: int
    reason: str
    since_session: int
    session_number: int
    visibility: str
    c_importance: int | None
    c_permanent: bool | None
    c_session: int | None
    c_round: int | None
    c_cause: str | None


def tagged(stmt: Any, tag: str) -> Any:
    """``stmt`` with every named parameter but ``cid`` (the same for every ask) and every CTE renamed with
    the suffix ``tag``, so it can stand beside the same statement of another ask."""
    ctes: dict[Any, Any] = {}

    def replace(element: Any, **_kw: Any) -> Any:
        if isinstance(element, BindParameter) and not element.unique and element.key != "cid":
            return bindparam(element.key + tag, type_=element.type)
        if isinstance(element, CTE):
            if element not in ctes:
                inner: Any = visitors.replacement_traverse(element.element, {}, replace)
                ctes[element] = inner.cte(element.name + tag)
            return ctes[element]
        return None

    return visitors.replacement_traverse(stmt, {}, replace)


@lru_cache(maxsize=128)
def _side_by_side(stmts: tuple[Any, ...]) -> Any:
    """The statements ``stmts`` (of the asks numbered by their place) in one UNION ALL, each tagged
    ``_<its number>`` and followed by its number as the column ``ask``; built once per combination (the
    statements come from cached builders, so the same combination is the same objects: SQLAlchemy then
    finds the compiled form in its cache too)."""
    parts = []
    for i, stmt in enumerate(stmts):
        if stmt is not None:
            sub = tagged(stmt, f"_{i}").subquery(f"ask{i}")
            parts.append(select(*sub.c, literal_column(str(i)).label("ask")))
    return union_all(*parts)


async def _run(session: Any, steps: Sequence[Read | None]) -> list[list[Any] | None]:
    """The rows of each step (None where a step reads nothing), every step that reads in ONE statement."""
    live = [i for i, step in enumerate(steps) if step is not None]
    out: list[list[Any] | None] = [None] * len(steps)
    if len(live) == 1:
        stmt, params = steps[live[0]]  # type: ignore[misc]
        out[live[0]] = await fetch_rows(session, stmt, params)
        return out
    if not live:
        return out
    merged: dict[str, Any] = {}
    for i in live:
        out[i] = []
        merged |= {k if k == "cid" else f"{k}_{i}": v for k, v in steps[i][1].items()}  # type: ignore[index]
    stmts = tuple(None if step is None else step[0] for step in steps)
    for row in await fetch_rows(session, _side_by_side(stmts), merged):
        out[int(row[-1])].append(tuple(row)[:-1])  # type: ignore[union-attr]
    return out


async def read_scenes(
    session: Any, asks: Sequence[SceneAsk], prepare: Sequence[SceneAsk] = ()
) -> tuple[list[SceneContext], list[Prepared]]:
    """The contexts of ``asks`` (as :func:`~.retrieval.scene_context` gives each, without summaries), every
    step of them all in one statement, and ``prepare`` read up to step 1 beside them."""
    decode = json_reader(session)
    reads = [SceneRead(a, decode) for a in [*asks, *prepare]]
    ended = reads[: len(asks)]
    for read, rows in zip(reads, await _run(session, [r.people() for r in reads]), strict=True):
        read.take_people(None if rows is None else [PeopleRow(*r) for r in rows])
    for read, rows in zip(ended, await _run(session, [r.world() for r in ended]), strict=True):
        read.take_world(rows)
    for read, rows in zip(ended, await _run(session, [r.again() for r in ended]), strict=True):
        read.take_again(rows)
    for read in ended:
        read.gather()
    for read, rows in zip(ended, await _run(session, [r.recall() for r in ended]), strict=True):
        read.take_recall(rows)
    contexts = [await ranked(session, read) for read in ended]
    return contexts, [Prepared(r.ask, r.people_rows()) for r in reads[len(asks) :]]


async def prepared_context(
    session: Any,
    prepared: Prepared,
    *,
    summaries: SummarySource | None = None,
    summary_campaign: str | None = None,
) -> SceneContext:
    """The context of ``prepared``'s ask now (see the module's docstring): step 1 as prepared, then steps 2
    and 3 as :func:`~.retrieval.scene_context` reads them."""
    read = SceneRead(prepared.ask, json_reader(session))
    read.reuse_people(prepared.people)
    for make, take in ((read.world, read.take_world), (read.again, read.take_again)):
        step = make()
        take(None if step is None else await fetch_rows(session, *step))
    read.gather()
    step = read.recall()
    read.take_recall(None if step is None else await fetch_rows(session, *step))
    return await ranked(session, read, summaries=summaries, summary_campaign=summary_campaign)


__all__ = ["Prepared", "prepared_context", "read_scenes", "tagged"]
