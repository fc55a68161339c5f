"""One error root for the rules engine; every message is short and written for a player."""

from __future__ import annotations


class RulesError(Exception):
    """Root of every rules failure. ``str(err)`` is a one-line message a player understands."""


class DiceError(RulesError):
    """A dice expression that cannot or may not be rolled (malformed, too long, too many dice)."""


class IntentError(RulesError):
    """An intent the rules cannot resolve (unknown actor, a dead creature acting, no such target)."""


class DataError(RulesError):
    """A bundled or user-supplied rules data file (weapons, bestiary, sheet) is invalid."""


class InternalError(Exception):
    """A bug of ours met while serving the player (not a :class:`RulesError`: not the player's fault).

    The traceback is logged under :attr:`error_id`; ``str(err)`` is a line the player can quote to the host.
    """

    def __init__(self, error_id: str) -> None:
        self.error_id = error_id
        super().__init__(f"Something went wrong on our side (error id {error_id}); the dice were not rolled.")
