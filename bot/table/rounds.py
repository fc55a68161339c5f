"""Rounds: actions in, a resolved, narrated and delivered round out.

Round states: open -> collecting -> closed -> resolved -> narrated -> posted, persisted at every step, so
:meth:`Rounds.resume` can finish any round after a crash without re-rolling dice or posting twice:

* ``closed``: no more actions; absent players get the default action. Resolving reads the sealed seed.
* ``resolved``: the rules' results, the changes and their events were written in ONE transaction.
* ``narrated``: the checked narration and the private notes are stored in the outbox (not yet sent;
  :mod:`bot.table.narration`).
* ``posted``: every message was delivered (or, for a closed DM, kept for `/ledger notes`;
  :mod:`bot.table.delivery`).

:meth:`Rounds.tick` closes the rounds whose deadline passed and :meth:`Rounds.resume` finishes the rounds a
crash interrupted; both then send every message that is due.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.errors import InvalidAction, NoOpenRound, TableError
from bot.intent_parser import ParseRefusal, ParseScene, instructions_to_the_bot
from bot.table.context import ACCEPTING, GM_VIEW, MAX_ACTION_CHARS, MAX_NOTE_CHARS, seat
from ledger import service
from ledger.errors import RoundStateError
from ledger.store import sessions as ledger_sessions
from rules.errors import IntentError, RulesError
from rules.intents import Intent, IntentKind

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.scene import Scene
    from bot.table.context import Lookups, TableContext
    from bot.table.delivery import Delivery
    from bot.table.narration import Narration
    from bot.table.round_inputs import RoundInputs
    from ledger.recall.shared import Prepared
    from ledger.store.outbox import RoundReportRows
    from ledger.store.records import OutboxView, RoundView
    from rules.round import RoundResolution


_log = logging.getLogger(__name__)


class Rounds:
    """The round lifecycle: actions submitted and readied, rounds closed, resolved and driven to posted."""

    def __init__(self, ctx: TableContext, lookups: Lookups, narration: Narration, delivery: Delivery) -> None:
        self.ctx = ctx
        self.lookups = lookups
        self.narration = narration
        self.delivery = delivery

    async def open_next_round(self, s: AsyncSession, campaign_id: int) -> RoundView | None:
        """Open the next round of the open session, sealing a fresh seed; carry late actions into it."""
        from rules.fairness import commit_seed

        latest = await ledger_sessions.latest_session(s, campaign_id=campaign_id)
        if not latest.open or await service.current_round(s, campaign_id=campaign_id) is not None:
            return None
        last = await service.last_round(s, campaign_id=campaign_id)
        number = last.number + 1 if last and last.session_number == latest.number else 1
        campaign = await service.get_campaign(s, campaign_id=campaign_id)
        minutes = float(campaign.settings.get("deadline_minutes", self.ctx.settings.rounds.deadline_minutes))
        seed = self.ctx.seeds()
        rnd = await service.open_round(
            s,
            campaign_id=campaign_id,
            session_number=latest.number,
            number=number,
            seed_commitment=commit_seed(seed),
            deadline=self.ctx.clock() + timedelta(minutes=minutes),
            resolution={"sealed_seed": seed},
        )
        if last is not None:
            for sub in await service.list_submissions(s, round_id=last.id):
                if sub.origin == "late-moved":
                    await service.submit(
                        s,
                        round_id=rnd.id,
                        player_user_id=sub.player_user_id,
                        idempotency_key=f"carried:{sub.idempotency_key}"[:128],
                        text=sub.text,
                        intent=sub.intent,
                        character_id=sub.character_id,
                    )
        return rnd

    async def submit(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        key: str,
        text: str,
        target: str | None = None,
        item: str | None = None,
        skill: str | None = None,
    ) -> v.SubmitReceipt:
        """Declare (or change) your character's action for the open round.

        The same ``key`` (the interaction id) again is the same submission; a second /act replaces the first
        until the round closes. The action is validated against the ledger now and refused with a reason if it
        cannot count. After the round closed it waits for the next round, and the receipt says so.
        """
        from bot.scene import intent_summary, load_scene, parse_scene, round_state
        from bot.text import clean_name, clean_text
        from rules.round import resolve_round

        # Cleaned at the edge: a NUL breaks PostgreSQL, escapes would reach terminals and posts (issue 9).
        text = clean_text(text or "").strip()
        target, item, skill = (clean_name(x) if x else x for x in (target, item, skill))
        if len(text) > MAX_ACTION_CHARS:
            raise InvalidAction(f"That action is too long: at most {MAX_ACTION_CHARS} characters.")
        if not text and not (target or item or skill):
            raise InvalidAction("Say what your character does, e.g. 'attack the thug with my longsword'.")
        async with self.ctx.session() as s:
            table = await self.lookups.table(s, where)  # the campaign, its members and its round: one read
            campaign, rnd, pc_id = table.campaign, table.round, self.lookups.seated(table, caller)
            if rnd is None:
                raise NoOpenRound("No round is open: the GM starts a session with /session start.")
            pc = await service.get_entity(s, campaign_id=campaign.id, entity_id=pc_id, viewer=GM_VIEW)
            if pc.alive is False:
                raise InvalidAction(f"{pc.name} is dead and can no longer act.")
            scene = await load_scene(s, campaign_id=campaign.id, pc_ids=self.lookups.pcs_at(table))
        pscene = parse_scene(scene, pc_id)
        intent = await self._intent(text, pscene, target=target, item=item, skill=skill)
        _refuse_the_dead_as_target(intent, pscene)
        try:
            resolve_round(seed=0, intents=[intent], state=round_state(scene))
        except IntentError as err:
            raise InvalidAction(str(err)) from None
        except RulesError as err:
            raise InvalidAction(str(err)) from None
        summary = intent_summary(intent, scene)
        payload = intent.model_dump(mode="json")
        async with self.ctx.session() as s:
            rnd = await service.current_round(s, campaign_id=campaign.id)
            assert rnd is not None

            async def late() -> v.SubmitReceipt:
                # The round closed while this action was on its way: it waits for the next round.
                await ledger_sessions.queue_late(
                    s,
                    round_id=rnd.id,
                    player_user_id=caller.user_id,
                    character_id=pc_id,
                    idempotency_key=key,
                    text=text,
                    intent=payload,
                )
                return v.SubmitReceipt(
                    round_number=rnd.number + 1,
                    character_name=pc.name,
                    intent_summary=summary,
                    edited=False,
                    late=True,
                )

            if rnd.state not in ACCEPTING:
                return await late()
            try:
                # The ledger keeps one submission per player per round: another key updates that row, under
                # the campaign's write lock, so two /act at the same moment never make two actions.
                sub = await service.submit(
                    s,
                    round_id=rnd.id,
                    player_user_id=caller.user_id,
                    idempotency_key=key,
                    text=text,
                    intent=payload,
                    character_id=pc_id,
                )
            except RoundStateError:
                return await late()
            if rnd.state == "open":
                await service.set_round_state(s, round_id=rnd.id, state="collecting")
        edited = not sub.created and sub.idempotency_key != key
        return v.SubmitReceipt(
            round_number=rnd.number, character_name=pc.name, intent_summary=summary, edited=edited
        )

    async def _intent(
        self, text: str, scene: ParseScene, *, target: str | None, item: str | None, skill: str | None
    ) -> Intent:
        """Options (target/item/skill) win over the text; the text says what kind of action it is."""

        # Options fill what the text leaves out ("shoot" + target Bilge + item shortbow): the parser reads
        # them as part of the sentence, and the chosen ids win afterwards.
        def label(ref: str | None, names: Sequence[Any]) -> str:
            if not ref:
                return ""
            wanted = ref.strip().lower()
            hit = next((n for n in names if wanted in (n.id.lower(), n.name.lower())), None)
            return str(hit.name) if hit else ref

        held = [*scene.attacks, *scene.items_held, *scene.items_here]
        extra = " ".join(
            part
            for part in (label(target, scene.creatures), f"with {label(item, held)}" if item else "")
            if part
        )
        if (to_the_bot := instructions_to_the_bot(text)) is not None:
            raise InvalidAction(to_the_bot)
        sentence = text
        if extra and extra.lower() not in text.lower():
            sentence = f"{text} {extra}".strip()
        parsed: Intent | ParseRefusal = (
            await self.ctx.parser.parse(sentence, scene)
            if sentence
            else ParseRefusal(reason="", unclear=True)
        )
        if isinstance(parsed, Intent) and parsed.text != text:
            parsed = parsed.model_copy(update={"text": text or sentence})

        def find(ref: str | None, names: Sequence[Any]) -> str | None:
            if not ref:
                return None
            wanted = ref.strip().lower()
            for n in names:
                if wanted in (n.id.lower(), n.name.lower(), *(a.lower() for a in n.aliases)):
                    return str(n.id)
            raise InvalidAction(f"There is no '{ref}' here.")

        # of namesakes (two "Skeleton"s, one destroyed) the living one is meant
        others = sorted((c for c in scene.creatures if c.id != scene.actor), key=lambda c: not c.alive)
        target_id = find(target, others)
        item_id = find(item, [*scene.items_held, *scene.items_here, *scene.attacks])
        skill_id = None
        if skill:
            from rules.creatures import parse_skill

            try:
                skill_id = parse_skill(skill).value
            except RulesError as err:
                raise InvalidAction(str(err)) from None
        if isinstance(parsed, ParseRefusal):
            if skill_id:
                return Intent(
                    kind=IntentKind.CHECK, actor=scene.actor, skill=skill_id, target=target_id, text=text
                )
            if target_id and not item_id and parsed.unclear:
                return Intent(kind=IntentKind.TALK, actor=scene.actor, target=target_id, text=text)
            raise InvalidAction(parsed.reason or "Say what your character does.")
        update: dict[str, Any] = {}
        if target_id:
            update["target"] = target_id
        if item_id:
            update["item"] = item_id
        if skill_id:
            talking = parsed.kind is IntentKind.TALK and skill_id in (
                "persuasion",
                "deception",
                "intimidation",
            )
            if talking or parsed.kind is IntentKind.CHECK:
                update["skill"] = skill_id
            else:  # a chosen skill makes the action a check of that skill ("watch her hands" + insight)
                update.update(kind=IntentKind.CHECK, skill=skill_id, item=None, quantity=1)
        return Intent.model_validate({**parsed.model_dump(), **update}) if update else parsed

    async def ready(self, where: v.Where, caller: v.Caller, *, reply: str | None = None) -> v.ReadyReceipt:
        """Mark your action final. Without an action you hold. When everyone is ready, the round closes.

        ``reply`` is the front end's opaque handle of this command's (deferred) reply. It is kept with the
        round, so that if the process dies before this call returns, the restarted table answers it (or, once
        it has expired, posts the round's dice in the channel) instead of leaving the player waiting.
        """
        async with self.ctx.session() as s:
            table = await self.lookups.table(s, where)
            campaign, rnd, pc_id = table.campaign, table.round, self.lookups.seated(table, caller)
            if rnd is None or rnd.state not in ACCEPTING:
                raise NoOpenRound("There is no open round to be ready for.")
            changed = await service.set_ready(s, round_id=rnd.id, player_user_id=caller.user_id)
            if changed == 0:
                default = str(
                    campaign.settings.get("default_action") or self.ctx.settings.rounds.default_action
                )
                intent = Intent(kind=IntentKind.HOLD, actor=pc_id, text=default)
                await service.submit(
                    s,
                    round_id=rnd.id,
                    player_user_id=caller.user_id,
                    idempotency_key=f"ready:{rnd.id}:{caller.user_id}",
                    text=default,
                    intent=intent.model_dump(mode="json"),
                    character_id=pc_id,
                    ready=True,
                )
            waiting = await self.lookups.waiting(s, campaign.id, rnd.id)
            pc = await service.get_entity(s, campaign_id=campaign.id, entity_id=pc_id, viewer=GM_VIEW)
        name = pc.name if pc is not None else caller.display_name
        if waiting:
            return v.ReadyReceipt(round_number=rnd.number, waiting=waiting, character_name=name)
        report = await self.close_and_finish(campaign.id, rnd.id, reply=reply, caller_id=caller.user_id)
        return v.ReadyReceipt(round_number=rnd.number, waiting=(), report=report, character_name=name)

    async def round_status(self, where: v.Where, caller: v.Caller) -> v.RoundStatusView:
        """Who has acted and who is ready in the open round, its deadline and its seed commitment."""
        async with self.ctx.session() as s:
            table = await self.lookups.table(s, where)
            if table.round is None:
                raise NoOpenRound("No round is open: the GM starts a session with /session start.")
            return await self.lookups.status_view(s, table.campaign.id, table.round)

    async def close_round(
        self, where: v.Where, caller: v.Caller, *, reply: str | None = None
    ) -> v.RoundReport:
        """Close the open round now (GM): absent players take the default action; resolve, narrate, post.

        ``reply``: the command's opaque reply handle, answered after a restart as in :meth:`ready`.
        """
        from bot.table.round_inputs import from_members

        async with self.ctx.session() as s:
            table = await self.lookups.table(s, where)  # the campaign, its members and its round: one read
        self.lookups.require_gm_at(table, caller)
        if table.round is None:
            raise NoOpenRound("There is no round to close.")
        return await self.close_and_finish(
            table.campaign.id,
            table.round.id,
            reply=reply,
            caller_id=caller.user_id,
            rnd=table.round,
            inputs=from_members(table.campaign, list(table.members)),
        )

    async def tick(self) -> None:
        """Close every round whose deadline passed and retry due deliveries (called every 30 s by the bot).

        Each round is handled on its own: one that fails is logged (with its round) and the others go on.
        The due rounds close together (at most ``ctx.tick_concurrency`` at once), so one campaign's narrator
        never waits for another's. A round an earlier tick left between closing and posting (its step
        failed: the database pool ran dry, the narrator's endpoint broke) is driven on again, unless a task
        of this process is driving it now; without this, only a restart would finish it.
        Only the campaigns of guilds this process owns (``ctx.owns_guild``) are ticked; another process on
        the same database ticks the rest (the round's state is checked under the campaign row's lock at each
        step, so a round two processes both reach is resolved and posted once).
        """
        import asyncio

        async with self.ctx.session() as s:
            due = await ledger_sessions.due_rounds(s, now=self.ctx.clock(), owns_guild=self.ctx.owns_guild)
            stuck = await ledger_sessions.interrupted_rounds(s, owns_guild=self.ctx.owns_guild)
        limit = asyncio.Semaphore(max(1, self.ctx.tick_concurrency))

        def busy(rnd: RoundView) -> bool:
            lock = self.ctx.locks.get(rnd.campaign_id)
            return lock is not None and lock.locked()

        async def close(rnd: RoundView) -> None:
            async with limit:
                try:
                    # Nobody typed a command, so no reply carries the dice: the round's results are queued as
                    # a follow-up the courier posts in the channel (after a crash too).
                    await self.close_and_finish(rnd.campaign_id, rnd.id, channel_results=True)
                except TableError as err:
                    _log_round(rnd, f"skipped at its deadline: {err}")
                except Exception:
                    _log_round(rnd, "failed to close at its deadline", exc_info=True)

        async def finish(rnd: RoundView) -> None:
            async with limit:
                try:
                    await self._finish(rnd.campaign_id, rnd.id)
                except Exception:
                    _log_round(rnd, "failed to finish; the next tick tries again", exc_info=True)

        await asyncio.gather(*(close(rnd) for rnd in due), *(finish(rnd) for rnd in stuck if not busy(rnd)))
        await self._deliver_due()

    async def resume(self) -> None:
        """After a restart: finish every interrupted round and deliver every message that is due.

        Each round and each message recovers on its own: a failure is logged with its round, the rest go on.
        """
        async with self.ctx.session() as s:
            rounds = await ledger_sessions.interrupted_rounds(s, owns_guild=self.ctx.owns_guild)
        for rnd in rounds:
            try:
                await self._finish(rnd.campaign_id, rnd.id)
            except Exception:
                _log_round(rnd, "failed to resume; the other rounds go on", exc_info=True)
        await self._deliver_due()

    async def _deliver_due(self) -> None:
        """Send every message whose (next) try is due, round by round; a failing round stops no other.

        Only the messages of campaigns in guilds this process owns (``ctx.owns_guild``).
        """
        async with self.ctx.session() as s:
            due = await ledger_sessions.due_outbox(s, now=self.ctx.clock(), owns_guild=self.ctx.owns_guild)
        for round_id in sorted({m.round_id for m in due if m.round_id is not None}):
            try:
                async with self.ctx.session() as s:
                    rnd = await service.get_round(s, round_id=round_id)
                if rnd.state == "narrated":  # interrupted after narration: finish it (posts, opens the next)
                    await self._finish(rnd.campaign_id, rnd.id)
                elif rnd.state == "posted":  # a retry of a message that failed before
                    async with self.ctx.lock(rnd.campaign_id):
                        await self.delivery.deliver(rnd.campaign_id, rnd)
                # Earlier states: the messages wait until the round is told (a reply to a round not closed).
            except Exception:
                _log.warning("delivering the messages of round id %s failed", round_id, exc_info=True)

    async def close_and_finish(
        self,
        campaign_id: int,
        round_id: int,
        *,
        reply: str | None = None,
        caller_id: str | None = None,
        channel_results: bool = False,
        rnd: RoundView | None = None,
        inputs: RoundInputs | None = None,
    ) -> v.RoundReport:
        """Close the round (if it still takes actions) and drive it to posted.

        The command waiting for the result (``reply``, its opaque handle) or, for a round the deadline closed,
        the channel (``channel_results``) gets a ``followup`` row before the round closes (in the closing
        transaction): if the process dies before this returns, the restarted table answers it with the
        round's dice. When this call returns, the waiting command answers itself and its row is marked sent.
        ``rnd`` and ``inputs``: the round, campaign and members the caller already read (the round's state
        is checked again under the lock, in the closing transaction).
        """
        from bot.table.round_inputs import load_inputs
        from ledger.store import outbox as ledger_outbox
        from ledger.store import rounds as ledger_rounds

        async with self.ctx.lock(campaign_id):
            async with self.ctx.session() as s:
                if rnd is None or rnd.id != round_id:
                    rnd = await service.get_round(s, round_id=round_id)
                if inputs is None:
                    inputs = await load_inputs(s, campaign_id)
                followup = rnd.state != "posted" and (reply is not None or channel_results)
                if rnd.state in ACCEPTING:
                    await self.ctx.step("close")
                if rnd.state in ACCEPTING or followup:
                    rnd = await ledger_rounds.close_round(
                        s,
                        campaign_id=campaign_id,
                        round_id=round_id,
                        followup={"handle": reply, "round": rnd.number} if followup else None,
                        followup_recipient=caller_id if reply is not None else None,
                    )
            answering = frozenset({caller_id}) if reply is not None and caller_id else frozenset()
            report = await self._finish_locked(
                campaign_id, round_id, answering=answering, rnd=rnd, inputs=inputs
            )
            if answering:
                async with self.ctx.session() as s:
                    await ledger_outbox.answer_followups(s, round_id=round_id, recipients=answering)
            return report

    async def _finish(self, campaign_id: int, round_id: int) -> v.RoundReport:
        async with self.ctx.lock(campaign_id):
            return await self._finish_locked(campaign_id, round_id)

    async def _finish_locked(
        self,
        campaign_id: int,
        round_id: int,
        *,
        answering: frozenset[str] = frozenset(),
        rnd: RoundView | None = None,
        inputs: RoundInputs | None = None,
    ) -> v.RoundReport:
        """Drive a closed round through resolved, narrated and posted, from whatever state it is in.

        ``answering``: users whose command is waiting for this call (their follow-ups are not sent).
        ``rnd``, ``inputs``: the round as the caller just read or wrote it under the lock, and its campaign
        and members (read here when not given). Each phase returns the round as it left it, so the round is
        read once, not again between phases.
        """
        from bot.table.round_inputs import load_inputs

        if rnd is None or inputs is None:
            async with self.ctx.session() as s:
                if rnd is None:
                    rnd = await service.get_round(s, round_id=round_id)
                if inputs is None:
                    inputs = await load_inputs(s, campaign_id)
        scene: Scene | None = None  # the scene as the round's changes left it, when known without a read
        prepared: Prepared | None = None  # the party's retrieval, begun beside the discoveries' reads
        if rnd.state == "closed":
            rnd, scene, prepared = await self._resolve(inputs, rnd)
        due: list[tuple[list[OutboxView], bool]] = []  # the messages to deliver, read where they were stored
        if rnd.state == "resolved":
            rnd = await self.narration.narrate(
                campaign_id, rnd, inputs=inputs, scene=scene, due=due, prepared=prepared
            )
        read: list[RoundReportRows] = []
        if rnd.state == "narrated":
            await self.delivery.deliver(
                campaign_id, rnd, answering=answering, campaign=inputs.campaign, due=due[0] if due else None
            )
            await self.ctx.step("posted")
            await self._post_and_open_next(inputs, rnd, read)
            rnd = rnd.model_copy(update={"state": "posted"})
        return await self.delivery.report(round_id, rnd=rnd, read=read[0] if read else None)

    async def _post_and_open_next(
        self, inputs: RoundInputs, rnd: RoundView, read: list[RoundReportRows] | None = None
    ) -> RoundView | None:
        """narrated -> posted and the next round opened (fresh sealed seed), in one transaction; with
        ``read``, the round's report rows are read in that transaction too and appended to it."""
        from ledger.store import rounds as ledger_rounds
        from ledger.store.outbox import report_rows
        from rules.fairness import commit_seed

        async def read_back(s: AsyncSession) -> None:
            if read is not None:
                read.append(await report_rows(s, round_id=rnd.id))

        settings = inputs.campaign.settings
        minutes = float(settings.get("deadline_minutes", self.ctx.settings.rounds.deadline_minutes))
        seed = self.ctx.seeds()
        async with self.ctx.session() as s:
            return await ledger_rounds.post_and_open_next(
                s,
                rnd=rnd,
                seed_commitment=commit_seed(seed),
                deadline=self.ctx.clock() + timedelta(minutes=minutes),
                resolution={"sealed_seed": seed},
                read_back=read_back if read is not None else None,
            )

    async def _resolve(
        self, inputs: RoundInputs, rnd: RoundView
    ) -> tuple[RoundView, Scene | None, Prepared | None]:
        """closed -> resolved: defaults for the absent, the rules, and one ledger transaction.

        Returns the round as the transaction left it (resolved, its record as the ledger stores it; as it is
        if another writer resolved it first: the ledger refuses a second resolution), the scene as its
        changes left it (:func:`bot.scene_changes.scene_after`; None when it must be read) and the party's
        retrieval begun beside the discoveries' (None when none was read)."""
        import json

        from bot.scene import load_scene, mutations_for, round_state
        from bot.scene_changes import scene_after
        from ledger.store.sessions import sealed_seed
        from rules.round import resolve_round

        campaign_id = inputs.campaign.id
        seed = sealed_seed(rnd)
        pc_ids = inputs.pc_ids
        async with self.ctx.session() as s:
            subs = [x for x in await service.list_submissions(s, round_id=rnd.id) if x.origin != "late-moved"]
            scene = await load_scene(s, campaign_id=campaign_id, pc_ids=pc_ids)
            acted = {x.player_user_id for x in subs}
            settings = inputs.campaign.settings
            default = str(settings.get("default_action") or self.ctx.settings.rounds.default_action)
            notices: list[str] = []
            pcs = {pc: scene.creatures[pc] for pc in pc_ids if pc in scene.creatures}
            for m in inputs.members:
                if (
                    m.character_id
                    and m.user_id not in acted
                    and pcs.get(m.character_id)
                    and pcs[m.character_id].alive is not False
                ):
                    intent = Intent(kind=IntentKind.HOLD, actor=m.character_id, text=default)
                    subs.append(
                        await service.submit(
                            s,
                            round_id=rnd.id,
                            player_user_id=m.user_id,
                            idempotency_key=f"default:{rnd.id}:{m.user_id}",
                            text=default,
                            intent=intent.model_dump(mode="json"),
                            character_id=m.character_id,
                            origin="default",
                        )
                    )
                    notices.append(f"{pcs[m.character_id].name} was absent and {default}.")
            latest: dict[str, Any] = {}
            for sub in subs:  # one action per character: the latest submission wins
                if sub.intent and sub.character_id:
                    latest[sub.character_id] = sub
            state = round_state(scene)
            intents: list[Intent] = []
            for pc_id, sub in sorted(latest.items()):
                intent = Intent.model_validate(sub.intent)
                try:  # the world may have changed since the action was declared
                    resolve_round(seed=0, intents=[intent], state=state)
                except RulesError as err:
                    notices.append(
                        f"{scene.name(pc_id)}'s action could not count ({err}); they hold instead."
                    )
                    intent = Intent(kind=IntentKind.HOLD, actor=pc_id, text=sub.text)
                intents.append(intent)
            intents += _npc_intents(scene, intents)
            resolution = resolve_round(seed=seed, intents=intents, state=state)
            mutations = mutations_for(
                resolution, scene, session_number=rnd.session_number, round_number=rnd.number
            )
            # in the session that read the scene: one read transaction for the whole resolution
            reveals, prepared = await self._reveals(campaign_id, scene, resolution, rnd, session=s)
        record = {
            "sealed_seed": seed,
            "seed": seed,
            "state": state.model_dump(mode="json"),
            "intents": [i.model_dump(mode="json") for i in intents],
            "resolution": resolution.model_dump(mode="json"),
            "texts": {k: x.text for k, x in latest.items()},
            "players": {k: x.player_user_id for k, x in latest.items()},
            "notices": notices,
            "reveals": reveals,
            "mutations": mutations,
            "names": scene.names(),
        }
        await self.ctx.step("resolve")
        applied = mutations + [r["mutation"] for r in reveals if r["mutation"]]
        async with self.ctx.session() as s:
            try:
                await service.apply_round(
                    s,
                    campaign_id=campaign_id,
                    session_number=rnd.session_number,
                    round_number=rnd.number,
                    mutations=applied,
                    resolution=record,
                    cause=f"round-{rnd.session_number}.{rnd.number}",
                )
            except RoundStateError:  # resolved by another writer first (refused whole): go on from its record
                return await service.get_round(s, round_id=rnd.id), None, None
        # As a later read would give it back (JSON), so a resumed round and this one narrate alike.
        resolved = rnd.model_copy(update={"state": "resolved", "resolution": json.loads(json.dumps(record))})
        return resolved, scene_after(scene, applied), prepared

    async def _reveals(
        self,
        campaign_id: int,
        scene: Scene,
        resolution: RoundResolution,
        rnd: RoundView,
        session: AsyncSession | None = None,
    ) -> tuple[list[dict[str, Any]], Prepared | None]:
        """Private discoveries: a successful Perception/Insight/Investigation check shows that player one
        record the party cannot see (a GM-only fact or stance about the target or the place), told as prose
        (:func:`bot.narrator.discoveries.discovery_text`, seeded by the round's seed plus the action's index),
        and the ledger files it as now known to that player. A check that finds nothing hidden tells what the
        character notices of the target (how hurt, how watchful) and files nothing. ``session``: the
        caller's open session, read in instead of a new one. Also returns the party's retrieval, begun in
        the same statements (:mod:`bot.table.shared_reads`)."""
        from contextlib import nullcontext

        from bot.narrator.discoveries import Shape, discovery_text, learned_fact
        from bot.table.shared_reads import discovery_contexts, fits, focus_of, learned_already, learned_key

        out: list[dict[str, Any]] = []
        # One read of every (place, focus) the checks look at, and of the party's scene beside them.
        async with nullcontext(session) if session is not None else self.ctx.session() as s:
            contexts, prepared = await discovery_contexts(
                s, campaign_id, scene, resolution, rnd.session_number
            )
            known = await learned_already(s, campaign_id, scene, resolution, contexts)
        for index, result in enumerate(resolution.results):
            if not result.reveals or result.intent is None:
                continue
            actor = scene.creatures.get(result.actor)
            if actor is None or actor.kind != "pc":
                continue
            player_seat = seat(actor.owner_user_id, "")
            context = contexts[focus_of(scene, result) or (None, ())]
            # Only the GM's secrets can be discovered; another player's private record is never revealed,
            # and a record the party already sees (a public stance) is nothing new: no learned fact is filed.
            secret = next(
                (
                    r
                    for r in context.records
                    if r.visibility == "gm"
                    and learned_key(result.actor, r.ref) not in known
                    and fits(result, r)
                ),
                None,
            )
            target = scene.creatures.get(result.intent.target or "")
            if secret is None and target is None:
                continue
            shape: Shape | None = None
            if secret is None and target is not None:
                from bot.scene import stat_block

                full = stat_block(target).max_hp
                hp = target.hp if target.hp is not None else full
                shape = "badly hurt" if hp < full / 2 else "hurt" if hp < full else "unhurt"
            # Told as prose (never the record): a secret fact, a hidden stance, or what the character notices.
            text = discovery_text(
                actor=actor.name,
                target=target.name if target is not None else None,
                secret=secret.text if secret is not None and secret.kind != "edge" else None,
                stance=secret.text if secret is not None and secret.kind == "edge" else None,
                shape=shape,
                seed=resolution.seed + index,
            )
            mutation = None
            if secret is not None:
                key = learned_key(result.actor, secret.ref)
                # the fact keeps what was learned in the secret's own words; the DM tells it as prose
                learned = learned_fact(secret.text) if secret.kind != "edge" else None
                mutation = {
                    "kind": "set_fact",
                    "key": key,
                    "value": (learned or text)[:190],
                    "visibility": f"player:{player_seat}" if player_seat else "gm",
                    "cause": f"round-{rnd.session_number}.{rnd.number}#{index}",
                }
            out.append(
                {
                    "actor": result.actor,
                    "seat": player_seat,
                    "text": text[:MAX_NOTE_CHARS],
                    "ref": secret.ref if secret else None,
                    "mutation": mutation,
                }
            )
        return out, prepared


def _log_round(rnd: RoundView, what: str, *, exc_info: bool = False) -> None:
    """A warning naming the round (session.number, id, campaign) that a recovery step skipped."""
    _log.warning(
        "round %s.%s (id %s, campaign %s) %s",
        rnd.session_number,
        rnd.number,
        rnd.id,
        rnd.campaign_id,
        what,
        exc_info=exc_info,
    )


def _npc_intents(scene: Scene, declared: Sequence[Intent]) -> list[Intent]:
    """Hostile NPCs and monsters fight back: each attacks the PC that attacked it, else the first PC in reach.

    Deterministic: targets are chosen by id order, never by chance, so a round replays exactly.
    """
    out: list[Intent] = []
    acting = {i.actor for i in declared}
    attackers: dict[str, str] = {}
    for intent in declared:
        if intent.kind is IntentKind.ATTACK and intent.target:
            attackers.setdefault(intent.target, intent.actor)
    for cid in sorted(scene.creatures):
        creature = scene.creatures[cid]
        if (
            cid in acting
            or creature.kind == "pc"
            or creature.alive is False
            or (creature.hp is not None and creature.hp <= 0)
        ):
            continue
        hostile = bool((creature.sheet or {}).get("hostile")) or cid in attackers
        if not hostile:
            continue
        foes = sorted(
            pc
            for pc, e in scene.creatures.items()
            if e.kind == "pc" and e.alive is not False and e.location == creature.location and (e.hp or 0) > 0
        )
        if not foes:
            continue
        target = attackers.get(cid) if attackers.get(cid) in foes else foes[0]
        out.append(Intent(kind=IntentKind.ATTACK, actor=cid, target=target, text=f"{creature.name} attacks"))
    return out


#: Kinds of action that need their target alive: a body can be searched or examined (a check), not fought,
#: talked to, helped or handed things.
_NEEDS_THE_LIVING = frozenset(
    {IntentKind.ATTACK, IntentKind.TALK, IntentKind.HELP, IntentKind.GIVE, IntentKind.ABILITY}
)


def _refuse_the_dead_as_target(intent: Intent, scene: ParseScene) -> None:
    """Refuse now, with the reason, an action aimed at someone already dead (picked from the menu or typed
    as the target option); accepted, it would only come back "refused" in the round's results."""
    if intent.target is None or intent.kind not in _NEEDS_THE_LIVING:
        return
    who = next((c for c in scene.creatures if c.id == intent.target), None)
    if who is not None and not who.alive:
        living = ", ".join(c.name for c in scene.creatures if c.alive and c.id != scene.actor) or "nobody"
        raise InvalidAction(f"{who.name} is already dead. Present: {living}.")
