"""The table's front door: :class:`Table`, a small facade over the parts that each own one job.

One :class:`Table` serves every campaign of a process (Discord bot, terminal table, demo). Each public method
takes *where* the command was given and *who* gave it, does all checks (GM powers, visibility, validation),
and returns a view from :mod:`bot.views`. Nothing here knows Discord: messages leave through a
:class:`~bot.table.delivery.Courier`. The work is done by the parts the table builds around one shared
:class:`~bot.table.context.TableContext`; each public method here forwards to the part that owns it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from bot import views as v
from bot.intent_parser import IntentParser, OfflineIntentParser
from bot.table.campaigns import CampaignExportView, Campaigns
from bot.table.context import Lookups, TableContext
from bot.table.delivery import Courier, Delivery, ResendView
from bot.table.gm_desk import GMDesk
from bot.table.narration import Narration
from bot.table.nominations import Nominations
from bot.table.proposals import Proposals
from bot.table.reads import Reads
from bot.table.rounds import Rounds
from bot.table.summaries import SummaryUpkeep
from bot.table.world import WorldBuilder

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from bot.config import Settings
    from bot.narrator.base import Narrator
    from bot.narrator.claims_llm import LLMClaimExtractor
    from bot.narrator.offline import OfflineNarrator
    from bot.narrator.proposals import NominationView, ProposalView, UndoView
    from ledger.recall.summaries import SummaryIndex


class Table:
    """Every campaign's table: the services front ends call. See :mod:`bot.table.rounds` for the round states.

    The parts (public attributes, each built with the shared :attr:`context`): :attr:`campaigns` (campaigns,
    sessions, players), :attr:`rounds` (the round lifecycle), :attr:`narration`, :attr:`delivery` (the
    outbox and the courier), :attr:`reads` (the ledger as a viewer may see it), :attr:`desk` (the GM's tools)
    and :attr:`summary_upkeep` (session summaries and the summary index).
    """

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

        self.context = TableContext(
            engine=engine,
            settings=settings,
            sessions=session_factory(engine),
            courier=courier,
            narrator=narrator,
            offline=OfflineNarrator(),
            parser=intent_parser or OfflineIntentParser(),
            summaries=summaries,
            claim_extractor=claim_extractor,
            clock=clock or (lambda: datetime.now(UTC)),
            seeds=seeds or new_seed,
        )
        ctx = self.context
        self.lookups = Lookups(ctx)
        self.summary_upkeep = SummaryUpkeep(ctx)
        self.delivery = Delivery(ctx, self.lookups)
        self.narration = Narration(ctx, self.summary_upkeep)
        self.rounds = Rounds(ctx, self.lookups, self.narration, self.delivery)
        self.reads = Reads(ctx, self.lookups)
        self.desk = GMDesk(ctx, self.lookups, self.reads)
        self.campaigns = Campaigns(ctx, self.lookups, self.rounds, self.reads, self.summary_upkeep)
        self.world = WorldBuilder(ctx, self.lookups, self.reads)
        self.proposals = Proposals(ctx, self.lookups)
        self.nominations = Nominations(ctx, self.lookups)

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
        ctx = self.context
        for part in (ctx.narrator, ctx.parser, ctx.claim_extractor, ctx.summaries):
            closer = getattr(part, "aclose", None)
            if closer is not None:
                await closer()
        await ctx.engine.dispose()

    # --- the shared context, as attributes (a front end attaches its courier, a test its clock) --------

    @property
    def engine(self) -> AsyncEngine:
        return self.context.engine

    @property
    def settings(self) -> Settings:
        return self.context.settings

    @property
    def offline(self) -> OfflineNarrator:
        return self.context.offline

    @property
    def courier(self) -> Courier:
        return self.context.courier

    @courier.setter
    def courier(self, courier: Courier) -> None:
        self.context.courier = courier

    @property
    def narrator(self) -> Narrator | None:
        return self.context.narrator

    @narrator.setter
    def narrator(self, narrator: Narrator | None) -> None:
        self.context.narrator = narrator

    @property
    def parser(self) -> IntentParser:
        return self.context.parser

    @parser.setter
    def parser(self, parser: IntentParser) -> None:
        self.context.parser = parser

    @property
    def summaries(self) -> SummaryIndex | None:
        return self.context.summaries

    @summaries.setter
    def summaries(self, summaries: SummaryIndex | None) -> None:
        self.context.summaries = summaries

    @property
    def claim_extractor(self) -> LLMClaimExtractor | None:
        return self.context.claim_extractor

    @claim_extractor.setter
    def claim_extractor(self, extractor: LLMClaimExtractor | None) -> None:
        self.context.claim_extractor = extractor

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.context.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.context.clock = clock

    @property
    def seeds(self) -> Callable[[], int]:
        return self.context.seeds

    @seeds.setter
    def seeds(self, seeds: Callable[[], int]) -> None:
        self.context.seeds = seeds

    @property
    def before_step(self) -> Callable[[str], Awaitable[None]] | None:
        """Test hook: called with a step name before each persisted step, so a test can "crash" there."""
        return self.context.before_step

    @before_step.setter
    def before_step(self, hook: Callable[[str], Awaitable[None]] | None) -> None:
        self.context.before_step = hook

    # --- the commands, each forwarded to the part that owns it; first campaigns, sessions, players -----

    async def start_campaign(
        self, where: v.Where, caller: v.Caller, *, name: str, scenario: str | None
    ) -> v.CampaignView:
        """Begin a campaign in this channel (the caller becomes its GM), from a bundled scenario or blank."""
        return await self.campaigns.start_campaign(where, caller, name=name, scenario=scenario)

    async def start_campaign_from_file(
        self, where: v.Where, caller: v.Caller, *, path: Path
    ) -> v.CampaignView:
        """Like :meth:`start_campaign` with any scenario file (the terminal table and the demo)."""
        return await self.campaigns.start_campaign_from_file(where, caller, path=path)

    async def check_world_upload(self, *, filename: str, size: int) -> None:
        """Refuse a GM's world file before downloading it: not ``.toml``, or over the scenario size cap."""
        await self.campaigns.check_world_upload(filename=filename, size=size)

    async def start_campaign_from_upload(
        self, where: v.Where, caller: v.Caller, *, filename: str, data: bytes, name: str | None = None
    ) -> v.CampaignView:
        """Begin a campaign from a GM's own world file (validated, size-capped; nothing made on an error)."""
        return await self.campaigns.start_campaign_from_upload(
            where, caller, filename=filename, data=data, name=name
        )

    async def export_campaign(self, where: v.Where, caller: v.Caller) -> CampaignExportView:
        """The whole campaign, history included, as a scenario file that loads back the same (GM)."""
        return await self.campaigns.export_campaign(where, caller)

    async def campaign_status(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """The campaign in this channel: session, round, location and players."""
        return await self.campaigns.campaign_status(where, caller)

    async def end_campaign(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """End the campaign (GM). Its ledger stays; a new campaign may start in the channel."""
        return await self.campaigns.end_campaign(where, caller)

    async def start_session(self, where: v.Where, caller: v.Caller) -> v.CampaignView:
        """Open the next session (GM) and its first round."""
        return await self.campaigns.start_session(where, caller)

    async def end_session(self, where: v.Where, caller: v.Caller) -> v.RecapView:
        """Close the session (GM): the open round is discarded if empty, and a summary is filed."""
        return await self.campaigns.end_session(where, caller)

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
        return await self.campaigns.join(
            where, caller, name=name, claim=claim, scores=scores, method=method, skills=skills, weapon=weapon
        )

    async def leave(self, where: v.Where, caller: v.Caller) -> v.CharacterView:
        """Stand up from the table; the character stays in the world, no longer acting."""
        return await self.campaigns.leave(where, caller)

    # --- rounds ----------------------------------------------------------------------------------------

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
        """Declare (or change) your character's action for the open round."""
        return await self.rounds.submit(
            where, caller, key=key, text=text, target=target, item=item, skill=skill
        )

    async def ready(self, where: v.Where, caller: v.Caller, *, reply: str | None = None) -> v.ReadyReceipt:
        """Mark your action final. Without an action you hold. When everyone is ready, the round closes."""
        return await self.rounds.ready(where, caller, reply=reply)

    async def round_status(self, where: v.Where, caller: v.Caller) -> v.RoundStatusView:
        """Who has acted and who is ready in the open round, its deadline and its seed commitment."""
        return await self.rounds.round_status(where, caller)

    async def close_round(
        self, where: v.Where, caller: v.Caller, *, reply: str | None = None
    ) -> v.RoundReport:
        """Close the open round now (GM): absent players take the default action; resolve, narrate, post."""
        return await self.rounds.close_round(where, caller, reply=reply)

    async def tick(self) -> None:
        """Close every round whose deadline passed and retry due deliveries (called every 30 s by the bot)."""
        await self.rounds.tick()

    async def resume(self) -> None:
        """After a restart: finish every interrupted round and deliver every message that is due."""
        await self.rounds.resume()

    # --- the ledger as each viewer may see it, and the dice --------------------------------------------

    async def roll(self, caller: v.Caller, *, expression: str, seed: int | None = None) -> v.RollView:
        """Roll dice with a seed that is shown, so anyone can replay the roll."""
        return await self.reads.roll(caller, expression=expression, seed=seed)

    async def inventory(
        self, where: v.Where, caller: v.Caller, *, player_user_id: str | None = None
    ) -> v.InventoryView:
        """A character's holdings: your own (private, with your secrets) or another player's (public part)."""
        return await self.reads.inventory(where, caller, player_user_id=player_user_id)

    async def require_gm(self, where: v.Where, caller: v.Caller) -> None:
        """Raise :class:`NotGM` unless ``caller`` is this campaign's GM."""
        await self.reads.require_gm(where, caller)

    async def relationships(
        self, where: v.Where, caller: v.Caller, *, npc: str | None = None, public: bool = False
    ) -> tuple[v.EdgeView, ...]:
        """Relationship edges (of one NPC, or all) with their reasons and source sessions."""
        return await self.reads.relationships(where, caller, npc=npc, public=public)

    async def threads(
        self, where: v.Where, caller: v.Caller, *, public: bool = False
    ) -> tuple[v.ThreadView, ...]:
        """Favours, debts, oaths, bounties, prophecies and quests, with their status and source session."""
        return await self.reads.threads(where, caller, public=public)

    async def history(
        self, where: v.Where, caller: v.Caller, *, count: int = 10, public: bool = False
    ) -> tuple[v.EventView, ...]:
        """The last events (newest first), corrections and retcons included, each with its cause."""
        return await self.reads.history(where, caller, count=count, public=public)

    async def record(
        self, where: v.Where, caller: v.Caller, *, ref: str, public: bool = False
    ) -> v.RecordView:
        """Any record the caller may see, with its cause chain and, for a roll, a replay check."""
        return await self.reads.record(where, caller, ref=ref, public=public)

    async def notes(self, where: v.Where, caller: v.Caller) -> tuple[v.NoteView, ...]:
        """Your private notes: every DM the table sent you (or kept because your DMs were closed)."""
        return await self.reads.notes(where, caller)

    async def dispute(self, where: v.Where, caller: v.Caller, *, ref: str, reason: str) -> v.DisputeView:
        """Object to a record you can see; the GM rules on it and the ruling lands in history."""
        return await self.reads.dispute(where, caller, ref=ref, reason=reason)

    async def graph(self, where: v.Where, caller: v.Caller, *, public: bool = False) -> v.GraphView:
        """The relationship graph as the caller (or, with ``public``, the channel) may see it."""
        return await self.reads.graph(where, caller, public=public)

    async def recap(self, where: v.Where, caller: v.Caller, *, public: bool = False) -> v.RecapView:
        """The last session: its filed summary and the hard facts the ledger holds for it."""
        return await self.reads.recap(where, caller, public=public)

    async def autocomplete(
        self, where: v.Where, caller: v.Caller, *, kind: str, prefix: str
    ) -> tuple[v.Choice, ...]:
        """Up to 25 choices for a command option, only from what the caller may see."""
        return await self.reads.autocomplete(where, caller, kind=kind, prefix=prefix)

    # --- the GM's desk ---------------------------------------------------------------------------------

    async def gm_disputes(self, where: v.Where, caller: v.Caller) -> tuple[v.DisputeView, ...]:
        """Open disputes waiting for a ruling (GM)."""
        return await self.desk.gm_disputes(where, caller)

    async def gm_rule(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        dispute_id: int,
        accept: bool,
        note: str,
        changes: Sequence[dict[str, Any]] | None = None,
    ) -> v.DisputeView:
        """Accept or reject a dispute (GM); accepting appends a correction event superseding the record."""
        return await self.desk.gm_rule(
            where, caller, dispute_id=dispute_id, accept=accept, note=note, changes=changes
        )

    async def gm_retcon(self, where: v.Where, caller: v.Caller, *, ref: str, reason: str) -> v.EventView:
        """Record an explicit setting change superseding event ``ref`` (GM), with the reason."""
        return await self.desk.gm_retcon(where, caller, ref=ref, reason=reason)

    async def gm_thread(
        self, where: v.Where, caller: v.Caller, *, thread_id: str, status: str, note: str
    ) -> v.ThreadView:
        """Settle, break or expire a thread through an accepted event (GM)."""
        return await self.desk.gm_thread(where, caller, thread_id=thread_id, status=status, note=note)

    async def gm_deadline(self, where: v.Where, caller: v.Caller, *, minutes: float) -> v.RoundStatusView:
        """Set the round length (GM): the open round closes ``minutes`` from now, and so will later ones."""
        return await self.desk.gm_deadline(where, caller, minutes=minutes)

    async def gm_conflicts(self, where: v.Where, caller: v.Caller) -> tuple[v.ConflictView, ...]:
        """Narration claims the checker refuted, waiting for the GM (dismiss, or make true by a retcon)."""
        return await self.desk.gm_conflicts(where, caller)

    async def gm_conflict(
        self, where: v.Where, caller: v.Caller, *, conflict_id: int, action: str, note: str
    ) -> v.ConflictView:
        """Dismiss a queued conflict, or turn it into an explicit retcon of its refuting record (GM)."""
        return await self.desk.gm_conflict(where, caller, conflict_id=conflict_id, action=action, note=note)

    # --- the GM builds the world live (bot.table.world) ------------------------------------------------

    async def gm_npc(self, where: v.Where, caller: v.Caller, **options: Any) -> v.WorldChangeView:
        """Create or update an NPC (GM): name, description, location, stats, attitude, pronouns."""
        return await self.world.gm_npc(where, caller, **options)

    async def gm_spawn(self, where: v.Where, caller: v.Caller, **options: Any) -> v.WorldChangeView:
        """Put SRD monsters in a scene (GM): creature, count, name, location."""
        return await self.world.gm_spawn(where, caller, **options)

    async def gm_move(self, where: v.Where, caller: v.Caller, **options: Any) -> v.WorldChangeView:
        """Move an NPC or the party (GM); a new place is created with its description."""
        return await self.world.gm_move(where, caller, **options)

    async def gm_item(self, where: v.Where, caller: v.Caller, **options: Any) -> v.WorldChangeView:
        """Give an item to someone or leave it at a place (GM)."""
        return await self.world.gm_item(where, caller, **options)

    async def gm_item_remove(self, where: v.Where, caller: v.Caller, **options: Any) -> v.WorldChangeView:
        """An item leaves the world with its fate: sold, lost, destroyed, used up, confiscated (GM)."""
        return await self.world.gm_item_remove(where, caller, **options)

    async def gm_thread_open(self, where: v.Where, caller: v.Caller, **options: Any) -> v.WorldChangeView:
        """Open a favour, debt, oath, feud, bounty, quest, prophecy or rumour (GM)."""
        return await self.world.gm_thread_open(where, caller, **options)

    async def gm_secret(self, where: v.Where, caller: v.Caller, **options: Any) -> v.WorldChangeView:
        """A GM secret about someone or something, hidden or told to one player now (GM)."""
        return await self.world.gm_secret(where, caller, **options)

    async def gm_autocomplete(
        self, where: v.Where, caller: v.Caller, *, kind: str, prefix: str
    ) -> tuple[v.Choice, ...]:
        """Choices for the GM's world commands (SRD creatures, places, creatures, items, players)."""
        return await self.world.autocomplete(where, caller, kind=kind, prefix=prefix)

    # --- the narrator proposes, players nominate (bot.table.proposals, bot.table.nominations) ----------

    async def gm_proposals(self, where: v.Where, caller: v.Caller) -> tuple[ProposalView, ...]:
        """The narrator's proposals and players' nominations, newest first, with status and reason (GM)."""
        return await self.proposals.gm_proposals(where, caller)

    async def gm_undo_proposal(self, where: v.Where, caller: v.Caller, *, proposal_id: int) -> UndoView:
        """Undo a landed proposal or nomination (GM): a retcon of its changes, never a deletion."""
        return await self.proposals.gm_undo_proposal(where, caller, proposal_id=proposal_id)

    async def remember(self, where: v.Where, caller: v.Caller, *, text: str) -> NominationView:
        """A player nominates what to remember; it lands if the record supports it, else it is queued."""
        return await self.nominations.remember(where, caller, text=text)

    # --- delivery --------------------------------------------------------------------------------------

    async def gm_resend(
        self, where: v.Where, caller: v.Caller, *, round_number: int | None = None
    ) -> ResendView:
        """Send again what could not be delivered (GM): by default the newest round whose story is waiting."""
        return await self.delivery.gm_resend(where, caller, round_number=round_number)


def _summary_index(settings: Settings, data_dir: Path) -> SummaryIndex | None:
    from bot.embeddings import embedding_from_settings
    from ledger.recall.summaries import SummaryIndex

    embedding = embedding_from_settings(settings.embeddings)
    if settings.chroma.mode == "http":
        return SummaryIndex.remote(settings.chroma.host, settings.chroma.port, embedding=embedding)
    return SummaryIndex.local(
        data_dir / "chroma", embedding=embedding, resident_collections=settings.chroma.resident_collections
    )
