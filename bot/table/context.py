"""What every part of the table shares: one :class:`TableContext`, and the :class:`Lookups` each command
starts from.

The context holds the table's wiring (settings, the database engine and its session factory, the courier,
the clock, the narrators, the intent parser, the summary index, the per-campaign locks). The lookups answer
the questions every command asks first: which campaign runs in this channel, who is its GM, which character
a user plays, what a viewer may see. Permission and visibility rules live here, in one place.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from bot import views as v
from bot.errors import NoCampaign, NotAPlayer, NotGM
from ledger import service
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer
from scenarios import BUNDLED_DIR

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.config import Settings
    from bot.intent_parser import IntentParser
    from bot.narrator.base import Narrator
    from bot.narrator.claims_llm import LLMClaimExtractor
    from bot.narrator.offline import OfflineNarrator
    from bot.table.delivery import Courier
    from ledger.recall.summaries import SummaryIndex
    from ledger.store.channel_read import ChannelTable
    from ledger.store.records import CampaignView, MemberView, RoundView


SCENARIO_DIR = BUNDLED_DIR  # the bundled worlds, package data of ``scenarios`` (found when installed too)
MAX_ACTION_CHARS = 500
MAX_NOTE_CHARS = 500
ACCEPTING = ("open", "collecting")
GM_VIEW = Viewer.gm()


def _every_guild(guild_id: str) -> bool:
    """The default guild owner: a lone process owns every guild."""
    return True


@dataclass(eq=False)
class TableContext:
    """The table's shared wiring, built once by :class:`bot.table.Table` and handed to every part.

    The engine, settings and session factory are fixed. The courier, clock, narrator, intent parser, summary
    index, claim extractor, seed source and step hook may be swapped after construction (a front end attaches
    its courier, a test its clock): every part reads them from here when it uses them, so a swap reaches all.
    """

    engine: AsyncEngine
    settings: Settings
    sessions: async_sessionmaker[AsyncSession]
    courier: Courier
    narrator: Narrator | None
    offline: OfflineNarrator
    parser: IntentParser
    summaries: SummaryIndex | None
    claim_extractor: LLMClaimExtractor | None
    clock: Callable[[], datetime]
    seeds: Callable[[], int]
    #: One lock per campaign: a round is driven (closed, resolved, narrated, delivered) by one task at a time.
    locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    #: Test hook: called with a step name before each persisted step, so a test can "crash" there.
    before_step: Callable[[str], Awaitable[None]] | None = None
    #: Whether this process ticks a guild's campaigns (deadlines, resumes, retried deliveries). Several
    #: processes on one database each own the guilds of their Discord shards (set by the bot from
    #: ``discord.shard_ids``); by default one process owns every guild.
    owns_guild: Callable[[str], bool] = _every_guild
    #: At most this many rounds a tick drives at once. Their narrators overlap; their database work queues
    #: on the engine's pool (15 connections), which gives up on a wait over 30 s, so not thousands at once.
    tick_concurrency: int = 64

    def session(self) -> AsyncSession:
        """A new database session (use as ``async with ctx.session() as s``)."""
        return self.sessions()

    def lock(self, campaign_id: int) -> asyncio.Lock:
        """The campaign's round lock."""
        return self.locks.setdefault(campaign_id, asyncio.Lock())

    async def step(self, name: str) -> None:
        """Mark a persisted step (see :attr:`before_step`)."""
        if self.before_step is not None:
            await self.before_step(name)


def slug(text: str) -> str:
    """Lower-case letters, digits and dashes, at most 60 characters (ids made from names)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "x"


def seat(owner: str | None, user_id: str) -> str:
    """A PC player's visibility handle: a scenario placeholder (``player:bob`` -> ``bob``) or the user."""
    if owner and owner.startswith("player:"):
        return owner.removeprefix("player:")
    return owner or user_id


