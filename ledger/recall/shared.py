"""Several scenes read in the statements of one, and a scene's read begun before a round and ended after it
(issue 14: a round read its scene twice, for the GM's discoveries before its changes and for the party's
narration after them, six statements).

:func:`read_scenes` runs each step (:mod:`.steps`) of several asks as ONE statement: each ask's statement
as it would run alone (its parameters and CTEs renamed apart, :func:`tagged`), side by side in a UNION ALL
with the ask's number as a last column, its rows handed back to that ask only. Every ask keeps its own
viewer's visibility filter in SQL: a row read for the GM's ask never reaches the party's. Asks given as
``prepare`` run steps 1 and 2 only; :class:`Prepared` keeps step 1's rows and the step 3 statement their
candidates would ask for.

:func:`prepared_context` ends a prepared ask later (after the round's changes are written): step 1's rows
are taken as prepared, which is the caller's promise that nothing step 1 reads (edges, who is dead, who is
named present, the place) changed meanwhile; steps 2 and 3 are read in ONE statement, step 3 with the
statement prepared. Both are then checked against what the new step 2 rows ask for: the threads and
holdings are read again when the facts change who is dead (as :func:`~.retrieval.scene_context` does), and
step 3 when its inputs (the living, the closed matters, the names wanted) are no longer those prepared. So
the context is the one :func:`~.retrieval.scene_context` gives for the same scene, read for read.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import Boolean, Integer, String, bindparam, cast, literal_column, null, select, union_all
from sqlalchemy.sql import visitors
from sqlalchemy.sql.elements import BindParameter
from sqlalchemy.sql.selectable import CTE

from ledger.recall.queries import fetch_rows
from ledger.recall.retrieval import SceneContext, SummarySource, ranked
from ledger.recall.steps import PeopleRows, Read, SceneAsk, SceneRead
from ledger.store.sqljson import json_reader


class Prepared(NamedTuple):
    """An ask read up to step 2 before a change: step 1's rows, and the step 3 read its candidates asked."""

    ask: SceneAsk
    people: PeopleRows
    recall: Read | None


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
    """The contexts of ``asks`` (as :func:`~.retrieval.scene_context` gives each, without summaries) and
    ``prepare`` read up to step 2, every step of them all in one statement."""
    decode = json_reader(session)
    reads = [SceneRead(a, decode) for a in [*asks, *prepare]]
    ended = reads[: len(asks)]
    for read, rows in zip(reads, await _run(session, [r.people() for r in reads]), strict=True):
        read.take_people(None if rows is None else [PeopleRow(*r) for r in rows])
    for read, rows in zip(reads, await _run(session, [r.world() for r in reads]), strict=True):
        read.take_world(rows)
    for read, rows in zip(reads, await _run(session, [r.again() for r in reads]), strict=True):
        read.take_again(rows)
    for read in reads:
        read.gather()
    for read, rows in zip(ended, await _run(session, [r.recall() for r in ended]), strict=True):
        read.take_recall(rows)
    contexts = [await ranked(session, read) for read in ended]
    return contexts, [Prepared(r.ask, r.people_rows(), r.recall()) for r in reads[len(asks) :]]


#: The columns of :func:`~.merged.world_stmt` (its rows' order), then those only ``recall_stmt`` has.
_WORLD = ("part", "t1", "t2", "t3", "t4", "j1", "n1", "b1", "session_number", "visibility", "c_importance",
          "c_permanent", "c_session", "c_round", "c_cause")  # fmt: skip
_RECALL_ONLY = ("n2", "n3", "n4")


@lru_cache(maxsize=128)
def _world_and_recall(world: Any, recall: Any) -> Any:
    """The rows of ``world`` (a :func:`~.merged.world_stmt`) and of ``recall`` (a
    :func:`~.merged.recall_stmt`) in one statement, in the columns of :data:`_WORLD` and
    :data:`_RECALL_ONLY` (typed NULLs where a side has no such column)."""
    w, r = world.subquery("scene_world"), recall.subquery("scene_recall")
    text, number, flag = cast(null(), String), cast(null(), Integer), cast(null(), Boolean)
    recall_nulls: dict[str, Any] = {"session_number": number, "visibility": text, "c_importance": number,
                    "c_permanent": flag, "c_session": number, "c_round": number, "c_cause": text}  # fmt: skip
    left = select(*(w.c[c] for c in _WORLD), *(number.label(c) for c in _RECALL_ONLY))
    right = select(
        *(r.c[c] if c in r.c else recall_nulls[c].label(c) for c in _WORLD), *(r.c[c] for c in _RECALL_ONLY)
    )
    return union_all(left, right)


async def prepared_context(
    session: Any,
    prepared: Prepared,
    *,
    summaries: SummarySource | None = None,
    summary_campaign: str | None = None,
) -> SceneContext:
    """The context of ``prepared``'s ask now (see the module's docstring): step 1 as prepared, steps 2 and
    3 in one statement, each read again only when what it read from is no longer what it asks for."""
    read = SceneRead(prepared.ask, json_reader(session))
    read.reuse_people(prepared.people)
    world, guess = read.world(), prepared.recall
    world_rows: list[Any] | None = None
    guess_rows: list[Any] | None = None
    if world is not None and guess is not None:
        world_rows, guess_rows = [], []
        for row in await fetch_rows(session, _world_and_recall(world[0], guess[0]), {**world[1], **guess[1]}):
            if row[0] in ("f", "t", "h"):
                world_rows.append(tuple(row)[:15])
            else:  # recall_stmt's order: part, n1, t1, t2, t3, t4, j1, n2, n3, n4, b1
                guess_rows.append((row[0], row[6], *row[1:6], row[15], row[16], row[17], row[7]))
    elif world is not None:
        world_rows = await fetch_rows(session, *world)
    read.take_world(world_rows)
    again = read.again()
    read.take_again(None if again is None else await fetch_rows(session, *again))
    read.gather()
    step = read.recall()
    as_guessed = guess is not None and step is not None and step[0] is guess[0] and step[1] == guess[1]
    if step is not None and (guess_rows is None or not as_guessed):
        guess_rows = await fetch_rows(session, *step)  # what the candidates ask for changed: read it
    read.take_recall(guess_rows if step is not None else None)
    return await ranked(session, read, summaries=summaries, summary_campaign=summary_campaign)


__all__ = ["Prepared", "prepared_context", "read_scenes", "tagged"]
