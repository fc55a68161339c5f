"""NPC voices: an NPC's persona drives a short line or reaction when something in the round touches it.

The persona an NPC sheet may carry (``sheet["persona"]``) is either the GM's free-text note or a table:

```toml
[npcs.persona]
voice = "dry, unhurried, tax-office jargon"
address = { everyone = "friend", pc-greyrock = "the dwarf with the bad arithmetic" }
wants = ["favor-0003-01"]            # ledger ids that touch its interests (GM data, never spoken)
fears = ["npc-maren-holt"]
knows = ["favor-0003-01"]            # records the author says it knows
[[npcs.persona.traits]]
on = "thread"                        # person | item | place | thread | event
ref = "favor-0003-01"                # an id, or for on = "event": addressed | threatened | helped
line = "A favour is a ledger line, {address}. Mine is still open."
attitude_min = -20                   # wakes only while its attitude to whoever set it off is in range
mentions = ["favor-0003-01"]         # spoken only when the NPC knows each of these
```

A free-text persona is the GM's note ("Secretly runs the smuggling ring"): nothing of it is ever spoken.
:func:`persona_from_sheet` derives a plain voice from it (its first clause, unless that clause sounds like a
secret, plus the ``speech`` note and the terms of address quoted there) and the offline narrator gives such an
NPC only stock lines that claim nothing. Only explicit trait lines put an author's words in an NPC's mouth.

:func:`wake` reads the round (who was addressed, threatened or helped; which people, items, places and threads
came up), keeps the traits whose trigger is there, whose attitude range holds and whose mentions the NPC
knows, and picks at most :data:`MAX_LINES` lines, deterministically for a seed. Each is a frozen
:class:`~bot.narrator.base.VoiceLine` the table stores with the round, so the GM can audit why an NPC spoke.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from bot.narrator.base import (
    ActionOutcome,
    NarrationRequest,
    Persona,
    SceneCreature,
    Trait,
    VoiceLine,
)

#: At most this many NPC lines in one round: a scene, not a chorus.
MAX_LINES = 2
#: Clauses of a free-text persona that read as the GM's secrets are never used, not even as a voice.
_SECRET_WORDS = re.compile(
    r"\b(secret\w*|hidden|hides?|really|actually|in truth|true|truly|plots?|plans?|betray\w*|"
    r"spy|spies|murder\w*|killed|kills?|runs|behind|suspects?|knows?|fears?|owes?|lies?|lying)\b",
    re.I,
)
#: "calls everyone 'love'", "calls Greyrock 'the dwarf with the bad arithmetic'"
_CALLS = re.compile(r"\bcalls\s+([\w' -]{1,40}?)\s+['‘\"“]([^'’\"”]{1,40})['’\"”]", re.I)
#: Lines an NPC with only a free-text persona may say: they name nobody and claim nothing.
_STOCK: dict[str, tuple[str, ...]] = {
    "addressed": (
        "I am listening, {address}.",
        "Well, {address}? Out with it.",
        "Hm. Say your piece, {address}.",
        "You have my ear, {address}.",
    ),
    "threatened": (
        "Think carefully, {address}.",
        "That is a mistake, {address}.",
        "Not like this, {address}.",
    ),
    "helped": (
        "Much obliged, {address}.",
        "That is kind of you, {address}.",
        "Noted, {address}. And appreciated.",
    ),
}
#: How a line is attributed, per event; the checker reads these verbs as speech.
_SAYS: dict[str, tuple[str, ...]] = {
    "addressed": ("answers", "replies", "says"),
    "threatened": ("warns", "says", "snaps"),
    "helped": ("says", "murmurs"),
    "interest": ("says", "mutters", "remarks"),
}
_INTIMIDATION = frozenset({"threaten", "threatens", "intimidate", "intimidates", "menace", "menaces"})
_ID = re.compile(r"\b[a-z]+-[a-z0-9][a-z0-9-]*\b")


# --- reading a persona from a sheet ------------------------------------------------------------------------


def persona_from_sheet(sheet: Mapping[str, Any] | None) -> Persona | None:
    """The NPC's persona from its sheet: a structured ``persona`` table, else a voice derived from text.

    Returns None when the sheet has neither a persona nor a speech note. Malformed traits are skipped (a bad
    line in one trait must not silence the NPC), and nothing of a free-text persona becomes speakable.
    """
    sheet = sheet or {}
    raw = sheet.get("persona")
    speech = _text(sheet.get("speech"))
    if isinstance(raw, Mapping):
        traits = tuple(t for t in (_trait(x) for x in _seq(raw.get("traits"))) if t is not None)
        address = _address(raw.get("address")) + _calls(speech) + _calls(_text(raw.get("speech")))
        try:
            return Persona(
                voice=_text(raw.get("voice"))[:300],
                speech=(_text(raw.get("speech")) or speech)[:300],
                address=tuple(dict(address).items()),
                wants=_ids(raw.get("wants")),
                fears=_ids(raw.get("fears")),
                knows=_ids(raw.get("knows")),
                traits=traits,
            )
        except ValidationError:
            return None
    note = _text(raw)
    if not note and not speech:
        return None
    return Persona(
        voice=plain_voice(note),
        speech=speech[:300],
        address=tuple(dict(_calls(speech)).items()),
        derived=True,
    )


def plain_voice(note: str) -> str:
    """The speakable part of a GM's free-text persona: its first clause, unless it reads like a secret.

    "Charming, careful, ruthless when cornered. Secretly runs the smuggling ring." -> "Charming, careful,
    ruthless when cornered"; "Dutiful; suspects the party over Voss's death" -> "Dutiful".
    """
    first = re.split(r"[.;:!?\n]", note, maxsplit=1)[0].strip()
    if not first or _SECRET_WORDS.search(first) or _ID.search(first) or len(first.split()) > 10:
        return ""
    return first[:120]


def speakable(creature: SceneCreature) -> str:
    """What a model may be told of an NPC's persona: voice, speech and trait lines it may say, never notes."""
    persona = creature.voice
    if persona is None:
        return creature.persona
    known = set(creature.knows) | set(persona.knows)
    parts = [p for p in (persona.voice, persona.speech) if p]
    lines = [t.line for t in persona.traits if t.says and set(t.mentions) <= known and "{" not in t.line]
    if lines:
        parts.append("lines it may use: " + " / ".join(f"“{line}”" for line in lines[:3]))
    return "; ".join(parts)[:400]


