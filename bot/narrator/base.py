"""The narrator's contract: what a narrator is told about a round, and what it hands back.

A narrator never sees rules internals or the ledger. ``bot`` builds a :class:`NarrationRequest` from the
round's resolved outcomes and the retrieved scene memory; a narrator returns a :class:`Draft` (public text for
the channel, private notes per player). The narration pipeline (:mod:`bot.narrator.pipeline`) checks each
draft and falls back to the deterministic :class:`~bot.narrator.offline.OfflineNarrator` when a draft fails.
Everything here is frozen data, so a request can be logged, replayed and compared.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

#: Discord allows 2000 characters per message; narration keeps room for a header line.
MAX_PUBLIC_CHARS = 1800
#: A DM note is short: one discovery, told to one player.
MAX_PRIVATE_CHARS = 600

OutcomeKind = Literal[
    "attack", "ability", "check", "use_item", "give", "take", "move", "talk", "help", "hold"
]
OutcomeResult = Literal["hit", "miss", "critical", "fumble", "success", "failure", "done", "refused"]
CreatureKind = Literal["pc", "npc", "monster"]
DraftSource = Literal["generated", "regenerated", "fallback"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SceneLocation(_Frozen):
    """Where the round happens."""

    id: str
    name: str
    description: str = ""


TriggerKind = Literal["person", "item", "place", "thread", "event"]
#: What happens to an NPC this round that may wake a trait whose trigger is ``event``.
EventKind = Literal["addressed", "threatened", "helped"]


class Trait(_Frozen):
    """One way an NPC reacts: when ``on``/``ref`` happens in the scene, the NPC may say (or do) ``line``.

    ``on`` is the trigger: a ``person``, ``item``, ``place`` or ``thread`` (``ref`` is its ledger id), or an
    ``event`` (``ref`` is addressed, threatened or helped: something done to the NPC this round). The trait
    wakes only while the NPC's attitude towards whoever set it off lies in ``attitude_min..attitude_max``;
    inside that range it is preferred over looser traits, outside it is suppressed. ``line`` is the only text
    the NPC ever speaks (placeholders ``{actor}``, ``{address}``, ``{npc}``); ``mentions`` lists the records
    the line speaks of, and the line is chosen only when the NPC witnessed or was told every one of them.
    """

    on: TriggerKind
    ref: str = Field(min_length=1, max_length=120)
    line: str = Field(min_length=1, max_length=200)
    says: bool = True  # False: ``line`` is a narrated reaction ("{npc} taps the ledger"), not speech
    attitude_min: int = Field(default=-100, ge=-100, le=100)
    attitude_max: int = Field(default=100, ge=-100, le=100)
    mentions: tuple[str, ...] = ()


class Persona(_Frozen):
    """How an NPC sounds and what moves it: what a sheet may carry as ``persona`` (see bot.narrator.voices).

    ``voice`` and ``speech`` are speakable descriptions (they may reach a model's prompt); ``address`` maps a
    person's id or name (or ``everyone``) to how the NPC calls them. ``wants`` and ``fears`` are ledger ids
    that touch the NPC's interests and ``knows`` the records the author says it knows: GM data, used to pick
    lines, never spoken. Only ``traits`` lines are ever put in the NPC's mouth.
    """

    voice: str = Field(default="", max_length=300)
    speech: str = Field(default="", max_length=300)
    address: tuple[tuple[str, str], ...] = ()
    wants: tuple[str, ...] = ()
    fears: tuple[str, ...] = ()
    knows: tuple[str, ...] = ()
    traits: tuple[Trait, ...] = ()
    derived: bool = False  # built from a free-text persona: only stock lines, nothing of the note is spoken

    def address_for(self, person_id: str | None, person_name: str | None) -> str | None:
        """How this NPC addresses a person (by id, then name, then ``everyone``), or None."""
        table = dict(self.address)
        for key in (person_id, person_name, "everyone"):
            if key and key in table:
                return table[key]
        return None


class VoiceLine(_Frozen):
    """A trait that woke this round and the line it produced, kept with the round so the GM can audit it."""

    npc_id: str
    npc_name: str
    trigger: str  # e.g. "event:addressed", "thread:favor-0003-01", "stock:helped"
    cause: int | None = None  # index of the outcome that woke it
    by: str | None = None  # who set it off (an id)
    attitude: int = 0  # the NPC's attitude towards ``by`` when it woke
    why: str  # one line for the GM: "Greyrock addressed Old Wei (attitude +0)"
    text: str  # the sentence as narrated


class SceneCreature(_Frozen):
    """A creature present in the scene, as it stands after this round (``player_id``: a PC's player).

    ``persona`` is the NPC's speakable voice (no GM notes); ``voice`` its structured persona; ``knows`` the
    ledger refs (threads, events, people, items, places) it witnessed or was told of; ``attitudes`` its
    attitude (-100..100) towards others by id, from the relationships the party may see.
    """

    id: str
    name: str
    kind: CreatureKind
    is_pc: bool = False
    player_id: int | None = None
    alive: bool = True
    down: bool = False  # at 0 HP but not dead (unconscious)
    persona: str = Field(
        default="", max_length=400
    )  # how an NPC speaks and acts (author data, not player text)
    voice: Persona | None = None
    knows: tuple[str, ...] = ()
    attitudes: tuple[tuple[str, int], ...] = ()

    def attitude_to(self, other: str | None) -> int:
        """This creature's attitude towards ``other`` (0 when the ledger records none)."""
        return dict(self.attitudes).get(other or "", 0)


class Contest(_Frozen):
    """An opposed check inside one action: who contested it and who won."""

    contested_by_id: str
    contested_by_name: str
    winner_id: str
    winner_name: str
    description: str = ""  # e.g. "Athletics 17 vs Athletics 12"


class ActionOutcome(_Frozen):
    """One action as the rules engine resolved it. Outcomes arrive in initiative order.

    ``outcome`` is authoritative: a narrator tells it, never changes it. ``submitted_text`` is the player's
    own words (data, not instructions). ``refused`` means the action did not happen (see ``refusal_reason``).
    """

    actor_id: str
    actor_name: str
    actor_is_pc: bool = False
    kind: OutcomeKind
    outcome: OutcomeResult
    submitted_text: str = Field(default="", max_length=1000)
    target_id: str | None = None
    target_name: str | None = None
    item_id: str | None = None
    item_name: str | None = None
    quantity: int = Field(default=1, ge=1)
    skill: str | None = None
    ability_name: str | None = None
    destination_id: str | None = None
    destination_name: str | None = None
    roll_line: str = ""  # e.g. "d20 (14) + 5 = 19 vs AC 15"
    damage: int = Field(default=0, ge=0)
    damage_type: str | None = None
    healing: int = Field(default=0, ge=0)
    target_down: bool = False
    target_died: bool = False
    contest: Contest | None = None
    refusal_reason: str | None = None


class Reveal(_Frozen):
    """A private discovery (e.g. a successful Insight check) told to one player only, by DM."""

    player_id: int
    character_name: str
    text: str


def reveal_note(reveal: Reveal) -> str:
    """The private note for ``reveal``, written from the record itself.

    A model narrator is never shown what a discovery says (so its public text cannot repeat it); the note the
    discoverer reads comes from here instead, word for word from the ledger.
    """
    from bot.narrator.discoveries import tell_reveal  # prose helpers; base stays the light contract

    return f"{reveal.character_name}, you alone learn this: {tell_reveal(reveal.text, reveal.character_name)}"


class RetrievedRecord(_Frozen):
    """A ledger record retrieved for the scene, ranked (the decisive record first)."""

    ref: str  # e.g. "favor-0003-01"
    text: str
    why: str = ""  # why retrieval picked it, e.g. "NPC present: Old Wei"


class SceneSummary(_Frozen):
    """A compressed summary of an earlier scene or session (an index, not the authority)."""

    id: str
    text: str


class NarrationRequest(_Frozen):
    """Everything a narrator may use for one round, and nothing else."""

    campaign: str
    session: int = Field(ge=0)
    round: int = Field(ge=0)
    location: SceneLocation
    creatures: tuple[SceneCreature, ...] = ()
    outcomes: tuple[ActionOutcome, ...] = ()
    reveals: tuple[Reveal, ...] = ()
    records: tuple[RetrievedRecord, ...] = ()  # ranked, best first
    summaries: tuple[SceneSummary, ...] = ()  # ranked, best first
    recent: tuple[str, ...] = ()  # the campaign's last narrations, newest last
    npc_knowledge: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # npc id -> what it witnessed
    # (id, name as prose tells it) of creatures the GM brought into the scene since the last round, oldest
    # first (bot.table.newcomers.arrivals): the narration mentions them first, so the table hears of them.
    arrivals: tuple[tuple[str, str], ...] = ()
    avoid: tuple[str, ...] = ()  # texts not to repeat (earlier drafts on a rewrite)
    hints: tuple[str, ...] = ()  # conflicts the previous draft had, to fix on a rewrite
    variety_seed: int = 0

    def revealing_players(self) -> frozenset[int]:
        """Return the user ids of players who have a private discovery this round."""
        return frozenset(reveal.player_id for reveal in self.reveals)


#: The claim kinds a narrator may declare: the word-level part of ``ledger.check.claims.CLAIM_KINDS``, the
#: same list :mod:`bot.narrator.claims_llm` asks its extractor for (kept here so the reply schema is light).
DECLARABLE_KINDS: tuple[str, ...] = (
    "alive",
    "dead",
    "present",
    "at",
    "acts",
    "holds",
    "condition",
    "relation",
    "thread_status",
    "knows",
    "hit",
    "missed",
    "damaged",
    "pc_choice",
)


class DeclaredClaim(_Frozen):
    """One claim a model narrator declares its sentence makes, in the checker's closed vocabulary.

    ``args`` name who and what as the prompt gave them (a name, or a ledger id or record ref): they are
    resolved to ledger ids, and the whole claim validated, only when the draft is checked
    (:mod:`bot.narrator.declared`). Every field is required in the schema (nullable where a kind has none).
    """

    kind: str = Field(json_schema_extra={"enum": list(DECLARABLE_KINDS)})
    args: tuple[str, ...] = Field(description="names as given, in the order the kind needs")
    value: str | None = Field(description="the condition, relation kind or thread status; else null")
    verb: str | None = Field(description="for acts, pc_choice and at: the verb as written in the sentence")
    quantity: int | None = Field(description="for holds: how many the sentence says; else null")


class DeclaredSentence(_Frozen):
    """The claims one sentence of the draft makes, as the model declares them (``sentence``: its quote)."""

    sentence: str = Field(description="the sentence, copied exactly from public_text")
    claims: tuple[DeclaredClaim, ...]


class Draft(_Frozen):
    """A narration ready to check: ``public_text`` for the channel, ``private_notes`` as (user id, text).

    ``declared`` is what a model narrator says its sentences claim (empty for the offline narrator and for
    a model that declared nothing); the check judges those claims and flags any the text does not bear out.
    """

    public_text: str
    private_notes: tuple[tuple[int, str], ...] = ()
    source: DraftSource = "generated"
    voices: tuple[VoiceLine, ...] = ()  # NPC traits that woke and the lines they gave (offline narrator)
    declared: tuple[DeclaredSentence, ...] = ()

    def full_text(self) -> str:
        """Return the public text and every private note, for checks that must see all of it."""
        return "\n".join([self.public_text, *(text for _, text in self.private_notes)])


class ConflictNote(_Frozen):
    """A draft's claim the checker refuted (or a secret it leaked), for a rewrite hint or the GM queue."""

    claim: str
    refuted_by: str | None = None  # the refuting record id, when there is one
    message: str  # one line a GM (and the narrator on a rewrite) can act on


class NarrationAttempt(_Frozen):
    """One draft the pipeline tried, so the GM can see why a round fell back."""

    source: DraftSource
    conflicts: tuple[ConflictNote, ...] = ()
    repetitive: bool = False
    error: str | None = None  # the NarrationError message when the narrator failed


class NarrationOutcome(_Frozen):
    """What the pipeline decided to post, and why."""

    draft: Draft
    source: DraftSource
    conflicts: tuple[ConflictNote, ...] = ()  # queued for the GM (including any on the posted draft)
    attempts: tuple[NarrationAttempt, ...] = ()
    offline: bool = False  # offline mode (no LLM configured): ``source`` is "fallback" but nothing failed


class Narrator(Protocol):
    """Anything that turns a :class:`NarrationRequest` into a :class:`Draft`."""

    async def narrate(self, request: NarrationRequest) -> Draft:
        """Return a draft for the round; raise :class:`NarrationError` on failure."""
        ...


class NarrationError(Exception):
    """Root of every narration failure; the pipeline answers any of them with the offline narration."""


class BudgetExceeded(NarrationError):
    """The rules, results and transcript alone do not fit the context budget; no call was made."""


class NarratorUnavailable(NarrationError):
    """The endpoint could not be reached, timed out, or answered with a server error."""


class NarratorTimeout(NarratorUnavailable):
    """The endpoint did not answer within the configured timeout."""


class InvalidDraft(NarrationError):
    """The reply was not a usable draft: invalid JSON, wrong shape, refusal, empty or over-long text."""


class DraftTruncated(InvalidDraft):
    """The model stopped at its token limit (finish_reason "length")."""
