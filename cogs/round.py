"""/act, /ready, /round status and /round close: the round lifecycle, resolved by the table."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import TableCog
from bot.discord_courier import DiscordCourier, defer, reply
from bot.discord_format import round_report_embeds, safe
from bot.errors import InvalidAction
from bot.views import ReadyReceipt, RoundReport
from cogs.render import SKILL_CHOICES, round_status_embed

_log = logging.getLogger(__name__)

ACT_TEXT_LIMIT = 500


async def send_round_report(interaction: discord.Interaction, report: RoundReport, *, header: str) -> None:
    """Post the round's mechanics, and tell players whose DMs are closed where their note waits.

    The narration reaches the channel through the table's courier; when it went out as one round message with
    its dice (``DiscordCourier.post_round``), this reply points there instead of showing the dice twice.
    """
    lines = [header]
    courier = getattr(getattr(interaction.client, "table", None), "courier", None)
    posted = isinstance(courier, DiscordCourier) and courier.posted_round(report)
    if posted:
        lines.append("The dice and the story are in the round's message.")
    undelivered = list(report.dms_undelivered)
    if undelivered:
        mentions = ", ".join(f"<@{u}>" for u in undelivered)
        lines.append(f"{mentions}: I couldn't DM you, so your private note waits in `/ledger notes`.")
    embeds = [] if posted else round_report_embeds(report)
    await reply(interaction, "\n".join(lines), embeds=embeds, mention_user_ids=undelivered)
    if str(interaction.user.id) in undelivered:
        await interaction.followup.send(
            "Your DMs are closed to me: read your private note with `/ledger notes` "
            "(or allow DMs from server members to get them directly).",
            ephemeral=True,
        )


class RoundCog(TableCog):
    """Acting in the open round."""

    round = app_commands.Group(
        name="round", description="The open round: who acted, and closing it.", guild_only=True
    )

    @app_commands.command(name="act")
    @app_commands.guild_only()
    @app_commands.describe(
        text="What your character does, in your own words (up to 500 characters)",
        target="Who or what you act on",
        item="An item you use",
        skill="A skill you use, if any",
    )
    @app_commands.choices(skill=SKILL_CHOICES)
    async def act(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, ACT_TEXT_LIMIT],
        target: str | None = None,
        item: str | None = None,
        skill: app_commands.Choice[str] | None = None,
    ) -> None:
        """Declare your action for this round; you can change it until the round closes."""
        where, caller = self.context(interaction)
        text = text.strip()
        if not text or len(text) > ACT_TEXT_LIMIT:
            raise InvalidAction(f"Describe your action in 1 to {ACT_TEXT_LIMIT} characters.")
        await defer(interaction, ephemeral=True)  # reading free text may ask the language model
        receipt = await self.table.submit(
            where,
            caller,
            key=str(interaction.id),
            text=text,
            target=target,
            item=item,
            skill=skill.value if skill is not None else None,
        )
        if receipt.late:
            note = "That round was already closing: this action waits for the next round."
        elif receipt.edited:
            note = f"Round {receipt.round_number}: your action was replaced."
        else:
            note = f"Round {receipt.round_number}: action recorded."
        await reply(
            interaction,
            f"{note}\n**{safe(receipt.character_name)}**: {safe(receipt.intent_summary)}\n"
            "Use `/ready` when you're done.",
            ephemeral=True,
        )

    @act.autocomplete("target")
    async def _target_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "target", current)

    @act.autocomplete("item")
    async def _item_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "item", current)

    @app_commands.command(name="ready")
    @app_commands.guild_only()
    async def ready(self, interaction: discord.Interaction) -> None:
        """Mark yourself ready; when everyone is, the round resolves."""
        where, caller = self.context(interaction)
        await defer(interaction)
        # The reply handle lets a restarted bot answer this command if it dies while the round is told.
        receipt: ReadyReceipt = await self.table.ready(
            where, caller, reply=DiscordCourier.reply_handle(interaction)
        )
        who = safe(receipt.character_name or caller.display_name)  # the table speaks of characters
        if receipt.report is not None:
            await send_round_report(
                interaction,
                receipt.report,
                header=f"{who} is ready. Everyone is: round {receipt.round_number} resolves.",
            )
            return
        waiting = ", ".join(safe(w) for w in receipt.waiting) or "nobody"
        await reply(interaction, f"{who} is ready. Waiting for: {waiting}.")

    @round.command(name="status")
    async def round_status(self, interaction: discord.Interaction) -> None:
        """Show who has acted and who the round is waiting for."""
        where, caller = self.context(interaction)
        view = await self.table.round_status(where, caller)
        await reply(interaction, embed=round_status_embed(view), ephemeral=True)

    @round.command(name="close")
    async def round_close(self, interaction: discord.Interaction) -> None:
        """Close the round now (GM only); absent players take the default action."""
        where, caller = self.context(interaction)
        await self.table.require_gm(where, caller)  # refuse before a public "thinking..."
        await defer(interaction)
        report = await self.table.close_round(where, caller, reply=DiscordCourier.reply_handle(interaction))
        await send_round_report(interaction, report, header=f"The GM closes round {report.round_number}.")


async def setup(bot: commands.Bot) -> None:
    """Load the round commands."""
    await bot.add_cog(RoundCog(bot))