def _text(value: object) -> str:
    return " ".join(str(value).split()) if isinstance(value, str | int | float) else ""


def _seq(value: object) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else ()


def _ids(value: object) -> tuple[str, ...]:
    return tuple(str(x) for x in _seq(value) if isinstance(x, str) and 0 < len(x) <= 120)


def _address(value: object) -> list[tuple[str, str]]:
    if not isinstance(value, Mapping):
        return []
    return [(str(k), _text(v)[:60]) for k, v in value.items() if _text(v)]


def _calls(speech: str) -> list[tuple[str, str]]:
    """Terms of address quoted in a speech note: ``calls everyone 'love'`` -> ``("everyone", "love")``."""
    out = []
    for who, term in _CALLS.findall(speech):
        who = who.strip()
        key = "everyone" if who.lower() in ("everyone", "everybody", "all", "people") else who
        out.append((key, term.strip()))
    return out


def _trait(raw: object) -> Trait | None:
    if not isinstance(raw, Mapping):
        return None
    data = dict(raw)
    attitude = data.pop("attitude", None)
    if isinstance(attitude, list | tuple) and len(attitude) == 2:
        data.setdefault("attitude_min", attitude[0])
        data.setdefault("attitude_max", attitude[1])
    if "mentions" in data:
        data["mentions"] = _ids(data["mentions"])
    try:
        trait = Trait.model_validate(data)
    except ValidationError:
        return None
    if trait.attitude_min > trait.attitude_max or not _line_ok(trait.line):
        return None
    return trait


def _line_ok(line: str) -> bool:
    """An author's line is spoken as written: no markup, brackets, ids or unknown placeholders."""
    if re.search(r"[\[\]()<>*_`|#@\\\"“”]", line) or _ID.search(line):
        return False
    return set(re.findall(r"{(\w*)}", line)) <= {"actor", "address", "npc"}


