"""The scenario file format: a campaign world and its history as TOML, validated and replayed offline.

A scenario describes the world as it stood when each record first appeared (``[[locations]]``, ``[[pcs]]``,
``[[npcs]]``, ``[[items]]``, ``[[relationships]]``, ``[[threads]]``, ``[[facts]]``, each with a source
``session``), then ``[[history]]`` entries change it, session by session, using exactly the change
vocabulary of ``ledger.store.vocabulary`` (see docs/internals.md, "The change vocabulary"). :func:`timeline`
turns a
scenario into the ordered list of :class:`ScenarioEvent` (each a group of changes) that the SQL loader applies
one by one, so loading a scenario gives the same ledger as playing it. :func:`final_world` replays that same
timeline in pure Python and returns a frozen :class:`WorldView`; the assertion checker uses it without a
database.

Errors are a :class:`ScenarioError` whose message has one line per problem:
``<file>: <key path>: <problem>``, e.g. ``harbor.toml: npcs[2].location: unknown location 'loc-nowhere'``.
Key paths count from 0, like the TOML arrays they point into.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import InitErrorDetails

from ledger.store import vocabulary

__all__ = [
    "CHANGE_KINDS",
    "CONDITIONS",
    "SKILLS",
    "Campaign",
    "Change",
    "EdgeView",
    "EntityView",
    "FactView",
    "HistoryEntry",
    "HoldingView",
    "ItemView",
    "LocationView",
    "Scenario",
    "ScenarioError",
    "ScenarioEvent",
    "ScenarioProblem",
    "ScenarioUnreadable",
    "ThreadView",
    "WorldView",
    "final_world",
    "load_scenario",
    "parse_scenario",
    "read_toml",
    "rules_sheet",
    "scenario_json_schema",
    "shown_value",
    "timeline",
    "visible_scopes",
]

# --------------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------------

SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"
VISIBILITY_RE = re.compile(r"^(public|party|gm|player:[A-Za-z0-9_.\-]+)$")
ENTITY_PREFIXES = {"pc": "pc-", "npc": "npc-", "monster": "monster-"}
THREAD_KINDS = ("favour", "debt", "oath", "bounty", "prophecy", "quest")
# Thread ids are kind-session-seq; the favour kind is spelled the short way in ids (favor-0003-01).
THREAD_ID_PREFIX = {
    "favour": "favor",
    "debt": "debt",
    "oath": "oath",
    "bounty": "bounty",
    "prophecy": "prophecy",
    "quest": "quest",
}
THREAD_ID_RE = re.compile(r"^(favor|debt|oath|bounty|prophecy|quest)-(\d{4})-(\d{2})$")
THREAD_STATUSES = ("open", "settled", "expired", "broken")
CONDITIONS = frozenset(
    {
        "blinded",
        "charmed",
        "deafened",
        "frightened",
        "grappled",
        "incapacitated",
        "invisible",
        "paralyzed",
        "petrified",
        "poisoned",
        "prone",
        "restrained",
        "stunned",
        "unconscious",
        "exhaustion",
    }
)
SKILLS = frozenset(
    {
        "acrobatics",
        "animal_handling",
        "arcana",
        "athletics",
        "deception",
        "history",
        "insight",
        "intimidation",
        "investigation",
        "medicine",
        "nature",
        "perception",
        "performance",
        "persuasion",
        "religion",
        "sleight_of_hand",
        "stealth",
        "survival",
    }
)
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
FACT_KEY_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+){2,}$")

Visibility = Annotated[
    str, Field(pattern=VISIBILITY_RE.pattern, examples=["public", "party", "player:alice"])
]
Slug = Annotated[str, Field(pattern=rf"^{SLUG}$", min_length=1, max_length=80)]
RecordId = Annotated[str, Field(pattern=rf"^[a-z]+-{SLUG}$", min_length=3, max_length=80)]
Name = Annotated[str, Field(min_length=1, max_length=120)]
Text = Annotated[str, Field(max_length=4000)]
Session = Annotated[StrictInt, Field(ge=1, le=100_000)]
ThreadId = Annotated[str, Field(pattern=THREAD_ID_RE.pattern)]
Reason = Annotated[str, Field(min_length=1, max_length=1000)]
Scalar = StrictBool | StrictInt | StrictStr
PropertyValue = StrictBool | StrictInt | float | StrictStr


class ScenarioProblem(BaseModel):
    """One thing wrong with a scenario: where (a key path like ``npcs[2].location``) and what."""

    model_config = ConfigDict(frozen=True)

    path: str
    message: str


MAX_SCENARIO_BYTES = 4 * 1024 * 1024  # harbor.toml is 23 kB; 4 MB is tens of thousands of records
MAX_TOML_DEPTH = 32  # the format nests at most five levels; deeper is hostile or broken
MAX_PROBLEMS_SHOWN = 20  # a broken generated file must not print half a million lines
MAX_VALUE_SHOWN = 80  # characters of an offending value echoed back in a message


def shown_value(value: Any) -> str:
    """Return ``value`` as JSON for a message, cut to :data:`MAX_VALUE_SHOWN` characters (never 50 MB)."""
    size = len(value) if isinstance(value, str) else None
    if size is not None and size > MAX_VALUE_SHOWN:
        value = value[:MAX_VALUE_SHOWN]  # do not serialise a huge string only to cut it
    text = json.dumps(value, default=str)
    if len(text) > MAX_VALUE_SHOWN:
        text = text[: MAX_VALUE_SHOWN - 3] + "..."
    if size is not None and size > MAX_VALUE_SHOWN:
        text = f'{text.removesuffix(chr(34))}..." ({size:,} characters)'
    return text


class ScenarioError(Exception):
    """A scenario file that cannot be used; ``str(err)`` has one ``file: path: problem`` line per problem.

    At most :data:`MAX_PROBLEMS_SHOWN` lines are rendered, then one line with the count of the rest;
    :attr:`problems` keeps every problem for callers that want them all.
    """

    def __init__(self, source: str, problems: Iterable[ScenarioProblem]) -> None:
        self.source = source
        self.problems: tuple[ScenarioProblem, ...] = tuple(problems)
        lines = [
            f"{source}: {p.path}: {p.message}" if p.path else f"{source}: {p.message}"
            for p in self.problems[:MAX_PROBLEMS_SHOWN]
        ]
        if len(self.problems) > MAX_PROBLEMS_SHOWN:
            lines.append(f"{source}: ... and {len(self.problems) - MAX_PROBLEMS_SHOWN} more problems")
        super().__init__("\n".join(lines))

    def summary(self) -> str:
        """One line without the file name: the first problem, and how many more there are."""
        if not self.problems:
            return "invalid scenario"
        first = self.problems[0]
        line = f"{first.path}: {first.message}" if first.path else first.message
        more = len(self.problems) - 1
        return f"{line} (and {more} more problem{'s' if more != 1 else ''})" if more else line


class ScenarioUnreadable(ScenarioError):
    """The file does not exist, cannot be read, or is not TOML at all."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# --------------------------------------------------------------------------------------------------
# The change vocabulary: the store's own classes, with the values a hand-written file must use
# --------------------------------------------------------------------------------------------------


