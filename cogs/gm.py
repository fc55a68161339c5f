"""/gm: disputes, rulings, retcons, deadlines, narration conflicts and resending a story that was not posted;
building the world live (npc, spawn, move, item, item-remove, thread-open, secret); the narrator's proposals.

The table enforces GM powers; every world command answers privately with exactly what it wrote."""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog, choices, send_pages
from bot.discord_courier import defer, reply
from cogs.render import (
    conflict_line,
    dispute_embed,
    dispute_line,
    event_line,
    list_pages,
    round_status_embed,
    thread_line,
)

_log = logging.getLogger(__name__)


def world_change_text(view: Any) -> str:
    """A world command's private confirmation: the summary, then one line per event written."""
    lines = [f"**{view.summary}**", *(f"- {line}" for line in view.changes), *view.notices]
    return "\n".join(lines)


def proposal_line(item: Any) -> str:
    """One proposal or nomination in the GM's queue: id, origin, kind, what, status and why."""
    reason = f" ({item.reason})" if getattr(item, "reason", "") else ""
    origin = f"{item.origin} " if getattr(item, "origin", "") else ""
    at = f", round {item.round}" if getattr(item, "round", "") else ""
    return f"#{item.id} [{item.status}] {origin}{item.kind}{at}: {item.what}{reason}"


def undo_text(view: Any) -> str:
    """What undoing a proposal wrote: the retcon event, then the changes that put the world back."""
    head = f"**Proposal #{view.proposal.id} undone** by {view.retcon_event}: {view.proposal.what}"
    return "\n".join([head, *(f"- {line}" for line in view.changes)])


