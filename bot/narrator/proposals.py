"""What a model narrator may propose to add to the world, and how the system decides.

The narrator proposes, the system decides. A narration reply may carry ``proposals`` in a closed vocabulary
(frozen models, all fields named, names as the prompt gave them, never ids): introduce an NPC, introduce an
item at a place or with an NPC, open a thread (an NPC's promise, a rumour, a prophecy, a quest offer), record
a notable event, shift an NPC's attitude toward a PC. :func:`judge_proposals` decides each one against the
ledger's snapshot, with no I/O: it is accepted only when it contradicts nothing (the fact check), tells no
secret (the leak check), clashes with no existing name, names no PC as created and changes no PC's HP,
inventory or choices, and at most :data:`MAX_PER_ROUND` are accepted per round. An accepted proposal becomes
ledger changes (``ledger.store.vocabulary`` dicts) that the table applies in the round's narration
transaction; a refused one is kept with its reason. Also here: the frozen views the front ends render
(:class:`ProposalView`, :class:`NominationView`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.narrator.base import Draft
from ledger.store.narrative import NarrativeKind

if TYPE_CHECKING:
    from ledger.check.snapshot import WorldSnapshot

#: At most this many proposals are accepted in one round; the rest are refused with that reason.
MAX_PER_ROUND = 3
#: How far one round may move an NPC's attitude toward a PC.
MAX_ATTITUDE_SHIFT = 30

ProposalKind = Literal["npc", "item", "thread", "event", "attitude"]
ProposalStatus = Literal["accepted", "refused", "queued", "undone"]
OfferKind = Literal["promise", "rumour", "prophecy", "quest"]

#: A thread the narrator opens, as the ledger's thread kind and a tag saying what it was offered as.
OFFER_THREADS: dict[str, tuple[str, str]] = {
    "promise": ("favour", "promise"),
    "rumour": ("quest", "rumour"),
    "prophecy": ("prophecy", "prophecy"),
    "quest": ("quest", "quest-offer"),
}


class _Proposal(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class NpcProposal(_Proposal):
    """Introduce a new NPC: name, role (innkeeper, dockhand), the place (a location's name), one line."""

    kind: Literal["npc"]
    name: str = Field(max_length=80)
    role: str = Field(max_length=80)
    place: str = Field(max_length=120, description="a location name from the prompt, or empty for here")
    description: str = Field(max_length=300)

    def text(self) -> str:
        return f"{self.name}, {self.role}. {self.description}".strip()


class ItemProposal(_Proposal):
    """Introduce a new item lying at a place or held by an NPC (never a PC)."""

    kind: Literal["item"]
    name: str = Field(max_length=80)
    description: str = Field(max_length=300)
    place: str = Field(max_length=120, description="a location name, or empty")
    holder: str = Field(max_length=120, description="an NPC's name, or empty")

    def text(self) -> str:
        return f"{self.name}: {self.description}".strip()


class ThreadProposal(_Proposal):
    """Open a thread: an NPC's promise, a rumour, a prophecy or a quest offer, from an NPC to the party."""

    kind: Literal["thread"]
    offer: OfferKind
    by: str = Field(max_length=120, description="the NPC who makes the promise, spreads the rumour or offers")
    to: str = Field(max_length=120, description="the PC it is made to, or empty for the whole party")
    terms: str = Field(max_length=300)

    def text(self) -> str:
        return self.terms


class EventProposal(_Proposal):
    """Record a notable event of this round (a bargain, a threat, a warning, a rescue)."""

    kind: Literal["event"]
    event_kind: NarrativeKind
    summary: str = Field(max_length=300)
    participants: list[str] = Field(max_length=6)
    witnesses: list[str] = Field(max_length=8)

    def text(self) -> str:
        return self.summary


class AttitudeProposal(_Proposal):
    """Shift an NPC's attitude toward a PC, with this round's action of that PC as the reason."""

    kind: Literal["attitude"]
    npc: str = Field(max_length=120)
    toward: str = Field(max_length=120)
    change: int = Field(ge=-100, le=100)
    reason: str = Field(max_length=300)

    def text(self) -> str:
        return self.reason


Proposal = NpcProposal | ItemProposal | ThreadProposal | EventProposal | AttitudeProposal
PROPOSAL_MODELS: dict[str, type[_Proposal]] = {
    "npc": NpcProposal,
    "item": ItemProposal,
    "thread": ThreadProposal,
    "event": EventProposal,
    "attitude": AttitudeProposal,
}


def describe(proposal: Proposal) -> str:
    """One line for the GM: what the proposal adds."""
    if isinstance(proposal, NpcProposal):
        where = f" at {proposal.place}" if proposal.place else ""
        return f"NPC {proposal.name} ({proposal.role}){where}: {proposal.description}"
    if isinstance(proposal, ItemProposal):
        where = proposal.holder or proposal.place or "here"
        return f"item {proposal.name} with {where}: {proposal.description}"
    if isinstance(proposal, ThreadProposal):
        return f"{proposal.offer} by {proposal.by} to {proposal.to or 'the party'}: {proposal.terms}"
    if isinstance(proposal, EventProposal):
        return f"{proposal.event_kind}: {proposal.summary}"
    sign = "+" if proposal.change >= 0 else ""
    return f"{proposal.npc} toward {proposal.toward} {sign}{proposal.change}: {proposal.reason}"


class Decision(BaseModel):
    """What the system decided about one proposal. ``changes`` are vocabulary dicts (accepted ones only).

    A thread's ``open_thread`` change carries ``id`` ``""``: the table fills in a fresh thread id inside the
    transaction. ``payload`` is what undo needs (the attitude before the shift, the thread kind).
    """

    model_config = ConfigDict(frozen=True)

    kind: str  # a ProposalKind, or what a proposal outside the vocabulary called itself
    summary: str
    proposal: dict[str, Any]
    accepted: bool
    reason: str = ""
    changes: tuple[dict[str, Any], ...] = ()
    payload: dict[str, Any] = Field(default_factory=dict)


class ProposalView(BaseModel):
    """One proposal or nomination as the GM's list shows it."""

    model_config = ConfigDict(frozen=True)

    id: int
    origin: Literal["narrator", "player"]
    kind: str
    what: str
    status: ProposalStatus
    reason: str = ""
    round: str = ""  # "1.3": the round it came from
    refs: tuple[str, ...] = ()  # the events it landed as
    undo_event: str | None = None


class NominationView(BaseModel):
    """The answer to a player's nomination: what landed, or why it waits for the GM."""

    model_config = ConfigDict(frozen=True)

    proposal_id: int
    status: Literal["accepted", "queued"]
    kind: str  # thread | event (accepted), or the kind it would have been
    what: str
    reason: str = ""  # why it was queued, in plain words
    missing: tuple[str, ...] = ()  # the nomination's words not found in the record
    source: str | None = None  # "round 1.3" when supported
    visibility: str = "public"
    refs: tuple[str, ...] = ()


class UndoView(BaseModel):
    """What undoing a proposal wrote: the retcon event and the changes that put the world back."""

    model_config = ConfigDict(frozen=True)

    proposal: ProposalView
    retcon_event: str
    changes: tuple[str, ...]


# --- judging ---------------------------------------------------------------------------------------------

#: ``check(text) -> (conflict reasons, leak reasons)``: the fact check and the leak check on one text.
TextCheck = Callable[[str], tuple[Sequence[str], Sequence[str]]]

_PC_STATE = re.compile(
    r"\b(hp|hit points?|heal(?:s|ed)?|wound(?:s|ed)?|damage[sd]?|hurt|bleed(?:s|ing)?|los(?:e|es|t)|"
    r"gives?|gave|hands?|handed|takes?|took|steals?|stole|drops?|dropped|receives?|received|"
    r"decides?|decided|agrees?|agreed|chooses?|chose|swears?|swore|promises?|promised|vows?|vowed)\b",
    re.IGNORECASE,
)


def slug(text: str) -> str:
    """Lower-case letters, digits and dashes (at most 50 characters) for ids made from names."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:50] or "x"


def fresh_id(prefix: str, name: str, taken: Iterable[str]) -> str:
    """``<prefix>-<slug>``, with ``-2``, ``-3`` ... when the id is already taken in the campaign."""
    used = set(taken)
    base = f"{prefix}-{slug(name)}"
    candidate, n = base, 1
    while candidate in used:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


class _Names:
    """Names and aliases of the snapshot's records, case folded, to resolve what a proposal names."""

    def __init__(self, snapshot: WorldSnapshot) -> None:
        self.by_name: dict[str, list[str]] = {}
        for entity in snapshot.entities.values():
            for alias in entity.names():
                self.by_name.setdefault(_fold(alias.name), []).append(entity.id)
        self.snapshot = snapshot

    def find(self, name: str, kinds: Sequence[str]) -> str | None:
        for eid in self.by_name.get(_fold(name), []):
            entity = self.snapshot.entities.get(eid)
            if entity is not None and entity.kind in kinds:
                return eid
        return None

    def taken(self, name: str) -> str | None:
        ids = self.by_name.get(_fold(name))
        return ids[0] if ids else None


def _fold(name: str) -> str:
    return re.sub(r"\s+", " ", name.strip().casefold().removeprefix("the "))


def judge_proposals(
    proposals: Sequence[Proposal],
    snapshot: WorldSnapshot,
    *,
    check: TextCheck,
    location: str | None,
    present: Iterable[str],
    acted: Iterable[str],
    round_ref: str,
    refused: Sequence[tuple[dict[str, Any], str]] = (),
    limit: int = MAX_PER_ROUND,
) -> list[Decision]:
    """Decide each proposal in order; the changes of an accepted one assume the ones accepted before it.

    ``location`` is the scene's location id, ``present`` who is in the scene, ``acted`` the PCs who acted
    this round (an attitude shift needs their action as its reason), ``round_ref`` "session.round".
    ``refused`` are proposals the reply carried outside the vocabulary, kept as refused with their reason.
    """
    names = _Names(snapshot)
    here = set(present)
    pcs = {eid for eid, e in snapshot.entities.items() if e.kind == "pc"}
    acted_pcs = set(acted)
    taken: set[str] = set(snapshot.entities) | set(snapshot.threads)
    new_names: set[str] = set()
    decisions: list[Decision] = [
        Decision(
            kind=str(raw.get("kind", "?"))[:20],
            summary=_raw_summary(raw),
            proposal=raw,
            accepted=False,
            reason=why,
        )
        for raw, why in refused
    ]
    accepted = 0
    for proposal in proposals:
        raw = proposal.model_dump(mode="json")
        summary = describe(proposal)

        def refuse(reason: str, *, p: Proposal = proposal, r: dict[str, Any] = raw, s: str = summary) -> None:
            decisions.append(Decision(kind=p.kind, summary=s, proposal=r, accepted=False, reason=reason))

        if accepted >= limit:
            refuse(f"over the limit of {limit} proposals per round")
            continue
        built = _build(proposal, names, here, pcs, acted_pcs, location, taken, new_names, snapshot, round_ref)
        if isinstance(built, str):
            refuse(built)
            continue
        changes, payload = built
        conflicts, leaks = check(proposal.text())
        if leaks:
            refuse(f"it would tell a secret ({leaks[0]})")
            continue
        if conflicts:
            refuse(f"it contradicts the ledger ({conflicts[0]})")
            continue
        accepted += 1
        for change in changes:
            if change.get("id"):
                taken.add(str(change["id"]))
            if change.get("name"):
                new_names.add(_fold(str(change["name"])))
        decisions.append(
            Decision(
                kind=proposal.kind,
                summary=summary,
                proposal=raw,
                accepted=True,
                changes=tuple(changes),
                payload=payload,
            )
        )
    return decisions


def _raw_summary(raw: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in raw.items())[:300] or "(empty proposal)"


def _build(
    p: Proposal,
    names: _Names,
    here: set[str],
    pcs: set[str],
    acted: set[str],
    location: str | None,
    taken: set[str],
    new_names: set[str],
    snapshot: WorldSnapshot,
    round_ref: str,
) -> tuple[list[dict[str, Any]], dict[str, Any]] | str:
    """The changes for ``p``, or why it is refused (structure: names, PCs, places)."""

    def person(name: str, *, npc_only: bool = False) -> str | None:
        return names.find(name, ("npc", "monster") if npc_only else ("pc", "npc", "monster"))

    def mentions_pc(text: str) -> str | None:
        folded = f" {_fold(text)} "
        for pc in pcs:
            for alias in snapshot.entities[pc].names():
                first = _fold(alias.name).split(" ")[0]
                if f" {_fold(alias.name)} " in folded or (len(first) > 2 and f" {first} " in folded):
                    return snapshot.entities[pc].name
        return None

    def clash(name: str) -> str | None:
        clean = name.strip()
        if not clean:
            return "it has no name"
        owner = names.taken(clean)
        if owner is not None and owner in pcs:
            return f"it names a PC ({snapshot.entities[owner].name}) as created"
        if owner is not None:
            return f"the name {clean!r} is already taken ({owner})"
        if _fold(clean) in new_names:
            return f"the name {clean!r} was already proposed this round"
        return None

    def place_of(name: str) -> str | Literal[False] | None:
        if not name.strip():
            return location
        found = names.find(name, ("location",))
        return found if found is not None else False

    if isinstance(p, NpcProposal):
        if why := clash(p.name):
            return why
        place = place_of(p.place)
        if place is False:
            return f"there is no place called {p.place!r}"
        npc = fresh_id("npc", p.name, taken)
        description = f"{p.role}. {p.description}".strip(". ") if p.role else p.description
        change: dict[str, Any] = {
            "kind": "create_entity",
            "id": npc,
            "entity_kind": "npc",
            "name": p.name.strip(),
            "description": description,
            "location": place,
        }
        return [change], {"created": npc}
    if isinstance(p, ItemProposal):
        if pc := mentions_pc(f"{p.holder} {p.description}"):
            return f"it would change a PC's inventory ({pc})"
        if why := clash(p.name):
            return why
        if p.holder.strip():
            holder = person(p.holder, npc_only=True)
            if holder is None:
                return f"there is no NPC called {p.holder!r} to hold it"
        else:
            place = place_of(p.place)
            if place is False:
                return f"there is no place called {p.place!r}"
            if place is None:
                return "it needs a place or an NPC to hold it"
            holder = place
        item = fresh_id("item", p.name, taken)
        change_item: dict[str, Any] = {
            "kind": "create_item",
            "id": item,
            "name": p.name.strip(),
            "description": p.description,
            "holder": holder,
            "quantity": 1,
        }
        return [change_item], {"created": item, "holder": holder}
    if isinstance(p, ThreadProposal):
        by = person(p.by)
        if by in pcs:
            return (
                f"it decides for a PC ({snapshot.entities[by].name}): a PC's promise is the player's choice"
            )
        if by is None:
            return f"there is no NPC called {p.by!r}"
        if by not in here:
            return f"{snapshot.entities[by].name} is not in the scene"
        parties = [by]
        if p.to.strip():
            to = person(p.to)
            if to is None:
                return f"there is nobody called {p.to!r}"
            parties.append(to)
        else:
            parties.extend(sorted(pc for pc in pcs if pc in here))
        if (pc := mentions_pc(p.terms)) and _PC_STATE.search(p.terms) and "promise" not in p.offer:
            return f"it would change a PC's HP, inventory or choices ({pc})"
        thread_kind, tag = OFFER_THREADS[p.offer]
        change_thread: dict[str, Any] = {
            "kind": "open_thread",
            "id": "",
            "thread_kind": thread_kind,
            "terms": p.terms.strip(),
            "parties": parties,
            "tags": [tag],
            "place": location,
        }
        return [change_thread], {"thread_kind": thread_kind}
    if isinstance(p, EventProposal):
        participants: list[str] = []
        for name in p.participants:
            who = person(name)
            if who is None:
                return f"there is nobody called {name!r}"
            participants.append(who)
        witnesses: list[str] = []
        for name in p.witnesses:
            who = person(name)
            if who is None:
                return f"there is nobody called {name!r}"
            if who not in here:
                return f"{snapshot.entities[who].name} is not in the scene to witness it"
            witnesses.append(who)
        if (pc := mentions_pc(p.summary)) and _PC_STATE.search(p.summary):
            return f"it would change a PC's HP, inventory or choices ({pc})"
        change_event: dict[str, Any] = {
            "kind": "record_event",
            "event_kind": p.event_kind,
            "summary": p.summary.strip(),
            "participants": list(dict.fromkeys(participants)),
            "place": location,
            "witnesses": list(dict.fromkeys(witnesses)),
        }
        return [change_event], {}
    # attitude
    found = person(p.npc)
    if found is None:
        return f"there is nobody called {p.npc!r}"
    npc = found
    if npc in pcs:
        return f"it decides for a PC ({snapshot.entities[npc].name}): a PC's feelings are the player's choice"
    target = names.find(p.toward, ("pc",))
    if target is None:
        return f"there is no PC called {p.toward!r}"
    if target not in acted:
        return f"{snapshot.entities[target].name} did nothing this round to explain it"
    if npc not in here:
        return f"{snapshot.entities[npc].name} is not in the scene"
    if abs(p.change) > MAX_ATTITUDE_SHIFT:
        return f"a shift of {p.change} is more than one round may make (at most {MAX_ATTITUDE_SHIFT})"
    edge = next((e for e in snapshot.edges if e.source == npc and e.target == target), None)
    before = edge.attitude if edge is not None else 0
    edge_kind = edge.kind if edge is not None else "regard"
    after = max(-100, min(100, before + p.change))
    change_edge: dict[str, Any] = {
        "kind": "set_edge",
        "source": npc,
        "target": target,
        "edge_kind": edge_kind,
        "attitude": after,
        "reason": f"round {round_ref}: {p.reason.strip()}"[:300],
    }
    return [change_edge], {"before": before, "had_edge": edge is not None, "edge_kind": edge_kind}


# --- a draft that carries proposals ----------------------------------------------------------------------


def proposing_draft(
    draft: Draft, proposals: Sequence[Proposal], refused: Sequence[tuple[dict[str, Any], str]]
) -> Draft:
    """``draft`` carrying the model's proposals (and the ones refused at parsing) to the table."""
    return ProposingDraft(**draft.model_dump(), proposals=tuple(proposals), refused=tuple(refused))


class ProposingDraft(Draft):
    """A model's draft with its proposals: the pipeline checks and copies it like any draft."""

    proposals: tuple[Proposal, ...] = ()
    refused: tuple[tuple[dict[str, Any], str], ...] = ()


#: Why the proposals of a model draft that was not posted are refused.
FELL_BACK = "the narration fell back to the offline narrator"


def proposals_of(draft: Draft) -> tuple[tuple[Proposal, ...], tuple[tuple[dict[str, Any], str], ...]]:
    """The proposals a posted draft carries, and the ones refused already (with their reasons).

    The offline narration proposes nothing; when it replaced a model's draft, it carries that draft's
    proposals (:func:`bot.narrator.pipeline.narrate_checked`), and they come back refused with the reason
    :data:`FELL_BACK`, so the GM's list shows them instead of their vanishing.
    """
    if not isinstance(draft, ProposingDraft):
        return (), ()
    if draft.source != "fallback":
        return draft.proposals, draft.refused
    return (), (*((p.model_dump(mode="json"), FELL_BACK) for p in draft.proposals), *draft.refused)
