"""The Discord client: the bot, its command tree's error handling, and what every cog shares.

Cogs (``cogs/``) stay thin: they turn an interaction into a :class:`~bot.views.Where` and a
:class:`~bot.views.Caller` (:class:`TableCog`), call the :class:`bot.table.Table`, and render the view it
returns with :mod:`bot.discord_format`, answering with :mod:`bot.discord_courier` (which also holds the
table's courier). Every failure ends as a short ephemeral message; an unexpected one also gets an error id
that matches the logged traceback, so a player can quote it and the operator can find it.

Nothing runs at import time: :func:`bot.cli.run.run` builds the settings and the table and passes them in.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.discord_courier import reply
from bot.discord_format import clip
from bot.errors import TableError
from bot.views import Caller, Where

if TYPE_CHECKING:
    from bot.config import Settings

_log = logging.getLogger(__name__)

TICK_SECONDS = 30.0

COG_EXTENSIONS: tuple[str, ...] = (
    "cogs.campaign",
    "cogs.round",
    "cogs.dice",
    "cogs.ledger",
    "cogs.gm",
    "cogs.recap",
    "cogs.remember",
)


# ----------------------------------------------------------------------------------------------------
# Interaction helpers used by the cogs
# ----------------------------------------------------------------------------------------------------


class NotInServer(TableError):
    """A campaign command used outside a server channel."""


def where_from(interaction: discord.Interaction) -> Where:
    """Return where ``interaction`` happened; raise :class:`NotInServer` in a DM."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise NotInServer("Use this command in a server channel where the campaign is played.")
    return Where(guild_id=str(interaction.guild_id), channel_id=str(interaction.channel_id))


def caller_from(interaction: discord.Interaction, gm_role: str) -> Caller:
    """Return who gave ``interaction``; ``has_gm_role`` is true when a role is named ``gm_role``."""
    user = interaction.user
    roles = getattr(user, "roles", ())
    wanted = gm_role.casefold()
    has_gm = any(role.name.casefold() == wanted for role in roles)
    return Caller(user_id=str(user.id), display_name=user.display_name, has_gm_role=has_gm)


def choices(items: Sequence[Any]) -> list[app_commands.Choice[str]]:
    """Turn the table's autocomplete choices into Discord's (at most 25, names and values clipped to 100)."""
    return [app_commands.Choice(name=clip(c.name, 100), value=c.value[:100]) for c in items[:25]]