class _FileChange(vocabulary.ChangeBase):
    """What a change in a file carries besides its own fields.

    A file is stricter than the live API: ids carry their kind prefix, numbers are whole numbers as written,
    reasons are required. An omitted ``visibility`` or ``witnesses`` is inherited from the history entry (see
    :func:`timeline`, which reads ``model_fields_set``). A file names no ``cause``: the loader gives every
    change ``scenario:<file>``, so ``cause`` is an unknown key here.
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
    tags: tuple[Slug, ...] = ()
    expires_session: Session | None = None


class ThreadTransition(_FileChange, vocabulary.ThreadTransition):
    """A thread moves from open to settled, expired or broken (back to open only inside a retcon)."""

    thread: ThreadId
    reason: Reason


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
    | ThreadTransition,
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


Change = Annotated[
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
    | Retcon
    | Correction,
    Field(discriminator="kind"),
]
CHANGE_KINDS: tuple[str, ...] = vocabulary.MUTATION_KINDS

# --------------------------------------------------------------------------------------------------
# The scenario file's sections
# --------------------------------------------------------------------------------------------------


class Campaign(_Model):
    """``[campaign]``: the campaign as it stands when play resumes."""

    name: Name
    id: Slug | None = None
    description: Text = ""
    current_session: Session = 1
    starting_location: RecordId
    default_action: Annotated[str, Field(min_length=1, max_length=200)] = "holds position"


class Location(_Model):
    """``[[locations]]``: a place; ``exits`` are the locations reachable from it."""

    id: RecordId
    name: Name
    aliases: tuple[Name, ...] = ()
    description: Text = ""
    exits: tuple[RecordId, ...] = ()
    session: Session = 1
    visibility: Visibility = "public"


class Abilities(_Model):
    """The six ability scores."""

    str_: Annotated[StrictInt, Field(ge=1, le=30, alias="str")] = 10
    dex: Annotated[StrictInt, Field(ge=1, le=30)] = 10
    con: Annotated[StrictInt, Field(ge=1, le=30)] = 10
    int_: Annotated[StrictInt, Field(ge=1, le=30, alias="int")] = 10
    wis: Annotated[StrictInt, Field(ge=1, le=30)] = 10
    cha: Annotated[StrictInt, Field(ge=1, le=30)] = 10

    def as_rules_dict(self) -> dict[str, int]:
        """Return ``{"strength": 16, ...}``, the shape of ``rules.creatures.AbilityScores``."""
        names = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
        return dict(zip(names, self.as_dict().values(), strict=True))

    def as_dict(self) -> dict[str, int]:
        """Return ``{"str": 16, "dex": 12, ...}``."""
        return dict(
            zip(ABILITIES, (self.str_, self.dex, self.con, self.int_, self.wis, self.cha), strict=True)
        )


class PlayerCharacter(_Model):
    """``[[pcs]]``: a player character; ``owner`` is ``player:<handle>`` or a Discord user id (or omitted)."""

    id: RecordId
    name: Name
    aliases: tuple[Name, ...] = ()
    description: Text = ""
    owner: StrictStr | StrictInt | None = None
    char_class: Annotated[Slug, Field(alias="class")] = "fighter"
    level: Annotated[StrictInt, Field(ge=1, le=20)] = 1
    abilities: Abilities = Abilities()
    skills: tuple[Annotated[str, Field(pattern=r"^[a-z_]+$")], ...] = ()
    ac: Annotated[StrictInt, Field(ge=10, le=30)] = 10
    hp: Annotated[StrictInt, Field(ge=0, le=1000)]
    max_hp: Annotated[StrictInt, Field(ge=1, le=1000)] | None = None
    weapons: tuple[Slug, ...] = ()
    location: RecordId | None = None
    alive: StrictBool = True
    conditions: tuple[Slug, ...] = ()
    session: Session = 1
    visibility: Visibility = "public"

    @field_validator("owner")
    @classmethod
    def _owner_form(cls, value: str | int | None) -> str | None:
        if value is None:
            return None
        text = str(value).strip()
        if re.fullmatch(r"player:[A-Za-z0-9_.\-]+", text):
            return text.removeprefix("player:")
        if re.fullmatch(r"\d{1,20}", text):
            return text
        raise ValueError("expected 'player:<handle>' or a numeric Discord user id")

    @field_validator("skills")
    @classmethod
    def _known_skills(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [s for s in value if s not in SKILLS]
        if unknown:
            raise ValueError(f"unknown skill {unknown[0]!r} (expected one of {', '.join(sorted(SKILLS))})")
        return value

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _check_conditions(value)

    @model_validator(mode="after")
    def _hp_within_max(self) -> PlayerCharacter:
        if self.max_hp is not None and self.hp > self.max_hp:
            raise ValueError(f"hp {self.hp} is above max_hp {self.max_hp}")
        return self


class Attack(_Model):
    """One inline attack of a monster: ``to_hit`` bonus and a damage dice expression."""

    name: Name
    to_hit: Annotated[StrictInt, Field(ge=-5, le=30)]
    damage: Annotated[str, Field(pattern=r"^\d{1,2}d\d{1,3}([+-]\d{1,3})?$|^\d{1,3}$")]
    damage_type: Slug = "slashing"


class InlineStats(_Model):
    """``stats`` of an NPC or monster that has no bestiary entry."""

    ac: Annotated[StrictInt, Field(ge=1, le=30)]
    max_hp: Annotated[StrictInt, Field(ge=1, le=1000)]
    abilities: Abilities = Abilities()
    attacks: tuple[Attack, ...] = ()
    challenge: float = Field(default=0, ge=0, le=30)


class NonPlayerCharacter(_Model):
    """``[[npcs]]``: an NPC or monster; stats from a bestiary entry (``bestiary = "bandit"``) or inline."""

    id: RecordId
    name: Name
    aliases: tuple[Name, ...] = ()
    description: Text = ""
    kind: Literal["npc", "monster"] = "npc"
    bestiary: Slug | None = None
    stats: InlineStats | None = None
    alive: StrictBool = True
    location: RecordId | None = None
    hp: Annotated[StrictInt, Field(ge=0, le=1000)] | None = None
    conditions: tuple[Slug, ...] = ()
    hostile: StrictBool = False
    persona: Text = ""
    speech: Text = ""
    session: Session = 1
    visibility: Visibility = "public"

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _check_conditions(value)

    @model_validator(mode="after")
    def _one_stat_source(self) -> NonPlayerCharacter:
        if self.bestiary is not None and self.stats is not None:
            raise ValueError("give either bestiary or stats, not both")
        if self.kind == "monster" and self.bestiary is None and self.stats is None:
            raise ValueError("a monster needs bestiary or stats")
        return self


class Holding(_Model):
    """``quantity`` of a stackable item with one holder."""

    holder: RecordId
    quantity: Annotated[StrictInt, Field(ge=1)] = 1


class Item(_Model):
    """``[[items]]``: an item with one ``holder`` (entity or location), or ``holdings`` split over several."""

    id: RecordId
    name: Name
    aliases: tuple[Name, ...] = ()
    description: Text = ""
    holder: RecordId | None = None
    quantity: Annotated[StrictInt, Field(ge=0)] = 1
    holdings: tuple[Holding, ...] = ()
    properties: dict[str, PropertyValue] = Field(default_factory=dict)
    session: Session = 1
    visibility: Visibility = "public"

    @property
    def stackable(self) -> bool:
        """True when the item comes in counts (coins, arrows): ``properties.stackable = true``."""
        return self.properties.get("stackable") is True

    @model_validator(mode="after")
    def _holdings_shape(self) -> Item:
        if self.holdings and (self.holder is not None or "quantity" in self.model_fields_set):
            raise ValueError("give either holder/quantity or holdings, not both")
        if not self.stackable and (
            self.quantity > 1 or len(self.holdings) > 1 or any(h.quantity > 1 for h in self.holdings)
        ):
            raise ValueError(
                "only a stackable item (properties.stackable = true) can have a quantity above 1"
            )
        return self


class Relationship(_Model):
    """``[[relationships]]``: a directed edge with a reason, true since ``since_session``."""

    source: RecordId
    target: RecordId
    edge_kind: Slug
    attitude: Annotated[StrictInt, Field(ge=-100, le=100)] = 0
    reason: Annotated[str, Field(min_length=1, max_length=1000)]
    since_session: Session = 1
    visibility: Visibility = "public"


class Thread(_Model):
    """``[[threads]]``: a foreshadowing thread; ``session`` defaults to the one in its id."""

    id: Annotated[str, Field(pattern=THREAD_ID_RE.pattern)]
    thread_kind: Literal["favour", "debt", "oath", "bounty", "prophecy", "quest"]
    status: Literal["open", "settled", "expired", "broken"] = "open"
    status_reason: Annotated[str, Field(max_length=1000)] = ""
    terms: Annotated[str, Field(min_length=1, max_length=2000)]
    parties: tuple[RecordId, ...] = ()
    tags: tuple[Slug, ...] = ()
    expires_session: Session | None = None
    session: Session | None = None
    visibility: Visibility = "public"

    @property
    def source_session(self) -> int:
        """The session the thread was opened in (``session``, else the number in its id)."""
        match = THREAD_ID_RE.match(self.id)
        return self.session if self.session is not None else int(match.group(2)) if match else 1


class Fact(_Model):
    """``[[facts]]``: a short verifiable fact ``domain-object-field = value``."""

    key: Annotated[str, Field(pattern=FACT_KEY_RE.pattern, max_length=120)]
    value: Scalar
    session: Session = 1
    visibility: Visibility = "public"


class HistoryEntry(_Model):
    """``[[history]]``: one event of play, with the changes it made to the world."""

    id: RecordId | None = None
    session: Session
    round: Annotated[StrictInt, Field(ge=0)] | None = None
    summary: Annotated[str, Field(min_length=1, max_length=4000)]
    importance: Annotated[StrictInt, Field(ge=1, le=5)] = 2
    permanent: StrictBool = False
    witnesses: tuple[RecordId, ...] = ()
    visibility: Visibility = "public"
    changes: tuple[Change, ...] = ()


class Scenario(_Model):
    """A whole scenario file: the world at its source sessions, and its history up to ``current_session``."""

    campaign: Campaign
    locations: tuple[Location, ...] = Field(min_length=1)
    pcs: tuple[PlayerCharacter, ...] = ()
    npcs: tuple[NonPlayerCharacter, ...] = ()
    items: tuple[Item, ...] = ()
    relationships: tuple[Relationship, ...] = ()
    threads: tuple[Thread, ...] = ()
    facts: tuple[Fact, ...] = ()
    history: tuple[HistoryEntry, ...] = ()

    def counts(self) -> dict[str, int]:
        """Return how many records each section holds (for ``scenario validate``)."""
        return {
            "locations": len(self.locations),
            "pcs": len(self.pcs),
            "npcs": len(self.npcs),
            "items": len(self.items),
            "relationships": len(self.relationships),
            "threads": len(self.threads),
            "facts": len(self.facts),
            "history": len(self.history),
            "changes": sum(len(h.changes) for h in self.history),
        }


def _check_conditions(value: tuple[str, ...]) -> tuple[str, ...]:
    unknown = [c for c in value if c not in CONDITIONS]
    if unknown:
        raise ValueError(
            f"unknown condition {unknown[0]!r} (expected one of {', '.join(sorted(CONDITIONS))})"
        )
    return value


# --------------------------------------------------------------------------------------------------
# The timeline: records and history as ordered groups of changes
# --------------------------------------------------------------------------------------------------


class ScenarioEvent(BaseModel):
    """One group of changes to apply in one transaction: a session's setup records, or one history entry.

    ``change_paths[i]`` is the key path in the file that ``changes[i]`` came from, for error messages.
    Every change has its ``visibility`` and ``witnesses`` filled in (inherited from the entry when omitted).
    """

    model_config = ConfigDict(frozen=True)

    path: str
    history_id: str | None
    session: int
    round: int | None
    summary: str
    importance: int
    permanent: bool
    witnesses: tuple[str, ...]
    visibility: str
    changes: tuple[Change, ...]
    change_paths: tuple[str, ...]


def _inherit(change: Any, visibility: str, witnesses: tuple[str, ...]) -> Any:
    """Fill in the ``visibility`` and ``witnesses`` that ``change`` (and any nested change) leaves out."""
    update: dict[str, Any] = {}
    if "visibility" not in change.model_fields_set:
        update["visibility"] = visibility
    if "witnesses" not in change.model_fields_set:
        update["witnesses"] = witnesses
    if isinstance(change, Retcon | Correction):
        inner_vis = update.get("visibility", change.visibility)
        inner_wit = update.get("witnesses", change.witnesses)
        update["changes"] = tuple(_inherit(c, inner_vis, inner_wit) for c in change.changes)
    return change.model_copy(update=update) if update else change


def _setup_changes(s: Scenario) -> dict[int, list[tuple[str, Any]]]:
    """Map each source session to its setup changes (path, change), in dependency order."""
    by_session: dict[int, list[tuple[str, Any]]] = {}

    def put(session: int, path: str, change: Any) -> None:
        by_session.setdefault(session, []).append((path, change))

    for i, loc in enumerate(s.locations):
        put(
            loc.session,
            f"locations[{i}]",
            CreateLocation(
                id=loc.id,
                name=loc.name,
                aliases=loc.aliases,
                description=loc.description,
                visibility=loc.visibility,
                witnesses=(),
            ),
        )
    for i, loc in enumerate(s.locations):
        if loc.exits:
            put(
                loc.session,
                f"locations[{i}].exits",
                SetFact(
                    key=f"{loc.id}-exits", value=",".join(loc.exits), visibility=loc.visibility, witnesses=()
                ),
            )
    for i, pc in enumerate(s.pcs):
        path = f"pcs[{i}]"
        # A rules.srd.SimpleSheet plus "class": rules_sheet(sheet) drops the extras for rules.srd.build_pc.
        sheet = {
            "class": pc.char_class,
            "name": pc.name,
            "level": pc.level,
            "abilities": pc.abilities.as_rules_dict(),
            "skills": list(pc.skills),
            "weapons": list(pc.weapons),
            "armor_ac": pc.ac,
            "max_hp": pc.max_hp or pc.hp,
        }
        location = pc.location or s.campaign.starting_location
        put(
            pc.session,
            path,
            CreateEntity(
                id=pc.id,
                entity_kind="pc",
                name=pc.name,
                aliases=pc.aliases,
                description=pc.description,
                owner=None if pc.owner is None else str(pc.owner),
                sheet=sheet,
                location=location,
                hp=pc.hp,
                visibility=pc.visibility,
                witnesses=(),
            ),
        )
        _status_changes(put, pc.session, path, pc.id, pc.alive, pc.conditions, pc.visibility)
    for i, npc in enumerate(s.npcs):
        path = f"npcs[{i}]"
        npc_sheet: dict[str, Any] = {"hostile": npc.hostile}
        if npc.bestiary:
            npc_sheet["bestiary"] = npc.bestiary
        if npc.stats:
            npc_sheet["stats"] = npc.stats.model_dump(by_alias=True)
        if npc.persona:
            npc_sheet["persona"] = npc.persona
        if npc.speech:
            npc_sheet["speech"] = npc.speech
        put(
            npc.session,
            path,
            CreateEntity(
                id=npc.id,
                entity_kind=npc.kind,
                name=npc.name,
                aliases=npc.aliases,
                description=npc.description,
                sheet=npc_sheet,
                location=npc.location,
                hp=npc.hp if npc.hp is not None else (npc.stats.max_hp if npc.stats else None),
                visibility=npc.visibility,
                witnesses=(),
            ),
        )
        _status_changes(put, npc.session, path, npc.id, npc.alive, npc.conditions, npc.visibility)
    for i, item in enumerate(s.items):
        path = f"items[{i}]"
        holder, quantity = item.holder, item.quantity
        if item.holdings:
            holder, quantity = item.holdings[0].holder, item.holdings[0].quantity
        put(
            item.session,
            path,
            CreateItem(
                id=item.id,
                name=item.name,
                aliases=item.aliases,
                description=item.description,
                properties=item.properties,
                holder=holder,
                quantity=quantity,
                visibility=item.visibility,
                witnesses=(),
            ),
        )
        for j, extra in enumerate(item.holdings[1:], start=1):
            put(
                item.session,
                f"{path}.holdings[{j}]",
                TransferItem(
                    item=item.id,
                    to_holder=extra.holder,
                    quantity=extra.quantity,
                    visibility=item.visibility,
                    witnesses=(),
                ),
            )
    for i, rel in enumerate(s.relationships):
        put(
            rel.since_session,
            f"relationships[{i}]",
            SetEdge(
                source=rel.source,
                target=rel.target,
                edge_kind=rel.edge_kind,
                attitude=rel.attitude,
                reason=rel.reason,
                visibility=rel.visibility,
                witnesses=(),
            ),
        )
    for i, th in enumerate(s.threads):
        path = f"threads[{i}]"
        put(
            th.source_session,
            path,
            OpenThread(
                id=th.id,
                thread_kind=th.thread_kind,
                terms=th.terms,
                parties=th.parties,
                tags=th.tags,
                expires_session=th.expires_session,
                visibility=th.visibility,
                witnesses=(),
            ),
        )
        if th.status != "open":
            put(
                th.source_session,
                f"{path}.status",
                ThreadTransition(
                    thread=th.id,
                    status=th.status,
                    reason=th.status_reason or f"{th.status} as the scenario says",
                    visibility=th.visibility,
                    witnesses=(),
                ),
            )
    for i, fact in enumerate(s.facts):
        put(
            fact.session,
            f"facts[{i}]",
            SetFact(key=fact.key, value=fact.value, visibility=fact.visibility, witnesses=()),
        )
    return by_session


_RULES_SHEET_KEYS = frozenset(
    {"name", "level", "abilities", "skills", "saves", "weapons", "armor_ac", "max_hp", "speed", "features",
     "spellcasting"}
)  # fmt: skip


def rules_sheet(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Return a PC ``sheet`` (as a scenario stores it) without the keys the rules engine does not read.

    ``rules.srd.build_pc(rules_sheet(entity.sheet))`` gives the PC's stat block.
    """
    return {k: v for k, v in sheet.items() if k in _RULES_SHEET_KEYS}


