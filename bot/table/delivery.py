"""Delivery: the courier contract, and sending a round's outbox through it at most once per message.

A round's messages (the public narration, private notes as DMs, and follow-ups owed to the command that
closed it) are stored in the outbox before any is sent. :class:`Delivery` claims each one before it calls the
courier, records what happened, retries a failed send with backoff, and tells the GM and the channel when a
story cannot reach the channel; ``/gm resend`` (:meth:`Delivery.gm_resend`) sends what was given up on.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict

from bot import views as v
from bot.errors import NotFound, TableError
from ledger import service
from ledger.store import sessions as ledger_sessions

if TYPE_CHECKING:
    from bot.table.context import Lookups, TableContext
    from ledger.store.outbox import RoundReportRows
    from ledger.store.records import CampaignView, OutboxView, RoundView


_log = logging.getLogger(__name__)

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

    Optional, used when present: ``post_round(guild_id, channel_id, text, report, *, mention_user_ids=())``
    posts a round's dice and story as one message instead of ``post_public``;
    ``post_results(guild_id, channel_id, report, *, header="")`` posts a round's dice in the channel, and
    ``answer(handle, text, report)`` answers a command whose reply a crash left unanswered (``handle`` is the
    front end's opaque reply handle; raise :class:`ReplyExpired` when it is too old). A post that fails for
    want of a permission raises :class:`MissingPermission`.
    """

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        """Post ``text`` in the campaign's channel, pinging only ``mention_user_ids``; return its id."""
        ...

    async def send_dm(self, user_id: str, text: str) -> str:
        """Send ``text`` privately to ``user_id``; return the message id or raise :class:`DMClosed`."""
        ...


