"""Campaigns, sessions of play and players: starting and ending a campaign or a session, joining and leaving,
and the campaign's status as the front ends show it."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.errors import InvalidAction, NotFound, TableError
from bot.table.context import ACCEPTING, GM_VIEW, SCENARIO_DIR, slug
from ledger import service
from ledger.errors import LedgerError, RoundStateError
from ledger.store import sessions as ledger_sessions
from rules.errors import RulesError

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.table.context import Lookups, TableContext
    from bot.table.reads import Reads
    from bot.table.rounds import Rounds
    from bot.table.summaries import SummaryUpkeep
    from ledger.scenario.format import Scenario, ScenarioError
    from ledger.store.records import CampaignView

#: The ``scenario`` choice that starts a blank world (one place where the PCs stand; the GM builds the rest).
BLANK = "blank"
#: How many of a bad world file's problems the GM is shown (the scenario reader's own limit).
MAX_WORLD_PROBLEMS = 20
#: A refusal is one Discord message: the problems are cut to fit.
MAX_REFUSAL_CHARS = 1900


class CampaignExportView(v.View):
    """A campaign exported as a scenario file for its GM: the TOML ``text`` and what it holds.

    ``problems`` lists what the scenario reader would refuse in the file (empty: it loads back as it is).
    """

    name: str
    filename: str
    text: str
    events: int
    entries: int
    problems: tuple[str, ...] = ()


class Campaigns:
    """Campaigns, sessions of play and the players at the table."""

    def __init__(
        self, ctx: TableContext, lookups: Lookups, rounds: Rounds, reads: Reads, summaries: SummaryUpkeep
    ) -> None:
        self.ctx = ctx
        self.lookups = lookups
        self.rounds = rounds
        self.reads = reads
        self.summaries = summaries

    # --- campaigns and sessions ------------------------------------------------------------------------

    async def start_campaign(
        self, where: v.Where, caller: v.Caller, *, name: str, scenario: str | None
    ) -> v.CampaignView:
        """Begin a campaign in this channel (the caller becomes its GM), from a bundled scenario or blank.

        A scenario campaign opens its next session and first round at once, so players can /join and /act.
        ``scenario`` ``blank`` (or none) starts a blank world: one place, the Crossroads, where the PCs stand
        until the GM builds the rest.
        """
        blank = scenario is None or scenario.strip().lower() in ("", BLANK)
        path = None if blank or scenario is None else resolve_scenario(scenario)
        return await self._start(where, caller, name=name, path=path)

    async def start_campaign_from_file(
        self, where: v.Where, caller: v.Caller, *, path: Path
    ) -> v.CampaignView:
        """Like :meth:`start_campaign` with any scenario file (the terminal table and the demo)."""
        return await self._start(where, caller, name="", path=path)

    async def check_world_upload(self, *, filename: str, size: int) -> None:
        """Refuse a GM's world file before it is downloaded: not a ``.toml`` name, or over the size cap."""
        from ledger.scenario.reading import MAX_SCENARIO_BYTES

        shown = _shown_filename(filename)
        if not shown.lower().endswith(".toml"):
            raise InvalidAction(f"Attach the world as a .toml scenario file (got '{shown}').")
        if size > MAX_SCENARIO_BYTES:
            raise InvalidAction(
                f"{shown} is too large: {size:,} bytes, at most {MAX_SCENARIO_BYTES:,}. Nothing was created."
            )

    async def start_campaign_from_upload(
        self, where: v.Where, caller: v.Caller, *, filename: str, data: bytes, name: str | None = None
    ) -> v.CampaignView:
        """Begin a campaign from a GM's own world file (the bytes of a ``.toml`` attachment).

        The file is read with the scenario reader's limits (size, nesting) and every check; a bad file is
        refused with its first problems (at most 20) and nothing is created. ``name`` renames the campaign.
        """
        import asyncio

        from ledger.scenario.format import ScenarioError, ScenarioUnreadable
        from ledger.scenario.reading import parse_scenario

        await self.check_world_upload(filename=filename, size=len(data))
        source = _shown_filename(filename)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidAction(
                f"{source} is not UTF-8 text: save it as UTF-8 TOML. Nothing was created."
            ) from None
        try:
            # A big file takes a moment to check: off the event loop, so the bot keeps answering.
            scenario = await asyncio.to_thread(parse_scenario, text, source=source)
        except ScenarioUnreadable as err:
            raise InvalidAction(f"{source}: {err.summary()}. Nothing was created.") from None
        except ScenarioError as err:
            raise InvalidAction(_world_problems(source, err)) from None
        if name and name.strip():
            campaign = scenario.campaign.model_copy(update={"name": name.strip()[:120]})
            scenario = scenario.model_copy(update={"campaign": campaign})
        return await self._start(where, caller, name="", world=(scenario, source))

    async def export_campaign(self, where: v.Where, caller: v.Caller) -> CampaignExportView:
        """The whole campaign, history included, as a scenario file that loads back the same (GM)."""
        from ledger.scenario.export import ExportError, export_campaign

        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            try:
                export = await export_campaign(s, campaign_id=campaign.id, now=self.ctx.clock())
            except ExportError as err:
                raise TableError(f"The campaign cannot be exported: {err}.") from None
        return CampaignExportView(
            name=campaign.name,
            filename=export.filename,
            text=export.text,
            events=export.events,
            entries=export.entries,
            problems=export.problems,
        )

    async def _start(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        name: str,
        path: Path | None = None,
        world: tuple[Scenario, str] | None = None,
    ) -> v.CampaignView:
        from ledger.scenario.load import load_scenario_file, load_scenario_into

        async with self.ctx.session() as s:
            if await service.find_campaign(s, guild_id=where.guild_id, channel_id=where.channel_id):
                raise TableError("A campaign already runs in this channel. End it with /campaign end first.")
            if world is not None:
                try:
                    campaign_id = await load_scenario_into(
                        s,
                        scenario=world[0],
                        guild_id=where.guild_id,
                        channel_id=where.channel_id,
                        owner_user_id=caller.user_id,
                        source=world[1],
                    )
                except LedgerError as err:
                    raise InvalidAction(f"{world[1]}: {err}. Nothing was created.") from None
            elif path is not None:
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
        # The world's summaries are indexed while the session and its first round open (the index works in a
        # thread, SQL on the event loop), and both are done before the start returns. Indexing never fails the
        # start: what could not be indexed stays queued.
        indexing = asyncio.create_task(self.summaries.index_pending(campaign_id))
        try:
            async with self.ctx.session() as s:
                latest = await ledger_sessions.latest_session(s, campaign_id=campaign_id)
                if not latest.open:
                    await ledger_sessions.start_session(s, campaign_id=campaign_id)
                await self.rounds.open_next_round(s, campaign_id)
        finally:
            await indexing
        return await self.campaign_status(where, caller)

    async def campaign_status(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """The campaign in this channel: session, round, location and players."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            return await self._campaign_view(s, campaign)

    async def _campaign_view(self, s: AsyncSession, campaign: CampaignView) -> v.CampaignView:
        latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
        rnd = await service.current_round(s, campaign_id=campaign.id)
        members = await service.list_members(s, campaign_id=campaign.id, active_only=True)
        ids = [m.character_id for m in members if m.character_id]
        pcs = await service.get_entities(s, campaign_id=campaign.id, entity_ids=ids, viewer=GM_VIEW)
        location = next((pc.location for pc in pcs if pc.location), None)
        location = location or await self._party_location(s, campaign.id)
        location = location or campaign.settings.get("starting_location")
        names = await self.lookups.names(s, campaign.id, [location] if location else [])
        extractor = self.ctx.claim_extractor
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
            claim_check_fallbacks=extractor.fallbacks if extractor else None,
        )

    async def end_campaign(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """End the campaign (GM). Its ledger stays; a new campaign may start in the channel."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            view = await self._campaign_view(s, campaign)
            await ledger_sessions.end_campaign(s, campaign_id=campaign.id)
        return view.model_copy(update={"status": "ended", "session_open": False})

    async def start_session(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """Open the next session (GM) and its first round."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            try:
                await ledger_sessions.start_session(s, campaign_id=campaign.id)
            except RoundStateError as err:
                raise TableError(f"{str(err).capitalize()}.") from None
            await self.rounds.open_next_round(s, campaign.id)
            return await self._campaign_view(s, campaign)

    async def end_session(self, where: v.Where, caller: v.Caller) -> v.RecapView:
        """Close the session (GM): the open round is discarded if empty, and a summary is filed."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            rnd = await service.current_round(s, campaign_id=campaign.id)
        if rnd is not None and rnd.state in ACCEPTING:
            async with self.ctx.session() as s:
                subs = await service.list_submissions(s, round_id=rnd.id)
            if any(sub.origin == "player" for sub in subs):
                await self.rounds.close_and_finish(campaign.id, rnd.id)
            else:
                async with self.ctx.session() as s:
                    await service.set_round_state(s, round_id=rnd.id, state="posted")
        async with self.ctx.session() as s:
            try:
                info = await ledger_sessions.end_session(s, campaign_id=campaign.id)
            except RoundStateError as err:
                raise TableError(f"{str(err).capitalize()}.") from None
        await self.summaries.file_session_summary(campaign.id, info.number)
        return await self.reads.recap(where, caller)

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
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            member = await self.lookups.member(s, campaign, caller)
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

    async def _claimable(self, s: AsyncSession, campaign: CampaignView, caller: v.Caller, claim: str) -> str:
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
        s: AsyncSession,
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
        weapon_id = slug(weapon or "longsword")
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
        pc_id = f"pc-{slug(name)}"
        existing = await service.get_entities(s, campaign_id=campaign.id, entity_ids=[pc_id], viewer=GM_VIEW)
        if existing:
            pc_id = f"{pc_id}-{user_id[-4:]}"
        pcs = await self.lookups.pc_ids(s, campaign.id)
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

    async def _character_view(self, s: AsyncSession, campaign_id: int, pc_id: str) -> v.CharacterView:
        from bot.scene import stat_block

        pc = await service.get_entity(s, campaign_id=campaign_id, entity_id=pc_id, viewer=GM_VIEW)
        block = stat_block(pc)
        names = await self.lookups.names(s, campaign_id, [pc.location] if pc.location else [])
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
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            member, pc_id = await self.lookups.player(s, campaign, caller)
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

    async def _party_location(self, s: AsyncSession, campaign_id: int) -> str | None:
        """Where most player characters in the ledger stand (a scenario's party, before anyone joins).

        The campaign-start embed named the scenario's ``starting_location`` although its history had
        already moved the party elsewhere (issue 9).
        """
        from collections import Counter

        from ledger.store.party import recent_subjects

        # The ids the newest 500 events are about (one light read: no event views are built).
        ids = await recent_subjects(s, campaign_id=campaign_id, limit=500)
        pcs = await service.get_entities(s, campaign_id=campaign_id, entity_ids=ids, viewer=GM_VIEW)
        places = Counter(
            pc.location for pc in pcs if pc.kind == "pc" and pc.location and pc.alive is not False
        )
        return places.most_common(1)[0][0] if places else None


def resolve_scenario(name: str) -> Path:
    """A bundled scenario by name (``harbor`` or ``harbor.toml``); never an arbitrary path from chat."""
    stem = Path(name.strip()).name.removesuffix(".toml")
    path = SCENARIO_DIR / f"{stem}.toml"
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", stem) or not path.is_file():
        known = ", ".join(sorted(p.stem for p in SCENARIO_DIR.glob("*.toml")))
        raise NotFound(f"No scenario '{name}'. Available: {known}.")
    return path


def _shown_filename(filename: str) -> str:
    """An uploaded file's name as we echo it: its last path part, printable, at most 80 characters."""
    name = Path(filename.replace("\\", "/")).name
    name = re.sub(r"[^A-Za-z0-9._ -]+", "_", name).strip() or "world.toml"
    return name[:80]


def _world_problems(source: str, err: ScenarioError) -> str:
    """A bad world file's refusal: how many problems, then the first ones, cut to one message."""
    count = len(err.problems)
    head = f"{source} is not a valid world ({count} problem{'s' if count != 1 else ''}); nothing was created."
    if count == 1:
        first = err.problems[0]
        return f"{source}: {first.path + ': ' if first.path else ''}{first.message}. Nothing was created."
    lines = [head]
    for p in err.problems[:MAX_WORLD_PROBLEMS]:
        line = f"- {p.path}: {p.message}" if p.path else f"- {p.message}"
        if sum(len(x) + 1 for x in lines) + len(line) > MAX_REFUSAL_CHARS - 40:
            break
        lines.append(line)
    shown = len(lines) - 1
    if shown < count:
        lines.append(f"... and {count - shown} more.")
    return "\n".join(lines)


def _owners(pcs: Sequence[Any], members: Sequence[Any]) -> list[tuple[Any, str]]:
    by_pc = {m.character_id: m.user_id for m in members if m.character_id}
    return [(pc, by_pc.get(pc.id, "?")) for pc in pcs]
