"""/campaign start|status|end, /session start|end, /join and /leave: thin calls into the table."""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog
from bot.discord_courier import defer, reply
from bot.discord_format import safe
from cogs.render import campaign_embed, character_embed, recap_embed

_log = logging.getLogger(__name__)


class CampaignCog(TableCog):
    """Campaigns, sessions and who plays."""

    campaign = app_commands.Group(
        name="campaign", description="Start, inspect or end this channel's campaign.", guild_only=True
    )
    session = app_commands.Group(name="session", description="Open or close a play session.", guild_only=True)

    @campaign.command(name="start")
    @app_commands.describe(
        name="The campaign's name, shown in every recap",
        scenario="A scenario file to start from (leave empty for a blank world)",
    )
    async def campaign_start(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        scenario: str | None = None,
    ) -> None:
        """Start a campaign in this channel; you become its GM."""
        where, caller = self.context(interaction)
        await defer(interaction)
        view = await self.table.start_campaign(where, caller, name=name, scenario=scenario)
        await reply(
            interaction, embed=campaign_embed(view, title=f"A new campaign begins: {safe(view.name)}")
        )

    @campaign_start.autocomplete("scenario")
    async def _scenario_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "scenario", current)

    @campaign.command(name="status")
    async def campaign_status(self, interaction: discord.Interaction) -> None:
        """Show this channel's campaign, session, round and players."""
        where, caller = self.context(interaction)
        view = await self.table.campaign_status(where, caller)
        await reply(interaction, embed=campaign_embed(view), ephemeral=True)

    @campaign.command(name="end")
    async def campaign_end(self, interaction: discord.Interaction) -> None:
        """End this channel's campaign (GM only); its ledger stays readable."""
        where, caller = self.context(interaction)
        view = await self.table.end_campaign(where, caller)
        await reply(
            interaction, embed=campaign_embed(view, title=f"The campaign {safe(view.name)} has ended")
        )

    @session.command(name="start")
    async def session_start(self, interaction: discord.Interaction) -> None:
        """Open a new session (GM only): the first round opens for actions."""
        where, caller = self.context(interaction)
        view = await self.table.start_session(where, caller)
        await reply(interaction, embed=campaign_embed(view, title=f"Session {view.session_number} begins"))

    @session.command(name="end")
    async def session_end(self, interaction: discord.Interaction) -> None:
        """Close the session (GM only) and post its recap."""
        where, caller = self.context(interaction)
        await self.table.require_gm(where, caller)  # refuse before a public "thinking..."
        await defer(interaction)
        view = await self.table.end_session(where, caller)
        await reply(interaction, embed=recap_embed(view))

    @app_commands.command(name="join")
    @app_commands.guild_only()
    @app_commands.describe(
        name="Your character's name (for a new character)",
        claim="A pre-made character from the scenario to play instead",
        scores="Six ability scores STR,DEX,CON,INT,WIS,CHA, e.g. 15,14,13,12,10,8",
        method="How the scores were chosen: the standard array or point buy",
        skills="Skill proficiencies, comma-separated, e.g. stealth, perception",
        weapon="Your starting weapon, e.g. longsword",
    )
    async def join(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60] | None = None,
        claim: str | None = None,
        scores: app_commands.Range[str, 1, 40] | None = None,
        method: Literal["standard", "pointbuy"] = "standard",
        skills: app_commands.Range[str, 1, 200] | None = None,
        weapon: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        """Join this channel's campaign with a new or a pre-made character."""
        where, caller = self.context(interaction)
        view = await self.table.join(
            where, caller, name=name, claim=claim, scores=scores, method=method, skills=skills, weapon=weapon
        )
        await reply(interaction, embed=character_embed(view, title=f"{safe(view.name)} joins the party"))

    @join.autocomplete("claim")
    async def _claim_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "claim", current)

    @app_commands.command(name="leave")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave this channel's campaign; your character stays in the ledger."""
        where, caller = self.context(interaction)
        view = await self.table.leave(where, caller)
        await reply(interaction, f"{safe(view.name)} leaves the party.")


async def setup(bot: commands.Bot) -> None:
    """Load the campaign commands."""
    await bot.add_cog(CampaignCog(bot))
