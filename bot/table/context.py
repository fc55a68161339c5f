"""The table's foundation: construction, the courier contract, and the lookups every command shares.

Who is the GM, which character a user plays, what a viewer may see: each command of :class:`bot.table.Table`
starts from these, so permission and visibility rules live in one place."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self

from pydantic import BaseModel, ConfigDict

from bot import views as v
from bot.errors import NoCampaign, NotAPlayer, NotGM
from bot.intent_parser import IntentParser, OfflineIntentParser
from ledger import service
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer
from scenarios import BUNDLED_DIR

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from bot.config import Settings
    from bot.narrator.base import Narrator
    from bot.narrator.claims_llm import LLMClaimExtractor
    from ledger.recall.summaries import SummaryIndex
    from ledger.store.records import CampaignView, MemberView, RoundView


SCENARIO_DIR = BUNDLED_DIR  # the bundled worlds, package data of ``scenarios`` (found when installed too)
MAX_ACTION_CHARS = 500
MAX_NOTE_CHARS = 500
ACCEPTING = ("open", "collecting")
GM_VIEW = Viewer.gm()
#: How long the summary index rests after a failure: the first rest, then doubled up to the last.
SUMMARY_REST_MINUTES = (1.0, 15.0)


#: A channel post that fails is tried again after these many seconds (then given up, and the GM is told).
RETRY_DELAYS: tuple[float, ...] = (30.0, 60.0, 120.0, 240.0)


class DMClosed(Exception):
    """The player does not accept direct messages from the bot."""


class MissingPermission(Exception):
    """The bot lacks a channel permission it needs; ``permission`` names it as Discord shows it."""

    def __init__(self, permission: str) -> None:
        super().__init__(f"missing the {permission} permission")
        self.permission = permission


class ReplyExpired(Exception):
    """A command's reply handle can no longer be answered (Discord's 15 minutes passed, or it is unknown)."""


class ResendView(BaseModel):
    """What ``/gm resend`` did: the round, whether its story reached the channel, and what still waits."""

    model_config = ConfigDict(frozen=True)

    round_number: int
    requeued: int
    story_posted: bool
    still_waiting: int


class Courier(Protocol):
    """Where the table's messages go: a Discord channel and DMs, or the terminal.

    Optional, used when present: ``post_results(guild_id, channel_id, report, *, header="")`` posts a round's
    dice in the channel, and ``answer(handle, text, report)`` answers a command whose reply a crash left
    unanswered (``handle`` is the front end's opaque reply handle; raise :class:`ReplyExpired` when it is too
    old). A post that fails for want of a permission raises :class:`MissingPermission`.
    """

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        """Post ``text`` in the campaign's channel, pinging only ``mention_user_ids``; return its id."""
        ...

    async def send_dm(self, user_id: str, text: str) -> str:
        """Send ``text`` privately to ``user_id``; return the message id or raise :class:`DMClosed`."""
        ...


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "x"


def _seat(owner: str | None, user_id: str) -> str:
    """A PC player's visibility handle: a scenario placeholder (``player:bob`` -> ``bob``) or the user."""
    if owner and owner.startswith("player:"):
        return owner.removeprefix("player:")
    return owner or user_id


