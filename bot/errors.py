"""The table's error tree: every message is one line a player or GM can act on.

Front ends (cogs, terminal) show ``str(err)`` for any :class:`TableError` and never a traceback.
"""

from __future__ import annotations


class TableError(Exception):
    """Root of every expected failure at the table."""


class NoCampaign(TableError):
    """There is no active campaign in this channel."""


class NotGM(TableError, PermissionError):
    """The command is for the GM (the campaign owner or a member with the GM role)."""


class NotAPlayer(TableError):
    """The caller has no character in this campaign."""


class NoOpenRound(TableError):
    """There is no round to act in (no session started, or the round is being resolved)."""


class InvalidAction(TableError, ValueError):
    """An action refused before it counted: unknown target, item not held, bad text."""


class NotFound(TableError, LookupError):
    """A record, player or item that does not exist or that the caller may not see."""