class GMCog(TableCog):
    """Tools for the game master."""

    gm = app_commands.Group(name="gm", description="Game master tools (GM only).", guild_only=True)

    @gm.command(name="disputes")
    async def disputes(self, interaction: discord.Interaction) -> None:
        """List the players' open disputes."""
        where, caller = self.context(interaction)
        found = await self.table.gm_disputes(where, caller)
        pages = list_pages([dispute_line(d) for d in found], title="Disputes", empty="No disputes.", gm=True)
        await send_pages(interaction, pages, ephemeral=True)

    @gm.command(name="rule")
    @app_commands.describe(
        id="The dispute to rule on",
        decision="Accept (the record is corrected) or reject (it stands)",
        note="Your ruling, shown to the players",
    )
    async def rule(
        self,
        interaction: discord.Interaction,
        id: app_commands.Range[int, 1, 2**31],
        decision: Literal["accept", "reject"],
        note: app_commands.Range[str, 1, 500],
    ) -> None:
        """Rule on a dispute: accept it (correct the record) or reject it."""
        where, caller = self.context(interaction)
        await self.table.require_gm(where, caller)  # refuse before a public "thinking..."
        await defer(interaction)
        view = await self.table.gm_rule(where, caller, dispute_id=id, accept=decision == "accept", note=note)
        await reply(interaction, embed=dispute_embed(view, title=f"Dispute #{view.id} {view.status}"))

    @rule.autocomplete("id")
    async def _dispute_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        found = await self.complete(interaction, "dispute", current)
        return [app_commands.Choice(name=c.name, value=int(c.value)) for c in found if c.value.isdigit()]

    @gm.command(name="retcon")
    @app_commands.describe(id="The event to undo, e.g. ev-000123", reason="Why, shown in the history")
    async def retcon(
        self,
        interaction: discord.Interaction,
        id: app_commands.Range[str, 1, 100],
        reason: app_commands.Range[str, 1, 500],
    ) -> None:
        """Retcon an event: it and its consequences are undone, with a record of why."""
        where, caller = self.context(interaction)
        await self.table.require_gm(where, caller)  # refuse before a public "thinking..."
        await defer(interaction)
        event = await self.table.gm_retcon(where, caller, ref=id.strip(), reason=reason)
        await reply(interaction, f"Retconned. {event_line(event)}")

    @retcon.autocomplete("id")
    async def _record_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "record", current)

    @gm.command(name="thread")
    @app_commands.describe(
        id="The favour, debt, oath, bounty, prophecy or quest, e.g. favor-0003-01",
        status="What became of it",
        note="Why, kept in the history",
    )
    async def thread(
        self,
        interaction: discord.Interaction,
        id: app_commands.Range[str, 1, 100],
        status: Literal["settled", "expired", "broken"],
        note: app_commands.Range[str, 1, 500],
    ) -> None:
        """Settle, expire or break a thread (a favour, debt, oath...)."""
        where, caller = self.context(interaction)
        await self.table.require_gm(where, caller)  # refuse before a public "thinking..."
        await defer(interaction)
        view = await self.table.gm_thread(where, caller, thread_id=id.strip(), status=status, note=note)
        await reply(interaction, f"Thread updated: {thread_line(view)}")

    @thread.autocomplete("id")
    async def _thread_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.complete(interaction, "record", current)
        return [c for c in found if not c.value.startswith(("ev-", "pc-", "npc-", "loc-", "item-"))]

    @gm.command(name="deadline")
    @app_commands.describe(minutes="Minutes from now until the round closes (1 to 10080)")
    async def deadline(
        self, interaction: discord.Interaction, minutes: app_commands.Range[float, 1, 7 * 24 * 60]
    ) -> None:
        """Set when the open round closes."""
        where, caller = self.context(interaction)
        view = await self.table.gm_deadline(where, caller, minutes=minutes)
        await reply(interaction, embed=round_status_embed(view))

    @gm.command(name="resend")
    @app_commands.describe(round="The round to send again (default: the newest whose story is waiting)")
    async def resend(
        self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 100_000] | None = None
    ) -> None:
        """Send again a round's story (and notes) that could not be posted."""
        where, caller = self.context(interaction)
        await defer(interaction, ephemeral=True)
        view = await self.table.gm_resend(where, caller, round_number=round)
        if view.story_posted and not view.still_waiting:
            line = f"Round {view.round_number}: sent again, everything is delivered."
        else:
            line = (
                f"Round {view.round_number}: {view.still_waiting} message(s) still could not be sent. "
                "Check the bot's permissions in this channel, then try again."
            )
        await reply(interaction, line, ephemeral=True)

    @gm.command(name="conflicts")
    async def conflicts(self, interaction: discord.Interaction) -> None:
        """List narration claims the checker found contradicting the ledger."""
        where, caller = self.context(interaction)
        found = await self.table.gm_conflicts(where, caller)
        pages = list_pages(
            [conflict_line(c) for c in found], title="Conflicts", empty="No conflicts.", gm=True
        )
        await send_pages(interaction, pages, ephemeral=True)

    @gm.command(name="conflict")
    @app_commands.describe(
        id="The conflict to settle",
        action="Dismiss it (the narration stands) or retcon what it said",
        note="Why, kept with the conflict",
    )
    async def conflict(
        self,
        interaction: discord.Interaction,
        id: app_commands.Range[int, 1, 2**31],
        action: Literal["dismiss", "retcon"],
        note: app_commands.Range[str, 1, 500],
    ) -> None:
        """Settle a narration conflict."""
        where, caller = self.context(interaction)
        view = await self.table.gm_conflict(where, caller, conflict_id=id, action=action, note=note)
        await reply(interaction, f"Conflict {conflict_line(view)}", ephemeral=True)

    @conflict.autocomplete("id")
    async def _conflict_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        found = await self.complete(interaction, "conflict", current)
        return [app_commands.Choice(name=c.name, value=int(c.value)) for c in found if c.value.isdigit()]

    # --- building the world live --------------------------------------------------------------------------

    async def _world(self, interaction: discord.Interaction, method: str, **options: Any) -> None:
        """Run a world command of the table and answer privately with what it changed."""
        where, caller = self.context(interaction)
        await self.table.require_gm(where, caller)  # refuse before a "thinking..."
        await defer(interaction, ephemeral=True)
        view = await getattr(self.table, method)(where, caller, **options)
        await reply(interaction, world_change_text(view), ephemeral=True)

    async def _gm_choices(
        self, interaction: discord.Interaction, kind: str, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            where, caller = self.context(interaction)
            found = await self.table.gm_autocomplete(where, caller, kind=kind, prefix=current)
        except Exception:  # an autocomplete never fails the typing; a refusal just offers nothing
            _log.debug("gm autocomplete %s failed", kind, exc_info=True)
            return []
        return choices(found)

    @gm.command(name="npc")
    @app_commands.describe(
        name="The NPC's name (an NPC of that name is updated)",
        description="Who they are, as the table sees them",
        location="Where they are (default: where the party is)",
        stats="An SRD creature for their stat block (default: commoner)",
        attitude="Their attitude toward the party, -100 (hostile) to 100 (devoted)",
        pronouns="e.g. she/her",
    )
    async def npc(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        description: app_commands.Range[str, 1, 1000] | None = None,
        location: app_commands.Range[str, 1, 80] | None = None,
        stats: app_commands.Range[str, 1, 60] | None = None,
        attitude: app_commands.Range[int, -100, 100] | None = None,
        pronouns: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        """Create an NPC, or update one (description, place, attitude)."""
        await self._world(
            interaction,
            "gm_npc",
            name=name,
            description=description,
            location=location,
            stats=stats,
            attitude=attitude,
            pronouns=pronouns,
        )

    @gm.command(name="spawn")
    @app_commands.describe(
        creature="An SRD creature, e.g. bandit",
        count="How many (1 to 12)",
        name="Their name (default: the creature's)",
        location="Where (default: where the party is)",
    )
    async def spawn(
        self,
        interaction: discord.Interaction,
        creature: app_commands.Range[str, 1, 60],
        count: app_commands.Range[int, 1, 12] = 1,
        name: app_commands.Range[str, 1, 80] | None = None,
        location: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        """Put monsters in a scene, with the SRD stat block."""
        await self._world(
            interaction, "gm_spawn", creature=creature, count=count, name=name, location=location
        )

    @gm.command(name="move")
    @app_commands.describe(
        who="An NPC or creature, or 'party' for every PC",
        to="A place; a new one is created",
        description="The new place's description",
    )
    async def move(
        self,
        interaction: discord.Interaction,
        who: app_commands.Range[str, 1, 80],
        to: app_commands.Range[str, 1, 80],
        description: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Move someone (or the party) somewhere, creating the place if it is new."""
        await self._world(interaction, "gm_move", who=who, to=to, description=description)

    @gm.command(name="item")
    @app_commands.describe(
        name="The item (a known item: more of it)",
        to="Who gets it, or the place it lies (default: where the party is)",
        quantity="How many (default 1)",
        description="What it is",
    )
    async def item(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        to: app_commands.Range[str, 1, 80] | None = None,
        quantity: app_commands.Range[int, 1, 10_000] = 1,
        description: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Give an item to someone, or leave it at a place."""
        await self._world(
            interaction, "gm_item", name=name, to=to, quantity=quantity, description=description
        )

    @gm.command(name="item-remove")
    @app_commands.rename(holder="from")
    @app_commands.describe(
        name="The item",
        fate="What became of it",
        holder="Whose (needed when several hold it)",
        quantity="How many (default: all they hold)",
    )
    async def item_remove(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        fate: Literal["sold", "lost", "destroyed", "used up", "confiscated"],
        holder: app_commands.Range[str, 1, 80] | None = None,
        quantity: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        """An item leaves the world: sold, lost, destroyed, used up or confiscated."""
        await self._world(
            interaction, "gm_item_remove", name=name, fate=fate, holder=holder, quantity=quantity
        )

    @gm.command(name="thread-open")
    @app_commands.rename(from_="from")
    @app_commands.describe(
        kind="What kind of thread",
        from_="Who owes, swore or started it",
        to="Toward whom",
        terms="What it is about",
        visibility="Who sees it: everyone (default), the GM, or one player",
    )
    async def thread_open(
        self,
        interaction: discord.Interaction,
        kind: Literal["favour", "debt", "oath", "feud", "bounty", "quest", "prophecy", "rumour"],
        from_: app_commands.Range[str, 1, 80],
        to: app_commands.Range[str, 1, 80],
        terms: app_commands.Range[str, 1, 500],
        visibility: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Open a new thread: a favour, debt, oath, feud, bounty, quest, prophecy or rumour."""
        await self._world(
            interaction, "gm_thread_open", kind=kind, from_=from_, to=to, terms=terms, visibility=visibility
        )

    @gm.command(name="secret")
    @app_commands.rename(for_="for")
    @app_commands.describe(
        about="Who, where or what the secret is about",
        text="The secret",
        for_="Tell one player now (by DM); without it a successful check may reveal it",
    )
    async def secret(
        self,
        interaction: discord.Interaction,
        about: app_commands.Range[str, 1, 80],
        text: app_commands.Range[str, 1, 500],
        for_: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Plant a GM secret, or tell one player something privately now."""
        await self._world(interaction, "gm_secret", about=about, text=text, for_=for_)

    @npc.autocomplete("name")
    async def _npc_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "npc-name", current)

    @npc.autocomplete("location")
    @spawn.autocomplete("location")
    @move.autocomplete("to")
    async def _locations(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "location", current)

    @npc.autocomplete("stats")
    @spawn.autocomplete("creature")
    async def _creatures(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "creature", current)

    @move.autocomplete("who")
    async def _movers(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "mover", current)

    @item.autocomplete("to")
    @item_remove.autocomplete("holder")
    @thread_open.autocomplete("from_")
    @thread_open.autocomplete("to")
    async def _holders(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "holder", current)

    @item.autocomplete("name")
    @item_remove.autocomplete("name")
    async def _items(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "world-item", current)

    @thread_open.autocomplete("visibility")
    async def _audiences(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "visibility", current)

    @secret.autocomplete("about")
    async def _subjects(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "subject", current)

    @secret.autocomplete("for_")
    async def _players(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._gm_choices(interaction, "player", current)

    # --- the narrator's proposals and the players' nominations (bot.table.proposals) --------------------

    @gm.command(name="proposals")
    async def proposals(self, interaction: discord.Interaction) -> None:
        """List the narrator's proposals and the players' nominations: accepted, refused, queued, undone."""
        where, caller = self.context(interaction)
        found = await self.table.gm_proposals(where, caller)
        pages = list_pages(
            [proposal_line(p) for p in found], title="Proposals", empty="No proposals.", gm=True
        )
        await send_pages(interaction, pages, ephemeral=True)

    @gm.command(name="undo")
    @app_commands.describe(proposal="The accepted proposal to undo (a retcon, never a deletion)")
    async def undo(
        self, interaction: discord.Interaction, proposal: app_commands.Range[int, 1, 2**31]
    ) -> None:
        """Undo an accepted proposal: its changes are retconned, with a record of why."""
        where, caller = self.context(interaction)
        await self.table.require_gm(where, caller)
        await defer(interaction, ephemeral=True)
        view = await self.table.gm_undo_proposal(where, caller, proposal_id=proposal)
        await reply(interaction, undo_text(view), ephemeral=True)

    @undo.autocomplete("proposal")
    async def _proposal_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        try:
            where, caller = self.context(interaction)
            found = await self.table.gm_proposals(where, caller)
        except Exception:
            _log.debug("proposal autocomplete failed", exc_info=True)
            return []
        return [
            app_commands.Choice(name=proposal_line(p)[:100], value=int(p.id))
            for p in found
            if p.status == "accepted" and current.strip().lstrip("#") in str(p.id)
        ][:25]


async def setup(bot: commands.Bot) -> None:
    """Load the GM commands."""
    await bot.add_cog(GMCog(bot))
