"""Hard facts in summaries: deaths, hand-overs and thread changes a summary states, held to the ledger.

A summary is an index, never the authority: before one is stored, the hard facts it states must already be in
the ledger (declared by the writer, or found by :func:`find_hard_fact_candidates` in its text and matched by
:func:`verifier_from_timeline` or the table's own verifier). Split from :mod:`ledger.recall.summaries` so the
Chroma index and the fact vocabulary each read on their own.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from ledger.scenario.replay import WorldView
    from ledger.scenario.timeline import ScenarioEvent

# --------------------------------------------------------------------------------------------------
# Hard facts
# --------------------------------------------------------------------------------------------------


class _Fact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Death(_Fact):
    """``entity`` died (a ``set_alive`` to false in the ledger)."""

    kind: Literal["death"] = "death"
    entity: str


class Transfer(_Fact):
    """``item`` went from ``from_holder`` (None = created) to ``to_holder`` (None = destroyed or sold)."""

    kind: Literal["transfer"] = "transfer"
    item: str
    from_holder: str | None = None
    to_holder: str | None = None
    quantity: int = Field(default=1, ge=1)


class ThreadChange(_Fact):
    """``thread`` moved to ``status`` (settled, expired, broken, or open again by retcon)."""

    kind: Literal["thread_status"] = "thread_status"
    thread: str
    status: Literal["open", "settled", "expired", "broken"]


HardFact = Annotated[Death | Transfer | ThreadChange, Field(discriminator="kind")]
Verify = Callable[
    [tuple[Death | Transfer | ThreadChange, ...]], Awaitable[Sequence[Death | Transfer | ThreadChange]]
]


def describe_fact(fact: Death | Transfer | ThreadChange) -> str:
    """Return a short human reading of a hard fact, e.g. ``item-silver-dagger: pc-greyrock -> npc-fence``."""
    if isinstance(fact, Death):
        return f"{fact.entity} died"
    if isinstance(fact, Transfer):
        qty = f"{fact.quantity} x " if fact.quantity != 1 else ""
        return f"{qty}{fact.item}: {fact.from_holder or '(new)'} -> {fact.to_holder or '(gone)'}"
    return f"{fact.thread} -> {fact.status}"


def hard_facts_from_changes(changes: Iterable[Any]) -> tuple[Death | Transfer | ThreadChange, ...]:
    """Return the hard facts stated by ledger changes (scenario or ``ledger.store.vocabulary`` changes, by
    kind), given as change models or as the plain dicts the ledger stores as event payloads.

    ``set_alive`` to false gives a :class:`Death`, ``transfer_item`` a :class:`Transfer`,
    ``thread_transition`` a :class:`ThreadChange`; retcons and corrections contribute their inner changes.
    Payload dicts are read the same way as models: the summary queue judges what a summary states from the
    payloads of the events it covers, and a dict read as an object would state nothing.
    """
    facts: list[Death | Transfer | ThreadChange] = []
    for change in changes:
        field = _reader(change)
        kind = field("kind")
        if kind == "set_alive" and field("alive") is False:
            facts.append(Death(entity=field("entity")))
        elif kind == "transfer_item":
            quantity = field("quantity")
            facts.append(
                Transfer(
                    item=field("item"),
                    from_holder=field("from_holder"),
                    to_holder=field("to_holder"),
                    quantity=1 if quantity is None else quantity,
                )
            )
        elif kind == "thread_transition":
            facts.append(ThreadChange(thread=field("thread"), status=field("status")))
        elif kind in {"retcon", "correction"}:
            facts.extend(hard_facts_from_changes(field("changes") or ()))
    return tuple(facts)


def _reader(change: Any) -> Callable[[str], Any]:
    """Read one change's fields: a payload dict by key, a change model by attribute (None when absent)."""
    if isinstance(change, Mapping):
        return change.get
    return lambda name: getattr(change, name, None)


def verifier_from_timeline(events: Iterable[ScenarioEvent]) -> Verify:
    """Return a ``verify`` callable that checks hard facts against a scenario timeline (no database).

    A fact is present when some change in ``events`` states exactly it (same entity; same item, holders and
    quantity; same thread and status). Used for scenario loading and tests; the SQL ledger supplies its own.
    """
    present = set(hard_facts_from_changes(c for e in events for c in e.changes))

    async def verify(
        facts: tuple[Death | Transfer | ThreadChange, ...],
    ) -> list[Death | Transfer | ThreadChange]:
        return [f for f in facts if f not in present]

    return verify