class Lookups:
    """The lookups and permission checks every command shares, each inside the caller's session."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx

    async def campaign(self, s: AsyncSession, where: v.Where) -> CampaignView:
        """The campaign running in ``where``'s channel, or :class:`NoCampaign`."""
        campaign = await service.find_campaign(s, guild_id=where.guild_id, channel_id=where.channel_id)
        if campaign is None:
            raise NoCampaign("No campaign runs in this channel. A GM can begin one with /campaign start.")
        return campaign

    async def table(self, s: AsyncSession, where: v.Where) -> ChannelTable:
        """The channel's campaign with its members and its round not yet posted, in one read (a round
        command's first); :class:`NoCampaign` when no campaign runs in the channel."""
        found = await service.channel_table(s, guild_id=where.guild_id, channel_id=where.channel_id)
        if found is None:
            raise NoCampaign("No campaign runs in this channel. A GM can begin one with /campaign start.")
        return found

    @staticmethod
    def seated(table: ChannelTable, caller: v.Caller) -> str:
        """The caller's character id among ``table``'s members (as :meth:`player`), or :class:`NotAPlayer`."""
        member = next((m for m in table.members if m.user_id == caller.user_id), None)
        if member is None or not member.active or member.character_id is None:
            raise NotAPlayer("You have no character in this campaign. Use /join first.")
        return member.character_id

    def require_gm_at(self, table: ChannelTable, caller: v.Caller) -> None:
        """:meth:`require_gm` on the members ``table`` read."""
        member = next((m for m in table.members if m.user_id == caller.user_id), None)
        if not self.is_gm(table.campaign, caller, member):
            raise NotGM(
                "Only the GM can do that "
                f"(the campaign owner or the '{self.ctx.settings.discord.gm_role}' role)."
            )

    @staticmethod
    def pcs_at(table: ChannelTable) -> list[str]:
        """The characters of ``table``'s active members (as :meth:`pc_ids`)."""
        return [m.character_id for m in table.members if m.active and m.character_id]

    async def member(self, s: AsyncSession, campaign: CampaignView, caller: v.Caller) -> MemberView | None:
        members = await service.list_members(s, campaign_id=campaign.id)
        return next((m for m in members if m.user_id == caller.user_id), None)

    @staticmethod
    def is_gm(campaign: CampaignView, caller: v.Caller, member: MemberView | None) -> bool:
        return caller.has_gm_role or campaign.owner_user_id == caller.user_id or bool(member and member.is_gm)

    async def require_gm(self, s: AsyncSession, campaign: CampaignView, caller: v.Caller) -> None:
        """Raise :class:`NotGM` unless ``caller`` is the campaign's GM."""
        if not self.is_gm(campaign, caller, await self.member(s, campaign, caller)):
            raise NotGM(
                "Only the GM can do that "
                f"(the campaign owner or the '{self.ctx.settings.discord.gm_role}' role)."
            )

    async def require_gm_members(
        self, s: AsyncSession, campaign: CampaignView, caller: v.Caller
    ) -> list[MemberView]:
        """:meth:`require_gm` that also returns the campaign's members it read (for a round closed now)."""
        members = await service.list_members(s, campaign_id=campaign.id)
        member = next((m for m in members if m.user_id == caller.user_id), None)
        if not self.is_gm(campaign, caller, member):
            raise NotGM(
                "Only the GM can do that "
                f"(the campaign owner or the '{self.ctx.settings.discord.gm_role}' role)."
            )
        return members

    async def player(
        self, s: AsyncSession, campaign: CampaignView, caller: v.Caller
    ) -> tuple[MemberView, str]:
        """The caller's membership and character id, or :class:`NotAPlayer`."""
        member = await self.member(s, campaign, caller)
        if member is None or not member.active or member.character_id is None:
            raise NotAPlayer("You have no character in this campaign. Use /join first.")
        return member, member.character_id

    async def viewer(self, s: AsyncSession, campaign: CampaignView, caller: v.Caller) -> Viewer:
        """What the caller may see: the GM everything, a player their own seat, anyone else the party's."""
        member = await self.member(s, campaign, caller)
        if self.is_gm(campaign, caller, member):
            return GM_VIEW
        if member is not None and member.character_id:
            pc = await service.get_entity(
                s, campaign_id=campaign.id, entity_id=member.character_id, viewer=GM_VIEW
            )
            return Viewer.player(seat(pc.owner_user_id, caller.user_id))
        return Viewer.party()

    async def reader(self, s: AsyncSession, campaign: CampaignView, caller: v.Caller, public: bool) -> Viewer:
        """The viewer a read goes through: the channel's (party) view for ``public``, else the caller's."""
        return Viewer.party() if public else await self.viewer(s, campaign, caller)

    async def pc_ids(self, s: AsyncSession, campaign_id: int) -> list[str]:
        members = await service.list_members(s, campaign_id=campaign_id, active_only=True)
        return [m.character_id for m in members if m.character_id]

    async def names(self, s: AsyncSession, campaign_id: int, refs: Sequence[str]) -> dict[str, str]:
        """Display names for ids of creatures, places and items (for rendering what a viewer already sees)."""
        wanted = sorted({r for r in refs if r})
        names = {
            e.id: e.name
            for e in await service.get_entities(s, campaign_id=campaign_id, entity_ids=wanted, viewer=GM_VIEW)
        }
        places = await ledger_sessions.locations(s, campaign_id=campaign_id, viewer=GM_VIEW)
        names.update({p.id: p.name for p in places if p.id in wanted})
        items = [r for r in wanted if r.startswith("item-") and r not in names]
        for item in await ledger_sessions.items_by_id(
            s, campaign_id=campaign_id, item_ids=items, viewer=GM_VIEW
        ):
            names[item.id] = item.name
        return names

    async def waiting(self, s: AsyncSession, campaign_id: int, round_id: int) -> tuple[str, ...]:
        """The names of the living characters whose players are not ready yet."""
        members = await service.list_members(s, campaign_id=campaign_id, active_only=True)
        subs = await service.list_submissions(s, round_id=round_id)
        ready = {x.player_user_id for x in subs if x.ready and x.origin != "late-moved"}
        ids = [m.character_id for m in members if m.character_id and m.user_id not in ready]
        pcs = await service.get_entities(s, campaign_id=campaign_id, entity_ids=ids, viewer=GM_VIEW)
        return tuple(pc.name for pc in pcs if pc.alive is not False)

    async def status_view(self, s: AsyncSession, campaign_id: int, rnd: RoundView) -> v.RoundStatusView:
        """Who has acted and who is ready in ``rnd``, its deadline and its seed commitment."""
        subs = [x for x in await service.list_submissions(s, round_id=rnd.id) if x.origin != "late-moved"]
        ids = sorted({x.character_id for x in subs if x.character_id})
        names = {
            e.id: e.name
            for e in await service.get_entities(s, campaign_id=campaign_id, entity_ids=ids, viewer=GM_VIEW)
        }
        return v.RoundStatusView(
            round_number=rnd.number,
            state=rnd.state,
            deadline_utc=rnd.deadline.strftime("%Y-%m-%d %H:%M UTC") if rnd.deadline else None,
            acted=tuple(sorted({names.get(x.character_id or "", "?") for x in subs})),
            ready=tuple(sorted({names.get(x.character_id or "", "?") for x in subs if x.ready})),
            waiting=await self.waiting(s, campaign_id, rnd.id),
            seed_commitment=rnd.seed_commitment,
        )
