"""Scene retrieval: the few ledger records a narrator needs for this scene, the decisive one first.

The scene (its location, the entities present, the active threads) drives everything. Candidates come only
from indexed, LIMIT-bounded queries keyed by those ids (:mod:`.queries`), so the cost follows the size of the
scene, not the length of the campaign. The reads below run as three statements (:mod:`.merged`, each a UNION
ALL of the reads of :mod:`.queries`, issue 14), built once per shape and cached:

1. edges from or to each person named present (their ties, enmities and obligations), and which of them,
   or of the people one hop from them, the ledger records as dead;
2. facts about those present and the place, who lies dead at the place, and whether each one-hop tie
   (kin, ally, employer, faction: :func:`ledger.store.ties.reaches`) is alive; threads binding each NPC
   present and the place (open ones first, the oldest first, then the recently closed), the oldest open
   ones of each PC present and of each one-hop tie, those opened with the place as their place (read back
   through a bounded window of the place's events), and the threads asked for; holdings of those present
   and at the place. The threads and holdings take who is dead from statement 1; when the facts say
   otherwise (rarely: a death past the facts' cap), those two are read again;
3. events: each anchor's newest few (involved or witnessed), the notable narrative events each NPC present
   shares with someone else present or had lately (read back through a bounded window of its own events,
   however old), and the newest events of each closed matter of the scene (its settlement); who those
   events involve and witnessed, and which were superseded; the display names of every id a record may
   be told with (only those of the records shown are kept).

A one-hop tie reaches retrieval: a dead party's open matters surface when their kin or ally is present, with
their death. Ranking (:mod:`.ranking`, every score explained in the record's ``why``): asked threads; open
matters of the NPCs present and of the place (and those a dead tie left); settled matters told by their
settlement; at most a few of a PC's own open matters, the oldest first; what is true between those present;
the last notable events between them; then ties' matters and decaying trivia. Trivia of one moment (the batch
it was applied in) is shown at most :data:`MAX_EVENTS_PER_MOMENT` times. Someone named present whom the
ledger records as dead is not treated as present: a first record says so.

Visibility is applied in SQL on every query (``visibility IN :vis`` with :meth:`Viewer.visible`, the same
rule as :func:`ledger.store.visibility.visible_clause`, bound as a parameter so statements are built once),
so a record the viewer may not see never leaves the database; names of entities the viewer may not see render
as "someone unknown".
"""

import asyncio
import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict

