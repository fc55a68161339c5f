"""What the table returns to its front ends (Discord cogs, the terminal table, the demo).

Plain frozen data: the table decides *what* to show to *whom*; ``cogs/`` and ``bot/cli`` decide *how*.
A view only ever holds what its viewer may see: the table filters through the ledger's visibility rules
before building it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class View(BaseModel):
    """Base of all views: frozen, no extra fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Where(View):
    """Where a command was given: a Discord guild and channel, or the local terminal table."""

    guild_id: str
    channel_id: str


class Caller(View):
    """Who gave a command. ``has_gm_role`` comes from the transport; the table decides GM powers."""

    user_id: str
    display_name: str
    has_gm_role: bool = False


class CampaignView(View):
    """A campaign as its players see it."""

    id: int
    name: str
    owner_user_id: str
    status: str
    session_number: int | None
    session_open: bool
    round_number: int | None
    round_state: str | None
    location: str | None
    players: tuple[str, ...]  # "Name (player display or id)"
    # how often the model's claim check fell back to the word lists alone (None: no model configured)
    claim_check_fallbacks: int | None = None


class CharacterView(View):
    """A character sheet summary for its player."""

    id: str
    name: str
    owner_user_id: str | None
    level: int
    hp: int
    max_hp: int
    ac: int
    abilities: dict[str, int]
    skills: tuple[str, ...]
    location: str | None
    conditions: tuple[str, ...] = ()


class SubmitReceipt(View):
    """What happened to an /act submission."""

    round_number: int
    character_name: str
    intent_summary: str  # e.g. "attack Dock Thug with longsword"
    edited: bool  # the same player already had an action this round: it was replaced
    late: bool = False  # the round had closed: the action waits for the next round


class RoundStatusView(View):
    """Who has acted in the open round and when it closes."""

    round_number: int
    state: str
    deadline_utc: str | None
    acted: tuple[str, ...]  # character names
    ready: tuple[str, ...]
    waiting: tuple[str, ...]
    seed_commitment: str


class ActionLine(View):
    """One resolved action, in initiative order, with the roll behind it."""

    actor: str
    summary: str  # "Greyrock hits Dock Thug for 9 slashing damage"
    rolls: tuple[str, ...]  # "attack: d20 (14) + 5 = 19 vs AC 12 -> hit"
    outcome: str


class RoundReport(View):
    """A round after it was resolved, narrated and delivered."""

    round_number: int
    initiative: tuple[str, ...]  # "Mira 19", ...
    actions: tuple[ActionLine, ...]
    public_text: str
    source: str  # generated | regenerated | fallback | offline
    seed: int
    seed_commitment: str
    dms_sent: int
    dms_undelivered: tuple[str, ...]  # user ids whose DMs were closed: their note waits in /ledger notes
    conflicts_queued: int
    notices: tuple[str, ...] = ()  # e.g. "Cara was absent and holds position."


class ReadyReceipt(View):
    """A player marked ready; when everyone is, the round closed and ``report`` holds the result."""

    round_number: int
    waiting: tuple[str, ...]
    report: RoundReport | None = None
    character_name: str = ""  # who is ready, as the table knows them (the player's character)


class HoldingView(View):
    """An item and how many of it a holder has."""

    item_id: str
    name: str
    quantity: int
    visibility: str


class InventoryView(View):
    """A character's holdings as the viewer may see them."""

    holder_id: str
    holder_name: str
    items: tuple[HoldingView, ...]
    private: bool  # shown only to its owner (and the GM): reply ephemerally


class EdgeView(View):
    """A relationship edge with its source record."""

    ref: str
    source: str
    target: str
    kind: str
    attitude: int
    reason: str
    since_session: int | None


class ThreadView(View):
    """A favour, debt, oath, bounty, prophecy or quest."""

    id: str
    kind: str
    status: str
    terms: str
    parties: tuple[str, ...]
    source_session: int | None


class EventView(View):
    """One line of history with its cause."""

    ref: str
    session: int | None
    round: int | None
    kind: str
    text: str
    cause: str | None


class RecordView(View):
    """Any ledger record with its cause chain and, for rolls, how to replay it."""

    ref: str
    kind: str
    text: str
    fields: dict[str, str]
    causes: tuple[str, ...]
    replay: str | None = None  # e.g. "round 3 seed 1234 (commitment ab12...): replays identically"


class DisputeView(View):
    """A player's dispute of a record and its ruling."""

    id: int
    record_ref: str
    raised_by: str
    reason: str
    status: str
    ruling_note: str | None


class ConflictView(View):
    """A narration conflict the checker queued for the GM."""

    id: int
    round_number: int | None
    claim: str
    refuted_by: str | None
    status: str


class NoteView(View):
    """A private note for one player (delivered by DM, or waiting here when DMs are closed)."""

    round_number: int | None
    text: str
    delivered: bool


class GraphView(View):
    """The relationship graph as the viewer may see it: node names and labelled directed edges."""

    nodes: tuple[str, ...]
    edges: tuple[EdgeView, ...]


class RecapView(View):
    """The last session, from summaries and the ledger."""

    session_number: int | None
    text: str
    highlights: tuple[str, ...]


class RollView(View):
    """A dice roll with its seed so it can be replayed."""

    expression: str
    total: int
    breakdown: str
    seed: int


class Choice(View):
    """An autocomplete choice: what the user sees and the value sent back."""

    name: str
    value: str


# --- the GM builds the world live (bot.table.world) ------------------------------------------------------


class WorldChangeView(View):
    """What one GM world-building command changed, for the GM's private confirmation.

    ``changes`` holds one line per ledger event written (``ev-000042: Marta Vell enters the story``), in
    order; ``records`` the ids created or changed; ``notices`` what else happened (a DM sent or kept).
    """

    command: str  # "npc", "spawn", "move", "item", "item-remove", "thread-open", "secret"
    summary: str  # one line: "Marta Vell joins the world at The Crossroads."
    changes: tuple[str, ...]
    records: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
