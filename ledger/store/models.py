"""The ledger's tables (sqlmodel on SQLAlchemy 2.1), shared by SQLite and PostgreSQL.

World rows (entities, places, items, facts, holdings, edges, threads, events) are keyed per campaign
(composite primary keys ``(campaign_id, id)``) so two campaigns can both have ``npc-old-wei``, and carry the
provenance columns of :class:`WorldColumns`: source session, round, cause and visibility.

Current state lives in projections (``Fact``, ``Holding``, ``Edge``, ``Thread``) written in the same
transaction as the append-only ``Event`` rows that explain them; ``rebuild_state`` can replay the events.
Entity state (alive, location, hp, conditions) is stored as facts keyed ``<entity>-<field>`` so each field has
its own visibility (a secret poisoning does not hide where someone stands).

Import this module only where tables are needed; it does no I/O.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKeyConstraint, Index, UniqueConstraint, text
from sqlmodel import Field, SQLModel

ROUND_STATES: tuple[str, ...] = ("open", "collecting", "closed", "resolved", "narrated", "posted")
#: Rounds not yet posted: at most one per campaign (enforced by a unique partial index).
UNFINISHED_ROUND_STATES: tuple[str, ...] = ROUND_STATES[:-1]
ACCEPTING_ROUND_STATES: tuple[str, ...] = ("open", "collecting")


def utcnow() -> datetime:
    """Now, timezone-aware UTC (stored as such on PostgreSQL, naive UTC on SQLite)."""
    return datetime.now(UTC)


def _ts() -> Any:
    return Field(default_factory=utcnow, sa_type=DateTime(timezone=True))


class WorldColumns(SQLModel):
    """Provenance every world row carries: where it came from and who may see it."""

    session_number: int = 0
    round_number: int | None = None
    cause: str = ""
    visibility: str = Field(default="public", max_length=80)


# --- the table and its players -------------------------------------------------------------------------


class Campaign(SQLModel, table=True):
    """One game, played in one Discord channel. ``event_seq`` numbers its events (and locks its writers)."""

    __tablename__ = "campaign"
    __table_args__ = (Index("ix_campaign_guild_channel", "guild_id", "channel_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(default="", max_length=32)
    channel_id: str = Field(default="", max_length=32)
    name: str = Field(max_length=200)
    owner_user_id: str = Field(default="", max_length=64)
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    status: str = Field(default="active", max_length=20)
    event_seq: int = 0
    created_at: datetime = _ts()


class GameSession(SQLModel, table=True):
    """One evening of play, numbered per campaign."""

    __tablename__ = "game_session"
    __table_args__ = (UniqueConstraint("campaign_id", "number", name="uq_game_session_number"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    number: int
    status: str = Field(default="open", max_length=20)
    started_at: datetime = _ts()


class Membership(SQLModel, table=True):
    """A user at the table: which character they play, whether they are active, whether they run the game."""

    __tablename__ = "membership"
    __table_args__ = (UniqueConstraint("campaign_id", "user_id", name="uq_membership_user"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    user_id: str = Field(max_length=64)
    character_id: str | None = Field(default=None, max_length=80)
    active: bool = True
    is_gm: bool = False


class Round(SQLModel, table=True):
    """One round of play: open -> collecting -> closed -> resolved -> narrated -> posted."""

    __tablename__ = "round"
    __table_args__ = (
        UniqueConstraint("campaign_id", "session_number", "number", name="uq_round_number"),
        Index(
            "uq_round_one_unfinished",
            "campaign_id",
            unique=True,
            sqlite_where=text("state != 'posted'"),
            postgresql_where=text("state != 'posted'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    session_number: int
    number: int
    state: str = Field(default="open", max_length=20)
    seed_commitment: str = Field(default="", max_length=128)
    revealed_seed: str | None = Field(default=None, max_length=128)
    deadline: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    resolution: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    opened_at: datetime = _ts()
    updated_at: datetime = _ts()


class Submission(SQLModel, table=True):
    """A player's declared action for a round; the ``idempotency_key`` turns retries into updates."""

    __tablename__ = "submission"
    __table_args__ = (
        Index("ix_submission_round", "round_id"),
        # One action per player per round (late actions waiting for the next round aside): two /act at the
        # same moment update one row instead of racing to insert two.
        Index(
            "uq_submission_round_player",
            "round_id",
            "player_user_id",
            unique=True,
            sqlite_where=text("origin != 'late-moved'"),
            postgresql_where=text("origin != 'late-moved'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id")
    campaign_id: int = Field(foreign_key="campaign.id")
    player_user_id: str = Field(max_length=64)
    character_id: str | None = Field(default=None, max_length=80)
    idempotency_key: str = Field(max_length=128, unique=True)
    text: str = ""
    intent: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    ready: bool = False
    origin: str = Field(default="player", max_length=20)
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


# --- the world -----------------------------------------------------------------------------------------


class Entity(WorldColumns, table=True):
    """A PC, NPC or monster: identity and sheet. Its changing state lives in ``Fact`` rows."""

    __tablename__ = "entity"
    __table_args__ = (Index("ix_entity_owner", "campaign_id", "owner_user_id"),)

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    id: str = Field(primary_key=True, max_length=80)
    kind: str = Field(max_length=20)
    name: str = Field(max_length=120)
    aliases: list[str] = Field(default_factory=list, sa_type=JSON)
    owner_user_id: str | None = Field(default=None, max_length=64)
    sheet: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    description: str = ""


class Location(WorldColumns, table=True):
    """A place."""

    __tablename__ = "location"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    id: str = Field(primary_key=True, max_length=80)
    name: str = Field(max_length=120)
    aliases: list[str] = Field(default_factory=list, sa_type=JSON)
    description: str = ""


class Item(WorldColumns, table=True):
    """A kind of item; how many of it anyone holds lives in ``Holding``."""

    __tablename__ = "item"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    id: str = Field(primary_key=True, max_length=80)
    name: str = Field(max_length=120)
    aliases: list[str] = Field(default_factory=list, sa_type=JSON)
    description: str = ""
    properties: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)


class NameIndex(SQLModel, table=True):
    """Case-folded names and aliases of entities, locations and items, for lookup and autocomplete."""

    __tablename__ = "name_index"
    __table_args__ = (Index("ix_name_index_name", "campaign_id", "name_folded"),)

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    ref: str = Field(primary_key=True, max_length=80)
    name_folded: str = Field(primary_key=True, max_length=120)
    record_kind: str = Field(max_length=20)  # entity | location | item
    visibility: str = Field(default="public", max_length=80)


class Fact(WorldColumns, table=True):
    """Current value of one fact ``<subject>-<field>``;
    entity state is ``alive``/``location``/``hp``/``condition-x``.


    ``value_text`` is the value as text, indexed, so "who is at loc-harbor" is one indexed query.
    """

    __tablename__ = "fact"
    __table_args__ = (
        Index("ix_fact_subject", "campaign_id", "subject"),
        Index("ix_fact_field_value", "campaign_id", "field", "value_text"),
    )

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    key: str = Field(primary_key=True, max_length=160)
    subject: str | None = Field(default=None, max_length=80)
    field: str = Field(default="", max_length=80)
    value: Any = Field(default=None, sa_type=JSON)
    value_text: str = Field(default="", max_length=200)


class Holding(WorldColumns, table=True):
    """``quantity`` of ``item_id`` held by ``holder_id`` (an entity or a location)."""

    __tablename__ = "holding"
    __table_args__ = (Index("ix_holding_holder", "campaign_id", "holder_id"),)

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    item_id: str = Field(primary_key=True, max_length=80)
    holder_id: str = Field(primary_key=True, max_length=80)
    quantity: int = 0


class Edge(WorldColumns, table=True):
    """Current relationship ``source_id`` -> ``target_id`` of one kind; ``since_session`` when it began."""

    __tablename__ = "edge"
    __table_args__ = (Index("ix_edge_target", "campaign_id", "target_id"),)

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    source_id: str = Field(primary_key=True, max_length=80)
    target_id: str = Field(primary_key=True, max_length=80)
    kind: str = Field(primary_key=True, max_length=80)
    attitude: int = 0
    reason: str = ""
    since_session: int = 0


class EdgeHistory(WorldColumns, table=True):
    """Every value an edge has had, oldest first."""

    __tablename__ = "edge_history"
    __table_args__ = (Index("ix_edge_history_pair", "campaign_id", "source_id", "target_id"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    source_id: str = Field(max_length=80)
    target_id: str = Field(max_length=80)
    kind: str = Field(max_length=80)
    attitude: int = 0
    reason: str = ""


class Thread(WorldColumns, table=True):
    """A favour, debt, oath, bounty, prophecy or quest: open, settled, expired or broken."""

    __tablename__ = "thread"
    __table_args__ = (Index("ix_thread_status", "campaign_id", "status"),)

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    id: str = Field(primary_key=True, max_length=80)
    kind: str = Field(max_length=20)
    status: str = Field(default="open", max_length=20)
    terms: str = ""
    tags: list[str] = Field(default_factory=list, sa_type=JSON)
    parties: list[str] = Field(default_factory=list, sa_type=JSON)
    expires_session: int | None = None
    opened_session: int = 0


class ThreadParty(SQLModel, table=True):
    """Join of threads and the entities bound by them ("threads involving these entities" is indexed)."""

    __tablename__ = "thread_party"
    __table_args__ = (
        ForeignKeyConstraint(["campaign_id", "thread_id"], ["thread.campaign_id", "thread.id"]),
        # Covering: a party's threads are read from the index alone (migration 0005).
        Index("ix_thread_party_entity_thread", "campaign_id", "entity_id", "thread_id"),
    )

    campaign_id: int = Field(primary_key=True)
    thread_id: str = Field(primary_key=True, max_length=80)
    entity_id: str = Field(primary_key=True, max_length=80)


class Event(SQLModel, table=True):
    """Append-only history: one row per change, ruling, correction or retcon; never updated or deleted.

    ``ref`` is ``ev-000123`` (per campaign); ``cause`` the roll (``round-12#3``), event or ruling behind it;
    ``supersedes`` the event a correction or retcon replaces.
    """

    __tablename__ = "event"
    __table_args__ = (
        UniqueConstraint("campaign_id", "ref", name="uq_event_ref"),
        UniqueConstraint("campaign_id", "seq", name="uq_event_seq"),
        Index("ix_event_when", "campaign_id", "session_number", "round_number"),
        Index("ix_event_supersedes", "campaign_id", "supersedes"),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    seq: int
    ref: str = Field(max_length=20)
    kind: str = Field(max_length=40)
    payload: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    cause: str = ""
    session_number: int = 0
    round_number: int | None = None
    visibility: str = Field(default="public", max_length=80)
    importance: int = 5
    permanent: bool = False
    supersedes: str | None = Field(default=None, max_length=120)
    created_at: datetime = _ts()


class EventWitness(SQLModel, table=True):
    """An entity that saw (or was told of) an event: the basis of NPC knowledge."""

    __tablename__ = "event_witness"
    __table_args__ = (Index("ix_event_witness_entity", "campaign_id", "entity_id", "event_id"),)

    event_id: int = Field(foreign_key="event.id", primary_key=True)
    entity_id: str = Field(primary_key=True, max_length=80)
    campaign_id: int


class EventEntity(SQLModel, table=True):
    """An entity, location, item or thread an event involves, for retrieval ("events involving X")."""

    __tablename__ = "event_entity"
    __table_args__ = (Index("ix_event_entity_entity", "campaign_id", "entity_id", "event_id"),)

    event_id: int = Field(foreign_key="event.id", primary_key=True)
    entity_id: str = Field(primary_key=True, max_length=80)
    campaign_id: int


# --- the table's paperwork -----------------------------------------------------------------------------


class Dispute(SQLModel, table=True):
    """A player's objection to a record; the GM accepts (a correction event follows) or rejects it."""

    __tablename__ = "dispute"
    __table_args__ = (Index("ix_dispute_status", "campaign_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    record_ref: str = Field(max_length=120)
    user_id: str = Field(max_length=64)
    reason: str = ""
    status: str = Field(default="open", max_length=20)
    ruling_note: str = ""
    ruling_event: str | None = Field(default=None, max_length=20)
    session_number: int = 0
    created_at: datetime = _ts()


class Summary(SQLModel, table=True):
    """A scene or session summary; Chroma indexes its text, SQL keeps it and the events it covers."""

    __tablename__ = "summary"
    __table_args__ = (Index("ix_summary_session", "campaign_id", "session_number"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    session_number: int = 0
    round_number: int | None = None
    scope: str = Field(default="session", max_length=40)
    text: str = ""
    event_ids: list[str] = Field(default_factory=list, sa_type=JSON)
    cause: str = ""
    visibility: str = Field(default="party", max_length=80)
    # Where the summary stands in the Chroma index: ``pending`` until indexed (also while the index or its
    # embeddings endpoint is down: the queue of summaries to index when it is back), ``indexed``, or
    # ``refused`` (it states a hard fact the ledger lacks; never retried).
    index_state: str = Field(default="pending", max_length=20)
    created_at: datetime = _ts()


class Outbox(SQLModel, table=True):
    """A message to post (public) or DM; recorded before sending so a restart never posts twice."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_status", "campaign_id", "status"),
        Index("ix_outbox_round", "round_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    round_id: int | None = Field(default=None, foreign_key="round.id")
    kind: str = Field(max_length=10)  # public | dm | followup (a reply a crash left unanswered)
    recipient_user_id: str | None = Field(default=None, max_length=64)
    content: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    source: str = Field(default="generated", max_length=20)
    status: str = Field(default="pending", max_length=20)
    external_id: str | None = Field(default=None, max_length=64)
    # Failed sends are retried with backoff: how many were tried, when the next one is due, and why the last
    # one failed (kept in the row so a restart carries on where the last process stopped).
    attempts: int = 0
    next_attempt_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    last_error: str = Field(default="", max_length=200)
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


class Conflict(SQLModel, table=True):
    """The GM's queue: a narration claim the ledger refuted, awaiting dismissal or a retcon."""

    __tablename__ = "conflict"
    __table_args__ = (Index("ix_conflict_status", "campaign_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    round_id: int | None = Field(default=None, foreign_key="round.id")
    claim_text: str = ""
    refuting_ref: str | None = Field(default=None, max_length=120)
    status: str = Field(default="open", max_length=20)
    note: str = ""
    retcon_event: str | None = Field(default=None, max_length=20)
    created_at: datetime = _ts()


class Proposal(SQLModel, table=True):
    """A proposed addition to the world: the narrator's (``origin`` narrator) or a player's nomination.

    ``status`` is accepted (its ``changes`` landed as the events ``refs``), refused (``reason`` says why),
    queued (a nomination waiting for the GM) or undone (``undo_event`` is the retcon that took it back).
    Nothing is deleted: an undone proposal stays listed with its retcon.
    """

    __tablename__ = "proposal"
    __table_args__ = (Index("ix_proposal_status", "campaign_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    round_id: int | None = Field(default=None, foreign_key="round.id")
    origin: str = Field(max_length=20)  # narrator | player
    author: str = Field(default="", max_length=64)  # the nominating player's user id; "" for the narrator
    kind: str = Field(max_length=20)  # npc | item | thread | event | attitude | fact
    summary: str = ""
    payload: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    changes: list[Any] = Field(default_factory=list, sa_type=JSON)
    refs: list[Any] = Field(default_factory=list, sa_type=JSON)
    status: str = Field(max_length=20)
    reason: str = ""
    visibility: str = Field(default="public", max_length=80)
    cause: str = Field(default="", max_length=120)
    undo_event: str | None = Field(default=None, max_length=20)
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


metadata = SQLModel.metadata
