"""The table: campaigns, sessions, players and the round lifecycle, from actions to delivered narration.

One :class:`Table` serves every campaign of a process (Discord bot, terminal table, demo). Each public method
takes *where* the command was given and *who* gave it, does all checks (GM powers, visibility, validation),
and returns a view from :mod:`bot.views`. Nothing here knows Discord: messages leave through a
:class:`Courier`.

Round states: open -> collecting -> closed -> resolved -> narrated -> posted, persisted at every step, so
:meth:`Table.resume` can finish any round after a crash without re-rolling dice or posting twice.
"""

from __future__ import annotations

from typing import Protocol


class DMClosed(Exception):
    """The player does not accept direct messages from the bot."""


class Courier(Protocol):
    """Where the table's messages go: a Discord channel and DMs, or the terminal."""

    async def post_public(self, guild_id: str, channel_id: str, text: str) -> str:
        """Post ``text`` in the campaign's channel; return the message id."""
        ...

    async def send_dm(self, user_id: str, text: str) -> str:
        """Send ``text`` privately to ``user_id``; return the message id or raise :class:`DMClosed`."""
        ...