# --- waking traits in a round ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    npc: SceneCreature
    trigger: str  # "event:addressed", "thread:favor-0003-01", ...
    event: str  # addressed | threatened | helped | interest
    cause: int | None
    by: str | None
    by_name: str
    attitude: int
    weight: int
    line: str
    says: bool
    why: str


def can_speak(creature: SceneCreature) -> bool:
    """A non-player creature that is alive, awake and has a persona to speak from."""
    return not creature.is_pc and creature.alive and not creature.down and creature.voice is not None


def wake(request: NarrationRequest, recalled: Iterable[str] = ()) -> tuple[VoiceLine, ...]:
    """The NPC lines of this round: at most :data:`MAX_LINES`, one per NPC, chosen per ``variety_seed``.

    ``recalled`` are the refs of records the narration weaves in (a thread trigger wakes when its thread is
    recalled or retrieved). Lines arrive in the order of the outcomes that woke them.
    """
    speakers = [c for c in request.creatures if can_speak(c)]
    if not speakers or not request.outcomes:
        return ()
    rng = random.Random(request.variety_seed * 7919 + 13)
    names = {c.id: c.name for c in request.creatures}
    candidates = [c for npc in speakers for c in _candidates(npc, request, names, set(recalled), rng)]
    chosen: list[_Candidate] = []
    used_causes: set[int | None] = set()
    for candidate in sorted(candidates, key=lambda c: (-c.weight, rng.random())):
        if len(chosen) >= MAX_LINES:
            break
        if any(c.npc.id == candidate.npc.id for c in chosen) or (
            candidate.cause is not None and candidate.cause in used_causes
        ):
            continue
        if chosen and candidate.weight < 3:
            break  # a second line only when it is as pressing as being spoken to or threatened
        chosen.append(candidate)
        used_causes.add(candidate.cause)
    chosen.sort(key=lambda c: c.cause if c.cause is not None else 10_000)
    used: set[str] = set()
    return tuple(_render(c, rng, used) for c in chosen)


def _events(npc: SceneCreature, outcome: ActionOutcome) -> list[str]:
    """What ``outcome`` does to ``npc``: addressed, threatened, helped (it must survive it awake)."""
    if outcome.outcome == "refused" or outcome.target_id != npc.id or outcome.actor_id == npc.id:
        return []
    if outcome.target_died or outcome.target_down:
        return []
    words = set(outcome.submitted_text.casefold().split())
    if outcome.kind in ("attack", "ability") and not outcome.healing:
        return ["threatened"]
    if outcome.kind == "talk":
        return ["threatened"] if words & _INTIMIDATION else ["addressed"]
    if outcome.kind == "check" and (outcome.skill or "").casefold() == "intimidation":
        return ["threatened"]
    if outcome.kind in ("give", "help") and outcome.outcome in ("success", "done", "hit", "critical"):
        return ["helped"]
    if outcome.healing:
        return ["helped"]
    return []


def _touches(outcome: ActionOutcome, on: str, ref: str) -> bool:
    if outcome.outcome == "refused":
        return False
    if on == "person":
        return ref in (outcome.actor_id, outcome.target_id)
    if on == "item":
        return outcome.item_id == ref
    if on == "place":
        return outcome.destination_id == ref
    return False