from ledger.recall.candidates import (
    Candidate,
    RecordKind,
    add_edge,
    add_events,
    add_fact,
    add_holding,
    add_thread,
    display_names,
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
from ledger.recall.queries import fetch_rows, numbered, query_params
from ledger.recall.ranking import Placement, Scene, Tie, rank, split_present, why_ranked
from ledger.recall.summaries import IndexUnavailable, SummaryHit
from ledger.store.sqljson import json_reader
from ledger.store.ties import REACHING, TieKind, tie_kind
from ledger.store.visibility import Viewer

MAX_RECORDS = 10
MAX_SUMMARIES = 5
MAX_EVENTS_PER_MOMENT = 2
#: One-hop ties whose aliveness is read, and whose open matters are read (dead ones first).
MAX_TIE_CANDIDATES = 24
MAX_TIES = 12
#: Closed matters of the scene whose newest events (the settlement) are read.
MAX_CLOSED_THREADS = 12
_TIE_ORDER: dict[str, int] = {"kinship": 0, "alliance": 1, "employment": 2, "membership": 3}


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


def _viewer_label(viewer: Viewer) -> str:
    return f"player:{viewer.user_id}" if viewer.role == "player" else viewer.role


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
    gm = viewer.visible() is None
    decode = json_reader(session)  # the statements' JSON column (raw_json), as this session's driver gives it

    cands: dict[str, Candidate] = {}

    def add(c: Candidate) -> None:
        if c.ref not in cands:
            cands[c.ref] = c

    # --- statement 1: edges from or to each person named present, and which of them lie dead ----------------
    edge_rows: list[Any] = []
    dead_read: dict[str, tuple[int, str]] = {}
    if scene_ids:
        a_ids = numbered("a", scene_ids)
        for r in await fetch_rows(session, people_stmt(gm, len(a_ids)), query_params(cid, viewer, **a_ids)):
            if r.part == "e":
                edge_rows.append(r)
            else:
                dead_read[r.source_id] = (int(r.session_number), r.visibility)
    reach = _one_hop(edge_rows, scene_ids, location)
    tie_dead_read = set(dead_read).intersection(list(reach)[:MAX_TIE_CANDIDATES])

    # --- statement 2: facts (about those present and the place, who lies dead here, whether the ties live),
    # threads and holdings; the last two with the inputs statement 1 predicts (no tie dead), checked below ---
    facts_shape: Any = None
    params: dict[str, Any] = {}
    if scene_ids or location:
        subjects = padded("s", [*scene_ids, *here], SUBJECTS_AT_LEAST)
        tie_ids = padded("y", list(reach)[:MAX_TIE_CANDIDATES], TIES_AT_LEAST)
        facts_shape = (gm, len(subjects), len(tie_ids), location is not None)
        params = query_params(
            cid, viewer, **subjects, **tie_ids, **({"location": location} if location else {})
        )
    guess = _plan(gm, cid, viewer, scene_ids, set(dead_read), reach, tie_dead_read, location, asked_threads)
    fact_rows: list[Any] = []
    thread_rows: list[Any] = []
    holding_rows: list[Any] = []
    if facts_shape is not None or guess.threads_shape is not None or guess.holdings_shape is not None:
        stmt = world_stmt(facts_shape, guess.threads_shape, guess.holdings_shape)
        rows = await fetch_rows(session, stmt, {**params, **guess.params})
        fact_rows, thread_rows, holding_rows = world_rows(rows, decode)
    dead: dict[str, tuple[int, str]] = {}
    tie_dead: set[str] = set()
    for f in fact_rows:
        if f.field == "alive" and f.value is False:
            if f.subject in scene_ids:
                dead[f.subject] = (int(f.session_number), f.visibility)
            elif f.subject in reach:
                tie_dead.add(f.subject)
    plan = _plan(gm, cid, viewer, scene_ids, set(dead), reach, tie_dead, location, asked_threads)
    if (plan.threads_shape, plan.holdings_shape, plan.params) != (
        guess.threads_shape,
        guess.holdings_shape,
        guess.params,
    ):  # a tie's death (or a death the first read missed) changes what is read: read it again
        thread_rows, holding_rows = [], []
        if plan.threads_shape is not None or plan.holdings_shape is not None:
            stmt = world_stmt(None, plan.threads_shape, plan.holdings_shape)
            _f, thread_rows, holding_rows = world_rows(await fetch_rows(session, stmt, plan.params), decode)
    living, npcs, pcs, ties = plan.living, plan.npcs, plan.pcs, plan.ties
    scene = Scene(npcs, pcs, location, current_session, ties)
    present_set = set(living)
    for f in fact_rows:
        if f.subject in scene_ids or (location and f.subject == location) or f.subject in ties:
            add_fact(add, f, present_set, dead)
        elif f.subject not in reach:
            add_fact(add, f, present_set, dead, at_location=location)
    for e in edge_rows:
        if e.source_id in present_set or e.target_id in present_set:
            add_edge(add, e)
    for t in thread_rows:
        add_thread(add, t, asked=t.id in asked_threads, location=location)
    for h in holding_rows:
        add_holding(add, h)

    # --- statement 3: events (the newest of each anchor, notable ones between those present, closed
    # matters' last), who they involve and witnessed, and the names of everything that may be shown --------
    closed = sorted(
        (c for c in cands.values() if c.kind == "thread" and c.status != "open"),
        key=lambda c: (not c.asked, -c.session, c.ref),
    )
    closed_ids = [c.ref for c in closed if c.asked or c.involved & (npcs | set(here))][:MAX_CLOSED_THREADS]
    event_anchors = [*living, *here, *asked_threads]
    extra = [*scene_ids, *here, *(t.via for t in ties.values()), *ties]
    all_names: dict[str, str] | None = None
    if event_anchors or closed_ids:
        a_ids, n_ids = numbered("a", event_anchors), numbered("n", sorted(npcs))
        t_ids, q_ids = numbered("t", closed_ids), numbered("q", sorted(living))
        shape = (gm, len(a_ids), len(n_ids), len(t_ids), len(q_ids))
        wanted = wanted_ids(sorted(name_refs(cands.values(), extra)))
        ev_params = query_params(cid, viewer, **a_ids, **n_ids, **t_ids, **q_ids, **wanted)
        stmt = recall_stmt(gm, shape, len(wanted))
        events, links, all_names = recall_rows(await fetch_rows(session, stmt, ev_params), decode)
        add_events(add, cands, events, links)
    merge_settlements(cands)

    # --- rank: place everything, pick the few, then name only what is shown -------------------------------
    picked: list[Placement] = []
    per_moment: dict[tuple[Any, ...], int] = {}
    room = max_records - len(dead)
    for p in rank(cands.values(), scene):
        if len(picked) >= room:
            break
        c = p.candidate
        if p.band == "trivia" and c.moment:
            if c.kind == "event" and per_moment.get(c.moment, 0) >= MAX_EVENTS_PER_MOMENT:
                continue  # this moment is already told by the records above
            per_moment[c.moment] = per_moment.get(c.moment, 0) + 1
        picked.append(p)
    shown = [p.candidate for p in picked]
    if all_names is None:
        names = await display_names(session, cid, shown, extra, viewer)
    else:  # every id a shown record mentions was read with the events: keep those only, as asked for
        names = {ref: all_names[ref] for ref in name_refs(shown, extra) if ref in all_names}
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
    for p in picked:
        c = p.candidate
        chosen.append(
            SceneRecord(
                ref=c.ref,
                kind=c.kind,
                text=c.render(names),
                score=round(p.score, 3),
                why=why_ranked(p, scene, names),
                session=c.session,
                permanent=p.band != "trivia",
                visibility=c.visibility,
            )
        )
    chosen = chosen[:max_records]

    hits: tuple[SummaryHit, ...] = ()
    unavailable: str | None = None
    if summaries is not None and max_summaries > 0:
        # The scene's NPCs and place first, as the records are ranked (the party is in every scene; naming
        # every PC to the index would only widen its filter): the PCs when no NPC is here.
        focus = sorted(npcs) or sorted(pcs)
        text = summary_query or " ".join(
            [
                *(names.get(x, x) for x in [*focus, *([location] if location else [])]),
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
                    [*([location] if location else []), *focus, *asked_threads],
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


class _Plan(NamedTuple):
    """Who is in the scene once the dead are known, and the threads and holdings reads that follow."""

    living: list[str]
    npcs: frozenset[str]
    pcs: frozenset[str]
    ties: dict[str, Tie]
    threads_shape: tuple[bool, int, int, int, int, bool] | None
    holdings_shape: tuple[bool, int] | None
    params: dict[str, Any]


def _plan(
    gm: bool,
    cid: int,
    viewer: Viewer,
    scene_ids: Sequence[str],
    dead: set[str],
    reach: Mapping[str, Tie],
    tie_dead: set[str],
    location: str | None,
    asked_threads: Sequence[str],
) -> _Plan:
    """The living present (NPCs, PCs), the ties whose matters are read, and the shapes and parameters of the
    threads read (of the NPCs present and the place, a PC's and a tie's oldest open ones, the asked ones)
    and the holdings read (of someone present or lying here), given who is ``dead``."""
    living = [e for e in scene_ids if e not in dead]
    npcs, pcs = split_present(living)
    ties = _choose_ties(reach, set(living), tie_dead)
    here = [location] if location else []
    params: dict[str, Any] = {}
    threads_shape: tuple[bool, int, int, int, int, bool] | None = None
    parties = sorted(npcs) + here
    if parties or pcs or ties or asked_threads or location:
        p_ids, o_ids = numbered("p", parties), numbered("o", sorted(pcs))
        r_ids, k_ids = numbered("r", sorted(ties)), numbered("k", asked_threads)
        threads_shape = (gm, len(p_ids), len(o_ids), len(r_ids), len(k_ids), location is not None)
        params |= {**p_ids, **o_ids, **r_ids, **k_ids, **({"l0": location} if location else {})}
    holdings_shape: tuple[bool, int] | None = None
    anchors = [*living, *here]
    if anchors:
        holders = padded("h", anchors, SUBJECTS_AT_LEAST)
        holdings_shape = (gm, len(holders))
        params |= holders
    if params:
        params = query_params(cid, viewer, **params)
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


def _choose_ties(reach: Mapping[str, Tie], living: set[str], dead: set[str]) -> dict[str, Tie]:
    """The one-hop ties of the living people present whose matters are read: the dead first, at most
    :data:`MAX_TIES`."""
    usable = [t for t in reach.values() if t.via in living]
    usable.sort(key=lambda t: (t.who not in dead, _TIE_ORDER.get(t.tie, 9), t.who))
    return {t.who: Tie(t.who, t.via, t.edge_kind, t.tie, dead=t.who in dead) for t in usable[:MAX_TIES]}


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
    question: dict[str, Any] = {
        "campaign": campaign,
        "text": text,
        "visibilities": viewer.visible(),
        "entities": tuple(entities),
        "n": limit,
    }
    return await _ask_index(index, question)


async def _ask_index(index: SummarySource, question: Mapping[str, Any]) -> tuple[SummaryHit, ...]:
    """``index.query(**question)`` (a sync ``query`` runs in a thread), at most ``question["n"]`` hits."""
    if inspect.iscoroutinefunction(index.query):
        raw = await index.query(**question)
    else:
        raw = await asyncio.to_thread(lambda: index.query(**question))
    return tuple(raw or ())[: int(question["n"])]


async def answer_summaries(
    context: SceneContext, index: SummarySource, question: Mapping[str, Any] | None
) -> SceneContext:
    """``context`` with the summaries ``index`` gives for ``question`` (the keyword arguments
    :func:`scene_context` put to its summary source), or why the index could not answer: for a caller that
    retrieves the records inside a database session and asks the index after closing it. ``question`` None
    (an empty scene asked nothing) leaves ``context`` as it is."""
    if question is None:
        return context
    try:
        hits = await _ask_index(index, question)
    except IndexUnavailable as err:
        return context.model_copy(update={"summaries_unavailable": str(err)})
    return context.model_copy(update={"summaries": hits})


__all__ = [
    "MAX_RECORDS",
    "MAX_SUMMARIES",
    "SceneContext",
    "SceneRecord",
    "SummaryHit",
    "SummarySource",
    "answer_summaries",
    "scene_context",
]
