"""/gm: disputes, rulings, retcons, deadlines, narration conflicts and resending a story that was not posted.

The table enforces GM powers."""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog, send_pages
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


async def setup(bot: commands.Bot) -> None:
    """Load the GM commands."""
    await bot.add_cog(GMCog(bot))
