"""History changes as a scenario file writes them: the store's change vocabulary, narrowed for a file.

Each class is the :mod:`ledger.store.vocabulary` class of the same name (same ``kind``, fields, defaults and
docs in one place) with the stricter values a hand-written file must use: ids carry their kind prefix,
numbers are whole numbers as written, reasons and terms are required, thread ids are ``kind-session-seq``,
fact keys ``domain-object-field``. Where a file is looser than the live API the loader is the judge: the
store's own parse refuses what it always refused when a file is loaded.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    Field,
    ModelWrapValidatorHandler,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import InitErrorDetails

from ledger.scenario.values import (
    FACT_KEY_RE,
    Name,
    PropertyValue,
    Reason,
    RecordId,
    Session,
    Slug,
    Text,
    ThreadId,
    Visibility,
)
from ledger.store import vocabulary

__all__ = [
    "CHANGE_KINDS",
    "AddCondition",
    "Change",
    "Correction",
    "CreateEntity",
    "CreateItem",
    "CreateLocation",
    "MoveEntity",
    "OpenThread",
    "PlainChange",
    "RecordEvent",
    "RemoveCondition",
    "Retcon",
    "SetAlive",
    "SetEdge",
    "SetFact",
    "SetHp",
    "ThreadTransition",
    "TransferItem",
]


class _FileChange(vocabulary.ChangeBase):
    """What a change in a file carries besides its own fields.

    A file is stricter than the live API: ids carry their kind prefix, numbers are whole numbers as written,
    reasons are required. An omitted ``visibility`` or ``witnesses`` is inherited from the history entry (see
    :func:`ledger.scenario.timeline.timeline`, which reads ``model_fields_set``). A file names no ``cause``:
    the loader gives every change ``scenario:<file>``, so ``cause`` is an unknown key here.

    Each file class lists this base before its store class, so the file's field types here win.
    """

    visibility: Visibility = "public"
    witnesses: tuple[RecordId, ...] = ()
    cause: SkipJsonSchema[str | None] = None

    @model_validator(mode="wrap")
    @classmethod
    def _no_cause(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        if not (isinstance(data, dict) and "cause" in data):
            return handler(data)
        unknown = InitErrorDetails(type="extra_forbidden", loc=("cause",), input=data["cause"])
        errors: list[Any] = [unknown]
        try:
            handler({k: v for k, v in data.items() if k != "cause"})
        except ValidationError as err:
            errors = [*err.errors(), unknown]
        # As pydantic does: unknown keys after the fields' errors, in the order the file wrote them.
        keys = list(data)
        errors.sort(key=lambda e: keys.index(e["loc"][0]) if e["type"] == "extra_forbidden" else -1)
        raise ValidationError.from_exception_data(cls.__name__, errors)


class CreateEntity(_FileChange, vocabulary.CreateEntity):
    """A new PC, NPC or monster appears in the world."""

    id: RecordId
    description: Text = ""
    owner: StrictStr | None = None
    location: RecordId | None = None
    hp: Annotated[StrictInt, Field(ge=0)] | None = None


class CreateLocation(_FileChange, vocabulary.CreateLocation):
    """A new place."""

    id: RecordId
    description: Text = ""


class CreateItem(_FileChange, vocabulary.CreateItem):
    """A new item, held by an entity, lying at a location, or unheld (``holder`` omitted)."""

    id: RecordId
    description: Text = ""
    properties: dict[str, PropertyValue] = Field(default_factory=dict)
    holder: RecordId | None = None
    quantity: Annotated[StrictInt, Field(ge=0)] = 1


class SetFact(_FileChange, vocabulary.SetFact):
    """A world fact ``domain-object-field = value`` (e.g. ``door-cellar-lock = true``)."""

    key: Annotated[str, Field(pattern=FACT_KEY_RE.pattern, max_length=120)]


class SetAlive(_FileChange, vocabulary.SetAlive):
    """Someone dies (``alive = false``) or is brought back."""

    entity: RecordId


class MoveEntity(_FileChange, vocabulary.MoveEntity):
    """Someone goes to another location."""

    entity: RecordId
    location: RecordId


class SetHp(_FileChange, vocabulary.SetHp):
    """Someone's current hit points."""

    entity: RecordId
    hp: Annotated[StrictInt, Field(ge=0)]


class AddCondition(_FileChange, vocabulary.AddCondition):
    """Someone gains a 5e condition (poisoned, prone, ...)."""

    entity: RecordId
    condition: Slug


class RemoveCondition(_FileChange, vocabulary.RemoveCondition):
    """Someone loses a condition."""

    entity: RecordId
    condition: Slug


class TransferItem(_FileChange, vocabulary.TransferItem):
    """Items change hands. No ``from_holder`` = created; no ``to_holder`` = destroyed, used or sold."""

    item: RecordId
    from_holder: RecordId | None = None
    to_holder: RecordId | None = None
    quantity: Annotated[StrictInt, Field(ge=1)] = 1

    @model_validator(mode="after")
    def _somewhere(self) -> TransferItem:
        """Replaces the store's check of the same name: in a file a move of nothing replays as nothing."""
        return self


class SetEdge(_FileChange, vocabulary.SetEdge):
    """A directed relationship ``source -> target`` of ``edge_kind``, with attitude and a reason."""

    source: RecordId
    target: RecordId
    edge_kind: Slug
    attitude: Annotated[StrictInt, Field(ge=-100, le=100)] = 0
    reason: Reason


class OpenThread(_FileChange, vocabulary.OpenThread):
    """A new favour, debt, oath, bounty, prophecy or quest, open from now on."""

    id: ThreadId
    terms: Annotated[str, Field(min_length=1, max_length=2000)]
    parties: tuple[RecordId, ...] = ()
    # slug tags, and what the story calls the thread ("the arrears"): a [[threads]] entry's aliases are kept
    # here, so an exported campaign's open_thread carries them back
    tags: tuple[Name, ...] = ()
    expires_session: Session | None = None
    place: RecordId | None = None


class ThreadTransition(_FileChange, vocabulary.ThreadTransition):
    """A thread moves from open to settled, expired or broken (back to open only inside a retcon)."""

    thread: ThreadId
    reason: Reason


class RecordEvent(_FileChange, vocabulary.RecordEvent):
    """Something happened that changes no state (a bargain, an insult, a rescue): kind, who, where, which
    thread. A ``[[history]]`` entry's ``event`` key writes one; it may also be written as a change."""

    participants: tuple[RecordId, ...] = ()
    place: RecordId | None = None
    thread: ThreadId | None = None


PlainChange = Annotated[
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


class Retcon(_FileChange, vocabulary.Retcon):
    """An explicit setting change: ``target`` (an earlier history ``id``) is overruled by ``changes``."""

    target: RecordId
    reason: Reason
    changes: tuple[PlainChange, ...] = Field(min_length=1)


class Correction(_FileChange, vocabulary.Correction):
    """A disputed record put right: ``target`` (any record or history id) is fixed by ``changes``."""

    target: Annotated[str, Field(min_length=1, max_length=80)]
    reason: Reason
    changes: tuple[PlainChange, ...] = Field(min_length=1)


Change = Annotated[PlainChange | Retcon | Correction, Field(discriminator="kind")]
CHANGE_KINDS: tuple[str, ...] = vocabulary.MUTATION_KINDS
