"""The narrator's proposals at the table: landed in the round's narration transaction, listed, undone.

The narrator proposes, the system decides (:mod:`bot.narrator.proposals`); this part writes the decisions.
:func:`stage_decisions` is run by :mod:`bot.table.narration` inside the transaction that stores the round's
narration: each accepted proposal's changes are written with cause ``narration-<session>.<round>`` (one that
the ledger still refuses, say a name taken since, is refused with the ledger's reason), every proposal is
kept with its status and reason, and the GM gets a private note of what landed and what was refused, stored
in the outbox with the round's other messages. :class:`Proposals` gives the GM the list (with the players'
nominations, :mod:`bot.table.nominations`) and the undo: a retcon event of the changes that landed, never a
deletion.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.errors import InvalidAction, NotFound
from bot.narrator.proposals import Decision, ProposalView, UndoView
from ledger import service
from ledger.errors import LedgerError
from ledger.store import proposals as store

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.table.context import Lookups, TableContext
    from ledger.store.proposals import ProposalRecord
    from ledger.store.records import RoundView

_log = logging.getLogger(__name__)

#: How many proposals the GM's list shows (newest first).
LIST_LIMIT = 25


def proposal_view(record: ProposalRecord) -> ProposalView:
    """The GM's view of a stored proposal."""
    return ProposalView(
        id=record.id,
        origin="player" if record.origin == "player" else "narrator",
        kind=record.kind,
        what=record.summary,
        status=record.status,  # type: ignore[arg-type]
        reason=record.reason,
        round=str(record.payload.get("round", "")),
        refs=record.refs,
        undo_event=record.undo_event,
    )


def stage_decisions(
    decisions: Sequence[Decision], *, campaign_id: int, rnd: RoundView, gm_user_id: str
) -> Callable[[AsyncSession], Awaitable[None]]:
    """A stage for ``store_narration``: the accepted proposals' changes, every proposal row, the GM's note."""

    async def stage(s: AsyncSession) -> None:
        from ledger.store import models as m

        cause = f"narration-{rnd.session_number}.{rnd.number}"
        accepted = [d for d in decisions if d.accepted]
        landed_as = await _land(s, accepted, campaign_id=campaign_id, rnd=rnd, cause=cause)
        landed: list[str] = []
        refused: list[str] = []
        rows = []
        for decision in decisions:
            status, reason, changes = "refused", decision.reason, list(decision.changes)
            refs: tuple[str, ...] = ()
            if decision.accepted:
                outcome = landed_as[id(decision)]
                if isinstance(outcome, str):
                    reason = f"the ledger refused it: {outcome}"
                else:
                    status, (changes, refs) = "accepted", outcome
            rows.append(
                store.new_proposal(
                    campaign_id=campaign_id,
                    round_id=rnd.id,
                    origin="narrator",
                    kind=decision.kind,
                    summary=decision.summary,
                    status=status,
                    payload={
                        "round": f"{rnd.session_number}.{rnd.number}",
                        "proposal": decision.proposal,
                        **decision.payload,
                    },
                    changes=changes if status == "accepted" else (),
                    refs=refs,
                    reason=reason,
                    cause=cause,
                )
            )
            if status == "accepted":
                landed.append(decision.summary)
            else:
                refused.append(f"{decision.summary} ({reason})")
                _log.info("proposal refused in round %s: %s (%s)", cause, decision.summary, reason)
        s.add_all(rows)
        lines = [f"Narrator's proposals, round {rnd.session_number}.{rnd.number}:"]
        lines += [f"+ landed: {what}" for what in landed]
        lines += [f"- refused: {what}" for what in refused]
        lines.append("See /gm proposals; /gm undo takes one back.")
        s.add(
            m.Outbox(
                campaign_id=campaign_id,
                round_id=rnd.id,
                kind="dm",
                recipient_user_id=gm_user_id,
                content={"text": "\n".join(lines)[:1900], "round": rnd.number},
                source="proposals",
            )
        )

    return stage


_Landed = tuple[list[dict[str, Any]], tuple[str, ...]] | str


async def _land(
    s: AsyncSession, accepted: Sequence[Decision], *, campaign_id: int, rnd: RoundView, cause: str
) -> dict[int, _Landed]:
    """Write the accepted proposals' changes: (changes, event refs) per decision, or the ledger's refusal.

    All of them are staged as one batch (one lock, one lookup per table, one bulk write) in which each lands
    or is refused on its own (:func:`ledger.store.writes.stage_each`), so one bad proposal does not sink the
    others and no savepoint is needed: a refused one is dropped from the draft before anything is written.
    """
    from ledger.store.writes import ChangeGroup, stage_each

    if not accepted:
        return {}
    taken: set[str] = set()
    batch = [[await _with_thread_id(s, c, campaign_id, rnd, taken) for c in d.changes] for d in accepted]
    groups = [
        ChangeGroup(session_number=rnd.session_number, round_number=rnd.number, mutations=changes)
        for changes in batch
    ]
    outcomes = await stage_each(s, campaign_id=campaign_id, cause=cause, groups=groups)
    return {
        id(d): str(o) if isinstance(o, LedgerError) else (c, tuple(o))
        for d, c, o in zip(accepted, batch, outcomes, strict=True)
    }


