"""The GM's desk: rulings on disputes, retcons, thread settlements, deadlines and the conflict queue.
Each checks GM powers first and records its decision as an event with the GM as cause."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.describe import describe_event
from bot.errors import InvalidAction, NoOpenRound, NotFound, TableError
from bot.table.context import GM_VIEW, MAX_NOTE_CHARS
from bot.table.reads import dispute_view
from ledger import service
from ledger.errors import LedgerError
from ledger.store import sessions as ledger_sessions

if TYPE_CHECKING:
    from bot.table.context import Lookups, TableContext
    from bot.table.reads import Reads


class GMDesk:
    """Commands only the GM may use."""

    def __init__(self, ctx: TableContext, lookups: Lookups, reads: Reads) -> None:
        self.ctx = ctx
        self.lookups = lookups
        self.reads = reads

    # --- the GM's tools ----------------------------------------------------------------------------------

    async def gm_disputes(self, where: v.Where, caller: v.Caller) -> tuple[v.DisputeView, ...]:
        """Open disputes waiting for a ruling (GM)."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            rows = await service.list_disputes(s, campaign_id=campaign.id)
        return tuple(dispute_view(d) for d in rows)

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
        """Accept or reject a dispute (GM). Accepting appends a correction event that supersedes the record.

        Without explicit ``changes`` an accepted dispute of an event undoes that event (the HP, place, item
        or condition goes back to what it was before it), so the ledger is right again, not just annotated.
        """
        from ledger.store.corrections import undo_changes

        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            disputes = await service.list_disputes(s, campaign_id=campaign.id, status=None)
            dispute = next((d for d in disputes if d.id == dispute_id), None)
            if dispute is None:
                raise NotFound(f"No dispute #{dispute_id} in this campaign.")
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            if accept and changes is None:
                changes = await undo_changes(s, campaign_id=campaign.id, ref=dispute.record_ref)
            try:
                d = await service.rule_dispute(
                    s,
                    dispute_id=dispute_id,
                    accept=accept,
                    note=(note or "")[:MAX_NOTE_CHARS],
                    changes=list(changes or ()),
                    session_number=latest.number,
                )
            except LedgerError as err:
                raise TableError(str(err)) from None
        return dispute_view(d)

    async def gm_retcon(self, where: v.Where, caller: v.Caller, *, ref: str, reason: str) -> v.EventView:
        """Record an explicit setting change superseding event ``ref`` (GM), with the reason."""
        if not (reason or "").strip():
            raise InvalidAction("A retcon needs a reason.")
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            try:
                refs = await service.apply_changes(
                    s,
                    campaign_id=campaign.id,
                    session_number=latest.number,
                    round_number=None,
                    cause=f"gm-{caller.user_id}",
                    mutations=[
                        {
                            "kind": "retcon",
                            "target": ref.strip(),
                            "reason": reason.strip()[:MAX_NOTE_CHARS],
                            "changes": [],
                        }
                    ],
                    permanent=True,
                )
            except LedgerError as err:
                raise InvalidAction(str(err)) from None
            event = (await service.history(s, campaign_id=campaign.id, viewer=GM_VIEW, limit=1))[0]
        return v.EventView(
            ref=refs[0],
            session=event.session_number,
            round=None,
            kind=event.kind,
            text=describe_event(event.kind, event.payload),
            cause=event.cause,
        )

    async def gm_thread(
        self, where: v.Where, caller: v.Caller, *, thread_id: str, status: str, note: str
    ) -> v.ThreadView:
        """Settle, break or expire a thread through an accepted event (GM)."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            rnd = await service.last_round(s, campaign_id=campaign.id)
            try:
                await service.apply_changes(
                    s,
                    campaign_id=campaign.id,
                    session_number=latest.number,
                    round_number=rnd.number if rnd else None,
                    cause=f"gm-{caller.user_id}",
                    permanent=True,
                    importance=8,
                    mutations=[
                        {
                            "kind": "thread_transition",
                            "thread": thread_id,
                            "status": status,
                            "reason": (note or "")[:MAX_NOTE_CHARS],
                        }
                    ],
                )
            except LedgerError as err:
                raise InvalidAction(str(err)) from None
        found = [t for t in await self.reads.threads(where, caller) if t.id == thread_id]
        return found[0]

    async def gm_deadline(self, where: v.Where, caller: v.Caller, *, minutes: float) -> v.RoundStatusView:
        """Set the round length (GM): the open round closes ``minutes`` from now, and so will later ones."""
        if not 0 < minutes <= 7 * 24 * 60:
            raise InvalidAction("The deadline is 1 minute to 7 days away.")
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            await ledger_sessions.update_settings(
                s, campaign_id=campaign.id, changes={"deadline_minutes": minutes}
            )
            rnd = await service.current_round(s, campaign_id=campaign.id)
            if rnd is None:
                raise NoOpenRound("No round is open; the new length applies from the next round.")
            rnd = await ledger_sessions.set_deadline(
                s, round_id=rnd.id, deadline=self.ctx.clock() + timedelta(minutes=minutes)
            )
            return await self.lookups.status_view(s, campaign.id, rnd)

    async def gm_conflicts(self, where: v.Where, caller: v.Caller) -> tuple[v.ConflictView, ...]:
        """Narration claims the checker refuted, waiting for the GM (dismiss, or make true by a retcon)."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            rows = await service.list_conflicts(s, campaign_id=campaign.id)
            numbers = await ledger_sessions.round_numbers(
                s, round_ids=[c.round_id for c in rows if c.round_id]
            )
        return tuple(
            v.ConflictView(
                id=c.id,
                round_number=numbers.get(c.round_id or 0),
                claim=c.claim_text,
                refuted_by=c.refuting_ref,
                status=c.status,
            )
            for c in rows
        )

    async def gm_conflict(
        self, where: v.Where, caller: v.Caller, *, conflict_id: int, action: str, note: str
    ) -> v.ConflictView:
        """Dismiss a queued conflict, or turn it into an explicit retcon of its refuting record (GM)."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            rows = await service.list_conflicts(s, campaign_id=campaign.id, status=None)
            conflict = next((c for c in rows if c.id == conflict_id), None)
            if conflict is None:
                raise NotFound(f"No conflict #{conflict_id} in this campaign.")
            try:
                if action == "dismiss":
                    c = await service.dismiss_conflict(
                        s, conflict_id=conflict_id, note=(note or "")[:MAX_NOTE_CHARS]
                    )
                elif action == "retcon":
                    if not (note or "").strip():
                        raise InvalidAction("A retcon needs a reason.")
                    latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
                    c = await service.retcon_conflict(
                        s,
                        conflict_id=conflict_id,
                        target=conflict.refuting_ref or "",
                        reason=note.strip()[:MAX_NOTE_CHARS],
                        changes=[],
                        session_number=latest.number,
                    )
                else:
                    raise InvalidAction("Choose dismiss or retcon.")
            except LedgerError as err:
                raise InvalidAction(str(err)) from None
        return v.ConflictView(
            id=c.id, round_number=None, claim=c.claim_text, refuted_by=c.refuting_ref, status=c.status
        )