def _candidates(
    npc: SceneCreature,
    request: NarrationRequest,
    names: Mapping[str, str],
    recalled: set[str],
    rng: random.Random,
) -> list[_Candidate]:
    persona = npc.voice
    assert persona is not None
    known = set(npc.knows) | set(persona.knows)
    out: list[_Candidate] = []
    retrieved = {r.ref for r in request.records} | recalled

    def add(
        trait: Trait | None, event: str, index: int | None, by: str | None, weight: int, why: str
    ) -> None:
        attitude = npc.attitude_to(by)
        if trait is not None:
            if not trait.attitude_min <= attitude <= trait.attitude_max:
                return  # suppressed: the NPC is not in the mood this trait needs
            if not set(trait.mentions) <= known | _witnessed(request, index):
                return  # it never witnessed nor was told what the line speaks of
            # a trait made for a narrow attitude range is the more telling one when it holds
            weight += 1 if trait.attitude_max - trait.attitude_min < 200 else 0
            line, says, trigger = trait.line, trait.says, f"{trait.on}:{trait.ref}"
        else:
            if event not in _STOCK:
                return
            line, says, trigger = "", True, f"stock:{event}"  # the stock line is picked when rendered
        by_name = names.get(by or "", "") or "someone"
        out.append(_Candidate(npc, trigger, event, index, by, by_name, attitude, weight, line, says, why))

    for index, outcome in enumerate(request.outcomes):
        actor = outcome.actor_name
        for event in _events(npc, outcome):
            why = {
                "addressed": f"{actor} spoke to {npc.name}",
                "threatened": f"{actor} threatened {npc.name}",
                "helped": f"{actor} helped {npc.name}",
            }[event]
            weight = {"addressed": 4, "threatened": 4, "helped": 3}[event]
            traits = [t for t in persona.traits if t.on == "event" and t.ref == event]
            for trait in traits:
                add(trait, event, index, outcome.actor_id, weight + 2, why)
            if not traits or persona.derived:
                add(None, event, index, outcome.actor_id, weight, why)
        for trait in persona.traits:
            if trait.on in ("person", "item", "place") and _touches(outcome, trait.on, trait.ref):
                what = names.get(trait.ref) or outcome.item_name or outcome.destination_name or "it"
                why = f"{what} came up in {actor}'s action, which {npc.name} witnessed"
                add(trait, "interest", index, outcome.actor_id, 2, why)
    for trait in persona.traits:
        if trait.on == "thread" and trait.ref in retrieved and trait.ref in known:
            by = _party_actor(request)
            add(trait, "interest", None, by, 2, f"the {trait.ref} matter came up and {npc.name} knows of it")
    return out


def _witnessed(request: NarrationRequest, index: int | None) -> set[str]:
    """Refs of this round an NPC present saw: everyone and everything its outcomes named."""
    out: set[str] = set()
    for outcome in request.outcomes:
        if outcome.outcome == "refused":
            continue
        out.update(
            x for x in (outcome.actor_id, outcome.target_id, outcome.item_id, outcome.destination_id) if x
        )
    out.add(request.location.id)
    return out


def _party_actor(request: NarrationRequest) -> str | None:
    return next((o.actor_id for o in request.outcomes if o.actor_is_pc), None)


def _render(c: _Candidate, rng: random.Random, used: set[str]) -> VoiceLine:
    persona = c.npc.voice
    assert persona is not None
    if not c.line:  # a stock line, never the same one twice in a round
        options = [line for line in _STOCK[c.event] if line not in used] or list(_STOCK[c.event])
        c = replace(c, line=rng.choice(options))
        used.add(c.line)
    address = persona.address_for(c.by, c.by_name) or c.by_name
    address = re.sub(r"^(?:the|a|an)\s+", "", address, flags=re.I)
    short = c.npc.name.split()[-1] if len(c.npc.name.split()) > 1 else c.npc.name
    fields = {"actor": c.by_name, "address": address, "npc": c.npc.name, "npc_short": short}
    line = " ".join(c.line.format_map(fields).split())
    if c.says:
        # '“Line,” Old Wei replies.': the speaker after the quote, so the checker never credits the line to a
        # name that happens to follow it (a PC acting next would be taken for the speaker).
        verb = rng.choice(_SAYS.get(c.event, _SAYS["interest"]))
        line = line[0].upper() + line[1:]
        line = line[:-1] + "," if line.endswith(".") else line if line[-1] in "!?" else line + ","
        text = f"“{line}” {c.npc.name} {verb}."
    else:
        text = line[0].upper() + line[1:]
        text = text if text[-1] in ".!?" else text + "."
    attitude = f"{c.attitude:+d}"
    return VoiceLine(
        npc_id=c.npc.id,
        npc_name=c.npc.name,
        trigger=c.trigger,
        cause=c.cause,
        by=c.by,
        attitude=c.attitude,
        why=f"{c.why} (attitude {attitude})",
        text=text,
    )
