"""One error root for the ledger; every message is one line a player or GM can read.

The tree mirrors Red-DiscordBot's: callers catch :class:`LedgerError` for "the ledger refused", or a
subclass (which may also derive from a builtin such as ``KeyError``/``ValueError``) for finer handling.
"""

from __future__ import annotations


class LedgerError(Exception):
    """Root of every ledger refusal. ``str(err)`` is a one-line message; nothing was written."""


class UnknownRecord(LedgerError, KeyError):
    """A change or read names an entity, location, item, thread, event or round that does not exist."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "unknown record"


class DuplicateRecord(LedgerError, ValueError):
    """A create names an id that already exists in this campaign."""


class NotEnoughHeld(LedgerError, ValueError):
    """A transfer takes more of an item than its holder has."""


class IllegalThreadTransition(LedgerError, ValueError):
    """A thread move the state machine forbids (settled, expired and broken are final outside a retcon)."""


class InvalidChange(LedgerError, ValueError):
    """A change that is well-formed but makes no sense against the current state (e.g. negative HP)."""


class RoundStateError(LedgerError, ValueError):
    """A round operation the round's state forbids: a second open round, late submission, going back."""


class CampaignNotFound(UnknownRecord):
    """No campaign with that id."""
