"""The change vocabulary: every way the world may change, as frozen data discriminated on ``kind``.

Kind strings and field names are fixed by docs/internals.md ("The change vocabulary") so scenario files,
the table and the ledger agree. Every change also takes ``visibility`` (default ``public``), ``witnesses``
(entity ids that saw it happen, for NPC knowledge) and an optional ``cause`` (e.g. ``round-12#3``) that
overrides the cause given to ``apply_changes`` for this one change.

Parse untrusted dicts with :func:`parse_mutation` / :func:`parse_mutations`, which raise
:class:`ledger.errors.InvalidChange` with a one-line message.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ledger.errors import InvalidChange
from ledger.store.narrative import NarrativeKind
from ledger.store.visibility import VISIBILITY_PATTERN

ID_PATTERN = r"^[a-z0-9]+(?:[-_][a-z0-9]+)*(?:#[0-9]+)?$"
Slug = Annotated[str, Field(pattern=ID_PATTERN, min_length=1, max_length=80)]
Name = Annotated[str, Field(min_length=1, max_length=120)]
EntityKind = Literal["pc", "npc", "monster"]
ThreadKind = Literal["favour", "debt", "oath", "bounty", "prophecy", "quest", "feud", "rumour"]
ThreadStatus = Literal["open", "settled", "expired", "broken"]
FactValue = StrictBool | StrictInt | StrictStr


class ChangeBase(BaseModel):
    """Fields every change carries.

    The scenario format derives its file changes from these classes (``ledger.scenario.format``): same kinds,
    fields and defaults, with the stricter values a hand-written file must use.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    visibility: Annotated[str, Field(pattern=VISIBILITY_PATTERN)] = "public"
    witnesses: tuple[Slug, ...] = ()
    cause: Annotated[str, Field(max_length=120)] | None = None


class CreateEntity(ChangeBase):
    """A new PC, NPC or monster, alive, optionally placed somewhere with some HP."""

    kind: Literal["create_entity"] = "create_entity"
    id: Slug
    entity_kind: EntityKind
    name: Name
    aliases: tuple[Name, ...] = ()
    description: str = ""
    owner: str | None = None
    sheet: dict[str, Any] | None = None
    location: Slug | None = None
    hp: Annotated[int, Field(ge=0)] | None = None


class CreateLocation(ChangeBase):
    """A new place."""

    kind: Literal["create_location"] = "create_location"
    id: Slug
    name: Name
    aliases: tuple[Name, ...] = ()
    description: str = ""


class CreateItem(ChangeBase):
    """A new kind of item; ``quantity`` of it appears with ``holder`` (an entity or location) when given."""

    kind: Literal["create_item"] = "create_item"
    id: Slug
    name: Name
    aliases: tuple[Name, ...] = ()
    description: str = ""
    properties: dict[str, Any] = Field(default_factory=dict)
    holder: Slug | None = None
    quantity: Annotated[int, Field(ge=0)] = 1


class SetFact(ChangeBase):
    """Any fact by key ``domain-object-field`` (``npc-harlan-voss-alive``, ``loc-harbor-gate-open``)."""

    kind: Literal["set_fact"] = "set_fact"
    key: Slug
    value: FactValue


class SetAlive(ChangeBase):
    """An entity dies (``alive=False``) or is brought back."""

    kind: Literal["set_alive"] = "set_alive"
    entity: Slug
    alive: StrictBool


class MoveEntity(ChangeBase):
    """An entity goes to a location."""

    kind: Literal["move_entity"] = "move_entity"
    entity: Slug
    location: Slug


class SetHp(ChangeBase):
    """An entity's current hit points."""

    kind: Literal["set_hp"] = "set_hp"
    entity: Slug
    hp: Annotated[int, Field(ge=0)]


class AddCondition(ChangeBase):
    """An entity gains a condition (poisoned, prone, frightened ...)."""

    kind: Literal["add_condition"] = "add_condition"
    entity: Slug
    condition: Slug


class RemoveCondition(ChangeBase):
    """An entity loses a condition it has."""

    kind: Literal["remove_condition"] = "remove_condition"
    entity: Slug
    condition: Slug


class TransferItem(ChangeBase):
    """``quantity`` of an item moves; ``from_holder`` null = created, ``to_holder`` null = gone/used/sold."""

    kind: Literal["transfer_item"] = "transfer_item"
    item: Slug
    from_holder: Slug | None = None
    to_holder: Slug | None = None
    quantity: Annotated[int, Field(ge=1)] = 1

    @model_validator(mode="after")
    def _somewhere(self) -> TransferItem:
        if self.from_holder is None and self.to_holder is None:
            raise ValueError("a transfer needs a from_holder or a to_holder")
        if self.from_holder == self.to_holder:
            raise ValueError("a transfer needs two different holders")
        return self


