"""/ledger: read the campaign's records (inventory, relationships, threads, history, notes), dispute them."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_client import PRIVATE_NOTE, ShowTable, ShowTableView, TableCog, send_pages
from bot.discord_courier import reply
from bot.errors import NotFound
from bot.graph_render import render_graph
from bot.views import EdgeView, EventView, GraphView, RecordView, ThreadView
from cogs.render import (
    COLOUR_LEDGER,
    COLOUR_PRIVATE,
    dispute_embed,
    edge_line,
    event_line,
    inventory_embed,
    list_pages,
    note_line,
    record_embed,
    thread_line,
)

_log = logging.getLogger(__name__)

T = TypeVar("T")


class LedgerCog(TableCog):
    """The campaign ledger as players may see it."""

    ledger = app_commands.Group(
        name="ledger", description="Read the campaign ledger, or dispute a record.", guild_only=True
    )

    @ledger.command(name="inventory")
    @app_commands.describe(player="Whose inventory (leave empty for your own)")
    async def inventory(self, interaction: discord.Interaction, player: str | None = None) -> None:
        """Show what a character carries (your own privately)."""
        where, caller = self.context(interaction)
        view = await self.table.inventory(where, caller, player_user_id=player)
        await reply(interaction, embed=inventory_embed(view), ephemeral=view.private or player is None)

    @inventory.autocomplete("player")
    async def _player_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "player", current)

    @ledger.command(name="relationships")
    @app_commands.describe(npc="Only the relationships of this NPC (leave empty for all you know of)")
    async def relationships(self, interaction: discord.Interaction, npc: str | None = None) -> None:
        """Show who owes, trusts or hates whom, with the record behind each."""
        where, caller = self.context(interaction)

        def pages(edges: Sequence[EdgeView]) -> list[discord.Embed]:
            return list_pages(
                [edge_line(e) for e in edges], title="Relationships", empty="No relationships known."
            )

        async def shared() -> Sequence[EdgeView] | None:
            return await _public_or_none(self.table.relationships(where, caller, npc=npc, public=True))

        mine = await self.table.relationships(where, caller, npc=npc)
        await answer_pages(interaction, mine, await shared(), render=pages, public=shared)

    @relationships.autocomplete("npc")
    async def _npc_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "npc", current)

    @ledger.command(name="threads")
    async def threads(self, interaction: discord.Interaction) -> None:
        """Show open favours, debts, oaths, bounties, prophecies and quests."""
        where, caller = self.context(interaction)

        def pages(found: Sequence[ThreadView]) -> list[discord.Embed]:
            return list_pages([thread_line(t) for t in found], title="Threads", empty="No threads yet.")

        async def shared() -> Sequence[ThreadView] | None:
            return await _public_or_none(self.table.threads(where, caller, public=True))

        mine = await self.table.threads(where, caller)
        await answer_pages(interaction, mine, await shared(), render=pages, public=shared)

    @ledger.command(name="history")
    @app_commands.describe(count="How many recent events to show (1-50)")
    async def history(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 10
    ) -> None:
        """Show the most recent events, each with its cause."""
        where, caller = self.context(interaction)

        def pages(events: Sequence[EventView]) -> list[discord.Embed]:
            return list_pages(
                [event_line(e) for e in events], title="History", empty="Nothing has happened yet."
            )

        async def shared() -> Sequence[EventView] | None:
            return await _public_or_none(self.table.history(where, caller, count=count, public=True))

        mine = await self.table.history(where, caller, count=count)
        await answer_pages(interaction, mine, await shared(), render=pages, public=shared)

    @ledger.command(name="record")
    @app_commands.describe(id="A record id (ev-000123, npc-old-wei, favor-0003-01) or a round (round-3)")
    async def record(self, interaction: discord.Interaction, id: app_commands.Range[str, 1, 100]) -> None:
        """Show a record (or a round) as a card: what, when, who saw it, why, and how to replay its roll."""
        where, caller = self.context(interaction)
        ref = id.strip()

        async def shared() -> RecordView | None:
            return await _public_or_none(self.table.record(where, caller, ref=ref, public=True))

        mine = await self.table.record(where, caller, ref=ref)
        await answer_pages(
            interaction, mine, await shared(), render=lambda view: [record_embed(view)], public=shared
        )

    @record.autocomplete("id")
    async def _record_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "record", current)

    @ledger.command(name="notes")
    async def notes(self, interaction: discord.Interaction) -> None:
        """Show your private notes (only you see them)."""
        where, caller = self.context(interaction)
        found = await self.table.notes(where, caller)
        pages = list_pages(
            [note_line(n) for n in found], title="Your private notes", empty="No private notes."
        )
        for page in pages:
            page.colour = COLOUR_PRIVATE
        await send_pages(interaction, pages, ephemeral=True)

    @ledger.command(name="dispute")
    @app_commands.describe(
        id="The record you dispute, e.g. ev-000123",
        reason="Why it is wrong (the GM reads this)",
    )
    async def dispute(
        self,
        interaction: discord.Interaction,
        id: app_commands.Range[str, 1, 100],
        reason: app_commands.Range[str, 1, 500],
    ) -> None:
        """Dispute a record; the GM rules on it."""
        where, caller = self.context(interaction)
        view = await self.table.dispute(where, caller, ref=id.strip(), reason=reason.strip())
        # A dispute of a record the channel may not see names it and says what is wrong with it: private.
        shared = await _public_or_none(self.table.record(where, caller, ref=view.record_ref, public=True))
        await reply(
            interaction,
            embed=dispute_embed(view, title=f"Dispute #{view.id} raised"),
            ephemeral=shared is None,
        )

    @dispute.autocomplete("id")
    async def _dispute_record_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, "record", current)

    @ledger.command(name="graph")
    async def graph(self, interaction: discord.Interaction) -> None:
        """Draw the relationship graph you know of as an image."""
        where, caller = self.context(interaction)
        mine = await self.table.graph(where, caller)
        shared = await self.table.graph(where, caller, public=True)
        if mine == shared:
            embed, file = await _graph_message(mine)
            await reply(interaction, embed=embed, file=file)
            return

        async def post_public(pressed: discord.Interaction) -> None:
            embed, file = await _graph_message(await self.table.graph(where, caller, public=True))
            await reply(pressed, embed=embed, file=file)

        embed, file = await _graph_message(mine, private=True)
        view = ShowTableView(ShowTable(post_public))
        await reply(interaction, embed=embed, file=file, ephemeral=True, view=view)


async def _graph_message(view: GraphView, *, private: bool = False) -> tuple[discord.Embed, discord.File]:
    """The graph drawn as an image, with an embed counting what it shows."""
    png = await asyncio.to_thread(render_graph, view)
    file = discord.File(io.BytesIO(png), filename="relationships.png")
    embed = discord.Embed(
        title="Relationship graph",
        description=f"{len(view.nodes)} characters, {len(view.edges)} relationships",
        colour=COLOUR_PRIVATE if private else COLOUR_LEDGER,
    )
    if private:
        embed.set_footer(text=PRIVATE_NOTE)
    embed.set_image(url="attachment://relationships.png")
    return embed, file


async def _public_or_none(read: Awaitable[T]) -> T | None:
    """The channel's version of a read, or ``None`` when the channel may not see it at all."""
    try:
        return await read
    except NotFound:
        return None