# --------------------------------------------------------------------------------------------------
# Finding hard facts in free text
# --------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Verbs whose object is the victim ("Greyrock killed Voss"); passive after was/were ("Voss was killed").
_KILL_VERBS = frozenset(
    [
        "kill",
        "killed",
        "kills",
        "slay",
        "slays",
        "slew",
        "murder",
        "murdered",
        "murders",
        "execute",
        "executed",
        "executes",
        "behead",
        "beheaded",
        "strangled",
        "assassinated",
        "assassinate",
    ]
)
# Words whose subject is the one who died ("Voss died", "Voss is dead", "Voss lay slain").
_DEATH_STATES = frozenset(["died", "dies", "dead", "perished", "perishes", "drowned", "slain", "deceased"])
_PASSIVE = frozenset(["was", "were", "is", "been", "be", "got", "lies", "lay", "lying"])
_TRANSFER_VERBS = frozenset(
    [
        "give",
        "gives",
        "gave",
        "given",
        "sell",
        "sells",
        "sold",
        "take",
        "takes",
        "took",
        "taken",
        "steal",
        "steals",
        "stole",
        "stolen",
        "pocket",
        "pockets",
        "pocketed",
        "hand",
        "hands",
        "handed",
        "buy",
        "buys",
        "bought",
        "loot",
        "looted",
        "loots",
        "trade",
        "traded",
        "trades",
        "pawn",
        "pawned",
        "fence",
        "fenced",
        "grab",
        "grabs",
        "grabbed",
        "swipe",
        "swiped",
        "snatch",
        "snatched",
        "lose",
        "lost",
        "drop",
        "dropped",
        "dropping",
        "claim",
        "claimed",
    ]
)
_POSSESSIVE = re.compile(r"'s$")


class CandidateFact(BaseModel):
    """A hard fact the text seems to state: ``death`` of an entity or ``transfer`` of an item."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["death", "transfer"]
    subject: str
    evidence: str


def _tokens(text: str) -> list[str]:
    return [_POSSESSIVE.sub("", t) for t in _TOKEN.findall(text.lower())]


def _occurrences(tokens: list[str], names: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    """Return ``(start, end, id)`` of every name occurrence, longest names first, without overlaps."""
    phrases: list[tuple[list[str], str]] = []
    for record_id, record_names in names.items():
        for name in record_names:
            words = [w for w in _tokens(name) if w != "the"] or _tokens(name)
            if words:
                phrases.append((words, record_id))
    phrases.sort(key=lambda p: -len(p[0]))
    taken = [False] * len(tokens)
    found: list[tuple[int, int, str]] = []
    for words, record_id in phrases:
        n = len(words)
        for i in range(len(tokens) - n + 1):
            if tokens[i : i + n] == words and not any(taken[i : i + n]):
                found.append((i, i + n, record_id))
                for k in range(i, i + n):
                    taken[k] = True
    return sorted(found)


def _nearest(occ: list[tuple[int, int, str]], at: int, window: int, direction: int) -> str | None:
    best: tuple[int, str] | None = None
    for start, end, record_id in occ:
        gap = start - at if direction > 0 else at - end + 1
        if 1 <= gap <= window and (best is None or gap < best[0]):
            best = (gap, record_id)
    return best[1] if best else None


def find_hard_fact_candidates(
    text: str,
    *,
    entities: Mapping[str, Sequence[str]],
    items: Mapping[str, Sequence[str]],
    window: int = 6,
) -> tuple[CandidateFact, ...]:
    """Return the deaths and item hand-overs ``text`` appears to state, for known names only.

    ``entities`` and ``items`` map ids to their names and aliases. A death is a kill verb followed by a known
    name ("killed the merchant"), a passive or state word preceded by one ("Voss was slain", "Wei is dead"),
    within ``window`` words. A transfer is a give/sell/take-like verb within ``window`` words of a known item
    name. Pure and deterministic; it nominates, the caller's declared hard facts decide.
    """
    tokens = _tokens(text)
    people = _occurrences(tokens, entities)
    things = _occurrences(tokens, items)
    found: dict[tuple[str, str], CandidateFact] = {}

    def note(kind: Literal["death", "transfer"], subject: str | None, at: int) -> None:
        if subject is not None and (kind, subject) not in found:
            evidence = " ".join(tokens[max(0, at - window) : at + window + 1])
            found[(kind, subject)] = CandidateFact(kind=kind, subject=subject, evidence=evidence)

    for i, token in enumerate(tokens):
        passive = i > 0 and tokens[i - 1] in _PASSIVE
        if token in _KILL_VERBS:
            note("death", _nearest(people, i, window, -1 if passive else +1), i)
        elif token in _DEATH_STATES:
            before = _nearest(people, i, window, -1)
            # "the death of X" / "X's death" read the other way; "dead" alone looks back.
            note("death", before, i)
        elif token == "death" and i + 1 < len(tokens) and tokens[i + 1] == "of":
            note("death", _nearest(people, i + 1, window, +1), i)
        if token in _TRANSFER_VERBS:
            after = _nearest(things, i, window, +1)
            note("transfer", after or _nearest(things, i, window, -1), i)
    return tuple(found.values())


def names_from_world(world: WorldView) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Return ``(entity names, item names)`` from a scenario :class:`WorldView`, for the detector."""
    entities = {e.id: [e.name, *e.aliases] for e in world.entities.values()}
    items = {i.id: [i.name, *i.aliases] for i in world.items.values()}
    return entities, items


def covered_by(candidate: CandidateFact, facts: Iterable[Death | Transfer | ThreadChange]) -> bool:
    for fact in facts:
        if candidate.kind == "death" and isinstance(fact, Death) and fact.entity == candidate.subject:
            return True
        if candidate.kind == "transfer" and isinstance(fact, Transfer) and fact.item == candidate.subject:
            return True
    return False
