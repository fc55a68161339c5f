"""The ledger's service API in one place: writes, reads through a viewer, and the table's paperwork.

``from ledger import service`` then ``await service.apply_changes(session, campaign_id=..., ...)``. Every
function takes the ``AsyncSession`` first and keyword-only arguments after it; writes commit on success and
roll back on failure, raising a :class:`ledger.errors.LedgerError` subclass with a one-line message.
"""

from __future__ import annotations

from ledger.store.campaigns import (
    create_campaign,
    current_session_number,
    find_campaign,
    get_campaign,
    list_members,
    set_member,
    start_session,
)
from ledger.store.channel_read import ChannelTable, channel_table
from ledger.store.db import begin_write
from ledger.store.disputes import (
    add_conflict,
    dismiss_conflict,
    list_conflicts,
    list_disputes,
    open_dispute,
    retcon_conflict,
    rule_dispute,
)
from ledger.store.outbox import (
    add_outbox,
    list_outbox,
    mark_outbox,
    pending_outbox,
)
from ledger.store.reads import (
    entities_at,
    facts,
    find_entity,
    find_records,
    get_entities,
    get_entity,
    get_item,
    get_location,
    history,
    holders_of,
    inventory,
    next_thread_id,
    npc_knowledge,
    record,
    relationships,
    threads,
)
from ledger.store.rounds import (
    current_round,
    get_round,
    last_round,
    list_submissions,
    open_round,
    set_ready,
    set_round_state,
    store_resolution,
    submit,
    unfinished_rounds,
)
from ledger.store.visibility import Viewer, can_see
from ledger.store.world import WorldState
from ledger.store.writes import (
    DEFAULT_IMPORTANCE,
    apply_changes,
    apply_round,
    check_round_move,
    expire_due_threads,
    lock_campaign,
    projected_state,
    rebuild_state,
)

__all__ = [
    "DEFAULT_IMPORTANCE",
    "ChannelTable",
    "Viewer",
    "WorldState",
    "add_conflict",
    "add_outbox",
    "apply_changes",
    "apply_round",
    "begin_write",
    "can_see",
    "channel_table",
    "check_round_move",
    "create_campaign",
    "current_round",
    "current_session_number",
    "dismiss_conflict",
    "entities_at",
    "expire_due_threads",
    "facts",
    "find_campaign",
    "find_entity",
    "find_records",
    "get_campaign",
    "get_entities",
    "get_entity",
    "get_item",
    "get_location",
    "get_round",
    "history",
    "holders_of",
    "inventory",
    "last_round",
    "list_conflicts",
    "list_disputes",
    "list_members",
    "list_outbox",
    "list_submissions",
    "lock_campaign",
    "mark_outbox",
    "next_thread_id",
    "npc_knowledge",
    "open_dispute",
    "open_round",
    "pending_outbox",
    "projected_state",
    "rebuild_state",
    "record",
    "relationships",
    "retcon_conflict",
    "rule_dispute",
    "set_member",
    "set_ready",
    "set_round_state",
    "start_session",
    "store_resolution",
    "submit",
    "threads",
    "unfinished_rounds",
]