def _status_changes(
    put: Any, session: int, path: str, entity: str, alive: bool, conditions: tuple[str, ...], visibility: str
) -> None:
    if not alive:
        put(
            session,
            f"{path}.alive",
            SetAlive(entity=entity, alive=False, visibility=visibility, witnesses=()),
        )
    for j, cond in enumerate(conditions):
        put(
            session,
            f"{path}.conditions[{j}]",
            AddCondition(entity=entity, condition=cond, visibility=visibility, witnesses=()),
        )


def timeline(scenario: Scenario) -> tuple[ScenarioEvent, ...]:
    """Return the scenario as ordered groups of changes: per session, its setup records, then its history.

    Applying these events in order to an empty ledger (one transaction each) reproduces the campaign; every
    change is a ``ledger.store.vocabulary`` change with the same ``kind`` and field names.
    """
    setup = _setup_changes(scenario)
    sessions = sorted(set(setup) | {h.session for h in scenario.history})
    events: list[ScenarioEvent] = []
    for session in sessions:
        if session in setup:
            pairs = setup[session]
            events.append(
                ScenarioEvent(
                    path="setup",
                    history_id=None,
                    session=session,
                    round=None,
                    summary=f"Scenario setup: the world as of session {session}",
                    importance=3,
                    permanent=True,
                    witnesses=(),
                    visibility="gm",
                    changes=tuple(c for _, c in pairs),
                    change_paths=tuple(p for p, _ in pairs),
                )
            )
        for i, entry in enumerate(scenario.history):
            if entry.session != session:
                continue
            events.append(
                ScenarioEvent(
                    path=f"history[{i}]",
                    history_id=entry.id,
                    session=entry.session,
                    round=entry.round,
                    summary=entry.summary,
                    importance=entry.importance,
                    permanent=entry.permanent,
                    witnesses=entry.witnesses,
                    visibility=entry.visibility,
                    changes=tuple(_inherit(c, entry.visibility, entry.witnesses) for c in entry.changes),
                    change_paths=tuple(f"history[{i}].changes[{j}]" for j in range(len(entry.changes))),
                )
            )
    return tuple(events)


