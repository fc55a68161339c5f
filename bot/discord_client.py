"""The Discord client: the bot, its command tree's error handling, the courier and reply helpers.

Cogs (``cogs/``) stay thin: they turn an interaction into a :class:`~bot.views.Where` and a
:class:`~bot.views.Caller`, call the :class:`bot.table.Table`, and render the view it returns with the
helpers here. Every failure ends as a short ephemeral message; an unexpected one also gets an error id that
matches the logged traceback, so a player can quote it and the operator can find it.

Nothing runs at import time: :func:`bot.cli.run.run` builds the settings and the table and passes them in.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Iterator, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.errors import TableError
from bot.views import Caller, Where

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.views import RoundReport

_log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TOTAL_LIMIT = 6000  # all embeds of one message together
MAX_EMBEDS_PER_MESSAGE = 10
# Past this many messages a public text is posted as a file instead of flooding the channel.
MAX_CHUNKS_BEFORE_ATTACHING = 4
TICK_SECONDS = 30.0

COG_EXTENSIONS: tuple[str, ...] = (
    "cogs.campaign",
    "cogs.round",
    "cogs.dice",
    "cogs.ledger",
    "cogs.gm",
    "cogs.recap",
)


# ----------------------------------------------------------------------------------------------------
# Text helpers
# ----------------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters.

    Cuts at paragraph breaks first, then sentence ends, then spaces, and only as a last resort inside a word.
    Returns at least one piece (``[""]`` for empty text).
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    text = text.strip()
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    for unit in _units(text, limit):
        sep = unit[0]
        body = unit[1]
        candidate = f"{current}{sep}{body}" if current else body
        if len(candidate) <= limit:
            current = candidate
        else:
            if current:
                pieces.append(current)
            current = body
    if current:
        pieces.append(current)
    return pieces


def _units(text: str, limit: int) -> list[tuple[str, str]]:
    """Break ``text`` into (separator, unit) pairs, each unit at most ``limit`` characters."""
    units: list[tuple[str, str]] = []
    for p_index, paragraph in enumerate(p for p in re.split(r"\n\s*\n", text) if p.strip()):
        sep = "\n\n" if p_index else ""
        if len(paragraph) <= limit:
            units.append((sep, paragraph))
            continue
        for s_index, sentence in enumerate(_SENTENCE_END.split(paragraph)):
            s_sep = sep if s_index == 0 else " "
            if len(sentence) <= limit:
                units.append((s_sep, sentence))
                continue
            for w_index, word in enumerate(sentence.split(" ")):
                w_sep = s_sep if w_index == 0 else " "
                while len(word) > limit:
                    units.append((w_sep, word[:limit]))
                    word = word[limit:]
                    w_sep = ""
                units.append((w_sep, word))
    return units


def safe(text: str) -> str:
    """``text`` that came from a user (a character, display or campaign name, action text, a reason), with
    Discord markdown and mass mentions escaped so it reads as typed: a masked link, a header, a quote or
    a wall of bold shows as its characters, never as formatting. The bot's own formatting around it stays.
    """
    # discord.py treats ``[...](...)`` as one masked link up to the *last* ")" and leaves its inside
    # unescaped: hide the brackets from it, then escape every one, so no masked link can form.
    text = str(text).replace("[", _BRACKET)
    text = discord.utils.escape_markdown(text).replace(_BRACKET, "\\[")
    return discord.utils.escape_mentions(text)


_BRACKET = "\ue000"  # a private-use character standing in for "[" while escaping
_ROUND_HEADER = re.compile(r"\*\*Round \d+\*\*")


def _narration_markdown(text: str) -> str:
    """A narration as the channel should read it: the table's own round header and ``-#`` notice lines keep
    their formatting; everything else (a narrator's prose, which holds player-chosen names and whatever a
    model was talked into writing) is escaped, so no masked link, header or mention wall can form."""
    lines = []
    for line in text.split("\n"):
        if _ROUND_HEADER.fullmatch(line):
            lines.append(line)
        elif line.startswith("-# "):
            lines.append("-# " + safe(line[3:]))
        else:
            lines.append(safe(line))
    return "\n".join(lines)


def clip(text: str, limit: int) -> str:
    """Return ``text`` cut to ``limit`` characters, ending with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


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


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Acknowledge within Discord's 3 seconds before slow work (round close, narration)."""
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        interaction.extras["public_thinking"] = not ephemeral


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
    ephemeral: bool = False,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    mention_user_ids: Sequence[str] = (),
) -> None:
    """Answer ``interaction`` (first response or followup), splitting long ``content`` over messages.

    Mentions are limited to ``mention_user_ids`` (none by default): a narration never pings @everyone.
    """
    all_embeds = [*([embed] if embed is not None else []), *embeds]
    chunks = split_text(content) if content else []
    allowed = _allowed(mention_user_ids)
    messages: list[dict[str, Any]] = [{"content": chunk} for chunk in chunks] or [{}]
    groups = fit_embeds(all_embeds)
    messages[-1]["embeds"] = groups[0] if groups else []
    messages += [{"embeds": group} for group in groups[1:]]
    if view is not None:
        messages[-1]["view"] = view
    if file is not None:
        messages[-1]["file"] = file
    for message in messages:
        kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": allowed, **message}
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
        else:
            await interaction.followup.send(**kwargs)
        interaction.extras["answered"] = True


