"""The scenario file format: a campaign world and its history as TOML, as pydantic models.

A scenario describes the world as it stood when each record first appeared (``[[locations]]``, ``[[pcs]]``,
``[[npcs]]``, ``[[items]]``, ``[[relationships]]``, ``[[threads]]``, ``[[facts]]``, each with a source
``session``), then ``[[history]]`` entries change it, session by session, using the change vocabulary of
``ledger.store.vocabulary`` as a file writes it (:mod:`.changes`; see docs/internals.md, "The change
vocabulary"). :func:`ledger.scenario.reading.load_scenario` reads and validates a file into a
:class:`Scenario`; :mod:`.timeline` turns it into groups of changes and :mod:`.replay` replays them offline.

Errors are a :class:`ScenarioError` whose message has one line per problem:
``<file>: <key path>: <problem>``, e.g. ``harbor.toml: npcs[2].location: unknown location 'loc-nowhere'``.
Key paths count from 0, like the TOML arrays they point into.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    Tag,
    field_validator,
    model_validator,
)

from ledger.scenario.changes import Change
from ledger.scenario.values import (
    ABILITIES,
    CONDITIONS,
    FACT_KEY_RE,
    SKILLS,
    THREAD_ID_RE,
    ItemFateName,
    Name,
    PropertyValue,
    Reason,
    RecordId,
    Scalar,
    Session,
    Slug,
    Text,
    ThreadId,
    ThreadRoleName,
    Visibility,
)
from ledger.store.narrative import NarrativeKind

# condition -> the record behind it (``charmed = "npc-vesna"``: charmed by Vesna)
ConditionSources = dict[Slug, RecordId]
# the pronoun a character answers to, which the assertion check resolves "she" and "his sister" by
Pronoun = Literal["he", "she", "they", "it"]

__all__ = [
    "MAX_PROBLEMS_SHOWN",
    "MAX_VALUE_SHOWN",
    "Campaign",
    "Faction",
    "HistoryEntry",
    "Scenario",
    "ScenarioError",
    "ScenarioProblem",
    "ScenarioUnreadable",
    "scenario_json_schema",
    "shown_value",
]


class ScenarioProblem(BaseModel):
    """One thing wrong with a scenario: where (a key path like ``npcs[2].location``) and what."""

    model_config = ConfigDict(frozen=True)

    path: str
    message: str


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
    condition_sources: ConditionSources = Field(default_factory=dict)
    pronoun: Pronoun | None = None  # else read off the description or a title (ledger.scenario.pronouns)
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
        _check_sources(self.conditions, self.condition_sources)
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


# --- issue 13: an NPC's persona as a table (read by bot.narrator.voices.persona_from_sheet) ---------
#: Placeholders a trait line may use; the narrator fills them in.
_LINE_PLACEHOLDERS = frozenset({"actor", "address", "npc"})
_LINE_MARKUP = re.compile(r"[\[\]()<>*_`|#@\\\"“”]")
_LINE_ID = re.compile(r"\b[a-z]+-[a-z0-9][a-z0-9-]*\b")


class PersonaTrait(_Model):
    """``[[npcs.persona.traits]]``: when ``on``/``ref`` comes up in a round, the NPC may say ``line``.

    ``on`` is a person, item, place or thread (``ref`` is its id) or an ``event`` (``ref`` is addressed,
    threatened or helped). ``attitude = [min, max]`` (or ``attitude_min``/``attitude_max``) is the range of
    the NPC's attitude towards whoever set it off in which the trait wakes; ``mentions`` are the records the
    line speaks of (spoken only when the NPC witnessed or was told each). ``says = false``: ``line`` is a
    narrated reaction, not speech. The line is spoken as written: no ids, brackets or markup.
    """

    on: Literal["person", "item", "place", "thread", "event"]
    ref: Annotated[str, Field(min_length=1, max_length=120)]
    line: Annotated[str, Field(min_length=1, max_length=200)]
    says: StrictBool = True
    attitude: (
        tuple[Annotated[StrictInt, Field(ge=-100, le=100)], Annotated[StrictInt, Field(ge=-100, le=100)]]
        | None
    ) = None
    attitude_min: Annotated[StrictInt, Field(ge=-100, le=100)] = -100
    attitude_max: Annotated[StrictInt, Field(ge=-100, le=100)] = 100
    mentions: tuple[RecordId, ...] = ()

    @field_validator("line")
    @classmethod
    def _speakable(cls, value: str) -> str:
        if _LINE_MARKUP.search(value) or _LINE_ID.search(value):
            raise ValueError("a line is spoken as written: no ids, brackets, quotes or markup")
        unknown = set(re.findall(r"{(\w*)}", value)) - _LINE_PLACEHOLDERS
        if unknown:
            raise ValueError(
                f"unknown placeholder {{{sorted(unknown)[0]}}} (use {{actor}}, {{address}}, {{npc}})"
            )
        return value

    @model_validator(mode="after")
    def _range(self) -> PersonaTrait:
        low, high = self.attitude if self.attitude is not None else (self.attitude_min, self.attitude_max)
        if low > high:
            raise ValueError("attitude: the minimum is above the maximum")
        if self.on == "event" and self.ref not in ("addressed", "threatened", "helped"):
            raise ValueError("ref: an event trait wakes on addressed, threatened or helped")
        return self


class Persona(_Model):
    """``[npcs.persona]``: how an NPC sounds and what moves it (instead of a free-text ``persona`` note).

    ``voice`` and ``speech`` are speakable descriptions; ``address`` maps a person's id or name (or
    ``everyone``) to how the NPC calls them; ``wants``, ``fears`` and ``knows`` are record ids (GM data, never
    spoken); ``traits`` are the only lines ever put in the NPC's mouth.
    """

    voice: Annotated[str, Field(max_length=300)] = ""
    speech: Annotated[str, Field(max_length=300)] = ""
    address: dict[str, Annotated[str, Field(min_length=1, max_length=60)]] = Field(default_factory=dict)
    wants: tuple[RecordId, ...] = ()
    fears: tuple[RecordId, ...] = ()
    knows: tuple[RecordId, ...] = ()
    traits: tuple[PersonaTrait, ...] = ()


def _persona_form(value: Any) -> str:
    """Which form a ``persona`` takes; the tags are ones a problem's key path leaves out, so an error reads
    ``npcs[0].persona.traits[1].line`` rather than naming the union's branches."""
    return "str" if isinstance(value, str) else "function-table"