class Pager(discord.ui.View):
    """Previous/Next buttons over a list of embeds; only the user who asked may turn the pages."""

    def __init__(
        self,
        pages: Sequence[discord.Embed],
        *,
        owner_id: int,
        origin: discord.Interaction | None = None,
        timeout: float = 300.0,
    ) -> None:
        super().__init__(timeout=timeout)
        self.origin = origin
        if not pages:
            raise ValueError("a pager needs at least one page")
        self.pages = list(pages)
        self.owner_id = owner_id
        self.index = 0
        for number, page in enumerate(self.pages, start=1):
            page.set_footer(text=_join_footer(page.footer.text, f"page {number}/{len(self.pages)}"))
        self._sync_buttons()

    @property
    def current(self) -> discord.Embed:
        """The page shown now."""
        return self.pages[self.index]

    def _sync_buttons(self) -> None:
        self.previous.disabled = self.index == 0
        self.next.disabled = self.index >= len(self.pages) - 1

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse, with a private note, anyone but the user who opened the list."""
        if interaction.user.id == self.owner_id:
            return True
        await interaction.response.send_message(
            "Only the player who asked can turn these pages: run the command yourself.", ephemeral=True
        )
        return False

    async def on_timeout(self) -> None:
        """Grey the buttons out so nobody presses a dead button (the token outlives the 5-minute timeout)."""
        for child in self.children:
            if isinstance(child, discord.ui.Button):
                child.disabled = True
        if self.origin is not None:
            try:
                await self.origin.edit_original_response(view=self)
            except discord.HTTPException:
                _log.debug("could not disable the page buttons")

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        """Log the failure with an id and tell the presser, never a traceback."""
        await report_error(interaction, error)

    @discord.ui.button(label="Previous", style=discord.ButtonStyle.secondary, custom_id="tk:page:prev")
    async def previous(self, interaction: discord.Interaction, button: discord.ui.Button[Pager]) -> None:
        """Show the page before."""
        self.index = max(0, self.index - 1)
        self._sync_buttons()
        await interaction.response.edit_message(embed=self.current, view=self)

    @discord.ui.button(label="Next", style=discord.ButtonStyle.secondary, custom_id="tk:page:next")
    async def next(self, interaction: discord.Interaction, button: discord.ui.Button[Pager]) -> None:
        """Show the page after."""
        self.index = min(len(self.pages) - 1, self.index + 1)
        self._sync_buttons()
        await interaction.response.edit_message(embed=self.current, view=self)


def _join_footer(existing: str | None, extra: str) -> str:
    return f"{existing} · {extra}" if existing else extra


async def send_pages(
    interaction: discord.Interaction,
    pages: Sequence[discord.Embed],
    *,
    ephemeral: bool = False,
    show_table: ShowTable | None = None,
) -> None:
    """Reply with ``pages``: one embed alone, or the first page with Previous/Next buttons.

    ``show_table`` adds the "Show the table" button (for a private answer that has a public version).
    """
    if len(pages) == 1:
        view = ShowTableView(show_table) if show_table is not None else None
        await reply(interaction, embed=pages[0], ephemeral=ephemeral, view=view)
        return
    pager = Pager(pages, owner_id=interaction.user.id, origin=interaction)
    if show_table is not None:
        pager.add_item(show_table)
    await reply(interaction, embed=pager.current, view=pager, ephemeral=ephemeral)


SHOW_TABLE_LABEL = "Show the table"
PRIVATE_NOTE = "Only you can see this: it holds things the table has not learned."

PostPublic = Callable[[discord.Interaction], Awaitable[None]]


class ShowTable(discord.ui.Button[Any]):
    """The "Show the table" button on a private answer: posts what the whole channel may see.

    ``post`` builds the answer again from the channel's (public) view when pressed and posts it; the
    private answer the button sits on is never reused, so nothing only its reader may see can follow.
    """

    def __init__(self, post: PostPublic) -> None:
        super().__init__(label=SHOW_TABLE_LABEL, style=discord.ButtonStyle.primary)
        self._post = post

    async def callback(self, interaction: discord.Interaction) -> None:
        """Post the public version in the channel."""
        await self._post(interaction)


class ShowTableView(discord.ui.View):
    """Holds a lone :class:`ShowTable` button (a one-page private answer)."""

    def __init__(self, button: ShowTable, *, timeout: float = 300.0) -> None:
        super().__init__(timeout=timeout)
        self.add_item(button)

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        """Log the failure with an id and tell the presser, never a traceback."""
        await report_error(interaction, error)


# ----------------------------------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------------------------------


def new_error_id() -> str:
    """Return a short id a player can quote and an operator can grep for."""
    return secrets.token_hex(3).upper()


def describe_error(error: BaseException) -> tuple[str, bool]:
    """Return the message a user sees for ``error`` and whether it was expected (no traceback logged)."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        original = error.__cause__ if isinstance(error, app_commands.TransformerError) else error.original
        if isinstance(original, TableError):
            return str(original), True
        if isinstance(error, app_commands.TransformerError):
            shown = clip(str(error.value), 60)
            return f"That value ({shown!r}) isn't valid here.", True
        return describe_error(original) if original is not None else ("", False)
    if isinstance(error, TableError):
        return str(error), True
    from ledger.errors import LedgerError
    from rules.errors import InternalError, RulesError

    if isinstance(error, InternalError):  # already logged with its traceback under its own error id
        return str(error), True

    if isinstance(error, LedgerError | RulesError):  # their messages are one line written for people
        return str(error).strip("'\""), True
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Use this command in a server channel where the campaign is played.", True
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s.", True
    if isinstance(error, app_commands.MissingRole | app_commands.MissingAnyRole):
        return "That command is for the GM.", True
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use that command here.", True
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return "That command just changed: wait a minute for Discord to update it, then try again.", True
    return "", False


async def report_error(interaction: discord.Interaction, error: BaseException) -> str | None:
    """Answer ``interaction`` ephemerally for ``error``; return the error id when it was unexpected."""
    message, expected = describe_error(error)
    error_id: str | None = None
    if not expected:
        error_id = new_error_id()
        command = interaction.command.qualified_name if interaction.command else "component"
        _log.error("error id %s in %s", error_id, command, exc_info=error)
        message = f"Something went wrong (error id {error_id}). The GM can ask the bot's operator about it."
    else:
        _log.info("refused: %s", message)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(message, ephemeral=True)
        else:
            if interaction.extras.get("public_thinking") and not interaction.extras.get("answered"):
                # A public "thinking…" placeholder would turn the first followup public: remove it first.
                await interaction.delete_original_response()
            await interaction.followup.send(message, ephemeral=True)
    except discord.HTTPException:
        _log.warning("could not deliver the error message for %s", error_id or "an expected error")
    return error_id


class TablekeeperTree(app_commands.CommandTree[Any]):
    """The command tree: every failure becomes one short ephemeral line, never a traceback."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Turn ``error`` into a private reply (with an error id when unexpected)."""
        await report_error(interaction, error)


# ----------------------------------------------------------------------------------------------------
# The bot
# ----------------------------------------------------------------------------------------------------


