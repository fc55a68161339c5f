"""Sending to Discord: replies to an interaction, and the courier that delivers the table's other messages.

:func:`reply` and :func:`defer` answer the interaction a cog is handling; :class:`DiscordCourier` is the
table's :class:`~bot.table.Courier` (channel narration, private notes by DM, the round's dice, and answers a
crash left owed). Mentions are limited to the users named, never @everyone.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_format import (
    MESSAGE_LIMIT,
    clip,
    fit_embeds,
    narration_markdown,
    round_message_embeds,
    round_report_embeds,
    split_text,
)

if TYPE_CHECKING:
    from bot.views import RoundReport

_log = logging.getLogger(__name__)

# Past this many messages a public text is posted as a file instead of flooding the channel.
MAX_CHUNKS_BEFORE_ATTACHING = 4

# ----------------------------------------------------------------------------------------------------
# Replies to an interaction
# ----------------------------------------------------------------------------------------------------


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


def _allowed(user_ids: Sequence[str]) -> discord.AllowedMentions:
    if not user_ids:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(u)) for u in user_ids]
    )


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
        #: Seed commitments of the rounds whose dice and story this courier posted as one round message,
        #: so the command that closed such a round answers with a pointer instead of the same dice again.
        self.rounds_posted: set[str] = set()

    def posted_round(self, report: RoundReport) -> bool:
        """Whether ``report``'s round went out as one round message (:meth:`post_round`) from this courier."""
        return bool(report.seed_commitment) and report.seed_commitment in self.rounds_posted

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
        text = narration_markdown(text)
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

    async def post_round(
        self,
        guild_id: str,
        channel_id: str,
        text: str,
        report: RoundReport,
        *,
        mention_user_ids: Sequence[str] = (),
    ) -> str:
        """Post a round as one message: the dice first, the story under it, the narration's source below.

        A long fight spreads over as many messages as Discord's limits need (10 embeds, 6000 characters each),
        in order; only the first pings ``mention_user_ids``. A round without a story in ``report`` falls back
        to posting ``text``. Returns the first message's id.
        """
        if not report.public_text.strip():
            return await self.post_public(guild_id, channel_id, text, mention_user_ids=mention_user_ids)
        channel = self.client.get_partial_messageable(int(channel_id), guild_id=int(guild_id))
        # The content is only the round's header (and the players' pings); the dice and the story are embeds.
        header = " ".join([*(f"<@{u}>" for u in mention_user_ids), f"**Round {report.round_number}**"])
        first: str | None = None
        for index, batch in enumerate(fit_embeds(round_message_embeds(report))):
            with _permission("Send Messages"):
                message = await channel.send(
                    header if index == 0 else None,
                    embeds=batch,
                    allowed_mentions=_allowed(mention_user_ids if index == 0 else ()),
                )
            first = first or str(message.id)
        if len(self.rounds_posted) > 1000:  # a long-running bot: forget the oldest answers owed
            self.rounds_posted.clear()
        self.rounds_posted.add(report.seed_commitment)
        return first or ""

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