# --------------------------------------------------------------------------------------------------
# The world view: the replayed state
# --------------------------------------------------------------------------------------------------


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)

    visibility: str


class EntityView(_View):
    """A PC, NPC or monster as it stands after the replay."""

    id: str
    kind: Literal["pc", "npc", "monster"]
    name: str
    aliases: tuple[str, ...]
    description: str
    alive: bool
    location: str | None
    hp: int | None
    conditions: tuple[str, ...]
    owner: str | None
    sheet: Mapping[str, Any] | None
    session: int
    visibility: str


class LocationView(_View):
    """A place and the places reachable from it."""

    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    exits: tuple[str, ...]
    session: int
    visibility: str


class ItemView(_View):
    """An item record (who holds it is in :attr:`WorldView.holdings`)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    properties: Mapping[str, Any]
    session: int
    visibility: str


class HoldingView(_View):
    """``holder`` (an entity or a location) holds ``quantity`` of ``item``."""

    item: str
    holder: str
    quantity: int
    session: int
    visibility: str


class EdgeView(_View):
    """A directed relationship; ``since_session`` is when it was first set, ``session`` when last changed."""

    source: str
    target: str
    edge_kind: str
    attitude: int
    reason: str
    since_session: int
    session: int
    visibility: str


class ThreadView(_View):
    """A foreshadowing thread and its current status."""

    id: str
    thread_kind: str
    status: str
    terms: str
    parties: tuple[str, ...]
    tags: tuple[str, ...]
    expires_session: int | None
    session: int
    status_session: int
    status_reason: str
    visibility: str


class FactView(_View):
    """A fact's current value."""

    key: str
    value: bool | int | str
    session: int
    visibility: str