async def answer_pages(
    interaction: discord.Interaction,
    mine: T,
    shared: T | None,
    *,
    render: Callable[[T], list[discord.Embed]],
    public: Callable[[], Awaitable[T | None]],
) -> None:
    """Answer with the requester's view ``mine``: in the channel when it equals the channel's ``shared``.

    Anything the channel may not see makes the answer ephemeral (issue 9: a player's private fact, a
    GM-only record or edge never reaches the channel through a ledger reply). A private answer carries a
    "Show the table" button that reads ``public()`` again and posts that, never ``mine``.
    """
    if shared is not None and mine == shared:
        await send_pages(interaction, render(mine))
        return
    pages = render(mine)
    for page in pages:
        page.colour = COLOUR_PRIVATE
        page.set_footer(text=PRIVATE_NOTE)

    async def post_public(pressed: discord.Interaction) -> None:
        found = await public()
        if found is None:
            await reply(pressed, "None of this is known to the whole table.", ephemeral=True)
            return
        await send_pages(pressed, render(found))

    button = ShowTable(post_public) if shared is not None else None
    await send_pages(interaction, pages, ephemeral=True, show_table=button)


async def setup(bot: commands.Bot) -> None:
    """Load the ledger commands."""
    await bot.add_cog(LedgerCog(bot))
