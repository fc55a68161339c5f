"""Scene retrieval: the few ledger records a narrator needs for this scene, the decisive one first.

The scene (its location, the entities present, the active threads) drives everything. Candidates come only
from indexed, LIMIT-bounded queries keyed by those ids (:mod:`.queries`), so the cost follows the size of the
scene, not the length of the campaign. The reads below run as three statements (:mod:`.merged`, each a UNION
ALL of the reads of :mod:`.queries`, issue 14), built once per shape and cached, step by step
(:class:`~.steps.SceneRead`; :mod:`.shared` runs the steps of several scenes in one statement each):

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
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from ledger.recall.candidates import RecordKind, display_names, name_refs
from ledger.recall.queries import fetch_rows
from ledger.recall.ranking import Placement, rank, why_ranked
from ledger.recall.steps import Read, SceneAsk, SceneRead
from ledger.recall.summaries import IndexUnavailable, SummaryHit
from ledger.store.sqljson import json_reader
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
    ask = SceneAsk(campaign_id, location, tuple(present), tuple(threads), viewer, current_session)
    read = SceneRead(
        ask, json_reader(session)
    )  # the statements' JSON column, as this session's driver gives it
    read.take_people(await _rows(session, read.people()))
    read.take_world(await _rows(session, read.world()))
    read.take_again(await _rows(session, read.again()))
    read.gather()
    read.take_recall(await _rows(session, read.recall()))
    return await ranked(
        session,
        read,
        max_records=max_records,
        summaries=summaries,
        summary_query=summary_query,
        summary_campaign=summary_campaign,
        max_summaries=max_summaries,
    )


async def _rows(session: Any, step: Read | None) -> list[Any] | None:
    """The rows of a step's statement (None: the step reads nothing)."""
    return None if step is None else await fetch_rows(session, *step)


async def ranked(
    session: Any,
    read: SceneRead,
    *,
    max_records: int = MAX_RECORDS,
    summaries: SummarySource | None = None,
    summary_query: str | None = None,
    summary_campaign: str | None = None,
    max_summaries: int = MAX_SUMMARIES,
) -> SceneContext:
    """The context of a scene whose reads are done (:class:`~.steps.SceneRead`): ranked, named, and the
    summaries asked for (see :func:`scene_context`)."""
    max_records = max(0, min(max_records, MAX_RECORDS))
    ask, cands, dead, extra, all_names = read.ask, read.cands, read.dead, read.extra, read.names
    cid, location, viewer, current_session = ask.campaign_id, ask.location, ask.viewer, ask.current_session
    if read.scene is None:
        raise ValueError("rank a scene once its candidates are gathered")
    scene, living = read.scene, read.plan.living
    npcs, pcs, asked_threads = scene.npcs, scene.pcs, read.asked_threads

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