class WorldView(BaseModel):
    """The world after replaying a scenario's timeline, as one viewer knows it. Pure data; no database.

    Every record carries its ``visibility``; :meth:`visibility_of` answers for any id (entity, location,
    item, thread, or fact key).
    """

    model_config = ConfigDict(frozen=True)

    campaign: str
    current_session: int
    viewer: str
    starting_location: str
    entities: Mapping[str, EntityView]
    locations: Mapping[str, LocationView]
    items: Mapping[str, ItemView]
    holdings: tuple[HoldingView, ...]
    edges: tuple[EdgeView, ...]
    threads: Mapping[str, ThreadView]
    facts: Mapping[str, FactView]
    history_ids: tuple[str, ...]

    def holders_of(self, item: str) -> dict[str, int]:
        """Return ``{holder id: quantity}`` for ``item`` (empty when nobody holds it)."""
        return {h.holder: h.quantity for h in self.holdings if h.item == item}

    def held_by(self, holder: str) -> dict[str, int]:
        """Return ``{item id: quantity}`` that ``holder`` (an entity or location) holds."""
        return {h.item: h.quantity for h in self.holdings if h.holder == holder}

    def holds(self, holder: str, item: str, quantity: int = 1) -> bool:
        """True when ``holder`` holds at least ``quantity`` of ``item``."""
        return self.holders_of(item).get(holder, 0) >= quantity

    def present_at(self, location: str) -> tuple[str, ...]:
        """Return the ids of living entities at ``location``."""
        return tuple(e.id for e in self.entities.values() if e.location == location and e.alive)

    def edges_between(self, source: str, target: str) -> tuple[EdgeView, ...]:
        """Return the edges from ``source`` to ``target``."""
        return tuple(e for e in self.edges if e.source == source and e.target == target)

    def find(self, name: str) -> tuple[str, ...]:
        """Return the ids whose name or an alias equals ``name`` (case-insensitive; ``the`` is optional)."""
        wanted = _norm_name(name)
        out: list[str] = []
        records: list[EntityView | ItemView | LocationView] = [
            *self.entities.values(),
            *self.items.values(),
            *self.locations.values(),
        ]
        for record in records:
            if any(_norm_name(n) == wanted for n in (record.name, *record.aliases, record.id)):
                out.append(record.id)
        return tuple(out)

    def visibility_of(self, record: str) -> str | None:
        """Return the visibility of an entity, location, item, thread or fact key, or None if unknown."""
        tables: tuple[Mapping[str, _View], ...] = (
            self.entities,
            self.locations,
            self.items,
            self.threads,
            self.facts,
        )
        for table in tables:
            if record in table:
                return str(table[record].visibility)
        return None


def _norm_name(name: str) -> str:
    text = " ".join(name.lower().split())
    return text.removeprefix("the ")


def visible_scopes(viewer: str) -> frozenset[str] | None:
    """Return the visibilities ``viewer`` may see (``None`` = everything, for ``gm``).

    ``public`` sees public; ``party`` (the channel) public + party; ``player:U`` also ``player:U``.
    """
    if viewer == "gm":
        return None
    if viewer == "public":
        return frozenset({"public"})
    if viewer == "party":
        return frozenset({"public", "party"})
    if VISIBILITY_RE.match(viewer) and viewer.startswith("player:"):
        return frozenset({"public", "party", viewer})
    raise ValueError(f"unknown viewer {viewer!r} (expected public, party, player:<id> or gm)")


