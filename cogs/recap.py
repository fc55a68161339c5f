"""/recap: the story so far, from the session summaries and the ledger."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog
from bot.discord_courier import defer, reply
from cogs.render import recap_embed

_log = logging.getLogger(__name__)


class RecapCog(TableCog):
    """The story so far."""

    @app_commands.command(name="recap")
    @app_commands.guild_only()
    async def recap(self, interaction: discord.Interaction) -> None:
        """Recap the last session for the table."""
        where, caller = self.context(interaction)
        await defer(interaction)
        # Posted for the whole table: built from the channel's view, never the asker's (issue 9).
        view = await self.table.recap(where, caller, public=True)
        await reply(interaction, embed=recap_embed(view))


async def setup(bot: commands.Bot) -> None:
    """Load the recap command."""
    await bot.add_cog(RecapCog(bot))