# The round report as embeds: the /ready reply (cogs) and the courier's follow-ups and channel posts (here)
# render it the same way. It lives here so the dependency points one way, from cogs/ down to bot/.
COLOUR_TABLE = discord.Colour.dark_gold()

SOURCE_LABELS = {
    "generated": "narration: generated by the narrator and checked against the ledger",
    "regenerated": "narration: rewritten once after the checker found a conflict",
    "fallback": "narration: built from the results (the narrator's draft conflicted with the ledger)",
    "offline": "narration: offline narrator",
}


def round_report_embeds(report: RoundReport) -> list[discord.Embed]:
    """The round's mechanics: initiative, every action with its roll lines; the source in the footer.

    Actions spread over as many embeds as needed (each under 5000 characters and 25 fields), so a big
    round never hits Discord's limits; the footer with the narration's source is on the last one.
    """
    title = f"Round {report.round_number}: results"
    embeds = [discord.Embed(title=title, colour=COLOUR_TABLE)]
    if report.initiative:
        order = "\n".join(
            f"{i}. {safe(initiative_entry(line))}" for i, line in enumerate(report.initiative, start=1)
        )
        embeds[0].add_field(name="Initiative", value=clip(order, 1024), inline=False)
    fields: list[tuple[str, str]] = []
    for action in report.actions:
        rolls = "\n".join(f"`{clip(r, 200)}`" for r in action.rolls)
        summary, outcome = safe(action.summary), safe(action.outcome)
        value = "\n".join(part for part in (summary, rolls, f"→ {outcome}") if part)
        fields.append((clip(safe(action.actor), 256), clip(value, 1024)))
    if report.notices:
        fields.append(("Notices", clip("\n".join(safe(n) for n in report.notices), 1024)))
    for name, value in fields:
        current = embeds[-1]
        if len(current.fields) >= 25 or len(current) + len(name) + len(value) > 5000:
            current = discord.Embed(title=f"{title} (continued)", colour=COLOUR_TABLE)
            embeds.append(current)
        current.add_field(name=name, value=value, inline=False)
    source = SOURCE_LABELS.get(report.source, f"narration: {report.source}")
    extra = f" · {report.conflicts_queued} conflict(s) queued for the GM" if report.conflicts_queued else ""
    embeds[-1].set_footer(
        text=clip(f"{source}{extra} · seed {report.seed} (commitment {report.seed_commitment})", 2048)
    )
    return embeds


def initiative_entry(entry: str) -> str:
    """``Dock Thug 5`` (name, then the initiative total) as ``Dock Thug (initiative 5)``.

    The table keeps the total last (the terminal splits it the same way); shown bare it read as a name.
    """
    name, _, total = entry.rpartition(" ")
    return f"{name} (initiative {total})" if name and total.lstrip("-").isdigit() else entry


