"""One scene's retrieval reads, step by step (issue 14): each step says which statement it needs and takes its
rows, so a caller may run the steps of several scenes in one statement (:mod:`.shared`), or hand a scene's
first step, read earlier, to a later read of the same scene.

The steps are those :func:`ledger.recall.retrieval.scene_context` describes: (1) the people named present,
their edges and who of them lies dead; (2) facts, threads and holdings, with the threads' and holdings'
inputs guessed from (1), and (2b) those two read again when the facts say otherwise; (3) events, who they
involve and witnessed, and the names. Each step's statement and parameters depend only on the rows of the
steps before it, so whoever runs a step's statement, alone or beside others, the scene gets the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ledger.recall.candidates import (
    Candidate,
    add_edge,
    add_events,
    add_fact,
    add_holding,
    add_thread,
    merge_settlements,
    name_refs,
)
from ledger.recall.merged import (
    SUBJECTS_AT_LEAST,
    TIES_AT_LEAST,
    padded,
    people_stmt,
    recall_rows,
    recall_stmt,
    wanted_ids,
    world_rows,
    world_stmt,
)
from ledger.recall.queries import numbered, query_params
from ledger.recall.ranking import Scene, Tie, split_present
from ledger.store.ties import REACHING, TieKind, tie_kind
from ledger.store.visibility import Viewer

#: One-hop ties whose aliveness is read, and whose open matters are read (dead ones first).
MAX_TIE_CANDIDATES = 24
MAX_TIES = 12
#: Closed matters of the scene whose newest events (the settlement) are read.
MAX_CLOSED_THREADS = 12
_TIE_ORDER: dict[str, int] = {"kinship": 0, "alliance": 1, "employment": 2, "membership": 3}

#: A statement and its parameters (None: the step reads nothing).
Read = tuple[Any, dict[str, Any]]


class SceneAsk(NamedTuple):
    """What a scene is asked for: the place, the ids named present, the threads asked, who looks, when."""

    campaign_id: int
    location: str | None
    present: tuple[str, ...]
    threads: tuple[str, ...]
    viewer: Viewer
    current_session: int


class PeopleRows(NamedTuple):
    """The rows of step 1 of one ask (its edges and who lies dead), to hand to a later read of that ask."""

    ask: SceneAsk
    edges: tuple[Any, ...]
    dead: tuple[tuple[str, tuple[int, str]], ...]


class _Plan(NamedTuple):
    """Who is in the scene once the dead are known, and the threads and holdings reads that follow."""

    living: list[str]
    npcs: frozenset[str]
    pcs: frozenset[str]
    ties: dict[str, Tie]
    threads_shape: tuple[bool, int, int, int, int, bool] | None
    holdings_shape: tuple[bool, int] | None
    params: dict[str, Any]


class SceneRead:
    """The reads of one scene, step by step: ``people()``/``take_people()``, ``world()``/``take_world()``,
    ``again()``/``take_again()``, ``gather()``, ``recall()``/``take_recall()``; then :attr:`cands`,
    :attr:`scene`, :attr:`dead`, :attr:`names` and :attr:`extra` are what ranking needs. A step whose
    statement is None reads nothing: take None rows."""

    def __init__(self, ask: SceneAsk, decode: Callable[[Any], Any]) -> None:
        self.ask = ask
        self.decode = decode
        self.cid = ask.campaign_id
        self.scene_ids = list(dict.fromkeys(ask.present))
        self.asked_threads = list(dict.fromkeys(ask.threads))
        self.here = [ask.location] if ask.location else []
        self.gm = ask.viewer.visible() is None
        self.cands: dict[str, Candidate] = {}
        self.edge_rows: list[Any] = []
        self.dead_read: dict[str, tuple[int, str]] = {}
        self.fact_rows: list[Any] = []
        self.thread_rows: list[Any] = []
        self.holding_rows: list[Any] = []
        self.dead: dict[str, tuple[int, str]] = {}
        self.names: dict[str, str] | None = None
        self.extra: list[str] = []
        self.scene: Scene | None = None

    def _add(self, c: Candidate) -> None:
        if c.ref not in self.cands:
            self.cands[c.ref] = c

    # --- step 1 ---------------------------------------------------------------------------------------------
    def people(self) -> Read | None:
        """Edges from or to each person named present, and which of them lie dead."""
        if not self.scene_ids:
            return None
        a_ids = numbered("a", self.scene_ids)
        return people_stmt(self.gm, len(a_ids)), query_params(self.cid, self.ask.viewer, **a_ids)

    def take_people(self, rows: Sequence[Any] | None) -> None:
        for r in rows or ():
            if r.part == "e":
                self.edge_rows.append(r)
            else:
                self.dead_read[r.source_id] = (int(r.session_number), r.visibility)
        self.reach = _one_hop(self.edge_rows, self.scene_ids, self.ask.location)
        tie_dead_read = set(self.dead_read).intersection(list(self.reach)[:MAX_TIE_CANDIDATES])
        self.guess = self._plan(set(self.dead_read), tie_dead_read)

    def people_rows(self) -> PeopleRows:
        """Step 1's rows, for a later read of the same ask (:meth:`reuse_people`)."""
        return PeopleRows(self.ask, tuple(self.edge_rows), tuple(self.dead_read.items()))

    def reuse_people(self, rows: PeopleRows) -> None:
        """Step 1 as an earlier read of the same ask left it (the caller knows nothing it reads changed)."""
        if rows.ask != self.ask:
            raise ValueError("step 1 rows of another scene")
        self.edge_rows = list(rows.edges)
        self.dead_read = dict(rows.dead)
        self.take_people(())

    # --- step 2 ---------------------------------------------------------------------------------------------
    def world(self) -> Read | None:
        """Facts about those present and the place, who lies dead here, whether the ties live; threads and
        holdings with the inputs step 1 predicts (no tie dead)."""
        location, params, facts_shape = self.ask.location, {}, None
        if self.scene_ids or location:
            subjects = padded("s", [*self.scene_ids, *self.here], SUBJECTS_AT_LEAST)
            tie_ids = padded("y", list(self.reach)[:MAX_TIE_CANDIDATES], TIES_AT_LEAST)
            facts_shape = (self.gm, len(subjects), len(tie_ids), location is not None)
            more = {"location": location} if location else {}
            params = query_params(self.cid, self.ask.viewer, **subjects, **tie_ids, **more)
        guess = self.guess
        if facts_shape is None and guess.threads_shape is None and guess.holdings_shape is None:
            return None
        return world_stmt(facts_shape, guess.threads_shape, guess.holdings_shape), {**params, **guess.params}

    def take_world(self, rows: Sequence[Any] | None) -> None:
        if rows is not None:
            self.fact_rows, self.thread_rows, self.holding_rows = world_rows(list(rows), self.decode)
        tie_dead: set[str] = set()
        for f in self.fact_rows:
            if f.field == "alive" and f.value is False:
                if f.subject in self.scene_ids:
                    self.dead[f.subject] = (int(f.session_number), f.visibility)
                elif f.subject in self.reach:
                    tie_dead.add(f.subject)
        self.plan = self._plan(set(self.dead), tie_dead)

    def again(self) -> Read | None:
        """Threads and holdings read again, when a tie's death (or a death step 1 missed) changes them."""
        plan, guess = self.plan, self.guess
        if (plan.threads_shape, plan.holdings_shape, plan.params) == (
            guess.threads_shape,
            guess.holdings_shape,
            guess.params,
        ):
            return None
        self.thread_rows, self.holding_rows = [], []
        if plan.threads_shape is None and plan.holdings_shape is None:
            return None
        return world_stmt(None, plan.threads_shape, plan.holdings_shape), plan.params

    def take_again(self, rows: Sequence[Any] | None) -> None:
        if rows is not None:
            _f, self.thread_rows, self.holding_rows = world_rows(list(rows), self.decode)

    # --- candidates, step 3 --------------------------------------------------------------------------------
    def gather(self) -> None:
        """The candidates of steps 1 and 2, and the scene they are ranked for."""
        location, add = self.ask.location, self._add
        living, npcs, pcs, ties = self.plan.living, self.plan.npcs, self.plan.pcs, self.plan.ties
        self.scene = Scene(npcs, pcs, location, self.ask.current_session, ties)
        present_set = set(living)
        for f in self.fact_rows:
            if f.subject in self.scene_ids or (location and f.subject == location) or f.subject in ties:
                add_fact(add, f, present_set, self.dead)
            elif f.subject not in self.reach:
                add_fact(add, f, present_set, self.dead, at_location=location)
        for e in self.edge_rows:
            if e.source_id in present_set or e.target_id in present_set:
                add_edge(add, e)
        for t in self.thread_rows:
            add_thread(add, t, asked=t.id in self.asked_threads, location=location)
        for h in self.holding_rows:
            add_holding(add, h)
        self.extra = [*self.scene_ids, *self.here, *(t.via for t in ties.values()), *ties]

    def recall(self) -> Read | None:
        """Events (the newest of each anchor, notable ones between those present, closed matters' last), who
        they involve and witnessed, and the names of everything that may be shown."""
        npcs, living = self.plan.npcs, self.plan.living
        closed = sorted(
            (c for c in self.cands.values() if c.kind == "thread" and c.status != "open"),
            key=lambda c: (not c.asked, -c.session, c.ref),
        )
        involved = npcs | set(self.here)
        closed_ids = [c.ref for c in closed if c.asked or c.involved & involved][:MAX_CLOSED_THREADS]
        event_anchors = [*living, *self.here, *self.asked_threads]
        if not (event_anchors or closed_ids):
            return None
        a_ids, n_ids = numbered("a", event_anchors), numbered("n", sorted(npcs))
        t_ids, q_ids = numbered("t", closed_ids), numbered("q", sorted(living))
        shape = (self.gm, len(a_ids), len(n_ids), len(t_ids), len(q_ids))
        wanted = wanted_ids(sorted(name_refs(self.cands.values(), self.extra)))
        params = query_params(self.cid, self.ask.viewer, **a_ids, **n_ids, **t_ids, **q_ids, **wanted)
        return recall_stmt(self.gm, shape, len(wanted)), params

    def take_recall(self, rows: Sequence[Any] | None) -> None:
        if rows is not None:
            events, links, self.names = recall_rows(list(rows), self.decode)
            add_events(self._add, self.cands, events, links)
        merge_settlements(self.cands)

    def _plan(self, dead: set[str], tie_dead: set[str]) -> _Plan:
        """The living present (NPCs, PCs), the ties whose matters are read, and the shapes and parameters of
        the threads read (of the NPCs present and the place, a PC's and a tie's oldest open ones, the asked
        ones) and the holdings read (of someone present or lying here), given who is ``dead``."""
        living = [e for e in self.scene_ids if e not in dead]
        npcs, pcs = split_present(living)
        ties = _choose_ties(self.reach, set(living), tie_dead)
        location, here = self.ask.location, self.here
        params: dict[str, Any] = {}
        threads_shape: tuple[bool, int, int, int, int, bool] | None = None
        parties = sorted(npcs) + here
        if parties or pcs or ties or self.asked_threads or location:
            p_ids, o_ids = numbered("p", parties), numbered("o", sorted(pcs))
            r_ids, k_ids = numbered("r", sorted(ties)), numbered("k", self.asked_threads)
            threads_shape = (self.gm, len(p_ids), len(o_ids), len(r_ids), len(k_ids), location is not None)
            params |= {**p_ids, **o_ids, **r_ids, **k_ids, **({"l0": location} if location else {})}
        holdings_shape: tuple[bool, int] | None = None
        anchors = [*living, *here]
        if anchors:
            holders = padded("h", anchors, SUBJECTS_AT_LEAST)
            holdings_shape = (self.gm, len(holders))
            params |= holders
        if params:
            params = query_params(self.cid, self.ask.viewer, **params)
        return _Plan(living, npcs, pcs, ties, threads_shape, holdings_shape, params)