class Delivery:
    """Sends a round's outbox through the courier, retries, resends, and reports a round's results."""

    def __init__(self, ctx: TableContext, lookups: Lookups) -> None:
        self.ctx = ctx
        self.lookups = lookups

    async def gm_resend(
        self, where: v.Where, caller: v.Caller, *, round_number: int | None = None
    ) -> ResendView:
        """Send again what could not be delivered (GM): by default the newest round whose story is waiting.

        The messages of that round that were given up on (a channel post that failed every retry, a missing
        permission, a send a crash interrupted) are queued again and sent now, once each.
        """
        from ledger.store.sessions import find_round, latest_undelivered_round

        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
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
        async with self.ctx.lock(campaign.id):
            await self.deliver(campaign.id, rnd, resend=True)
        async with self.ctx.session() as s:
            messages = await service.list_outbox(s, round_id=rnd.id)
        return ResendView(
            round_number=rnd.number,
            requeued=len(requeued),
            story_posted=any(m.kind == "public" and m.status == "sent" for m in messages),
            still_waiting=sum(1 for m in messages if m.status in ("pending", "failed")),
        )

    async def deliver(
        self,
        campaign_id: int,
        rnd: RoundView,
        *,
        answering: frozenset[str] = frozenset(),
        resend: bool = False,
        campaign: CampaignView | None = None,
        due: tuple[list[OutboxView], bool] | None = None,
    ) -> None:
        """Send every due message of the round (the public narration first, then DMs, then follow-ups).

        The caller holds the campaign's lock. A message is claimed (``sending``) before the courier is
        called. A crash during the call leaves it ``sending``; on resume it is marked ``failed`` and the GM is
        told, rather than risking a second post. A send that fails is retried later with backoff
        (:data:`RETRY_DELAYS`, kept in the row, so a restart carries on); when the tries are spent, or a
        permission is missing, the GM and the channel are told that the story waits for ``/gm resend``. Each
        message is handled on its own: one that fails (even in the table's own code) is logged with its round
        and never stops the others. ``answering``: users whose command is waiting for this call and answers
        itself (their follow-ups are not sent). ``due``: the round's due messages and whether one is stuck,
        as :func:`ledger.store.outbox.round_messages` read them in the transaction that stored them (the
        caller holds the lock since); read here when not given.
        """
        from ledger.store import outbox as ledger_outbox

        if due is not None and campaign is not None and not due[1]:
            messages = due[0]  # read where they were stored, under the campaign lock the caller still holds
        else:
            async with self.ctx.session() as s:
                if campaign is None:
                    campaign = await service.get_campaign(s, campaign_id=campaign_id)
                # One read: what is due, and whether a crash left a message mid-send (rare: written off).
                messages, stuck = await ledger_outbox.round_messages(s, round_id=rnd.id, now=self.ctx.clock())
                if stuck:
                    for lost in await ledger_sessions.abandon_sending(s, round_id=rnd.id):
                        await service.add_conflict(
                            s,
                            campaign_id=campaign_id,
                            round_id=rnd.id,
                            claim_text=f"Round {rnd.number}: a {lost.kind} message may not have been "
                            "delivered (the bot stopped while sending it); it is kept: /gm resend sends it "
                            "again.",
                        )
        order = {"public": 0, "dm": 1, "followup": 2}
        for message in sorted(messages, key=lambda m: (order.get(m.kind, 3), m.id)):
            if message.kind == "followup" and message.recipient_user_id in answering:
                continue  # that command is waiting for this call and answers itself
            await self.ctx.step(f"send-{message.kind}")
            try:
                if not await ledger_outbox.claim_on(self.ctx.engine, outbox_id=message.id):
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
            await self.ctx.step(f"sent-{message.kind}")
            try:
                await self._record_send(campaign, rnd, message, status, external, error, permission, resend)
            except Exception:
                _log.warning(
                    "round %s: recording the fate of message %s failed", rnd.id, message.id, exc_info=True
                )

    async def _send(
        self, campaign: CampaignView, rnd: RoundView, message: OutboxView
    ) -> tuple[str | None, str]:
        """Hand one message to the courier; returns (its external id, the status to record)."""
        courier = self.ctx.courier
        if message.kind == "public":
            text = _public_text(message.content)
            players = sorted({u for u in message.content.get("players", ()) if u.isdigit()})
            post_round = getattr(courier, "post_round", None)  # the dice and the story as one message
            if post_round is not None:
                report = await self.report(rnd.id, rnd=rnd)  # the round as the caller has it: not read again
                external = await post_round(
                    campaign.guild_id, campaign.channel_id, text, report, mention_user_ids=players
                )
                return external, "sent"
            external = await courier.post_public(
                campaign.guild_id, campaign.channel_id, text, mention_user_ids=players
            )
            return external, "sent"
        if message.kind == "dm":
            header = f"**Private note, round {message.content.get('round')} ({campaign.name})**"
            text = f"{header}\n{message.content.get('text', '')}"
            return await courier.send_dm(message.recipient_user_id or "", text), "sent"
        # followup: the dice of a round whose command never got its answer (or that the deadline closed)
        report = await self.report(rnd.id, rnd=rnd)  # the round as the caller has it: not read again
        handle = message.content.get("handle")
        answer = getattr(courier, "answer", None)
        if handle and answer is not None:
            try:
                text = f"Round {rnd.number} resolved: the story is in the channel, and here are the dice."
                return await answer(handle, text, report), "sent"
            except ReplyExpired:
                pass  # past Discord's 15 minutes: a fresh channel message instead
        post_results = getattr(courier, "post_results", None)
        if post_results is None:
            return None, "skipped"
        who = message.recipient_user_id
        header = f"<@{who}> round {rnd.number} resolved: here are its dice." if handle and who else ""
        return await post_results(campaign.guild_id, campaign.channel_id, report, header=header), "sent"

    async def _record_send(
        self,
        campaign: CampaignView,
        rnd: RoundView,
        message: OutboxView,
        status: str,
        external: str | None,
        error: str,
        permission: str | None,
        resend: bool,
    ) -> None:
        """Store a send's outcome; after a failure, schedule the retry or tell the GM and the channel."""
        if status != "failed":
            from ledger.store.outbox import record_on

            await record_on(self.ctx.engine, outbox_id=message.id, status=status, external_id=external)
            return
        async with self.ctx.session() as s:
            failure = await ledger_sessions.send_failed(
                s,
                outbox_id=message.id,
                error=error,
                now=self.ctx.clock(),
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
        async with self.ctx.session() as s:
            await service.add_conflict(s, campaign_id=campaign.id, round_id=rnd.id, claim_text=line[:500])
        if resend:  # the GM who just asked for the resend is answered directly
            return
        if message.kind == "public" or permission is not None:
            try:
                await self.ctx.courier.send_dm(campaign.owner_user_id, f"**{campaign.name}**: {line}")
            except Exception:
                _log.warning("round %s: could not tell the GM that the story waits", rnd.id, exc_info=True)
        if message.kind != "public":
            return
        try:
            await self.ctx.courier.post_public(
                campaign.guild_id,
                campaign.channel_id,
                f"The story of round {rnd.number} is waiting: it could not be posted yet. "
                "The GM can send it with /gm resend.",
            )
        except Exception:
            _log.info("round %s: the channel could not be told either", rnd.id)

    async def report(
        self, round_id: int, *, rnd: RoundView | None = None, read: RoundReportRows | None = None
    ) -> v.RoundReport:
        """The round's results as the front ends show them: actions, dice, seed, narration and what failed.

        ``rnd``: the round as the caller knows it is now (not read again). ``read``: the round's messages
        and conflict count as the caller read them after the round's last write (the posting transaction
        reads them before it commits); read here, in one statement, when not given."""
        from ledger.store.outbox import report_rows

        if read is None or rnd is None or rnd.id != round_id:
            async with self.ctx.session() as s:
                if rnd is None or rnd.id != round_id:
                    rnd = await service.get_round(s, round_id=round_id)
                read = await report_rows(s, round_id=round_id)
        messages, conflicts = read.messages, read.conflicts
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
            conflicts_queued=conflicts,
            notices=tuple(content.get("notices", ())),
        )


def _public_text(content: dict[str, Any]) -> str:
    header = f"**Round {content.get('round')}**"
    notices = "".join(f"\n-# {n}" for n in content.get("notices", ()))
    return f"{header}\n{content.get('text', '')}{notices}"