def fit_embeds(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Group ``embeds`` into messages of at most 10 embeds and 6000 characters (Discord's limits)."""
    groups: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not groups or len(groups[-1]) >= MAX_EMBEDS_PER_MESSAGE or size + len(embed) > EMBED_TOTAL_LIMIT:
            groups.append([])
            size = 0
        groups[-1].append(embed)
        size += len(embed)
    return groups


def _allowed(user_ids: Sequence[str]) -> discord.AllowedMentions:
    if not user_ids:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(u)) for u in user_ids]
    )


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


def paginate_lines(
    lines: Sequence[str],
    *,
    title: str,
    empty: str,
    per_page: int = 10,
    colour: discord.Colour | None = None,
) -> list[discord.Embed]:
    """Lay ``lines`` out over embeds of at most ``per_page`` lines (and under the description limit)."""
    colour = colour or discord.Colour.dark_teal()
    if not lines:
        return [discord.Embed(title=title, description=empty, colour=colour)]
    pages: list[discord.Embed] = []
    block: list[str] = []
    size = 0
    for line in lines:
        line = clip(line, 1000)
        if block and (len(block) >= per_page or size + len(line) + 1 > EMBED_DESCRIPTION_LIMIT - 200):
            pages.append(discord.Embed(title=title, description="\n".join(block), colour=colour))
            block, size = [], 0
        block.append(line)
        size += len(line) + 1
    pages.append(discord.Embed(title=title, description="\n".join(block), colour=colour))
    return pages


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
        """Load the cogs, sync the commands, and start the round deadline loop."""
        bot: commands.Bot = self  # type: ignore[assignment]
        for name in COG_EXTENSIONS:
            await bot.load_extension(name)
        await sync_commands(bot, self.settings.discord.guild_ids)
        if self.tick_enabled and self.table is not None:
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
    """Tablekeeper over several shards (``discord.sharded = true``)."""

    def __init__(self, *, settings: Settings, table: Any = None, tick: bool = True) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=_intents(),
            tree_cls=TablekeeperTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.discord.shard_count,
        )
        self.settings = settings
        self.table = table
        self.tick_enabled = tick


def build_bot(
    settings: Settings, table: Any = None, *, tick: bool = True
) -> TablekeeperBot | ShardedTablekeeperBot:
    """Return the bot flavour ``settings.discord.sharded`` asks for."""
    # Tablekeeper never joins voice: don't warn about the voice libraries it doesn't need.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    cls = ShardedTablekeeperBot if settings.discord.sharded else TablekeeperBot
    return cls(settings=settings, table=table, tick=tick)


# ----------------------------------------------------------------------------------------------------
# The courier: the table's messages that are not replies
# ----------------------------------------------------------------------------------------------------


#: Discord answers an interaction's token for 15 minutes; past this, a fresh channel message is sent instead.
REPLY_TOKEN_LIFETIME = timedelta(minutes=14, seconds=30)


