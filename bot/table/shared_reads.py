"""The round's retrieval, read where both its readers can share it (issue 14).

A round with a perception check read its scene twice: as the GM sees it before the round's changes (what a
check can discover, :meth:`bot.table.rounds.Rounds._reveals`) and as the party sees it after them (what the
narrator is told, :mod:`bot.table.narration`), six statements. Now the GM's asks and the first step of the
party's scene (the edges of those present, who is dead) are read side by side
(:func:`ledger.recall.shared.read_scenes`: each ask with its own viewer's visibility filter in SQL, so no
GM-only or player-only row is ever handed to the party's read); after the round, the narration ends the
party's read with that first step as read (:func:`ledger.recall.shared.prepared_context`) when the round
changed nothing it reads (:func:`still_holds`), else reads it anew. Five statements instead of six, and the
same contexts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from bot.table.context import GM_VIEW, slug
from ledger.recall.steps import SceneAsk
from ledger.store.visibility import Viewer

if TYPE_CHECKING:
    from bot.scene import Scene
    from ledger.recall.retrieval import SceneContext
    from ledger.recall.shared import Prepared
    from rules.round import RoundResolution

#: Changes that leave the first step of a scene's read (the edges of those present, who of them and of
#: their ties is dead) as it was: anything else (an edge, a death, a move, a retcon ...) asks for a new read.
STEP_ONE_KEEPS = frozenset(
    {"set_hp", "add_condition", "remove_condition", "transfer_item", "record_event", "open_thread",
     "thread_transition", "set_fact"}
)  # fmt: skip

Around = tuple[str | None, tuple[str, ...]]


def party_ask(campaign_id: int, scene: Scene, session_number: int) -> SceneAsk:
    """The party's scene as the narration asks for it: the place the PCs stand in, everyone there."""
    location = scene.locations[0] if scene.locations else None
    return SceneAsk(campaign_id, location, tuple(sorted(scene.creatures)), (), Viewer.party(), session_number)


def focus_of(scene: Scene, result: Any) -> Around | None:
    """Where a PC's revealing check looks and at whom (its target, else everyone in the scene); None for a
    result that reveals nothing."""
    if not result.reveals or result.intent is None:
        return None
    actor = scene.creatures.get(result.actor)
    if actor is None or actor.kind != "pc":
        return None
    return actor.location, tuple([x for x in (result.intent.target,) if x] or sorted(scene.creatures))


async def discovery_contexts(
    session: Any, campaign_id: int, scene: Scene, resolution: RoundResolution, session_number: int
) -> tuple[dict[Around, SceneContext], Prepared | None]:
    """The GM's context of each place and focus the round's checks look at (one read per pair) and the
    party's scene prepared beside them; nothing read when no check reveals anything."""
    from ledger.recall.shared import read_scenes

    asks: dict[Around, SceneAsk] = {}
    for result in resolution.results:
        around = focus_of(scene, result)
        if around is not None and around not in asks:
            asks[around] = SceneAsk(campaign_id, around[0], around[1], (), GM_VIEW, session_number)
    if not asks:
        return {}, None
    contexts, prepared = await read_scenes(
        session, list(asks.values()), prepare=[party_ask(campaign_id, scene, session_number)]
    )
    return dict(zip(asks, contexts, strict=True)), prepared[0]


def still_holds(prepared: Prepared | None, ask: SceneAsk, applied: Iterable[Mapping[str, Any]]) -> bool:
    """Whether ``prepared`` may end the party's read of ``ask`` after the round's ``applied`` changes: the
    same scene asked (place, everyone present, session), and no change the first step would read."""
    if prepared is None or prepared.ask != ask:
        return False
    for change in applied:
        kind = change.get("kind")
        if kind not in STEP_ONE_KEEPS or (
            kind == "set_fact" and str(change.get("key", "")).endswith("-alive")
        ):
            return False
    return True


__all__ = ["STEP_ONE_KEEPS", "discovery_contexts", "focus_of", "party_ask", "still_holds"]


def learned_key(actor: str, ref: str) -> str:
    """The fact a discovery files: ``<pc>-learned-<record>``, what that player now knows."""
    return f"{actor}-learned-{slug(ref)}"[:150]


async def learned_already(
    session: Any,
    campaign_id: int,
    scene: Scene,
    resolution: RoundResolution,
    contexts: Mapping[Around, SceneContext],
) -> set[str]:
    """The learned facts (:func:`learned_key`) the round's checkers already have, of the GM's records their
    checks could turn up: one read, only in a round with a successful check. A secret a player was told is no
    discovery a second time (seen in play: Sister Tamsin "caught" Old Wei's same fear in rounds 4 and 8)."""
    from ledger import service

    wanted = [
        learned_key(r.actor, rec.ref)
        for r in resolution.results
        if r.reveals and r.intent is not None and (focus_of(scene, r) or (None, ())) in contexts
        for rec in contexts[focus_of(scene, r) or (None, ())].records
        if rec.visibility == "gm"
    ]
    if not wanted:
        return set()
    found = await service.facts(session, campaign_id=campaign_id, viewer=GM_VIEW, keys=wanted)
    return {f.key for f in found}


_CREATURE_PREFIXES = ("npc-", "pc-", "monster-")


def fits(result: Any, record: Any) -> bool:
    """Whether a check can turn up ``record``: a Perception or Investigation check aimed at nobody reads the
    place and the things in it, not a creature's mind or ties (seen in play: "look around the docks for
    trouble" and "study the crates for smuggler marks" each turned up Old Wei's private fear). A mind is a
    stance, or a creature's fact whose field is a verb of mental state by the lexicon ("npc-old-wei-fear",
    "-plan", "-hope"); what a creature hides in the world ("npc-bessa-cellar") can still be found. Aimed at
    a creature ("keep watch on Old Wei"), or with Insight, any of the GM's records may be found."""
    intent = result.intent
    if intent is None or intent.target or intent.skill not in ("perception", "investigation"):
        return True
    if record.kind == "edge":
        return False
    ref = str(record.ref)
    if not ref.startswith(_CREATURE_PREFIXES):
        return True
    from ledger.check.extract.verbs import lemma, verb_class

    base = lemma(ref.rsplit("-", 1)[-1])
    return base is None or verb_class(base) != "state"
