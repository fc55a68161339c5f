"""The table: campaigns, sessions, players and the round lifecycle, from actions to delivered narration.

One :class:`Table` serves every campaign of a process (Discord bot, terminal table, demo). Each public method
takes *where* the command was given and *who* gave it, does all checks (GM powers, visibility, validation),
and returns a view from :mod:`bot.views`. Nothing here knows Discord: messages leave through a
:class:`Courier`.

Round states: open -> collecting -> closed -> resolved -> narrated -> posted, persisted at every step, so
:meth:`Table.resume` can finish any round after a crash without re-rolling dice or posting twice:

* ``closed``: no more actions; absent players get the default action. Resolving reads the sealed seed.
* ``resolved``: the rules' results, the changes and their events were written in ONE transaction.
* ``narrated``: the checked narration and the private notes are stored in the outbox (not yet sent).
* ``posted``: every message was delivered (or, for a closed DM, kept for `/ledger notes`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.describe import describe_event
from bot.errors import InvalidAction, NoOpenRound, NotFound, TableError
from bot.intent_parser import ParseRefusal, ParseScene
from bot.table.context import (
    ACCEPTING,
    GM_VIEW,
    MAX_ACTION_CHARS,
    MAX_NOTE_CHARS,
    RETRY_DELAYS,
    SCENARIO_DIR,
    Courier,
    DMClosed,
    MissingPermission,
    ReplyExpired,
    ResendView,
    TableBase,
    _seat,
    _slug,
)
from bot.table.gm_desk import GMTools
from ledger import service
from ledger.errors import LedgerError, RoundStateError
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer
from rules.errors import IntentError, RulesError
from rules.intents import Intent, IntentKind

if TYPE_CHECKING:
    from bot.narrator.base import Draft, Reveal
    from bot.scene import Scene
    from ledger.store.records import CampaignView, RoundView
    from rules.round import RoundResolution


_log = logging.getLogger(__name__)


__all__ = [
    "Courier",
    "DMClosed",
    "MissingPermission",
    "ReplyExpired",
    "ResendView",
    "Table",
    "TableBase",
    "resolve_scenario",
]


class Table(GMTools):
    """Every campaign's table: the services front ends call. See the module docstring for the round states."""

    # --- campaigns and sessions ------------------------------------------------------------------------

    async def start_campaign(
        self, where: v.Where, caller: v.Caller, *, name: str, scenario: str | None
    ) -> v.CampaignView:
        """Begin a campaign in this channel (the caller becomes its GM), from a bundled scenario or blank.

        A scenario campaign opens its next session and first round at once, so players can /join and /act.
        """
        path = resolve_scenario(scenario) if scenario else None
        return await self._start(where, caller, name=name, path=path)

    async def start_campaign_from_file(
        self, where: v.Where, caller: v.Caller, *, path: Path
    ) -> v.CampaignView:
        """Like :meth:`start_campaign` with any scenario file (the terminal table and the demo)."""
        return await self._start(where, caller, name="", path=path)

    async def _start(
        self, where: v.Where, caller: v.Caller, *, name: str, path: Path | None
    ) -> v.CampaignView:
        from ledger.scenario.load import load_scenario_file

        async with self._session() as s:
            if await service.find_campaign(s, guild_id=where.guild_id, channel_id=where.channel_id):
                raise TableError("A campaign already runs in this channel. End it with /campaign end first.")
            if path is not None:
                from ledger.scenario.format import ScenarioError

                try:
                    campaign_id = await load_scenario_file(
                        s,
                        path,
                        guild_id=where.guild_id,
                        channel_id=where.channel_id,
                        owner_user_id=caller.user_id,
                    )
                except ScenarioError as err:
                    raise InvalidAction(str(err).splitlines()[0]) from None
            else:
                if not name.strip():
                    raise InvalidAction("Give the campaign a name.")
                campaign = await service.create_campaign(
                    s,
                    name=name.strip()[:100],
                    guild_id=where.guild_id,
                    channel_id=where.channel_id,
                    owner_user_id=caller.user_id,
                    settings={"starting_location": "loc-crossroads", "current_session": 1},
                )
                campaign_id = campaign.id
                await service.apply_changes(
                    s,
                    campaign_id=campaign_id,
                    session_number=0,
                    round_number=None,
                    cause="campaign-start",
                    mutations=[
                        {
                            "kind": "create_location",
                            "id": "loc-crossroads",
                            "name": "The Crossroads",
                            "description": "Where every road of this new campaign begins.",
                        }
                    ],
                )
        await self._index_pending(campaign_id)  # never fails the start: unindexed summaries stay queued
        async with self._session() as s:
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign_id)
            if not latest.open:
                await ledger_sessions.start_session(s, campaign_id=campaign_id)
            await self._open_next_round(s, campaign_id)
        return await self.campaign_status(where, caller)

    async def campaign_status(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """The campaign in this channel: session, round, location and players."""
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            return await self._campaign_view(s, campaign)

    async def _campaign_view(self, s: Any, campaign: CampaignView) -> v.CampaignView:
        latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
        rnd = await service.current_round(s, campaign_id=campaign.id)
        members = await service.list_members(s, campaign_id=campaign.id, active_only=True)
        ids = [m.character_id for m in members if m.character_id]
        pcs = await service.get_entities(s, campaign_id=campaign.id, entity_ids=ids, viewer=GM_VIEW)
        location = next((pc.location for pc in pcs if pc.location), None)
        location = location or await self._party_location(s, campaign.id)
        location = location or campaign.settings.get("starting_location")
        names = await self._names(s, campaign.id, [location] if location else [])
        return v.CampaignView(
            id=campaign.id,
            name=campaign.name,
            owner_user_id=campaign.owner_user_id,
            status=campaign.status,
            session_number=latest.number or None,
            session_open=latest.open,
            round_number=rnd.number if rnd else None,
            round_state=rnd.state if rnd else None,
            location=names.get(location, location) if location else None,
            players=tuple(f"{pc.name} (<@{pc_owner}>)" for pc, pc_owner in _owners(pcs, members)),
            claim_check_fallbacks=self.claim_extractor.fallbacks if self.claim_extractor else None,
        )

    async def end_campaign(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """End the campaign (GM). Its ledger stays; a new campaign may start in the channel."""
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            await self._require_gm(s, campaign, caller)
            view = await self._campaign_view(s, campaign)
            await ledger_sessions.end_campaign(s, campaign_id=campaign.id)
        return view.model_copy(update={"status": "ended", "session_open": False})

    async def start_session(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """Open the next session (GM) and its first round."""
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            await self._require_gm(s, campaign, caller)
            try:
                await ledger_sessions.start_session(s, campaign_id=campaign.id)
            except RoundStateError as err:
                raise TableError(f"{str(err).capitalize()}.") from None
            await self._open_next_round(s, campaign.id)
            return await self._campaign_view(s, campaign)

    async def end_session(self, where: v.Where, caller: v.Caller) -> v.RecapView:
        """Close the session (GM): the open round is discarded if empty, and a summary is filed."""
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            await self._require_gm(s, campaign, caller)
            rnd = await service.current_round(s, campaign_id=campaign.id)
        if rnd is not None and rnd.state in ACCEPTING:
            async with self._session() as s:
                subs = await service.list_submissions(s, round_id=rnd.id)
            if any(sub.origin == "player" for sub in subs):
                await self._close_and_finish(campaign.id, rnd.id)
            else:
                async with self._session() as s:
                    await service.set_round_state(s, round_id=rnd.id, state="posted")
        async with self._session() as s:
            try:
                info = await ledger_sessions.end_session(s, campaign_id=campaign.id)
            except RoundStateError as err:
                raise TableError(f"{str(err).capitalize()}.") from None
        await self._file_session_summary(campaign.id, info.number)
        return await self.recap(where, caller)

    # --- players ---------------------------------------------------------------------------------------

    async def join(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        name: str | None = None,
        claim: str | None = None,
        scores: str | None = None,
        method: str = "standard",
        skills: str | None = None,
        weapon: str | None = None,
    ) -> v.CharacterView:
        """Sit down: claim a scenario PC (``claim``) or create one (name, scores, skills, weapon)."""
        from bot.text import clean_name

        name, claim = (clean_name(x) if x else x for x in (name, claim))  # no escapes or NULs in names
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            member = await self._member(s, campaign, caller)
            if member is not None and member.active and member.character_id:
                raise TableError("You already play a character here. Use /leave first to change.")
            is_gm = bool(member and member.is_gm)
            if claim:
                pc_id = await self._claimable(s, campaign, caller, claim)
            else:
                pc_id = await self._create_pc(
                    s,
                    campaign,
                    name=name,
                    scores=scores,
                    method=method,
                    skills=skills,
                    weapon=weapon,
                    user_id=caller.user_id,
                )
            await service.set_member(
                s,
                campaign_id=campaign.id,
                user_id=caller.user_id,
                character_id=pc_id,
                active=True,
                is_gm=is_gm,
            )
            return await self._character_view(s, campaign.id, pc_id)

    async def _claimable(self, s: Any, campaign: CampaignView, caller: v.Caller, claim: str) -> str:
        match = await service.find_entity(s, campaign_id=campaign.id, name=claim, viewer=GM_VIEW)
        if match is None:
            try:
                match = await service.get_entity(s, campaign_id=campaign.id, entity_id=claim, viewer=GM_VIEW)
            except LedgerError:
                match = None
        if match is None or match.kind != "pc":
            raise NotFound(f"No player character called '{claim}' in this campaign.")
        owner = match.owner_user_id
        if owner and not owner.startswith("player:") and owner != caller.user_id:
            raise TableError(f"{match.name} belongs to another player.")
        members = await service.list_members(s, campaign_id=campaign.id, active_only=True)
        if any(m.character_id == match.id and m.user_id != caller.user_id for m in members):
            raise TableError(f"{match.name} is already played by someone at this table.")
        return match.id

    async def _create_pc(
        self,
        s: Any,
        campaign: CampaignView,
        *,
        name: str | None,
        scores: str | None,
        method: str,
        skills: str | None,
        weapon: str | None,
        user_id: str,
    ) -> str:
        from rules.creatures import STANDARD_ARRAY, parse_skill, validate_point_buy, validate_standard_array
        from rules.srd import build_pc, weapons

        if not name or not name.strip():
            raise InvalidAction("Give your character a name (or claim a scenario character).")
        name = name.strip()[:40]
        raw = scores or ",".join(str(x) for x in STANDARD_ARRAY)
        weapon_id = _slug(weapon or "longsword")
        if weapon_id not in weapons():
            raise InvalidAction(
                f"Unknown weapon '{weapon}'. Try longsword, shortbow, dagger, mace or quarterstaff."
            )
        try:
            values = [int(x) for x in re.split(r"[,\s]+", raw.strip()) if x]
            abilities = (
                validate_point_buy(values) if method == "pointbuy" else validate_standard_array(values)
            )
            skill_list = [parse_skill(x).value for x in re.split(r"[,]+", skills or "") if x.strip()][:4]
            sheet = {
                "name": name,
                "level": 1,
                "abilities": abilities.model_dump(),
                "skills": skill_list,
                "weapons": [weapon_id],
            }
            block = build_pc(sheet)
        except ValueError:
            raise InvalidAction(
                "Scores are six numbers, e.g. 15,14,13,12,10,8 (STR, DEX, CON, INT, WIS, CHA)."
            ) from None
        except RulesError as err:
            raise InvalidAction(str(err)) from None
        sheet["max_hp"] = block.max_hp
        pc_id = f"pc-{_slug(name)}"
        existing = await service.get_entities(s, campaign_id=campaign.id, entity_ids=[pc_id], viewer=GM_VIEW)
        if existing:
            pc_id = f"{pc_id}-{user_id[-4:]}"
        pcs = await self._pc_ids(s, campaign.id)
        others = await service.get_entities(s, campaign_id=campaign.id, entity_ids=pcs, viewer=GM_VIEW)
        location = next(
            (o.location for o in others if o.location), campaign.settings.get("starting_location")
        )
        latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
        try:
            await service.apply_changes(
                s,
                campaign_id=campaign.id,
                session_number=latest.number,
                round_number=None,
                cause=f"join-{user_id}",
                mutations=[
                    {
                        "kind": "create_entity",
                        "id": pc_id,
                        "entity_kind": "pc",
                        "name": name,
                        "owner": user_id,
                        "sheet": sheet,
                        "location": location,
                        "hp": block.max_hp,
                    }
                ],
            )
        except LedgerError as err:
            raise InvalidAction(str(err)) from None
        return pc_id

    async def _character_view(self, s: Any, campaign_id: int, pc_id: str) -> v.CharacterView:
        from bot.scene import stat_block

        pc = await service.get_entity(s, campaign_id=campaign_id, entity_id=pc_id, viewer=GM_VIEW)
        block = stat_block(pc)
        names = await self._names(s, campaign_id, [pc.location] if pc.location else [])
        return v.CharacterView(
            id=pc.id,
            name=pc.name,
            owner_user_id=pc.owner_user_id,
            level=block.level or 1,
            hp=pc.hp if pc.hp is not None else block.max_hp,
            max_hp=block.max_hp,
            ac=block.ac,
            abilities={a: getattr(block.abilities, a) for a in type(block.abilities).model_fields},
            skills=tuple(str(x) for x in block.skills),
            location=names.get(pc.location or "", pc.location),
            conditions=pc.conditions,
        )

    async def leave(self, where: v.Where, caller: v.Caller) -> v.CharacterView:
        """Stand up from the table; the character stays in the world, no longer acting."""
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            member, pc_id = await self._player(s, campaign, caller)
            view = await self._character_view(s, campaign.id, pc_id)
            await service.set_member(
                s,
                campaign_id=campaign.id,
                user_id=caller.user_id,
                character_id=None,
                active=False,
                is_gm=member.is_gm,
            )
            return view

    # --- rounds ----------------------------------------------------------------------------------------

    async def _open_next_round(self, s: Any, campaign_id: int) -> RoundView | None:
        """Open the next round of the open session, sealing a fresh seed; carry late actions into it."""
        from rules.fairness import commit_seed

        latest = await ledger_sessions.latest_session(s, campaign_id=campaign_id)
        if not latest.open or await service.current_round(s, campaign_id=campaign_id) is not None:
            return None
        last = await service.last_round(s, campaign_id=campaign_id)
        number = last.number + 1 if last and last.session_number == latest.number else 1
        campaign = await service.get_campaign(s, campaign_id=campaign_id)
        minutes = float(campaign.settings.get("deadline_minutes", self.settings.rounds.deadline_minutes))
        seed = self.seeds()
        rnd = await service.open_round(
            s,
            campaign_id=campaign_id,
            session_number=latest.number,
            number=number,
            seed_commitment=commit_seed(seed),
            deadline=self.clock() + timedelta(minutes=minutes),
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
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            _, pc_id = await self._player(s, campaign, caller)
            rnd = await service.current_round(s, campaign_id=campaign.id)
            if rnd is None:
                raise NoOpenRound("No round is open: the GM starts a session with /session start.")
            pc = await service.get_entity(s, campaign_id=campaign.id, entity_id=pc_id, viewer=GM_VIEW)
            if pc.alive is False:
                raise InvalidAction(f"{pc.name} is dead and can no longer act.")
            scene = await load_scene(s, campaign_id=campaign.id, pc_ids=await self._pc_ids(s, campaign.id))
        pscene = parse_scene(scene, pc_id)
        intent = await self._intent(text, pscene, target=target, item=item, skill=skill)
        try:
            resolve_round(seed=0, intents=[intent], state=round_state(scene))
        except IntentError as err:
            raise InvalidAction(str(err)) from None
        except RulesError as err:
            raise InvalidAction(str(err)) from None
        summary = intent_summary(intent, scene)
        payload = intent.model_dump(mode="json")
        async with self._session() as s:
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
        sentence = text
        if extra and extra.lower() not in text.lower():
            sentence = f"{text} {extra}".strip()
        parsed: Intent | ParseRefusal = (
            await self.parser.parse(sentence, scene) if sentence else ParseRefusal(reason="", unclear=True)
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

        target_id = find(target, [c for c in scene.creatures if c.id != scene.actor])
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
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            _, pc_id = await self._player(s, campaign, caller)
            rnd = await service.current_round(s, campaign_id=campaign.id)
            if rnd is None or rnd.state not in ACCEPTING:
                raise NoOpenRound("There is no open round to be ready for.")
            changed = await service.set_ready(s, round_id=rnd.id, player_user_id=caller.user_id)
            if changed == 0:
                default = str(campaign.settings.get("default_action") or self.settings.rounds.default_action)
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
            waiting = await self._waiting(s, campaign.id, rnd.id)
            pc = await service.get_entity(s, campaign_id=campaign.id, entity_id=pc_id, viewer=GM_VIEW)
        name = pc.name if pc is not None else caller.display_name
        if waiting:
            return v.ReadyReceipt(round_number=rnd.number, waiting=waiting, character_name=name)
        report = await self._close_and_finish(campaign.id, rnd.id, reply=reply, caller_id=caller.user_id)
        return v.ReadyReceipt(round_number=rnd.number, waiting=(), report=report, character_name=name)

    async def round_status(self, where: v.Where, caller: v.Caller) -> v.RoundStatusView:
        """Who has acted and who is ready in the open round, its deadline and its seed commitment."""
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            rnd = await service.current_round(s, campaign_id=campaign.id)
            if rnd is None:
                raise NoOpenRound("No round is open: the GM starts a session with /session start.")
            return await self._status_view(s, campaign.id, rnd)

    async def close_round(
        self, where: v.Where, caller: v.Caller, *, reply: str | None = None
    ) -> v.RoundReport:
        """Close the open round now (GM): absent players take the default action; resolve, narrate, post.

        ``reply``: the command's opaque reply handle, answered after a restart as in :meth:`ready`.
        """
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            await self._require_gm(s, campaign, caller)
            rnd = await service.current_round(s, campaign_id=campaign.id)
            if rnd is None:
                raise NoOpenRound("There is no round to close.")
        return await self._close_and_finish(campaign.id, rnd.id, reply=reply, caller_id=caller.user_id)

    async def tick(self) -> None:
        """Close every round whose deadline passed and retry due deliveries (called every 30 s by the bot).

        Each round is handled on its own: one that fails is logged (with its round) and the others go on.
        """
        async with self._session() as s:
            due = await ledger_sessions.due_rounds(s, now=self.clock())
        for rnd in due:
            try:
                # Nobody typed a command, so no reply carries the dice: the round's results are queued as a
                # follow-up the courier posts in the channel (after a crash too).
                await self._close_and_finish(rnd.campaign_id, rnd.id, channel_results=True)
            except TableError as err:
                _log_round(rnd, f"skipped at its deadline: {err}")
            except Exception:
                _log_round(rnd, "failed to close at its deadline", exc_info=True)
        await self._deliver_due()

    async def resume(self) -> None:
        """After a restart: finish every interrupted round and deliver every message that is due.

        Each round and each message recovers on its own: a failure is logged with its round, the rest go on.
        """
        async with self._session() as s:
            rounds = await ledger_sessions.interrupted_rounds(s)
        for rnd in rounds:
            try:
                await self._finish(rnd.campaign_id, rnd.id)
            except Exception:
                _log_round(rnd, "failed to resume; the other rounds go on", exc_info=True)
        await self._deliver_due()

    async def _deliver_due(self) -> None:
        """Send every message whose (next) try is due, round by round; a failing round stops no other."""
        async with self._session() as s:
            due = await ledger_sessions.due_outbox(s, now=self.clock())
        for round_id in sorted({m.round_id for m in due if m.round_id is not None}):
            try:
                async with self._session() as s:
                    rnd = await service.get_round(s, round_id=round_id)
                if rnd.state == "narrated":  # interrupted after narration: finish it (posts, opens the next)
                    await self._finish(rnd.campaign_id, rnd.id)
                elif rnd.state == "posted":  # a retry of a message that failed before
                    async with self._lock(rnd.campaign_id):
                        await self._deliver(rnd.campaign_id, rnd)
                # Earlier states: the messages wait until the round is told (a reply to a round not closed).
            except Exception:
                _log.warning("delivering the messages of round id %s failed", round_id, exc_info=True)

    async def gm_resend(
        self, where: v.Where, caller: v.Caller, *, round_number: int | None = None
    ) -> ResendView:
        """Send again what could not be delivered (GM): by default the newest round whose story is waiting.

        The messages of that round that were given up on (a channel post that failed every retry, a missing
        permission, a send a crash interrupted) are queued again and sent now, once each.
        """
        from ledger.store.sessions import find_round, latest_undelivered_round

        async with self._session() as s:
            campaign = await self._campaign(s, where)
            await self._require_gm(s, campaign, caller)
            if round_number is None:
                round_id = await latest_undelivered_round(s, campaign_id=campaign.id)
                if round_id is None:
                    raise NotFound("Nothing is waiting to be sent: every round's story reached the channel.")
                rnd = await service.get_round(s, round_id=round_id)
            else:
                latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
                found = await find_round(
                    s, campaign_id=campaign.id, session_number=latest.number, number=round_number
                )
                if found is None:
                    raise NotFound(f"No round {round_number} in session {latest.number}.")
                rnd = found
            if rnd.state not in ("narrated", "posted"):
                raise TableError(f"Round {rnd.number} has not been told yet: nothing to resend.")
            requeued = await ledger_sessions.requeue_failed(s, round_id=rnd.id)
        async with self._lock(campaign.id):
            await self._deliver(campaign.id, rnd, resend=True)
        async with self._session() as s:
            messages = await service.list_outbox(s, round_id=rnd.id)
        return ResendView(
            round_number=rnd.number,
            requeued=len(requeued),
            story_posted=any(m.kind == "public" and m.status == "sent" for m in messages),
            still_waiting=sum(1 for m in messages if m.status in ("pending", "failed")),
        )

    def _lock(self, campaign_id: int) -> asyncio.Lock:
        return self._locks.setdefault(campaign_id, asyncio.Lock())

    async def _close_and_finish(
        self,
        campaign_id: int,
        round_id: int,
        *,
        reply: str | None = None,
        caller_id: str | None = None,
        channel_results: bool = False,
    ) -> v.RoundReport:
        """Close the round (if it still takes actions) and drive it to posted.

        The command waiting for the result (``reply``, its opaque handle) or, for a round the deadline closed,
        the channel (``channel_results``) gets a ``followup`` row before the round closes: if the process dies
        before this returns, the restarted table answers it with the round's dice. When this call returns, the
        waiting command answers itself and its row is marked sent.
        """
        async with self._lock(campaign_id):
            async with self._session() as s:
                rnd = await service.get_round(s, round_id=round_id)
                if rnd.state in ACCEPTING:
                    await self._step("close")
                if rnd.state != "posted" and (reply is not None or channel_results):
                    await service.add_outbox(
                        s,
                        campaign_id=campaign_id,
                        round_id=round_id,
                        kind="followup",
                        recipient_user_id=caller_id if reply is not None else None,
                        content={"handle": reply, "round": rnd.number},
                        replace=True,
                    )
                if rnd.state in ACCEPTING:
                    await service.set_round_state(s, round_id=round_id, state="closed")
            answering = frozenset({caller_id}) if reply is not None and caller_id else frozenset()
            report = await self._finish_locked(campaign_id, round_id, answering=answering)
            if answering:
                async with self._session() as s:
                    for m in await service.list_outbox(s, round_id=round_id):
                        if (
                            m.kind == "followup"
                            and m.recipient_user_id in answering
                            and m.status == "pending"
                        ):
                            await service.mark_outbox(s, outbox_id=m.id, status="sent", external_id="reply")
            return report

    async def _finish(self, campaign_id: int, round_id: int) -> v.RoundReport:
        async with self._lock(campaign_id):
            return await self._finish_locked(campaign_id, round_id)

    async def _finish_locked(
        self, campaign_id: int, round_id: int, *, answering: frozenset[str] = frozenset()
    ) -> v.RoundReport:
        """Drive a closed round through resolved, narrated and posted, from whatever state it is in.

        ``answering``: users whose command is waiting for this call (their follow-ups are not sent).
        """
        async with self._session() as s:
            rnd = await service.get_round(s, round_id=round_id)
        if rnd.state == "closed":
            await self._resolve(campaign_id, rnd)
        async with self._session() as s:
            rnd = await service.get_round(s, round_id=round_id)
        if rnd.state == "resolved":
            await self._narrate(campaign_id, rnd)
        async with self._session() as s:
            rnd = await service.get_round(s, round_id=round_id)
        if rnd.state == "narrated":
            await self._deliver(campaign_id, rnd, answering=answering)
            async with self._session() as s:
                await self._step("posted")
                await service.set_round_state(s, round_id=round_id, state="posted")
                await self._open_next_round(s, campaign_id)
        return await self._report(round_id)

    async def _resolve(self, campaign_id: int, rnd: RoundView) -> None:
        """closed -> resolved: defaults for the absent, the rules, and one ledger transaction."""
        from bot.scene import load_scene, mutations_for, round_state
        from ledger.store.sessions import sealed_seed
        from rules.round import resolve_round

        seed = sealed_seed(rnd)
        async with self._session() as s:
            campaign = await service.get_campaign(s, campaign_id=campaign_id)
            members = await service.list_members(s, campaign_id=campaign_id, active_only=True)
            subs = [x for x in await service.list_submissions(s, round_id=rnd.id) if x.origin != "late-moved"]
            acted = {x.player_user_id for x in subs}
            default = str(campaign.settings.get("default_action") or self.settings.rounds.default_action)
            notices: list[str] = []
            pc_ids = [m.character_id for m in members if m.character_id]
            pcs = {
                e.id: e
                for e in await service.get_entities(
                    s, campaign_id=campaign_id, entity_ids=pc_ids, viewer=GM_VIEW
                )
            }
            for m in members:
                if (
                    m.character_id
                    and m.user_id not in acted
                    and pcs.get(m.character_id)
                    and pcs[m.character_id].alive is not False
                ):
                    intent = Intent(kind=IntentKind.HOLD, actor=m.character_id, text=default)
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
                    notices.append(f"{pcs[m.character_id].name} was absent and {default}.")
            subs = [x for x in await service.list_submissions(s, round_id=rnd.id) if x.origin != "late-moved"]
            scene = await load_scene(s, campaign_id=campaign_id, pc_ids=pc_ids)
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
                notices.append(f"{scene.name(pc_id)}'s action could not count ({err}); they hold instead.")
                intent = Intent(kind=IntentKind.HOLD, actor=pc_id, text=sub.text)
            intents.append(intent)
        intents += _npc_intents(scene, intents)
        resolution = resolve_round(seed=seed, intents=intents, state=state)
        mutations = mutations_for(
            resolution, scene, session_number=rnd.session_number, round_number=rnd.number
        )
        reveals = await self._reveals(campaign_id, scene, resolution, mutations, rnd)
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
        await self._step("resolve")
        async with self._session() as s:
            await service.apply_round(
                s,
                campaign_id=campaign_id,
                session_number=rnd.session_number,
                round_number=rnd.number,
                mutations=mutations + [r["mutation"] for r in reveals],
                resolution=record,
                cause=f"round-{rnd.session_number}.{rnd.number}",
            )

    async def _reveals(
        self,
        campaign_id: int,
        scene: Scene,
        resolution: RoundResolution,
        mutations: list[dict[str, Any]],
        rnd: RoundView,
    ) -> list[dict[str, Any]]:
        """Private discoveries: a successful Perception/Insight/Investigation check shows that player one
        record the party cannot see (a secret about the target or the place), and the ledger files it as
        now known to that player."""
        from ledger.recall.retrieval import scene_context

        out: list[dict[str, Any]] = []
        for index, result in enumerate(resolution.results):
            if not result.reveals or result.intent is None:
                continue
            actor = scene.creatures.get(result.actor)
            if actor is None or actor.kind != "pc":
                continue
            seat = _seat(actor.owner_user_id, "")
            focus = [x for x in (result.intent.target,) if x] or sorted(scene.creatures)
            async with self._session() as s:
                context = await scene_context(
                    s,
                    campaign_id=campaign_id,
                    location=actor.location,
                    present=focus,
                    viewer=GM_VIEW,
                    current_session=rnd.session_number,
                )
            # Only the GM's secrets can be discovered; another player's private record is never revealed.
            secret = next((r for r in context.records if r.visibility == "gm"), None)
            if secret is not None:
                # "Old Wei: fear = Old Wei fears ... (session 11)" -> the fact itself, as a discovery.
                text = re.sub(r"\s*\(session \d+\)$", "", secret.text.split(" = ", 1)[-1]).strip()
            elif result.intent.target and result.intent.target in scene.creatures:
                # No secret to find: read the target instead, from the ledger (its stance, or how hurt it is).
                target = scene.creatures[result.intent.target]
                stance = next((r for r in context.records if r.kind == "edge"), None)
                if stance is not None:
                    text = f"You read {target.name} well: {stance.text}"
                else:
                    from bot.scene import stat_block

                    full = stat_block(target).max_hp
                    shape = (
                        "badly hurt"
                        if (target.hp if target.hp is not None else full) < full / 2
                        else "unhurt"
                    )
                    text = f"{target.name} is {shape} and watches {actor.name} closely."
            else:
                continue
            key = f"{result.actor}-learned-{_slug(secret.ref if secret else str(index))}"[:150]
            out.append(
                {
                    "actor": result.actor,
                    "seat": seat,
                    "text": text[:MAX_NOTE_CHARS],
                    "ref": secret.ref if secret else None,
                    "mutation": {
                        "kind": "set_fact",
                        "key": key,
                        "value": text[:190],
                        "visibility": f"player:{seat}" if seat else "gm",
                        "cause": f"round-{rnd.session_number}.{rnd.number}#{index}",
                    },
                }
            )
        return out

    async def _narrate(self, campaign_id: int, rnd: RoundView) -> None:
        """resolved -> narrated: retrieve, narrate, check, and store every message before sending any."""
        from bot.narrator.base import ConflictNote, RetrievedRecord, Reveal, SceneSummary
        from bot.narrator.pipeline import narrate_checked
        from bot.scene import load_scene, narration_request, outcomes, round_facts
        from ledger.check.judge import check
        from ledger.check.snapshot_sql import snapshot_from_ledger
        from ledger.recall.retrieval import scene_context
        from rules.round import RoundResolution

        record = rnd.resolution or {}
        resolution = RoundResolution.model_validate(record["resolution"])
        texts: dict[str, str] = record.get("texts", {})
        players: dict[str, str] = record.get("players", {})
        async with self._session() as s:
            campaign = await service.get_campaign(s, campaign_id=campaign_id)
            members = await service.list_members(s, campaign_id=campaign_id, active_only=True)
            pc_ids = [m.character_id for m in members if m.character_id]
            scene = await load_scene(s, campaign_id=campaign_id, pc_ids=pc_ids)
            present = sorted(scene.creatures)
            location = scene.locations[0] if scene.locations else None
            context = await scene_context(
                s,
                campaign_id=campaign_id,
                location=location,
                present=present,
                viewer=Viewer.party(),
                current_session=rnd.session_number,
                summaries=self._summaries_for_round(),
                summary_campaign=f"campaign-{campaign_id}",
            )
            knowledge: dict[str, tuple[str, ...]] = {}
            for cid, entity in scene.creatures.items():
                if entity.kind == "pc":
                    continue
                events = await service.npc_knowledge(
                    s, campaign_id=campaign_id, npc_id=cid, viewer=Viewer.party(), limit=8
                )
                knowledge[cid] = tuple(describe_event(e.kind, e.payload, scene.name) for e in events)
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
        # Without the summary index the round goes on with ledger records only; the GM hears of it once.
        await self._summary_upkeep(campaign_id, context.summaries_unavailable)
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
            scene=scene,
            after=resolution,
            outcomes_=outcomes(resolution, scene, texts),
            reveals=reveals,
            records=[RetrievedRecord(ref=r.ref, text=r.text, why=r.why) for r in context.records],
            summaries=[SceneSummary(id=h.id, text=h.text) for h in context.summaries],
            recent=recent,
            npc_knowledge=knowledge,
            players=player_ids,
            variety_seed=int(record.get("seed", 0)) % 1_000_003,
        )

        async def check_draft(draft: Draft) -> list[ConflictNote]:
            report = check(draft.public_text, party_snapshot, audience="party")
            extra = []
            leaks = list(report.leaks)
            if self.claim_extractor is not None and draft.source != "fallback":
                # The model's own reading of its draft adds claims the word lists miss; it never removes any.
                from bot.narrator.claims_llm import extra_conflicts, extra_leaks

                extra = await extra_conflicts(
                    self.claim_extractor, draft.public_text, party_snapshot, audience="party"
                )
                if not (report.verdict == "conflict" or extra):
                    # ... and, for a draft that passes, it is asked per secret whether the draft gives it away
                    leaks += await extra_leaks(
                        self.claim_extractor, draft.public_text, party_snapshot, audience="party"
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
            request, narrator=self.narrator, fallback=self.offline, check=check_draft, recent_texts=recent
        )
        source = "offline" if outcome.offline else outcome.source
        names = {**record.get("names", {}), **scene.names()}
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
        }
        await self._step("narrate")
        stored = "fallback" if source == "offline" else source
        async with self._session() as s:
            await ledger_sessions.store_narration(
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
            )

    async def _deliver(
        self,
        campaign_id: int,
        rnd: RoundView,
        *,
        answering: frozenset[str] = frozenset(),
        resend: bool = False,
    ) -> None:
        """Send every due message of the round (the public narration first, then DMs, then follow-ups).

        A message is claimed (``sending``) before the courier is called. A crash during the call leaves it
        ``sending``; on resume it is marked ``failed`` and the GM is told, rather than risking a second post.
        A send that fails is retried later with backoff (:data:`RETRY_DELAYS`, kept in the row, so a restart
        carries on); when the tries are spent, or a permission is missing, the GM and the channel are told
        that the story waits for ``/gm resend``. Each message is handled on its own: one that fails (even in
        the table's own code) is logged with its round and never stops the others.
        """
        async with self._session() as s:
            campaign = await service.get_campaign(s, campaign_id=campaign_id)
            for lost in await ledger_sessions.abandon_sending(s, round_id=rnd.id):
                await service.add_conflict(
                    s,
                    campaign_id=campaign_id,
                    round_id=rnd.id,
                    claim_text=f"Round {rnd.number}: a {lost.kind} message may not have been delivered "
                    "(the bot stopped while sending it); it is kept: /gm resend sends it again.",
                )
            messages = await ledger_sessions.due_outbox(s, now=self.clock(), round_id=rnd.id)
        order = {"public": 0, "dm": 1, "followup": 2}
        for message in sorted(messages, key=lambda m: (order.get(m.kind, 3), m.id)):
            if message.kind == "followup" and message.recipient_user_id in answering:
                continue  # that command is waiting for this call and answers itself
            await self._step(f"send-{message.kind}")
            try:
                async with self._session() as s:
                    if not await ledger_sessions.claim_outbox(s, outbox_id=message.id):
                        continue
            except Exception:
                _log.warning("round %s: could not claim message %s", rnd.id, message.id, exc_info=True)
                continue
            external: str | None = None
            status, error, permission = "sent", "", None
            try:
                external, status = await self._send(campaign, rnd, message)
            except DMClosed:
                status = "dm_closed"
            except MissingPermission as err:
                status, error, permission = "failed", str(err), err.permission
            except Exception as err:
                # A Discord 5xx, a dropped connection, or a bug: the message stays and is tried again.
                _log.warning(
                    "round %s: sending %s message %s failed", rnd.id, message.kind, message.id, exc_info=True
                )
                status, error = "failed", f"{type(err).__name__}: {err}"[:200]
            await self._step(f"sent-{message.kind}")
            try:
                await self._record_send(campaign, rnd, message, status, external, error, permission, resend)
            except Exception:
                _log.warning(
                    "round %s: recording the fate of message %s failed", rnd.id, message.id, exc_info=True
                )

    async def _send(self, campaign: CampaignView, rnd: RoundView, message: Any) -> tuple[str | None, str]:
        """Hand one message to the courier; returns (its external id, the status to record)."""
        if message.kind == "public":
            text = _public_text(message.content)
            players = sorted({u for u in message.content.get("players", ()) if u.isdigit()})
            external = await self.courier.post_public(
                campaign.guild_id, campaign.channel_id, text, mention_user_ids=players
            )
            return external, "sent"
        if message.kind == "dm":
            header = f"**Private note, round {message.content.get('round')} ({campaign.name})**"
            text = f"{header}\n{message.content.get('text', '')}"
            return await self.courier.send_dm(message.recipient_user_id or "", text), "sent"
        # followup: the dice of a round whose command never got its answer (or that the deadline closed)
        report = await self._report(rnd.id)
        handle = message.content.get("handle")
        answer = getattr(self.courier, "answer", None)
        if handle and answer is not None:
            try:
                text = f"Round {rnd.number} resolved: the story is in the channel, and here are the dice."
                return await answer(handle, text, report), "sent"
            except ReplyExpired:
                pass  # past Discord's 15 minutes: a fresh channel message instead
        post_results = getattr(self.courier, "post_results", None)
        if post_results is None:
            return None, "skipped"
        who = message.recipient_user_id
        header = f"<@{who}> round {rnd.number} resolved: here are its dice." if handle and who else ""
        return await post_results(campaign.guild_id, campaign.channel_id, report, header=header), "sent"

    async def _record_send(
        self,
        campaign: CampaignView,
        rnd: RoundView,
        message: Any,
        status: str,
        external: str | None,
        error: str,
        permission: str | None,
        resend: bool,
    ) -> None:
        """Store a send's outcome; after a failure, schedule the retry or tell the GM and the channel."""
        if status != "failed":
            async with self._session() as s:
                await service.mark_outbox(s, outbox_id=message.id, status=status, external_id=external)
            return
        async with self._session() as s:
            failure = await ledger_sessions.send_failed(
                s,
                outbox_id=message.id,
                error=error,
                now=self.clock(),
                retry_delays=() if resend else RETRY_DELAYS,
                give_up=permission is not None,
            )
        if not failure.gave_up:
            return
        what = {"public": "the story", "dm": "a private note", "followup": "the dice"}.get(message.kind, "")
        if permission is not None:
            line = (
                f"I can't post {what} of round {rnd.number} in <#{campaign.channel_id}>: I need the "
                f"**{permission}** permission there. Grant it, then use /gm resend."
            )
        else:
            line = (
                f"Round {rnd.number}: {what} could not be delivered after {failure.attempts} tries "
                f"({error[:80]}). It is kept: use /gm resend when Discord answers again."
            )
        async with self._session() as s:
            await service.add_conflict(s, campaign_id=campaign.id, round_id=rnd.id, claim_text=line[:500])
        if resend:  # the GM who just asked for the resend is answered directly
            return
        if message.kind == "public" or permission is not None:
            try:
                await self.courier.send_dm(campaign.owner_user_id, f"**{campaign.name}**: {line}")
            except Exception:
                _log.warning("round %s: could not tell the GM that the story waits", rnd.id, exc_info=True)
        if message.kind != "public":
            return
        try:
            await self.courier.post_public(
                campaign.guild_id,
                campaign.channel_id,
                f"The story of round {rnd.number} is waiting: it could not be posted yet. "
                "The GM can send it with /gm resend.",
            )
        except Exception:
            _log.info("round %s: the channel could not be told either", rnd.id)

    async def _report(self, round_id: int) -> v.RoundReport:
        async with self._session() as s:
            rnd = await service.get_round(s, round_id=round_id)
            messages = await service.list_outbox(s, round_id=round_id)
            conflicts = [
                c
                for c in await service.list_conflicts(s, campaign_id=rnd.campaign_id, status=None)
                if c.round_id == round_id
            ]
        public = next((m for m in messages if m.kind == "public"), None)
        content = public.content if public else {}
        record = rnd.resolution or {}
        from rules.fairness import commit_seed

        seed = (
            int(record.get("seed", record.get("sealed_seed", 0)))
            if rnd.state in ("narrated", "posted")
            else 0
        )
        return v.RoundReport(
            round_number=rnd.number,
            initiative=tuple(content.get("initiative", ())),
            actions=tuple(v.ActionLine.model_validate(a) for a in content.get("actions", ())),
            public_text=str(content.get("text", "")),
            source=str(content.get("source", "")),
            seed=seed,
            seed_commitment=rnd.seed_commitment or (commit_seed(seed) if seed else ""),
            dms_sent=sum(1 for m in messages if m.kind == "dm" and m.status == "sent"),
            dms_undelivered=tuple(
                m.recipient_user_id or ""
                for m in messages
                if m.kind == "dm" and m.status in ("dm_closed", "failed")
            ),
            conflicts_queued=len(conflicts),
            notices=tuple(content.get("notices", ())),
        )


# --- helpers ---------------------------------------------------------------------------------------------


def resolve_scenario(name: str) -> Path:
    """A bundled scenario by name (``harbor`` or ``harbor.toml``); never an arbitrary path from chat."""
    stem = Path(name.strip()).name.removesuffix(".toml")
    path = SCENARIO_DIR / f"{stem}.toml"
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", stem) or not path.is_file():
        known = ", ".join(sorted(p.stem for p in SCENARIO_DIR.glob("*.toml")))
        raise NotFound(f"No scenario '{name}'. Available: {known}.")
    return path


def _owners(pcs: Sequence[Any], members: Sequence[Any]) -> list[tuple[Any, str]]:
    by_pc = {m.character_id: m.user_id for m in members if m.character_id}
    return [(pc, by_pc.get(pc.id, "?")) for pc in pcs]


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


def _int_id(user_id: str | None) -> int | None:
    return int(user_id) if user_id and user_id.isdigit() else None


def _public_text(content: dict[str, Any]) -> str:
    header = f"**Round {content.get('round')}**"
    notices = "".join(f"\n-# {n}" for n in content.get("notices", ()))
    return f"{header}\n{content.get('text', '')}{notices}"


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
        if r.intent is not None or r.rolls
    ]


_ID = re.compile(r"\b(?:pc|npc|monster|loc|item)-[a-z0-9]+(?:-[a-z0-9]+)*\b")


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