class DiscordCourier:
    """Delivers the table's public narration to channels, private notes by DM, and replies a crash left.

    A channel post refused for want of a permission raises :class:`bot.table.MissingPermission` naming
    it (Send Messages, Embed Links, Attach Files), so the table can tell the GM in one line.
    """

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    @staticmethod
    def reply_handle(interaction: discord.Interaction) -> str:
        """The opaque handle the table keeps for a deferred reply: application id, interaction id, token."""
        return f"{interaction.application_id}:{interaction.id}:{interaction.token}"

    async def answer(self, handle: str, text: str, report: RoundReport) -> str:
        """Answer a deferred command (its "thinking..." turns into ``text`` and the round's dice).

        Raises :class:`bot.table.ReplyExpired` when the token is past its 15 minutes or Discord no
        longer knows it; the table then posts the dice in the channel instead.
        """
        from bot.table import ReplyExpired

        try:
            app_id, interaction_id, token = handle.split(":", 2)
            created = discord.utils.snowflake_time(int(interaction_id))
        except ValueError as exc:
            raise ReplyExpired("not a reply handle") from exc
        if discord.utils.utcnow() - created > REPLY_TOKEN_LIFETIME:
            raise ReplyExpired("the interaction token has expired")
        # The interaction's follow-up webhook, built as discord.py builds ``Interaction.followup``.
        webhook = discord.Webhook.from_state(
            data={"id": int(app_id), "type": 3, "token": token},
            state=self.client._connection,
        )
        groups = fit_embeds(round_report_embeds(report)) or [[]]
        first: str | None = None
        try:
            for index, batch in enumerate(groups):
                message = await webhook.send(
                    text if index == 0 else discord.utils.MISSING,
                    embeds=batch,
                    wait=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                first = first or str(message.id)
        except discord.NotFound as exc:  # 10015 Unknown Webhook: the token is gone
            raise ReplyExpired("the interaction is no longer known") from exc
        return first or ""

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        """Post ``text`` in the channel; return the first message's id.

        Long text is split at paragraph/sentence boundaries; very long text is attached as a file after a
        short opening. Only ``mention_user_ids`` (the round's players) may be pinged; by default nobody.
        """
        channel = self.client.get_partial_messageable(int(channel_id), guild_id=int(guild_id))
        allowed = _allowed(mention_user_ids)
        text = _narration_markdown(text)
        if mention_user_ids:  # ping the round's players (and only them) on the narration
            text = " ".join(f"<@{u}>" for u in mention_user_ids) + "\n" + text
        chunks = split_text(text)
        if len(chunks) > MAX_CHUNKS_BEFORE_ATTACHING:
            opening = clip(chunks[0], MESSAGE_LIMIT - 60) + "\n\n*(the full narration is attached)*"
            file = discord.File(io.BytesIO(text.encode("utf-8")), filename="narration.txt")
            with _permission("Attach Files"):
                message = await channel.send(opening, file=file, allowed_mentions=allowed)
            return str(message.id)
        first: str | None = None
        for chunk in chunks:
            with _permission("Send Messages"):
                message = await channel.send(chunk, allowed_mentions=allowed)
            first = first or str(message.id)
        assert first is not None
        return first

    async def post_results(
        self, guild_id: str, channel_id: str, report: RoundReport, *, header: str = ""
    ) -> str:
        """Post a round's dice (initiative, every roll) as embeds, after ``header`` if given.

        For rounds the deadline closed, and for commands whose reply expired while the bot was down.
        """
        channel = self.client.get_partial_messageable(int(channel_id), guild_id=int(guild_id))
        first: str | None = None
        for index, batch in enumerate(fit_embeds(round_report_embeds(report))):
            with _permission("Embed Links"):
                message = await channel.send(
                    clip(header, MESSAGE_LIMIT) if header and index == 0 else None,
                    embeds=batch,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            first = first or str(message.id)
        return first or ""

    async def send_dm(self, user_id: str, text: str) -> str:
        """Send ``text`` to ``user_id`` by DM; return the first message id; raise DMClosed when refused."""
        from bot.table import DMClosed  # the table pulls in the ledger: only load it when a DM goes out

        try:
            channel = await self.client.create_dm(discord.Object(int(user_id)))
            first: str | None = None
            for chunk in split_text(text):
                message = await channel.send(chunk, allowed_mentions=discord.AllowedMentions.none())
                first = first or str(message.id)
        except discord.Forbidden as exc:
            # 50007 "Cannot send messages to this user" is the usual code; every 403 on a DM means the same.
            _log.info("DM to %s refused (code %s)", user_id, exc.code)
            raise DMClosed(f"user {user_id} does not accept direct messages") from exc
        assert first is not None
        return first


@contextlib.contextmanager
def _permission(name: str) -> Iterator[None]:
    """Turn Discord's 403 on a channel post into MissingPermission naming what that post needed."""
    try:
        yield
    except discord.Forbidden as exc:
        from bot.table import MissingPermission

        # 50001 Missing Access: the bot cannot see the channel at all.
        raise MissingPermission("View Channel" if exc.code == 50001 else name) from exc


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