class _Replay:
    """Applies changes to plain dicts, recording a problem for each change the world does not allow.

    ``strict`` replays (the full, gm view) report problems; a viewer's replay skips what it cannot see and
    quietly ignores changes that rest on something hidden from that viewer.
    """

    def __init__(self, scenario: Scenario, declared: set[str], scopes: frozenset[str] | None) -> None:
        self.scenario = scenario
        self.declared = declared
        self.scopes = scopes
        self.problems: list[ScenarioProblem] = []
        self.entities: dict[str, dict[str, Any]] = {}
        self.locations: dict[str, dict[str, Any]] = {}
        self.items: dict[str, dict[str, Any]] = {}
        self.holdings: dict[tuple[str, str], dict[str, Any]] = {}
        self.edges: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.threads: dict[str, dict[str, Any]] = {}
        self.facts: dict[str, dict[str, Any]] = {}
        self.history_ids: list[str] = []
        self.session = 1

    # -- helpers --------------------------------------------------------------------------------------------
    def _fail(self, path: str, message: str) -> None:
        if self.scopes is None:
            self.problems.append(ScenarioProblem(path=path, message=message))

    def _missing(self, what: str, ref: str) -> str:
        if ref in self.declared:
            return f"{what} {ref!r} does not exist yet in session {self.session}"
        return f"unknown {what} {ref!r}"

    def _need(self, table: Mapping[str, Any], what: str, ref: str, path: str) -> bool:
        if ref in table:
            return True
        self._fail(path, self._missing(what, ref))
        return False

    def _need_holder(self, ref: str, path: str) -> bool:
        if ref in self.entities or ref in self.locations:
            return True
        self._fail(path, self._missing("holder", ref))
        return False

    def _new_id(self, ref: str, path: str) -> bool:
        taken = ref in self.entities or ref in self.locations or ref in self.items or ref in self.threads
        if taken:
            self._fail(path, f"duplicate id {ref!r}")
        return not taken

    # -- apply ----------------------------------------------------------------------------------------------
    def apply(self, change: Any, path: str, *, in_retcon: bool = False) -> None:
        if self.scopes is not None and change.visibility not in self.scopes:
            return
        handler = getattr(self, f"_{change.kind}")
        handler(change, path, in_retcon)

    def _create_entity(self, c: CreateEntity, path: str, _: bool) -> None:
        prefix = ENTITY_PREFIXES[c.entity_kind]
        if not c.id.startswith(prefix):
            self._fail(f"{path}.id", f"a {c.entity_kind} id must start with {prefix!r}, got {c.id!r}")
        if c.location is not None and c.location not in self.locations:
            self._fail(f"{path}.location", self._missing("location", c.location))
        if self._new_id(c.id, f"{path}.id"):
            self.entities[c.id] = {
                "id": c.id,
                "kind": c.entity_kind,
                "name": c.name,
                "aliases": c.aliases,
                "description": c.description,
                "alive": True,
                "location": c.location,
                "hp": c.hp,
                "conditions": (),
                "owner": c.owner,
                "sheet": c.sheet,
                "session": self.session,
                "visibility": c.visibility,
            }

    def _create_location(self, c: CreateLocation, path: str, _: bool) -> None:
        if not c.id.startswith("loc-"):
            self._fail(f"{path}.id", f"a location id must start with 'loc-', got {c.id!r}")
        if self._new_id(c.id, f"{path}.id"):
            self.locations[c.id] = {
                "id": c.id,
                "name": c.name,
                "aliases": c.aliases,
                "description": c.description,
                "exits": (),
                "session": self.session,
                "visibility": c.visibility,
            }

    def _create_item(self, c: CreateItem, path: str, _: bool) -> None:
        if not c.id.startswith("item-"):
            self._fail(f"{path}.id", f"an item id must start with 'item-', got {c.id!r}")
        if not self._new_id(c.id, f"{path}.id"):
            return
        self.items[c.id] = {
            "id": c.id,
            "name": c.name,
            "aliases": c.aliases,
            "description": c.description,
            "properties": dict(c.properties),
            "session": self.session,
            "visibility": c.visibility,
        }
        if c.holder is not None and c.quantity > 0 and self._need_holder(c.holder, f"{path}.holder"):
            self._give(c.id, c.holder, c.quantity, c.visibility or "public")

    def _set_fact(self, c: SetFact, path: str, _: bool) -> None:
        self.facts[c.key] = {
            "key": c.key,
            "value": c.value,
            "session": self.session,
            "visibility": c.visibility,
        }
        if c.key.startswith("loc-") and c.key.endswith("-exits"):
            loc = c.key.removesuffix("-exits")
            exits = tuple(x for x in str(c.value).split(",") if x)
            for j, ex in enumerate(exits):
                self._need(
                    self.locations,
                    "location",
                    ex,
                    f"{path}[{j}]" if path.endswith(".exits") else f"{path}.value",
                )
            if loc in self.locations:
                self.locations[loc]["exits"] = exits

    def _set_alive(self, c: SetAlive, path: str, _: bool) -> None:
        if self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            self.entities[c.entity]["alive"] = c.alive

    def _move_entity(self, c: MoveEntity, path: str, _: bool) -> None:
        ok = self._need(self.entities, "entity", c.entity, f"{path}.entity")
        if self._need(self.locations, "location", c.location, f"{path}.location") and ok:
            self.entities[c.entity]["location"] = c.location

    def _set_hp(self, c: SetHp, path: str, _: bool) -> None:
        if self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            self.entities[c.entity]["hp"] = c.hp

    def _add_condition(self, c: AddCondition, path: str, _: bool) -> None:
        if c.condition not in CONDITIONS:
            self._fail(f"{path}.condition", f"unknown condition {c.condition!r}")
        elif self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            current = self.entities[c.entity]["conditions"]
            if c.condition not in current:
                self.entities[c.entity]["conditions"] = (*current, c.condition)

    def _remove_condition(self, c: RemoveCondition, path: str, _: bool) -> None:
        if self._need(self.entities, "entity", c.entity, f"{path}.entity"):
            current = self.entities[c.entity]["conditions"]
            if c.condition not in current:
                self._fail(f"{path}.condition", f"{c.entity} is not {c.condition} at this point")
            self.entities[c.entity]["conditions"] = tuple(x for x in current if x != c.condition)

    def _give(self, item: str, holder: str, quantity: int, visibility: str) -> None:
        row = self.holdings.get((item, holder))
        if row is None:
            self.holdings[(item, holder)] = {
                "item": item,
                "holder": holder,
                "quantity": quantity,
                "session": self.session,
                "visibility": visibility,
            }
        else:
            row.update(quantity=row["quantity"] + quantity, session=self.session, visibility=visibility)

    def _transfer_item(self, c: TransferItem, path: str, _: bool) -> None:
        if not self._need(self.items, "item", c.item, f"{path}.item"):
            return
        stackable = self.items[c.item]["properties"].get("stackable") is True
        if not stackable:
            held = [h for (i, h) in self.holdings if i == c.item]
            if c.quantity != 1:
                self._fail(f"{path}.quantity", f"{c.item} is not stackable: quantity must be 1")
                return
            if c.from_holder is None and held:
                self._fail(f"{path}.from_holder", f"{c.item} already exists, held by {held[0]}")
                return
        if c.from_holder is not None:
            if not self._need_holder(c.from_holder, f"{path}.from_holder"):
                return
            have = self.holdings.get((c.item, c.from_holder), {}).get("quantity", 0)
            if have < c.quantity:
                holders = sorted(h for (i, h) in self.holdings if i == c.item) or ["nobody"]
                self._fail(
                    f"{path}.from_holder",
                    f"{c.from_holder} does not hold {c.quantity} of {c.item} in "
                    f"session {self.session} (holds {have}; held by {', '.join(holders)})",
                )
                return
        if c.to_holder is not None and not self._need_holder(c.to_holder, f"{path}.to_holder"):
            return
        if c.from_holder is not None:
            row = self.holdings[(c.item, c.from_holder)]
            row["quantity"] -= c.quantity
            if row["quantity"] == 0:
                del self.holdings[(c.item, c.from_holder)]
        if c.to_holder is not None:
            self._give(c.item, c.to_holder, c.quantity, c.visibility or "public")

    def _set_edge(self, c: SetEdge, path: str, _: bool) -> None:
        ok = self._need(self.entities, "entity", c.source, f"{path}.source")
        if not (self._need(self.entities, "entity", c.target, f"{path}.target") and ok):
            return
        key = (c.source, c.target, c.edge_kind)
        since = self.edges[key]["since_session"] if key in self.edges else self.session
        self.edges[key] = {
            "source": c.source,
            "target": c.target,
            "edge_kind": c.edge_kind,
            "attitude": c.attitude,
            "reason": c.reason,
            "since_session": since,
            "session": self.session,
            "visibility": c.visibility,
        }

    def _open_thread(self, c: OpenThread, path: str, _: bool) -> None:
        match = THREAD_ID_RE.match(c.id)
        assert match is not None  # the field pattern guarantees it
        if match.group(1) != THREAD_ID_PREFIX[c.thread_kind]:
            self._fail(
                f"{path}.id",
                f"a {c.thread_kind} thread id must start with "
                f"'{THREAD_ID_PREFIX[c.thread_kind]}-', got {c.id!r}",
            )
        if int(match.group(2)) != self.session:
            self._fail(
                f"{path}.id",
                f"thread {c.id!r} is numbered for session {int(match.group(2))} but opens "
                f"in session {self.session}",
            )
        for j, party in enumerate(c.parties):
            self._need(self.entities, "entity", party, f"{path}.parties[{j}]")
        if c.expires_session is not None and c.expires_session < self.session:
            self._fail(f"{path}.expires_session", f"expires in session {c.expires_session}, before it opens")
        if self._new_id(c.id, f"{path}.id"):
            self.threads[c.id] = {
                "id": c.id,
                "thread_kind": c.thread_kind,
                "status": "open",
                "terms": c.terms,
                "parties": c.parties,
                "tags": c.tags,
                "expires_session": c.expires_session,
                "session": self.session,
                "status_session": self.session,
                "status_reason": "",
                "visibility": c.visibility,
            }

    def _thread_transition(self, c: ThreadTransition, path: str, in_retcon: bool) -> None:
        if not self._need(self.threads, "thread", c.thread, f"{path}.thread"):
            return
        thread = self.threads[c.thread]
        old = thread["status"]
        legal = (old == "open" and c.status != "open") or (in_retcon and c.status == "open" and old != "open")
        if not legal:
            hint = " (reopening needs a retcon)" if c.status == "open" else ""
            self._fail(f"{path}.status", f"thread {c.thread} cannot go from {old} to {c.status}{hint}")
            return
        thread.update(status=c.status, status_session=self.session, status_reason=c.reason)

    def _nested(self, c: Retcon | Correction, path: str) -> None:
        for j, inner in enumerate(c.changes):
            self.apply(inner, f"{path}.changes[{j}]", in_retcon=isinstance(c, Retcon))

    def _retcon(self, c: Retcon, path: str, _: bool) -> None:
        if c.target not in self.history_ids:
            self._fail(
                f"{path}.target", f"unknown history id {c.target!r} (a retcon targets an earlier entry)"
            )
        self._nested(c, path)

    def _correction(self, c: Correction, path: str, _: bool) -> None:
        known = (*self.history_ids, *self.entities, *self.locations, *self.items, *self.threads, *self.facts)
        if c.target not in known:
            self._fail(f"{path}.target", f"unknown record {c.target!r}")
        self._nested(c, path)

    # -- result ---------------------------------------------------------------------------------------------
    def run(self, events: Iterable[ScenarioEvent]) -> None:
        for event in events:
            self.session = event.session
            for change, path in zip(event.changes, event.change_paths, strict=True):
                self.apply(change, path)
            if event.path.startswith("history["):
                for j, witness in enumerate(event.witnesses):
                    self._need(self.entities, "witness", witness, f"{event.path}.witnesses[{j}]")
                for change, path in zip(event.changes, event.change_paths, strict=True):
                    for j, witness in enumerate(change.witnesses or ()):
                        if witness not in event.witnesses:
                            self._need(self.entities, "witness", witness, f"{path}.witnesses[{j}]")
                if event.history_id:
                    self.history_ids.append(event.history_id)

    def view(self, viewer: str) -> WorldView:
        s = self.scenario
        return WorldView(
            campaign=s.campaign.name,
            current_session=s.campaign.current_session,
            viewer=viewer,
            starting_location=s.campaign.starting_location,
            entities={k: EntityView(**v) for k, v in self.entities.items()},
            locations={k: LocationView(**v) for k, v in self.locations.items()},
            items={k: ItemView(**v) for k, v in self.items.items()},
            holdings=tuple(HoldingView(**v) for v in self.holdings.values()),
            edges=tuple(EdgeView(**v) for v in self.edges.values()),
            threads={k: ThreadView(**v) for k, v in self.threads.items()},
            facts={k: FactView(**v) for k, v in self.facts.items()},
            history_ids=tuple(self.history_ids),
        )