async def _with_thread_id(
    s: AsyncSession, change: dict[str, Any], campaign_id: int, rnd: RoundView, taken: set[str]
) -> dict[str, Any]:
    """An ``open_thread`` change gets a fresh thread id of the round's session (none given out twice)."""
    if change.get("kind") != "open_thread" or change.get("id"):
        return change
    thread = await service.next_thread_id(
        s, campaign_id=campaign_id, thread_kind=str(change["thread_kind"]), session_number=rnd.session_number
    )
    prefix, _, number = thread.rpartition("-")
    n = int(number)
    while thread in taken:
        n += 1
        thread = f"{prefix}-{n:02d}"
    taken.add(thread)
    return {**change, "id": thread}


async def inverse_changes(s: AsyncSession, record: ProposalRecord) -> list[dict[str, Any]]:
    """The changes that take ``record``'s landed changes back (what the GM's undo writes in a retcon).

    A created NPC leaves play (no longer alive: the ledger deletes nothing), a created item goes out of the
    world from whoever holds it now, an opened thread expires, an attitude goes back to what it was, and a
    recorded event needs nothing but the retcon that supersedes it.
    """
    out: list[dict[str, Any]] = []
    for change in record.changes:
        kind = change.get("kind")
        if kind == "create_entity":
            out.append({"kind": "set_alive", "entity": change["id"], "alive": False})
        elif kind == "create_item":
            holders = await service.holders_of(
                s, campaign_id=record.campaign_id, item_id=change["id"], viewer=service.Viewer.gm()
            )
            for h in holders:
                out.append(
                    {
                        "kind": "transfer_item",
                        "item": change["id"],
                        "from_holder": h.holder_id,
                        "quantity": h.quantity,
                    }
                )
        elif kind == "open_thread":
            out.append(
                {"kind": "thread_transition", "thread": change["id"], "status": "expired", "reason": "undone"}
            )
        elif kind == "set_edge":
            before = int(record.payload.get("before", 0))
            out.append(
                {
                    "kind": "set_edge",
                    "source": change["source"],
                    "target": change["target"],
                    "edge_kind": change["edge_kind"],
                    "attitude": before,
                    "reason": "undone by the GM",
                }
            )
    return out


class Proposals:
    """The GM's list of proposals and nominations, and the undo of one."""

    def __init__(self, ctx: TableContext, lookups: Lookups) -> None:
        self.ctx = ctx
        self.lookups = lookups

    async def gm_proposals(self, where: v.Where, caller: v.Caller) -> tuple[ProposalView, ...]:
        """The campaign's proposals and nominations, newest first, with status and reason (GM)."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            rows = await store.list_proposals(s, campaign_id=campaign.id, limit=LIST_LIMIT)
        return tuple(proposal_view(r) for r in rows)

    async def gm_undo_proposal(self, where: v.Where, caller: v.Caller, *, proposal_id: int) -> UndoView:
        """Undo an accepted proposal (GM): a retcon event of the changes taking it back, never a deletion."""
        from ledger.store import sessions as ledger_sessions
        from ledger.store.db import begin_write
        from ledger.store.writes import stage_changes

        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)
            try:
                record = await store.get_proposal(s, campaign_id=campaign.id, proposal_id=proposal_id)
            except LedgerError:
                raise NotFound(f"No proposal #{proposal_id} in this campaign.") from None
            if record.status != "accepted" or not record.refs:
                raise InvalidAction(
                    f"Proposal #{proposal_id} is {record.status}: only a landed one can be undone."
                )
            inverse = await inverse_changes(s, record)
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            # A private nomination's undo stays as private as what it undoes.
            inverse = [{**change, "visibility": record.visibility} for change in inverse]
            retcon = {
                "kind": "retcon",
                "target": record.refs[0],
                "reason": f"undo of proposal #{record.id}: {record.summary}"[:500],
                "changes": inverse,
                "visibility": record.visibility,
            }
            await begin_write(s)
            try:
                refs = await stage_changes(
                    s,
                    campaign_id=campaign.id,
                    session_number=latest.number,
                    round_number=None,
                    cause=f"gm-{caller.user_id}",
                    mutations=[retcon],
                    importance=5,
                    permanent=True,
                    witnesses=(),
                    round_state=None,
                    resolution=None,
                )
                await store.mark_undone(s, proposal_id=record.id, undo_event=refs[0])
                await s.commit()
            except LedgerError as err:
                await s.rollback()
                raise InvalidAction(f"Proposal #{proposal_id} cannot be undone: {err}") from None
            except BaseException:
                await s.rollback()
                raise
            record = await store.get_proposal(s, campaign_id=campaign.id, proposal_id=proposal_id)
        return UndoView(
            proposal=proposal_view(record), retcon_event=refs[0], changes=tuple(_line(c) for c in inverse)
        )


def _line(change: dict[str, Any]) -> str:
    kind = change.get("kind")
    if kind == "set_alive":
        return f"{change['entity']} leaves play"
    if kind == "transfer_item":
        return f"{change['item']} leaves {change['from_holder']}"
    if kind == "thread_transition":
        return f"{change['thread']} expires"
    if kind == "set_edge":
        return f"{change['source']} -> {change['target']} back to {change['attitude']}"
    return str(kind)