def _one_hop(edges: Sequence[Any], people: Sequence[str], location: str | None) -> dict[str, Tie]:
    """Everyone one hop from a person named present along a reaching tie (kin, ally, employer, faction),
    with the first such tie (by kind, then id): the ties whose matters a scene may reach."""
    named = set(people)
    found: dict[str, tuple[tuple[int, str, str], Tie]] = {}
    for e in edges:
        kind: TieKind | None = tie_kind(e.kind)
        if kind not in REACHING or kind is None:
            continue
        for via, other in ((e.source_id, e.target_id), (e.target_id, e.source_id)):
            if via in named and other not in named and other != location:
                key = (_TIE_ORDER.get(kind, 9), via, e.kind)
                if other not in found or key < found[other][0]:
                    found[other] = (key, Tie(other, via, e.kind, kind))
    ordered = sorted(found.items(), key=lambda item: (item[1][0][0], item[0]))
    return {who: tie for who, (_key, tie) in ordered}


def _choose_ties(reach: dict[str, Tie], living: set[str], dead: set[str]) -> dict[str, Tie]:
    """The one-hop ties of the living people present whose matters are read: the dead first, at most
    :data:`MAX_TIES`."""
    usable = [t for t in reach.values() if t.via in living]
    usable.sort(key=lambda t: (t.who not in dead, _TIE_ORDER.get(t.tie, 9), t.who))
    return {t.who: Tie(t.who, t.via, t.edge_kind, t.tie, dead=t.who in dead) for t in usable[:MAX_TIES]}


__all__ = ["MAX_CLOSED_THREADS", "MAX_TIES", "MAX_TIE_CANDIDATES", "PeopleRows", "SceneAsk", "SceneRead"]