PersonaField = Annotated[
    Annotated[Text, Tag("str")] | Annotated[Persona, Tag("function-table")],
    Discriminator(_persona_form),
]


# --- end issue 13 ---------------------------------------------------------------------------------


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
    # full health, when hp is below it: else the bestiary's or stats' max_hp (the check reads "unhurt" at 5
    # of 18 hp as a contradiction only if it knows the 18)
    max_hp: Annotated[StrictInt, Field(ge=1, le=1000)] | None = None
    conditions: tuple[Slug, ...] = ()
    condition_sources: ConditionSources = Field(default_factory=dict)
    pronoun: Pronoun | None = None  # else read off the description, persona or a title
    hostile: StrictBool = False
    home: RecordId | None = None
    persona: PersonaField = ""  # a free-text note (never spoken) or a persona table (issue 13)
    speech: Text = ""
    session: Session = 1
    visibility: Visibility = "public"

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _check_conditions(value)

    @model_validator(mode="after")
    def _one_stat_source(self) -> NonPlayerCharacter:
        _check_sources(self.conditions, self.condition_sources)
        top = self.max_hp or (self.stats.max_hp if self.stats else None)
        if top is not None and self.hp is not None and self.hp > top:
            raise ValueError(f"hp {self.hp} is above max_hp {top}")
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
    # why nobody holds it any more (sold, lost, destroyed, used_up, confiscated, given_away, stolen): the
    # check names it when a narration shows the item ("the lantern was sold")
    fate: ItemFateName | None = None
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
        if self.fate is not None and (self.holdings or (self.holder is not None and self.quantity > 0)):
            raise ValueError(f"an item someone holds has no fate: drop holder or fate {self.fate!r}")
        return self


class Relationship(_Model):
    """``[[relationships]]``: a directed edge with a reason, true since ``since_session``."""

    source: RecordId
    target: RecordId
    edge_kind: Slug
    attitude: Annotated[StrictInt, Field(ge=-100, le=100)] = 0
    reason: Reason
    since_session: Session = 1
    visibility: Visibility = "public"


