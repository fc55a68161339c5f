"""Narration: a resolved round becomes checked text (resolved -> narrated).

The narrator sees the party's view only (retrieval and NPC knowledge read as ``Viewer.party()``); every draft
is checked against a snapshot of the ledger before it is stored in the outbox with the private notes, and
nothing is sent from here (:mod:`bot.table.delivery` does that).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.describe import describe_event
from bot.table.context import GM_VIEW
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable, Sequence

    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.narrator.base import Draft, Reveal
    from bot.scene import Scene
    from bot.table.context import TableContext
    from bot.table.round_inputs import RoundInputs
    from bot.table.summaries import SummaryUpkeep
    from ledger.check.snapshot import WorldSnapshot
    from ledger.recall.retrieval import SceneContext, SummarySource
    from ledger.recall.shared import Prepared
    from ledger.store.records import OutboxView, RoundView
    from rules.round import RoundResolution


class Narration:
    """Narrates resolved rounds through the checked pipeline and stores every message before any is sent."""

    def __init__(self, ctx: TableContext, summaries: SummaryUpkeep) -> None:
        self.ctx = ctx
        self.summaries = summaries

    async def narrate(
        self,
        campaign_id: int,
        rnd: RoundView,
        *,
        inputs: RoundInputs | None = None,
        scene: Scene | None = None,
        due: list[tuple[list[OutboxView], bool]] | None = None,
        prepared: Prepared | None = None,
    ) -> RoundView:
        """resolved -> narrated: retrieve, narrate, check, and store every message before sending any.

        ``inputs``: the round's campaign and members, already read by the caller. ``scene``: the scene as
        the round's changes left it, when the caller knows it without a read (else it is read here). The
        narrator is called with no session open and no lock but the campaign's, so narrators of different
        campaigns overlap. Returns the round as the storing transaction left it (narrated). With ``due``,
        the round's messages due now and whether one is stuck mid-send (as
        :func:`ledger.store.outbox.round_messages` reads them) are read in the storing transaction and
        appended to it, for the delivery that follows."""
        from bot.narrator.base import ConflictNote, RetrievedRecord, Reveal, SceneSummary
        from bot.narrator.pipeline import narrate_checked
        from bot.scene import load_scene, narration_request, npc_known_refs, outcomes, round_facts
        from bot.table.newcomers import arrivals, readable_scene
        from bot.table.shared_reads import party_ask, still_holds
        from ledger.check.judge import check
        from ledger.check.snapshot_sql import snapshot_from_ledger
        from ledger.recall.retrieval import scene_context
        from ledger.recall.shared import prepared_context
        from rules.round import RoundResolution

        record = rnd.resolution or {}
        resolution = RoundResolution.model_validate(record["resolution"])
        texts: dict[str, str] = record.get("texts", {})
        players: dict[str, str] = record.get("players", {})
        from bot.table.round_inputs import load_inputs
        from ledger.store.reads import npc_knowledge_of

        index = self.summaries.index_for_round()
        deferred = _DeferredSummaries() if index is not None else None
        async with self.ctx.session() as s:
            if inputs is None:
                inputs = await load_inputs(s, campaign_id)
            campaign = inputs.campaign
            if scene is None:
                scene = await load_scene(s, campaign_id=campaign_id, pc_ids=inputs.pc_ids)
            present = sorted(scene.creatures)
            # What the GM brought into the scene this round is told first; same-named monsters by ordinal.
            arrived = await arrivals(
                s,
                campaign_id=campaign_id,
                session_number=rnd.session_number,
                round_number=rnd.number,
                present=present,
            )
            told = readable_scene(scene)
            location = scene.locations[0] if scene.locations else None
            ask = party_ask(campaign_id, scene, rnd.session_number)
            applied = [*record.get("mutations", []), *(r["mutation"] for r in record.get("reveals", []))]
            if prepared is not None and still_holds(prepared, ask, [m for m in applied if m]):
                context = await prepared_context(  # its first step read beside the discoveries
                    s, prepared, summaries=deferred, summary_campaign=f"campaign-{campaign_id}"
                )
            else:
                context = await scene_context(
                    s,
                    campaign_id=campaign_id,
                    location=location,
                    present=present,
                    viewer=Viewer.party(),
                    current_session=rnd.session_number,
                    summaries=deferred,  # asked below, once the session is closed
                    summary_campaign=f"campaign-{campaign_id}",
                )
            # Every NPC's witnessed events in one read: the newest 8 in words, the newest 60 as refs.
            npcs = [cid for cid, entity in scene.creatures.items() if entity.kind != "pc"]
            known = await npc_knowledge_of(  # kinds, payloads and refs only: the events' links are not read
                s, campaign_id=campaign_id, npc_ids=npcs, viewer=Viewer.party(), limit=60, links=False
            )
            knowledge: dict[str, tuple[str, ...]] = {
                cid: tuple(describe_event(e.kind, e.payload, scene.name) for e in known[cid][:8])
                for cid in npcs
            }
            recent = await ledger_sessions.recent_public(s, campaign_id=campaign_id)
            facts = round_facts(
                resolution,
                number=rnd.number,
                texts=texts,
                acted=set(texts),
                applied=record.get("mutations", []),
                scene=scene,
            )
            party_snapshot = await snapshot_from_ledger(
                s,
                campaign_id=campaign_id,
                audience=GM_VIEW,
                location=location,
                present=present,
                round_facts=facts,
            )
            # What each NPC witnessed or was told, as refs: its lines may speak of these and nothing else
            # (their threads as the snapshot, which holds every thread with its visibility, has them).
            npc_refs = await npc_known_refs(
                s,
                campaign_id=campaign_id,
                npc_ids=sorted(knowledge),
                known=known,
                threads=party_snapshot.threads.values(),
            )
        if deferred is not None and index is not None:
            # The summary index (Chroma) is asked with no database session held: a slow index must not keep
            # one of the pool's connections from the other campaigns' rounds.
            context = await deferred.ask(index, context)
        # Without the summary index the round goes on with ledger records only; the GM hears of it once.
        await self.summaries.upkeep(campaign_id, context.summaries_unavailable)
        player_ids = {pc: pid for pc, uid in players.items() if (pid := _int_id(uid)) is not None}
        reveals: list[Reveal] = [
            Reveal(player_id=player_ids[r["actor"]], character_name=scene.name(r["actor"]), text=r["text"])
            for r in record.get("reveals", [])
            if r["actor"] in player_ids
        ]
        request = narration_request(
            campaign=campaign.name,
            session_number=rnd.session_number,
            round_number=rnd.number,
            scene=told,
            after=resolution,
            outcomes_=outcomes(resolution, told, texts),
            reveals=reveals,
            records=[RetrievedRecord(ref=r.ref, text=r.text, why=r.why) for r in context.records],
            summaries=[SceneSummary(id=h.id, text=h.text) for h in context.summaries],
            recent=recent,
            npc_knowledge=knowledge,
            npc_refs=npc_refs,
            players=player_ids,
            variety_seed=int(record.get("seed", 0)) % 1_000_003,
        ).model_copy(update={"arrivals": tuple(arrived)})

        async def check_draft(draft: Draft) -> list[ConflictNote]:
            report = check(draft.public_text, party_snapshot, audience="party")
            extra = []
            leaks = list(report.leaks)
            if (self.ctx.claim_extractor is not None or draft.declared) and draft.source != "fallback":
                # The model's own reading of its draft adds claims the word lists miss; it never removes any.
                from bot.narrator.claims_llm import extra_conflicts, extra_leaks

                extra = await extra_conflicts(
                    self.ctx.claim_extractor,
                    draft.public_text,
                    party_snapshot,
                    audience="party",
                    declared=draft.declared,  # the narrator's own claims per sentence (bot.narrator.declared)
                )
                if not (report.verdict == "conflict" or extra):
                    # ... and, for a draft that passes, it is asked per secret whether the draft gives it away
                    leaks += await extra_leaks(
                        self.ctx.claim_extractor, draft.public_text, party_snapshot, audience="party"
                    )
            notes = [
                ConflictNote(
                    claim=x.claim.text, refuted_by=x.refuted_by, message=x.reason or "contradicts the ledger"
                )
                for x in (*report.conflicts(), *extra)
            ]
            notes += [
                ConflictNote(
                    claim=lk.text, refuted_by=lk.record, message=f"reveals a {lk.visibility} record in public"
                )
                for lk in leaks
            ]
            return notes

        outcome = await narrate_checked(
            request,
            narrator=self.ctx.narrator,
            fallback=self.ctx.offline,
            check=check_draft,
            recent_texts=recent,
        )
        source = "offline" if outcome.offline else outcome.source
        names = {**record.get("names", {}), **told.names()}
        actions = _action_lines(resolution, names)
        public = {
            "text": outcome.draft.public_text,
            "round": rnd.number,
            "session": rnd.session_number,
            "source": source,
            "notices": record.get("notices", []),
            "players": sorted(set(players.values())),
            "actions": [a.model_dump() for a in actions],
            "initiative": [f"{names.get(e.entity, e.entity)} {e.total}" for e in resolution.initiative],
            "attempts": [a.model_dump(mode="json") for a in outcome.attempts],
            # The NPC traits that woke and why, so the GM can audit a line (``/ledger record`` shows them).
            "voices": [line.model_dump(mode="json") for line in outcome.draft.voices],
        }
        await self.ctx.step("narrate")
        stored = "fallback" if source == "offline" else source
        stage = self._proposals(
            campaign_id,
            rnd,
            outcome.draft,
            party_snapshot,
            gm_user_id=campaign.owner_user_id,
            location=location,
            present=present,
            acted=texts,
        )

        async def read_due(s: AsyncSession) -> None:
            from ledger.store.outbox import round_messages

            if due is not None:
                due.append(await round_messages(s, round_id=rnd.id, now=self.ctx.clock()))

        async with self.ctx.session() as s:
            return await ledger_sessions.store_narration(
                s,
                round_id=rnd.id,
                public=public,
                notes=[
                    (str(player_id), {"text": text, "round": rnd.number})
                    for player_id, text in outcome.draft.private_notes
                ],
                source=stored,
                conflicts=[
                    (f"{c.claim} ({c.message})"[:500], c.refuted_by) for c in dict.fromkeys(outcome.conflicts)
                ],
                revealed_seed=str(record.get("seed")),
                stage=stage,
                campaign_id=campaign_id,
                read_back=read_due if due is not None else None,
            )

    def _proposals(
        self,
        campaign_id: int,
        rnd: RoundView,
        draft: Draft,
        snapshot: WorldSnapshot,
        *,
        gm_user_id: str,
        location: str | None,
        present: Sequence[str],
        acted: Iterable[str],
    ) -> Callable[[AsyncSession], Awaitable[None]] | None:
        """The narrator's proposals, decided now and staged in the narration's transaction (None: none)."""
        from bot.narrator.proposals import judge_proposals, proposals_of
        from bot.table.proposals import stage_decisions
        from ledger.check.judge import check

        proposals, refused = proposals_of(draft)
        if not proposals and not refused:
            return None

        def text_check(text: str) -> tuple[list[str], list[str]]:
            report = check(text, snapshot, audience="party")
            conflicts = [x.reason or f"{x.claim.text!r} contradicts the ledger" for x in report.conflicts()]
            leaks = [f"{lk.text!r} is a {lk.visibility} record" for lk in report.leaks]
            return conflicts, leaks

        decisions = judge_proposals(
            proposals,
            snapshot,
            check=text_check,
            location=location,
            present=present,
            acted=acted,
            round_ref=f"{rnd.session_number}.{rnd.number}",
            refused=refused,
        )
        return stage_decisions(decisions, campaign_id=campaign_id, rnd=rnd, gm_user_id=gm_user_id)


class _DeferredSummaries:
    """A summary source that only remembers what retrieval asked it, so the question is put to the real index
    after the database session is closed (retrieval builds the question from the records it read, and asks
    last). :meth:`ask` answers it as retrieval would have, into the same context."""

    def __init__(self) -> None:
        self.asked: dict[str, Any] | None = None

    async def query(self, **kwargs: Any) -> tuple[Any, ...]:
        """Remember the question; no hits yet."""
        self.asked = kwargs
        return ()

    async def ask(self, index: SummarySource, context: SceneContext) -> SceneContext:
        """``context`` with the index's answer to the remembered question (or why it could not answer)."""
        from ledger.recall.retrieval import answer_summaries

        return await answer_summaries(context, index, self.asked)


def _int_id(user_id: str | None) -> int | None:
    return int(user_id) if user_id and user_id.isdigit() else None


def _action_lines(resolution: RoundResolution, names: dict[str, str]) -> list[v.ActionLine]:
    from bot.scene import roll_lines

    def named(text: str) -> str:
        return _ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)

    return [
        v.ActionLine(
            actor=names.get(r.actor, r.actor),
            summary=named(r.summary),
            rolls=tuple(named(line) for line in roll_lines(r)),
            outcome=r.outcome.value,
        )
        for r in resolution.results
        if (r.intent is not None or r.rolls) and not _slain_npcs_turn(r)
    ]


def _slain_npcs_turn(result: Any) -> bool:
    """The turn of an NPC or monster killed earlier in the round: its automatic action never happened, so the
    results do not list it (the narration leaves it untold too). A PC's refused turn stays: the player
    submitted it and should read why it did not happen. The resolution keeps it for the replay."""
    return (
        result.outcome.value == "refused"
        and not result.actor.startswith("pc-")
        and (result.reason or "").endswith(" is dead")
        and "already" not in (result.reason or "")
    )


_ID = re.compile(r"\b(?:pc|npc|monster|loc|item)-[a-z0-9]+(?:-[a-z0-9]+)*\b")