def _intents() -> discord.Intents:
    # Slash commands need no privileged intents: guilds only, never message content.
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class _TablekeeperMixin:
    """What both bot flavours share: the table, the settings, cog loading, syncing and the tick loop."""

    table: Any
    settings: Settings
    tick_enabled: bool

    async def setup_hook(self) -> None:
        """Load the cogs, sync the commands, and start the round deadline loop.

        The checker's lazy tables start loading in a worker thread (:mod:`bot.warmup`) so the first round
        after a restart does not pay for them, and start-up does not wait for them."""
        bot: commands.Bot = self  # type: ignore[assignment]
        if self.table is not None and getattr(self, "_warming", None) is None:
            from bot.warmup import start_warming

            self._warming = start_warming()
        for name in COG_EXTENSIONS:
            await bot.load_extension(name)
        await sync_commands(bot, self.settings.discord.guild_ids)
        if self.tick_enabled and self.table is not None:
            own_guilds(self.table, self.settings)  # the table may have been attached after build_bot
            self._tick_loop = tasks.loop(seconds=TICK_SECONDS)(self._tick)
            self._tick_loop.before_loop(self._before_tick)
            self._tick_loop.start()

    async def _before_tick(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        await bot.wait_until_ready()
        try:
            await self.table.resume()
        except Exception:
            _log.exception("resuming interrupted rounds failed")

    async def _tick(self) -> None:
        try:
            await self.table.tick()
        except Exception:
            _log.exception("closing rounds past their deadline failed")

    async def close(self) -> None:
        """Stop the tick loop, then disconnect."""
        loop = getattr(self, "_tick_loop", None)
        if loop is not None:
            loop.cancel()
        await super().close()  # type: ignore[misc]


async def sync_commands(bot: commands.Bot | commands.AutoShardedBot, guild_ids: Sequence[int]) -> None:
    """Sync the command tree to each of ``guild_ids`` (instant), or globally when there are none."""
    if guild_ids:
        for guild_id in guild_ids:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            _log.info("synced %d commands to guild %s", len(synced), guild_id)
    else:
        synced = await bot.tree.sync()
        _log.info("synced %d global commands (may take up to an hour to appear)", len(synced))


class TablekeeperBot(_TablekeeperMixin, commands.Bot):
    """Tablekeeper on one connection."""

    def __init__(self, *, settings: Settings, table: Any = None, tick: bool = True) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=_intents(),
            tree_cls=TablekeeperTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.table = table
        self.tick_enabled = tick


class ShardedTablekeeperBot(_TablekeeperMixin, commands.AutoShardedBot):
    """Tablekeeper over several shards (``discord.sharded = true``): all of them, or ``discord.shard_ids``."""

    def __init__(self, *, settings: Settings, table: Any = None, tick: bool = True) -> None:
        shards: dict[str, Any] = {}
        if settings.discord.shard_ids is not None:  # this process's range; unset = every shard
            shards["shard_ids"] = list(settings.discord.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=_intents(),
            tree_cls=TablekeeperTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.discord.shard_count,
            **shards,
        )
        self.settings = settings
        self.table = table
        self.tick_enabled = tick


def build_bot(
    settings: Settings, table: Any = None, *, tick: bool = True
) -> TablekeeperBot | ShardedTablekeeperBot:
    """Return the bot flavour ``settings.discord.sharded`` asks for.

    A process that runs only some shards (``discord.shard_ids``) ticks only its own guilds' campaigns: the
    table's :attr:`~bot.table.context.TableContext.owns_guild` is set from the shard formula, so deadlines,
    resumes and retried deliveries of another process's guilds are left to that process.
    """
    # Tablekeeper never joins voice: don't warn about the voice libraries it doesn't need.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    own_guilds(table, settings)
    cls = ShardedTablekeeperBot if settings.discord.sharded else TablekeeperBot
    return cls(settings=settings, table=table, tick=tick)


def own_guilds(table: Any, settings: Settings) -> None:
    """Make ``table`` tick only the guilds whose shard (``(guild_id >> 22) % shard_count``) this process runs.

    Every guild when the process runs every shard (not sharded, or sharded without ``shard_ids``). A table
    without a context (a test's stand-in) is left alone.
    """
    context = getattr(table, "context", None)
    if context is not None and hasattr(context, "owns_guild"):
        context.owns_guild = settings.discord.owns_guild


# ----------------------------------------------------------------------------------------------------
# The base of every cog
# ----------------------------------------------------------------------------------------------------


class TableCog(commands.Cog):
    """A cog over the bot's table: turns interactions into (where, caller) and autocompletes through it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def table(self) -> Any:
        """The :class:`bot.table.Table` the bot serves."""
        table = getattr(self.bot, "table", None)
        if table is None:
            raise TableError("The table is still starting up: try again in a moment.")
        return table

    def caller(self, interaction: discord.Interaction) -> Caller:
        """Who gave ``interaction``, with the GM role from the settings."""
        settings = getattr(self.bot, "settings", None)
        gm_role = settings.discord.gm_role if settings is not None else "GM"
        return caller_from(interaction, gm_role)

    def context(self, interaction: discord.Interaction) -> tuple[Where, Caller]:
        """Where and who for a campaign command; raise :class:`NotInServer` in a DM."""
        return where_from(interaction), self.caller(interaction)

    async def complete(
        self, interaction: discord.Interaction, kind: str, prefix: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete ``kind`` through the table; no choices (never an error) when it refuses."""
        try:
            where, caller = self.context(interaction)
            found = await self.table.autocomplete(where, caller, kind=kind, prefix=prefix)
        except TableError:
            return []
        except Exception:
            _log.exception("autocomplete %s failed", kind)
            return []
        return choices(found)