class Thread(_Model):
    """``[[threads]]``: a foreshadowing thread; ``session`` defaults to the one in its id."""

    id: ThreadId
    thread_kind: Literal["favour", "debt", "oath", "bounty", "prophecy", "quest", "feud", "rumour"]
    status: Literal["open", "settled", "expired", "broken"] = "open"
    status_reason: Annotated[str, Field(max_length=1000)] = ""
    terms: Annotated[str, Field(min_length=1, max_length=2000)]
    parties: tuple[RecordId, ...] = ()
    tags: tuple[Slug, ...] = ()
    # what the story calls it ("the arrears", "Harker's passage money"): the check links these words to the
    # thread; kept with its tags
    aliases: tuple[Name, ...] = ()
    expires_session: Session | None = None
    place: RecordId | None = None
    # who stands where on it, party id -> owes | owed | sworn | sworn_to | offers | hunts: the check then
    # knows who owes whom without reading the terms ("Harker owes Eli six guineas")
    roles: dict[RecordId, ThreadRoleName] = Field(default_factory=dict)
    session: Session | None = None
    visibility: Visibility = "public"

    @model_validator(mode="after")
    def _roles_of_parties(self) -> Thread:
        strangers = [p for p in self.roles if p not in self.parties]
        if strangers:
            raise ValueError(f"roles name {strangers[0]!r}, who is not among the parties")
        return self

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


class Faction(_Model):
    """``[[factions]]``: a named group under a ``leader``; each member gets a ``member`` edge to them."""

    id: Annotated[str, Field(pattern=r"^faction-[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=80)]
    name: Name
    description: Text = ""
    leader: RecordId
    members: tuple[RecordId, ...] = ()
    session: Session = 1
    visibility: Visibility = "public"


class HistoryEntry(_Model):
    """``[[history]]``: one event of play: the changes it made to the world, and/or what happened.

    ``event`` (a :data:`ledger.store.narrative.NarrativeKind`) with ``participants``, ``place`` and
    ``thread`` records a narrative event (a ``record_event`` change after the entry's ``changes``). An entry
    with changes and no ``event`` may still name its ``place``; an entry with neither is kept as a ``talk``
    among its witnesses. ``importance``/``permanent`` are accepted from older files; nothing needs them.
    """

    id: RecordId | None = None
    session: Session
    round: Annotated[StrictInt, Field(ge=0)] | None = None
    summary: Annotated[str, Field(min_length=1, max_length=4000)]
    importance: Annotated[StrictInt, Field(ge=1, le=5)] = 2
    permanent: StrictBool = False
    witnesses: tuple[RecordId, ...] = ()
    visibility: Visibility = "public"
    event: NarrativeKind | None = None
    participants: tuple[RecordId, ...] = ()
    place: RecordId | None = None
    thread: ThreadId | None = None
    changes: tuple[Change, ...] = ()

    @model_validator(mode="after")
    def _narrative_keys(self) -> HistoryEntry:
        if self.event is None and self.changes:
            for key in ("participants", "thread"):
                if getattr(self, key):
                    raise ValueError(
                        f"{key} needs 'event' (the kind of what happened, e.g. 'bargain') on an entry "
                        "with changes"
                    )
        return self


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
    factions: tuple[Faction, ...] = ()
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
            "factions": len(self.factions),
            "history": len(self.history),
            "narrative events": sum(1 for h in self.history if h.event is not None or not h.changes),
            "changes": sum(len(h.changes) for h in self.history),
        }


def _check_sources(conditions: tuple[str, ...], sources: dict[str, str]) -> None:
    """Each condition with a source (``charmed = "npc-vesna"``) must be one the creature has."""
    missing = [c for c in sources if c not in conditions]
    if missing:
        raise ValueError(f"condition_sources names {missing[0]!r}, which is not among its conditions")


def _check_conditions(value: tuple[str, ...]) -> tuple[str, ...]:
    unknown = [c for c in value if c not in CONDITIONS]
    if unknown:
        raise ValueError(
            f"unknown condition {unknown[0]!r} (expected one of {', '.join(sorted(CONDITIONS))})"
        )
    return value


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
