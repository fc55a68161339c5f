"""What the ledger's reads and writes return: frozen, plain data (rendering is someone else's job)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class Provenanced(_View):
    """Provenance every world record shows: source session, round, cause and visibility."""

    session_number: int = 0
    round_number: int | None = None
    cause: str = ""
    visibility: str = "public"


class CampaignView(_View):
    id: int
    name: str
    guild_id: str
    channel_id: str
    owner_user_id: str
    settings: dict[str, Any]
    status: str


class MemberView(_View):
    campaign_id: int
    user_id: str
    character_id: str | None
    active: bool
    is_gm: bool


class EntityView(Provenanced):
    """An entity and the parts of its state the viewer may see (``None`` / empty = unknown to the viewer)."""

    id: str
    kind: str
    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    owner_user_id: str | None = None
    sheet: dict[str, Any] | None = None
    alive: bool | None = None
    location: str | None = None
    hp: int | None = None
    conditions: tuple[str, ...] = ()


class LocationView(Provenanced):
    id: str
    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""


class ItemView(Provenanced):
    id: str
    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    properties: dict[str, Any] = {}


class NameMatch(_View):
    """A record whose name or alias matched a lookup."""

    ref: str
    record_kind: str  # entity | location | item
    name: str  # the record's name (not the alias that matched)
    matched: str  # the folded name or alias that matched


class HoldingView(Provenanced):
    item_id: str
    item_name: str
    holder_id: str
    quantity: int


class FactView(Provenanced):
    key: str
    subject: str | None
    field: str
    value: Any


class EdgeChange(Provenanced):
    attitude: int
    reason: str


class EdgeView(Provenanced):
    source: str
    target: str
    kind: str
    attitude: int
    reason: str
    since_session: int
    history: tuple[EdgeChange, ...] = ()


class ThreadView(Provenanced):
    id: str
    kind: str
    status: str
    terms: str
    tags: tuple[str, ...]
    parties: tuple[str, ...]
    expires_session: int | None
    opened_session: int


class EventView(Provenanced):
    """One event. ``superseded_by`` lists the corrections/retcons pointing at it that the viewer may see."""

    ref: str
    seq: int
    kind: str
    payload: dict[str, Any]
    importance: int
    permanent: bool
    supersedes: str | None
    superseded_by: tuple[str, ...] = ()
    witnesses: tuple[str, ...] = ()
    involved: tuple[str, ...] = ()
    created_at: datetime | None = None


class RecordView(Provenanced):
    """Any record by ref, with the chain of events that caused it and the roll (or ruling) at its root."""

    ref: str
    record_kind: str  # event | entity | location | item | thread | fact
    data: dict[str, Any]
    cause_chain: tuple[EventView, ...] = ()
    root_cause: str | None = None  # e.g. ``round-12#3`` (a roll) or ``dispute-4`` (a ruling)


class RoundView(_View):
    id: int
    campaign_id: int
    session_number: int
    number: int
    state: str
    seed_commitment: str
    revealed_seed: str | None
    deadline: datetime | None
    resolution: dict[str, Any] | None


class SubmissionView(_View):
    id: int
    round_id: int
    player_user_id: str
    character_id: str | None
    idempotency_key: str
    text: str
    intent: dict[str, Any] | None
    ready: bool
    origin: str
    created: bool = False  # True when this call created it, False when it updated an existing one


class OutboxView(_View):
    id: int
    campaign_id: int
    round_id: int | None
    kind: str
    recipient_user_id: str | None
    content: dict[str, Any]
    source: str
    status: str
    external_id: str | None


class DisputeView(_View):
    id: int
    campaign_id: int
    record_ref: str
    user_id: str
    reason: str
    status: str
    ruling_note: str
    ruling_event: str | None


class ConflictView(_View):
    id: int
    campaign_id: int
    round_id: int | None
    claim_text: str
    refuting_ref: str | None
    status: str
    note: str
    retcon_event: str | None
