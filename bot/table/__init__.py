"""The table: every campaign's services, as the front ends (Discord cogs, the terminal, the demo) call them.

:class:`Table` (``facade``) is a small facade over parts that each own one job and share one
:class:`~bot.table.context.TableContext` (settings, sessions, courier, clock, narrators, locks):
``context`` (the context and the lookups every command starts from: the campaign, its GM, a player's
character, a viewer), ``campaigns`` (campaigns, sessions of play, joining and leaving), ``rounds`` (submit,
ready, close, resolve, tick and resume), ``narration`` (a resolved round into checked text), ``delivery``
(the courier contract and the outbox, sent at most once), ``reads`` (the ledger as a viewer may see it),
``gm_desk`` (the GM's tools) and ``summaries`` (session summaries and the summary index). Parts get the
parts they need at construction and call only their public methods; there is no inheritance between them.
"""

from bot.table.campaigns import resolve_scenario
from bot.table.context import SCENARIO_DIR
from bot.table.delivery import Courier, DMClosed, MissingPermission, ReplyExpired, ResendView
from bot.table.facade import Table

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
