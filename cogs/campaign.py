"""/campaign start|status|export|end, /session start|end, /join and /leave: thin calls into the table."""

from __future__ import annotations

import io
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog
from bot.discord_courier import defer, reply
from bot.discord_format import safe
from bot.errors import InvalidAction, TableError
from bot.table.campaigns import BLANK, CampaignExportView
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
        name="The campaign's name, shown in every recap (a world file or scenario names its own)",
        scenario="A bundled scenario to start from, or 'blank' for an empty world",
        world="Your own world: a scenario .toml file (see docs/scenario.md)",
    )
    async def campaign_start(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100] | None = None,
        scenario: str | None = None,
        world: discord.Attachment | None = None,
    ) -> None:
        """Start a campaign in this channel; you become its GM."""
        where, caller = self.context(interaction)
        if world is not None:
            if scenario is not None:
                raise InvalidAction("Give a bundled scenario or your own world file, not both.")
            # Refused before anything is downloaded: a name that is no .toml, a file over the size cap.
            await self.table.check_world_upload(filename=world.filename, size=world.size)
            await defer(interaction)
            try:
                data = await world.read()
            except discord.HTTPException:
                raise TableError(f"I couldn't download {safe(world.filename)}: attach it again.") from None
            view = await self.table.start_campaign_from_upload(
                where, caller, filename=world.filename, data=data, name=name
            )
        else:
            await defer(interaction)
            view = await self.table.start_campaign(where, caller, name=name or "", scenario=scenario)
        await reply(
            interaction, embed=campaign_embed(view, title=f"A new campaign begins: {safe(view.name)}")
        )

    @campaign_start.autocomplete("scenario")
    async def _scenario_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await self.complete(interaction, "scenario", current)
        if BLANK.startswith(current.strip().lower()):
            choices = [app_commands.Choice(name="blank (an empty world you build)", value=BLANK), *choices]
        return choices[:25]

    @campaign.command(name="export")
    async def campaign_export(self, interaction: discord.Interaction) -> None:
        """Download this campaign, history included, as a world file (GM only)."""
        where, caller = self.context(interaction)
        await defer(interaction, ephemeral=True)
        export = await self.table.export_campaign(where, caller)
        file = discord.File(io.BytesIO(export.text.encode("utf-8")), filename=export.filename)
        await reply(interaction, _export_text(export), file=file, ephemeral=True)

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


def _export_text(export: CampaignExportView) -> str:
    """The GM's private note beside an exported world file: what it holds, and whether it loads back."""
    text = (
        f"**{safe(export.name)}**, exported: {export.events} events in {export.entries} history entries. "
        "Start a campaign from it with `/campaign start world:`."
    )
    if export.problems:
        shown = "\n".join(f"- {safe(line)}" for line in export.problems[:5])
        text += f"\nThis file would not load back as it is; fix these first:\n{shown}"
    return text


async def setup(bot: commands.Bot) -> None:
    """Load the campaign commands."""
    await bot.add_cog(CampaignCog(bot))