def _declared_ids(s: Scenario) -> set[str]:
    ids: set[str] = set()
    for group in (s.locations, s.pcs, s.npcs, s.items, s.threads):
        ids.update(r.id for r in group)

    def walk(changes: Iterable[Any]) -> None:
        for c in changes:
            if isinstance(c, CreateEntity | CreateLocation | CreateItem | OpenThread):
                ids.add(c.id)
            elif isinstance(c, Retcon | Correction):
                walk(c.changes)

    for entry in s.history:
        walk(entry.changes)
    return ids


def final_world(scenario: Scenario, viewer: str = "gm") -> WorldView:
    """Replay ``scenario``'s timeline in pure Python and return the world after its last history entry.

    ``viewer`` (``gm`` by default, or ``public``/``party``/``player:<id>``) keeps only the changes that viewer
    may see, which gives the world as that viewer knows it. Raises :class:`ScenarioError` when a change is
    impossible (which :func:`parse_scenario` has already ruled out for a loaded scenario), and ``ValueError``
    for an unknown viewer.
    """
    scopes = visible_scopes(viewer)
    replay = _Replay(scenario, _declared_ids(scenario), scopes)
    replay.run(timeline(scenario))
    if replay.problems:
        raise ScenarioError("scenario", replay.problems)
    return replay.view(viewer)


# --------------------------------------------------------------------------------------------------
# Static checks that need the whole file
# --------------------------------------------------------------------------------------------------


def _static_problems(s: Scenario) -> list[ScenarioProblem]:
    problems: list[ScenarioProblem] = []
    add = problems.append
    current = s.campaign.current_session
    seen: dict[str, str] = {}
    for section in ("locations", "pcs", "npcs", "items", "threads"):
        for i, rec in enumerate(getattr(s, section)):
            path = f"{section}[{i}].id"
            if rec.id in seen:
                add(ScenarioProblem(path=path, message=f"duplicate id {rec.id!r} (first at {seen[rec.id]})"))
            else:
                seen[rec.id] = path
    for i, fact in enumerate(s.facts):
        if fact.key in seen:
            add(ScenarioProblem(path=f"facts[{i}].key", message=f"duplicate fact key {fact.key!r}"))
        seen.setdefault(fact.key, f"facts[{i}].key")
    locations = {loc.id for loc in s.locations}
    if s.campaign.starting_location not in locations:
        add(
            ScenarioProblem(
                path="campaign.starting_location",
                message=f"unknown location {s.campaign.starting_location!r}",
            )
        )
    for i, th in enumerate(s.threads):
        match = THREAD_ID_RE.match(th.id)
        if th.session is not None and match and int(match.group(2)) != th.session:
            add(
                ScenarioProblem(
                    path=f"threads[{i}].session",
                    message=f"session {th.session} does not match the session number in id {th.id!r}",
                )
            )
    # Every source session is a session already played (or being played).
    sessioned: list[tuple[str, int]] = []
    for section in ("locations", "pcs", "npcs", "items", "facts"):
        sessioned += [(f"{section}[{i}].session", r.session) for i, r in enumerate(getattr(s, section))]
    sessioned += [
        (f"relationships[{i}].since_session", r.since_session) for i, r in enumerate(s.relationships)
    ]
    sessioned += [(f"threads[{i}].session", t.source_session) for i, t in enumerate(s.threads)]
    for path, session in sessioned:
        if session > current:
            add(
                ScenarioProblem(
                    path=path, message=f"session {session} is after the current session {current}"
                )
            )
    last = 0
    history_ids: set[str] = set()
    for i, entry in enumerate(s.history):
        if entry.session > current:
            add(
                ScenarioProblem(
                    path=f"history[{i}].session",
                    message=f"session {entry.session} is after the current session {current}",
                )
            )
        if entry.session < last:
            add(
                ScenarioProblem(
                    path=f"history[{i}].session",
                    message=f"session {entry.session} comes after "
                    f"session {last}: history must be in session order",
                )
            )
        last = max(last, entry.session)
        if entry.id is not None:
            if entry.id in history_ids or entry.id in seen:
                add(ScenarioProblem(path=f"history[{i}].id", message=f"duplicate id {entry.id!r}"))
            history_ids.add(entry.id)
    problems += _rules_problems(s)
    # A player:<handle> scope must name a player who owns a PC here (catches typos that would hide a record).
    owners = {str(pc.owner) for pc in s.pcs if pc.owner is not None}
    for path, vis in _visibilities(s):
        if vis.startswith("player:") and vis.removeprefix("player:") not in owners:
            add(
                ScenarioProblem(
                    path=path,
                    message=f"visibility {vis!r} names no PC owner "
                    f"(owners: {', '.join(sorted(owners)) or 'none'})",
                )
            )
    return problems


