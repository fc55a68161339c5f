"""/roll: a seeded dice roll anyone can replay."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog
from bot.discord_courier import reply
from bot.errors import InvalidAction
from cogs.render import roll_embed

_log = logging.getLogger(__name__)

EXPRESSION_LIMIT = 100


class DiceCog(TableCog):
    """Rolling dice outside the round."""

    @app_commands.command(name="roll")
    @app_commands.describe(
        expr="Dice in d20 notation, e.g. 1d20+5, 4d6kh3, 2d20kl1",
        private="Only you see the result",
        seed="Replay a roll: the seed shown under an earlier result",
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expr: app_commands.Range[str, 1, EXPRESSION_LIMIT],
        private: bool = False,
        seed: app_commands.Range[int, 0, 2**53] | None = None,
    ) -> None:
        """Roll dice (d20 notation); the seed lets anyone replay it."""
        expr = expr.strip()
        if not expr or len(expr) > EXPRESSION_LIMIT:
            raise InvalidAction(f"A dice expression is 1 to {EXPRESSION_LIMIT} characters, e.g. 1d20+5.")
        view = await self.table.roll(self.caller(interaction), expression=expr, seed=seed)
        await reply(interaction, embed=roll_embed(view, who=interaction.user.display_name), ephemeral=private)


async def setup(bot: commands.Bot) -> None:
    """Load the dice commands."""
    await bot.add_cog(DiceCog(bot))