class TableBase:
    """Shared state and lookups of the table; see :class:`bot.table.Table` for the commands."""

    """Every campaign's table: the services front ends call. See the module docstring for the round states."""

    def __init__(
        self,
        *,
        engine: AsyncEngine,
        settings: Settings,
        courier: Courier,
        narrator: Narrator | None = None,
        intent_parser: IntentParser | None = None,
        summaries: SummaryIndex | None = None,
        claim_extractor: LLMClaimExtractor | None = None,
        clock: Callable[[], datetime] | None = None,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        from bot.narrator.offline import OfflineNarrator
        from ledger.store.db import session_factory
        from rules.fairness import new_seed

        self.engine = engine
        self.settings = settings
        self.courier = courier
        self.narrator = narrator
        self.offline = OfflineNarrator()
        self.parser: IntentParser = intent_parser or OfflineIntentParser()
        self.summaries = summaries
        self.claim_extractor = claim_extractor
        self.clock = clock or (lambda: datetime.now(UTC))
        self.seeds = seeds or new_seed
        self._sessions = session_factory(engine)
        self._locks: dict[int, asyncio.Lock] = {}
        # The summary index: campaigns whose GM was told it is down (once per outage), and campaigns whose
        # queued summaries this process has already tried to index.
        self._summary_outage: set[int] = set()
        self._summary_checked: set[int] = set()
        # After a failure the index rests (is not asked) until this time, so no round waits on a down index.
        self._summary_retry_at: datetime | None = None
        self._summary_rest_minutes = SUMMARY_REST_MINUTES[0]
        # Test hook: called with a step name before each persisted step, so a test can "crash" there.
        self.before_step: Callable[[str], Awaitable[None]] | None = None

    # --- construction ----------------------------------------------------------------------------------

    @classmethod
    async def create(cls, settings: Settings, *, courier: Courier, **overrides: Any) -> Self:
        """Build a table from settings: the ledger database (migrated), Chroma and the narrator."""
        from ledger.store.db import create_engine, init_db

        data_dir = settings.storage.resolved_data_dir()
        url = settings.storage.resolved_database_url()
        if url.startswith("sqlite"):
            data_dir.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url)
        await init_db(engine)
        if "summaries" not in overrides:
            overrides["summaries"] = _summary_index(settings, data_dir)
        if "narrator" not in overrides and settings.llm.enabled:
            from bot.narrator.llm import LLMNarrator

            overrides["narrator"] = LLMNarrator.from_settings(settings.llm)
        if "intent_parser" not in overrides and settings.llm.enabled:
            from bot.narrator.intent_llm import LLMIntentParser

            overrides["intent_parser"] = LLMIntentParser.from_settings(
                settings.llm, fallback=OfflineIntentParser()
            )
        if "claim_extractor" not in overrides and settings.llm.enabled and settings.llm.extract_claims:
            from bot.narrator.claims_llm import LLMClaimExtractor

            overrides["claim_extractor"] = LLMClaimExtractor.from_settings(settings.llm)
        return cls(engine=engine, settings=settings, courier=courier, **overrides)

    async def aclose(self) -> None:
        """Close the narrator's, parser's and summary index's HTTP clients and the database engine."""
        for part in (self.narrator, self.parser, self.claim_extractor, self.summaries):
            closer = getattr(part, "aclose", None)
            if closer is not None:
                await closer()
        await self.engine.dispose()

    def _session(self) -> Any:
        return self._sessions()

    async def _step(self, name: str) -> None:
        if self.before_step is not None:
            await self.before_step(name)

    # --- lookups and permissions -----------------------------------------------------------------------

    async def _campaign(self, s: Any, where: v.Where) -> CampaignView:
        campaign = await service.find_campaign(s, guild_id=where.guild_id, channel_id=where.channel_id)
        if campaign is None:
            raise NoCampaign("No campaign runs in this channel. A GM can begin one with /campaign start.")
        return campaign

    async def _member(self, s: Any, campaign: CampaignView, caller: v.Caller) -> MemberView | None:
        members = await service.list_members(s, campaign_id=campaign.id)
        return next((m for m in members if m.user_id == caller.user_id), None)

    def _is_gm(self, campaign: CampaignView, caller: v.Caller, member: MemberView | None) -> bool:
        return caller.has_gm_role or campaign.owner_user_id == caller.user_id or bool(member and member.is_gm)

    async def _require_gm(self, s: Any, campaign: CampaignView, caller: v.Caller) -> None:
        if not self._is_gm(campaign, caller, await self._member(s, campaign, caller)):
            raise NotGM(
                f"Only the GM can do that (the campaign owner or the '{self.settings.discord.gm_role}' role)."
            )

    async def _player(self, s: Any, campaign: CampaignView, caller: v.Caller) -> tuple[MemberView, str]:
        member = await self._member(s, campaign, caller)
        if member is None or not member.active or member.character_id is None:
            raise NotAPlayer("You have no character in this campaign. Use /join first.")
        return member, member.character_id

    async def _viewer(self, s: Any, campaign: CampaignView, caller: v.Caller) -> Viewer:
        member = await self._member(s, campaign, caller)
        if self._is_gm(campaign, caller, member):
            return GM_VIEW
        if member is not None and member.character_id:
            pc = await service.get_entity(
                s, campaign_id=campaign.id, entity_id=member.character_id, viewer=GM_VIEW
            )
            return Viewer.player(_seat(pc.owner_user_id, caller.user_id))
        return Viewer.party()

    async def _pc_ids(self, s: Any, campaign_id: int) -> list[str]:
        members = await service.list_members(s, campaign_id=campaign_id, active_only=True)
        return [m.character_id for m in members if m.character_id]

    async def _names(self, s: Any, campaign_id: int, refs: Sequence[str]) -> dict[str, str]:
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

    async def _waiting(self, s: Any, campaign_id: int, round_id: int) -> tuple[str, ...]:
        members = await service.list_members(s, campaign_id=campaign_id, active_only=True)
        subs = await service.list_submissions(s, round_id=round_id)
        ready = {x.player_user_id for x in subs if x.ready and x.origin != "late-moved"}
        ids = [m.character_id for m in members if m.character_id and m.user_id not in ready]
        pcs = await service.get_entities(s, campaign_id=campaign_id, entity_ids=ids, viewer=GM_VIEW)
        return tuple(pc.name for pc in pcs if pc.alive is not False)

    async def _status_view(self, s: Any, campaign_id: int, rnd: RoundView) -> v.RoundStatusView:
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
            waiting=await self._waiting(s, campaign_id, rnd.id),
            seed_commitment=rnd.seed_commitment,
        )


def _summary_index(settings: Settings, data_dir: Path) -> SummaryIndex | None:
    from bot.embeddings import embedding_from_settings
    from ledger.recall.summaries import SummaryIndex

    embedding = embedding_from_settings(settings.embeddings)
    if settings.chroma.mode == "http":
        return SummaryIndex.remote(settings.chroma.host, settings.chroma.port, embedding=embedding)
    return SummaryIndex.local(data_dir / "chroma", embedding=embedding)