def _rules_problems(s: Scenario) -> list[ScenarioProblem]:
    """Check bestiary entries and weapon ids against the rules engine's SRD data (when it is installed)."""
    # The rules data ships with the package: when it is broken, say so with its file, never skip the check.
    from rules.srd import bestiary, weapons

    creatures, arms = bestiary(), weapons()
    problems: list[ScenarioProblem] = []
    known = ", ".join(sorted(creatures))
    for i, npc in enumerate(s.npcs):
        if npc.bestiary is not None and npc.bestiary not in creatures:
            problems.append(
                ScenarioProblem(
                    path=f"npcs[{i}].bestiary",
                    message=f"unknown bestiary entry {npc.bestiary!r} (known: {known})",
                )
            )
    for i, pc in enumerate(s.pcs):
        for j, weapon in enumerate(pc.weapons):
            if weapon not in arms:
                problems.append(
                    ScenarioProblem(path=f"pcs[{i}].weapons[{j}]", message=f"unknown weapon {weapon!r}")
                )
    return problems


def _visibilities(s: Scenario) -> Iterable[tuple[str, str]]:
    for section in ("locations", "pcs", "npcs", "items", "relationships", "threads", "facts"):
        for i, rec in enumerate(getattr(s, section)):
            yield f"{section}[{i}].visibility", rec.visibility
    for i, entry in enumerate(s.history):
        yield f"history[{i}].visibility", entry.visibility
        for j, change in enumerate(entry.changes):
            if "visibility" in change.model_fields_set:
                yield f"history[{i}].changes[{j}].visibility", change.visibility


# --------------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------------


def _loc_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for k, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        # Discriminated unions put the tag into the location (changes.0.set_alive.alive); drop it.
        if part in CHANGE_KINDS and k > 0 and isinstance(loc[k - 1], int):
            continue
        if part.startswith(("function-", "constrained-")) or (part in {"str", "int", "bool", "float"} and k):
            continue
        out += f".{part}" if out else part
    return out


_PATTERN_HINTS = {
    VISIBILITY_RE.pattern: "expected public, party, gm or player:<id>",
    rf"^{SLUG}$": "expected lowercase words joined by '-' (e.g. 'owes-favour')",
    rf"^[a-z]+-{SLUG}$": "expected a prefixed id like 'npc-old-wei' or 'loc-harbor'",
    THREAD_ID_RE.pattern: "expected a thread id kind-session-seq like 'favor-0003-01'",
    FACT_KEY_RE.pattern: "expected a key domain-object-field like 'door-cellar-lock'",
    r"^[a-z_]+$": "expected a skill name like 'sleight_of_hand'",
}


def _pydantic_problems(exc: ValidationError) -> list[ScenarioProblem]:
    problems: list[ScenarioProblem] = []
    seen: set[tuple[str, str]] = set()
    for err in exc.errors(include_url=False):
        path = _loc_path(tuple(err["loc"]))
        if err["type"] == "extra_forbidden":
            message = "unknown key"
        elif err["type"] == "missing":
            message = "required key is missing"
        elif err["type"] == "string_pattern_mismatch":
            pattern = str(err.get("ctx", {}).get("pattern", ""))
            message = _PATTERN_HINTS.get(pattern, f"does not match {pattern}")
            message = f"{message} (got {shown_value(err.get('input'))})"
        elif err["type"] == "union_tag_not_found":
            message = "missing key 'kind' (the change kind, e.g. 'set_alive')"
        elif err["type"] == "union_tag_invalid":
            tag = err.get("ctx", {}).get("tag", "?")
            message = f"unknown change kind {tag!r} (expected one of {', '.join(CHANGE_KINDS)})"
        else:
            message = err["msg"].removeprefix("Value error, ")
            if "input" in err and not isinstance(err["input"], dict | list):
                message = f"{message} (got {shown_value(err['input'])})"
        if (path, message) not in seen:
            seen.add((path, message))
            problems.append(ScenarioProblem(path=path, message=message))
    return problems


def _depth(data: Any) -> int:
    """Return how deeply tables and arrays nest in ``data``, without recursion (a hostile file is deep)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_TOML_DEPTH:
            break
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return deepest


def read_toml(text: str, *, max_bytes: int = MAX_SCENARIO_BYTES) -> dict[str, Any]:
    """Parse TOML ``text`` with limits; raise ``ValueError`` with a one-line reason for anything unusable.

    A leading byte-order mark is dropped (editors on Windows write one). Text over ``max_bytes``, nesting over
    :data:`MAX_TOML_DEPTH` levels (which would exhaust the parser's stack) and invalid TOML are refused.
    Shared by scenario files and ``bot.config`` so every TOML the user hands us is read the same way.
    """
    text = text.removeprefix("\ufeff")
    if len(text) > max_bytes:
        raise ValueError(f"file too large: {len(text):,} characters, at most {max_bytes:,}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ValueError(f"not valid TOML: nested more than {MAX_TOML_DEPTH} levels deep") from None
    if _depth(data) > MAX_TOML_DEPTH:
        raise ValueError(f"not valid TOML: nested more than {MAX_TOML_DEPTH} levels deep")
    return data


def parse_scenario(text: str, *, source: str = "scenario") -> Scenario:
    """Parse and fully validate scenario TOML ``text``; ``source`` names it in error messages.

    Checks types, ids (unique, prefixed), every reference, session order, thread statuses and the holder
    chain of every item by replaying the history. Raises :class:`ScenarioError` listing every problem found.
    """
    try:
        data = read_toml(text)
    except ValueError as exc:
        raise ScenarioUnreadable(source, [ScenarioProblem(path="", message=str(exc))]) from None
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(source, _pydantic_problems(exc)) from None
    problems = _static_problems(scenario)
    replay = _Replay(scenario, _declared_ids(scenario), None)
    replay.run(timeline(scenario))
    reported = {p.path for p in problems}
    problems += [p for p in replay.problems if p.path not in reported]
    if problems:
        raise ScenarioError(source, problems)
    return scenario


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate the scenario file at ``path``.

    Raises :class:`ScenarioUnreadable` when the file is missing, unreadable or not TOML, and
    :class:`ScenarioError` when it is TOML but not a valid scenario.
    """
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_SCENARIO_BYTES:
            message = f"file too large: {size:,} bytes, at most {MAX_SCENARIO_BYTES:,}"
            raise ScenarioUnreadable(str(file), [ScenarioProblem(path="", message=message)])
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioUnreadable(str(file), [ScenarioProblem(path="", message="no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        problem = ScenarioProblem(path="", message=f"cannot read: {exc.__class__.__name__}: {exc}")
        raise ScenarioUnreadable(str(file), [problem]) from None
    return parse_scenario(text, source=str(file))


def scenario_json_schema() -> dict[str, Any]:
    """Return the JSON Schema of a scenario file (key names as written in TOML)."""
    schema = Scenario.model_json_schema(by_alias=True)
    schema["title"] = "Tablekeeper scenario"
    schema["description"] = (
        "A campaign world and its history (TOML). Semantic rules (unique prefixed ids, resolving references, "
        "session order, legal thread transitions, item holder chains) are checked by `tablekeeper scenario "
        "validate`; see docs/scenario.md."
    )
    return schema