class SetEdge(ChangeBase):
    """A directed relationship ``source`` -> ``target`` of ``edge_kind`` now has this attitude."""

    kind: Literal["set_edge"] = "set_edge"
    source: Slug
    target: Slug
    edge_kind: Slug
    attitude: Annotated[int, Field(ge=-100, le=100)] = 0
    reason: str = ""


class OpenThread(ChangeBase):
    """A new favour, debt, oath, bounty, prophecy, quest, feud or rumour, open; ``place`` is where it
    belongs, if anywhere (the harbour a smuggling debt is about): kept in the event and among what it
    involves."""

    kind: Literal["open_thread"] = "open_thread"
    id: Slug
    thread_kind: ThreadKind
    terms: str = ""
    parties: tuple[Slug, ...] = ()
    tags: tuple[str, ...] = ()
    expires_session: int | None = None
    place: Slug | None = None


class ThreadTransition(ChangeBase):
    """An open thread is settled, expires or is broken; ``open`` or leaving a final state only in a retcon."""

    kind: Literal["thread_transition"] = "thread_transition"
    thread: Slug
    status: ThreadStatus
    reason: str = ""


class RecordEvent(ChangeBase):
    """Something happened between people that changes no state: a bargain, an insult, a rescue, a warning.

    ``event_kind`` is one of :data:`ledger.store.narrative.NarrativeKind`; ``participants`` are the entities
    it happened between, ``place`` the location, ``thread`` the matter it bears on (each optional). The store
    checks that they exist and that whoever may see the event may see them, then writes an event whose
    involved records are the participants, the place and the thread (so "events involving X" finds it).
    """

    kind: Literal["record_event"] = "record_event"
    event_kind: NarrativeKind
    summary: Annotated[str, Field(min_length=1, max_length=4000)]
    participants: tuple[Slug, ...] = ()
    place: Slug | None = None
    thread: Slug | None = None


BasicChange = Annotated[
    CreateEntity
    | CreateLocation
    | CreateItem
    | SetFact
    | SetAlive
    | MoveEntity
    | SetHp
    | AddCondition
    | RemoveCondition
    | TransferItem
    | SetEdge
    | OpenThread
    | ThreadTransition
    | RecordEvent,
    Field(discriminator="kind"),
]


class Retcon(ChangeBase):
    """The story changes its mind: a new event superseding ``target`` (an event ref) and applying ``changes``.

    Inside a retcon the thread state machine is lifted (a broken oath may reopen). Nothing is edited in place.
    """

    kind: Literal["retcon"] = "retcon"
    target: Slug
    reason: str = Field(min_length=1)
    changes: tuple[BasicChange, ...] = ()


class Correction(ChangeBase):
    """A mistake is fixed (an accepted dispute): a new event pointing at ``target``, applying ``changes``.

    ``target`` is any record ref (an event ref, an entity/item/thread id). Normal rules apply to the changes.
    """

    kind: Literal["correction"] = "correction"
    target: Slug
    reason: str = Field(min_length=1)
    changes: tuple[BasicChange, ...] = ()


Mutation = Annotated[BasicChange | Retcon | Correction, Field(discriminator="kind")]
MUTATION_KINDS: tuple[str, ...] = (
    "create_entity",
    "create_location",
    "create_item",
    "set_fact",
    "set_alive",
    "move_entity",
    "set_hp",
    "add_condition",
    "remove_condition",
    "transfer_item",
    "set_edge",
    "open_thread",
    "thread_transition",
    "record_event",
    "retcon",
    "correction",
)

_ADAPTER: TypeAdapter[Mutation] = TypeAdapter(Mutation)
_LIST_ADAPTER: TypeAdapter[list[Mutation]] = TypeAdapter(list[Mutation])


def _one_line(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "change"
    return f"invalid change at {where}: {first['msg']}"


def parse_mutation(data: dict[str, Any]) -> Mutation:
    """Build one change from a dict (a scenario entry, JSON). Raises InvalidChange with a one-line message."""
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as err:
        raise InvalidChange(_one_line(err)) from None


def parse_mutations(data: list[dict[str, Any]]) -> list[Mutation]:
    """Build a list of changes from dicts. Raises InvalidChange naming the first bad entry."""
    try:
        return _LIST_ADAPTER.validate_python(data)
    except ValidationError as err:
        raise InvalidChange(_one_line(err)) from None


def mutation_json_schema() -> dict[str, Any]:
    """The JSON Schema of one change (for ``tablekeeper scenario schema``)."""
    return _ADAPTER.json_schema()
