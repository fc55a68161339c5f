"""/remember: a player nominates what should be remembered; the table checks it against the record.

The reply is private: what landed (and from which round), or that it waits for the GM, with the part of the
nomination that was not found said plainly.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog
from bot.discord_courier import defer, reply
from bot.discord_format import safe
from bot.narrator.proposals import NominationView

#: How long a nomination may be (the table refuses longer ones too).
REMEMBER_TEXT_LIMIT = 300


def nomination_text(view: NominationView) -> str:
    """The private answer to a nomination, in plain words."""
    what = f"“{safe(view.what)}”"
    if view.status == "accepted":
        private = (
            " (kept private: only you and the GM see it)" if view.visibility.startswith("player:") else ""
        )
        landed = "a thread" if view.kind == "thread" else "an event in the history"
        return f"Remembered {what} as {landed}, from {view.source}{private}."
    lines = [f"Sent to the GM to decide: {what}.", f"Why: {safe(view.reason)}."]
    if view.missing:
        lines.append("Not found in the record: " + ", ".join(f"“{safe(w)}”" for w in view.missing) + ".")
    return "\n".join(lines)


class RememberCog(TableCog):
    """Nominating what should be remembered."""

    @app_commands.command(name="remember")
    @app_commands.guild_only()
    @app_commands.describe(text="A fact, promise or clue from play, e.g. 'Marta promised us a boat at dawn'")
    async def remember(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, REMEMBER_TEXT_LIMIT]
    ) -> None:
        """Nominate a fact, promise or clue from play to be remembered (it is checked against the record)."""
        where, caller = self.context(interaction)
        await defer(interaction, ephemeral=True)
        view = await self.table.remember(where, caller, text=text)
        await reply(interaction, nomination_text(view), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the remember command."""
    await bot.add_cog(RememberCog(bot))
