"""Session summaries and the summary index's upkeep (an index: the ledger is the authority).

A session's summary is filed in SQL as ``pending`` and then indexed in Chroma once its hard facts are
confirmed in the ledger. The index is optional at every step: when it fails, play goes on with the ledger's
records only, the index rests (is not asked) for a while, the GM is told once per outage, and the summaries
wait in SQL until the index is back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ledger import service
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.table.context import TableContext
    from ledger.recall.summaries import SummaryDoc, SummaryIndex
    from ledger.store.models import Summary


_log = logging.getLogger(__name__)

#: How long the summary index rests after a failure: the first rest, then doubled up to the last.
SUMMARY_REST_MINUTES = (1.0, 15.0)
#: Queued summaries indexed per pass: one read, one embedding call and one Chroma upsert per pass.
PENDING_BATCH = 500


class SummaryUpkeep:
    """Files session summaries and keeps the summary index in step with the ledger."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        # Campaigns whose GM was told the index is down (once per outage), and campaigns whose queued
        # summaries this process has already tried to index.
        self._outage: set[int] = set()
        self._checked: set[int] = set()
        # After a failure the index rests (is not asked) until this time, so no round waits on a down index.
        self._retry_at: datetime | None = None
        self._rest_minutes = SUMMARY_REST_MINUTES[0]

    async def file_session_summary(self, campaign_id: int, number: int) -> None:
        """File a session summary: the round narrations in order, indexed in Chroma after its hard facts
        (deaths, hand-overs, thread changes) are confirmed in the ledger."""
        async with self.ctx.session() as s:
            texts = await ledger_sessions.session_narrations(
                s, campaign_id=campaign_id, session_number=number
            )
            events = await service.history(
                s, campaign_id=campaign_id, viewer=Viewer.party(), limit=200, session_number=number
            )
        if not texts:
            return
        text = " ".join(texts)
        words = text.split()
        if len(words) > 300:
            text = " ".join(words[:300]) + " ..."
        async with self.ctx.session() as s:
            await ledger_sessions.add_summary(
                s,
                campaign_id=campaign_id,
                session_number=number,
                text=text,
                event_ids=[e.ref for e in events],
                visibility="party",
            )
        # Filed in SQL (the authority) as ``pending``; indexed now, or queued while the index is down.
        await self.index_pending(campaign_id)

    def index_for_round(self) -> SummaryIndex | None:
        """The summary index for a round's retrieval, or None while it rests after a failure.

        A down index is asked again only after a rest (1 minute, doubling up to 15), so a timing-out endpoint
        does not slow every round; the ledger's records are complete without it.
        """
        if self.ctx.summaries is None or self._resting():
            return None
        return self.ctx.summaries

    def _resting(self) -> bool:
        return self._retry_at is not None and self.ctx.clock() < self._retry_at

    async def upkeep(self, campaign_id: int, unavailable: str | None) -> None:
        """After a round's retrieval: tell the GM once when the index failed, else index what is queued.

        Queued summaries are indexed after an outage (the first successful query) and once per campaign per
        process (a restart finds what an earlier process left pending).
        """
        if self.ctx.summaries is None:
            return
        if unavailable is not None:
            await self._index_down(campaign_id, unavailable)
        elif self._resting():
            return  # not asked this round
        elif campaign_id in self._outage or campaign_id not in self._checked:
            await self.index_pending(campaign_id)

    async def index_pending(self, campaign_id: int) -> int:
        """Index the campaign's queued (``pending``) summaries, oldest first; return how many were indexed.

        A summary stating a hard fact the ledger lacks is marked ``refused`` and never retried. At the first
        :class:`~ledger.recall.summaries.IndexUnavailable` the rest stay queued and the GM is told (once per
        outage).
        While the index rests after a failure nothing is tried: the summaries wait in the ledger.

        The queue is worked in batches of :data:`PENDING_BATCH`: per batch one read of the rows, one of every
        event they cover, one check of the hard facts they state, one embedding call and Chroma upsert, and
        one transaction recording the new states (a campaign start used to pay about 200 statements and one
        Chroma call per summary here).
        """
        if self.ctx.summaries is None or self._resting():
            return 0
        from ledger.recall.summaries import IndexUnavailable

        indexed = 0
        while True:
            async with self.ctx.session() as s:
                rows = await ledger_sessions.pending_summaries(
                    s, campaign_id=campaign_id, limit=PENDING_BATCH
                )
                docs, states = await self._prepare(s, campaign_id, rows)
            try:
                if docs:
                    await asyncio.to_thread(self._upsert, campaign_id, docs)
            except IndexUnavailable as err:
                # What was refused never reached the index; the rest stays queued for when it is back.
                await self._mark(campaign_id, {k: v for k, v in states.items() if v == "refused"})
                await self._index_down(campaign_id, str(err))
                return indexed
            await self._mark(campaign_id, states)
            indexed += sum(1 for state in states.values() if state == "indexed")
            if len(rows) < PENDING_BATCH:
                break
        self._checked.add(campaign_id)
        self._retry_at, self._rest_minutes = None, SUMMARY_REST_MINUTES[0]
        if campaign_id in self._outage:
            self._outage.discard(campaign_id)
            _log.warning(
                "summary index is back for campaign %s: %s queued summaries indexed", campaign_id, indexed
            )
            await self._tell_gm(
                campaign_id,
                f"The summary index is back: {indexed} queued session summaries were indexed.",
            )
        return indexed

    async def _prepare(
        self, s: AsyncSession, campaign_id: int, rows: Sequence[Summary]
    ) -> tuple[list[SummaryDoc], dict[int, str]]:
        """The index documents of queued ``rows`` and each row's state after this pass (summary id ->
        ``indexed`` or ``refused``): every covered event read at once, and each summary carries the hard facts
        (deaths, hand-overs, thread changes) of the events it covers.

        A row the index would refuse as malformed is ``refused``.
        """
        from ledger.recall.summaries import SummaryDoc, SummaryError, hard_facts_from_changes
        from ledger.store.summary_queue import event_payloads

        payloads = await event_payloads(
            s, campaign_id=campaign_id, refs=[ref for row in rows for ref in row.event_ids]
        )
        facts: dict[int, tuple[Any, ...]] = {}
        for row in rows:
            assert row.id is not None
            found = [payloads[ref] for ref in dict.fromkeys(row.event_ids) if ref in payloads]
            if row.scope == "session":  # a session's events are read newest first
                found.sort(key=lambda seq_payload: -seq_payload[0])
            facts[row.id] = hard_facts_from_changes(p for _, p in found if "kind" in p)
        # No check of these facts against the ledger: they are read from the ledger's own events (asking
        # again cost a history read per fact, and one limited to the newest 200 events refused true facts).
        docs: list[SummaryDoc] = []
        states: dict[int, str] = {}
        for row in rows:
            assert row.id is not None
            doc = SummaryDoc(
                id=f"summary-{row.id}",
                session=row.session_number,
                scope="session",
                text=row.text,
                event_ids=tuple(row.event_ids),
                visibility=row.visibility,
                hard_facts=facts[row.id],
            )
            try:
                doc.check()
            except SummaryError:
                _log.warning("summary %s was not indexed", row.id, exc_info=True)
                states[row.id] = "refused"
                continue
            docs.append(doc)
            states[row.id] = "indexed"
        return docs, states

    def _upsert(self, campaign_id: int, docs: Sequence[SummaryDoc]) -> None:
        """Embed and store ``docs`` in the campaign's collection: one embedding call and one Chroma upsert
        per batch. Raises IndexUnavailable."""
        summaries = self.ctx.summaries
        assert summaries is not None
        summaries.add_many_now(f"campaign-{campaign_id}", docs)

    async def _mark(self, campaign_id: int, states: dict[int, str]) -> None:
        """Record the summaries' new index states in one writing transaction."""
        from ledger.store.summary_queue import mark_summary_states

        if states:
            async with self.ctx.session() as s:
                await mark_summary_states(s, campaign_id=campaign_id, states=states)

    async def _index_down(self, campaign_id: int, reason: str) -> None:
        """The summary index failed: play goes on with ledger records only; the GM is told once per outage."""
        self._retry_at = self.ctx.clock() + timedelta(minutes=self._rest_minutes)
        self._rest_minutes = min(self._rest_minutes * 2, SUMMARY_REST_MINUTES[1])
        if campaign_id in self._outage:
            _log.debug("summary index still unavailable for campaign %s: %s", campaign_id, reason)
            return
        self._outage.add(campaign_id)
        _log.warning("summary index unavailable for campaign %s: %s", campaign_id, reason)
        await self._tell_gm(
            campaign_id,
            f"The summary index is unavailable ({reason}). Play goes on with the ledger's records only; "
            "session summaries are kept in the ledger and will be indexed when the index is back.",
        )

    async def _tell_gm(self, campaign_id: int, text: str) -> None:
        """DM the campaign's GM; when the DM cannot be sent, keep the note in the GM's conflict queue."""
        async with self.ctx.session() as s:
            campaign = await service.get_campaign(s, campaign_id=campaign_id)
        try:
            await self.ctx.courier.send_dm(campaign.owner_user_id, f"**{campaign.name}**: {text}")
            return
        except Exception:  # DMClosed, or Discord failing: the note must still reach the GM
            _log.warning("could not DM the GM of campaign %s", campaign_id, exc_info=True)
        async with self.ctx.session() as s:
            await service.add_conflict(s, campaign_id=campaign_id, round_id=None, claim_text=text[:500])
