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

import asyncio
import inspect
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

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
)
from ledger.recall.queries import (
    edges_stmt,
    facts_stmt,
    fetch_rows,
    holdings_stmt,
    query_params,
    threads_stmt,
)
from ledger.recall.ranking import score_candidate, why_ranked
from ledger.recall.summaries import IndexUnavailable, SummaryHit
from ledger.store.visibility import Viewer

MAX_RECORDS = 10
MAX_SUMMARIES = 5
MAX_EVENTS_PER_MOMENT = 2


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

    cands: dict[str, Candidate] = {}

    def add(c: Candidate) -> None:
        if c.ref not in cands:
            cands[c.ref] = c

    gm = viewer.visible() is None

    # --- facts: about those named present and the place, and who lies dead here (one query) -------------
    dead: dict[str, tuple[int, str]] = {}
    fact_rows: list[Any] = []
    if scene_ids or location:
        fact_rows = await fetch_rows(
            session,
            facts_stmt(gm, location is not None),
            query_params(
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
            add_fact(add, f, present_set, dead)
        else:
            add_fact(add, f, present_set, dead, at_location=location)

    # --- threads binding the anchors and the ones asked for ------------------------------------------------
    if anchors or asked_threads:
        for t in await fetch_rows(
            session,
            threads_stmt(gm, len(asked_threads)),
            query_params(cid, viewer, anchors=anchors, asked=asked_threads),
        ):
            add_thread(add, t, asked=t.id in asked_threads)

    # --- edges from or to someone present ------------------------------------------------------------------
    if living:
        for e in await fetch_rows(session, edges_stmt(gm), query_params(cid, viewer, living=living)):
            add_edge(add, e)

    # --- holdings of someone present or lying here -------------------------------------------------------
    if anchors:
        for h in await fetch_rows(session, holdings_stmt(gm), query_params(cid, viewer, anchors=anchors)):
            add_holding(add, h)

    # --- events --------------------------------------------------------------------------------------------
    event_anchors = [*anchors, *asked_threads]
    if event_anchors:
        await add_events(session, add, cid, event_anchors, viewer, cands)

    # --- rank: score everything, pick the few, then name only what is shown --------------------------------
    scored = [(score_candidate(c, present_set, location, current_session), c) for c in cands.values()]
    # Ties: current state (thread, edge, fact, holding) before the event that led to it, then by ref.
    scored.sort(key=lambda item: (-round(item[0], 6), item[1].kind == "event", item[1].ref))
    picked: list[tuple[float, Candidate]] = []
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
    names = await display_names(session, cid, [c for _, c in picked], [*scene_ids, *here], viewer)
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
                why=why_ranked(c, present_set, location, current_session, names),
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
