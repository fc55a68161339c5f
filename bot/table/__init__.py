"""The table: every campaign's services, as the front ends (Discord cogs, the terminal, the demo) call them.

Import from here: :class:`Table` and the courier contract (:class:`Courier`, :class:`DMClosed`,
:class:`MissingPermission`, :class:`ReplyExpired`, :class:`ResendView`)."""

from bot.table.context import (
    SCENARIO_DIR,
    Courier,
    DMClosed,
    MissingPermission,
    ReplyExpired,
    ResendView,
)
from bot.table.rounds import Table, resolve_scenario

__all__ = [
    "SCENARIO_DIR",
    "Courier",
    "DMClosed",
    "MissingPermission",
    "ReplyExpired",
    "ResendView",
    "Table",
    "resolve_scenario",
]
