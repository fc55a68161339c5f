"""The offline narrator's prose: phrasings, how outcomes group into beats, recalled matters told as memory.

A *beat* is one or two sentences that tell one or more outcomes: a lone action, an exchange of blows (a
riposte or two blows on one foe), a party moving together, a stand-off. Every outcome of a round lands in
exactly one beat (the refused turn of the already dead is the only thing left untold), in initiative order.
Everything is present tense and third person; second person only in a private note.

Rules the phrasings keep, because the ledger's checker reads them: a miss, failure or refusal never claims a
success ("hit", "strike", "lands", damage); a target is never the subject of a sentence (it may be down or
dead by now); down and death use the checker's plain phrases ("drops unconscious", "dies"); a recalled record
is framed as memory ("remembers", "recalls") so it reads as recalled, not as news. No ids, brackets or raw
records: a record whose words still hold an id is not woven in at all.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.narrator.base import ActionOutcome, NarrationRequest, RetrievedRecord, SceneCreature
from bot.narrator.speech import reported_speech
from rules.resolution import hit_points

# Placeholders: {actor} {target} {item} {dest} {skill} {ability} {dmg} {qty} {weapon} {on_target}
# {from_target} {effect} {speech} {plan} {reason}. Every phrasing opens with the actor's name.
PHRASES: dict[str, tuple[str, ...]] = {
    "attack.hit": (
        "{actor} strikes {target}{weapon}, dealing {dmg}",
        "{actor} finds an opening and hits {target}{weapon} for {dmg}",
        "{actor} hits {target}{weapon} for {dmg}",
        "{actor} lands a solid blow on {target}{weapon} for {dmg}",
    ),
    "attack.critical": (
        "{actor} lands a devastating blow on {target}{weapon}, a critical hit for {dmg}",
        "{actor} times a strike on {target}{weapon} perfectly, a critical hit for {dmg}",
    ),
    "attack.miss": (
        "{actor} attacks {target}{weapon} but misses",
        "{actor} swings at {target}{weapon} and finds only air",
        "{actor} goes for {target}{weapon}, and the attack goes wide",
        "{actor} presses {target}{weapon} without connecting",
    ),
    "attack.fumble": (
        "{actor} overreaches against {target}{weapon} and misses badly",
        "{actor} fumbles the attack on {target}{weapon} and misses entirely",
    ),
    "attack.partial": ("{actor} only grazes {target}{weapon}, {dmg}",),
    "ability.hit": (
        "{actor} hits {target} with {ability} for {dmg}",
        "{actor} turns {ability} on {target}, dealing {dmg}",
        "{actor} unleashes {ability} at {target} for {dmg}",
    ),
    "ability.critical": (
        "{actor} unleashes {ability} on {target} with full force, a critical hit for {dmg}",
        "{actor} strikes {target} with {ability} perfectly, a critical hit for {dmg}",
    ),
    "ability.miss": (
        "{actor} turns {ability} on {target}, but it misses",
        "{actor} sends {ability} at {target}, and it goes wide",
    ),
    "ability.fumble": ("{actor} loses control of {ability}, and it misses {target} completely",),
    "ability.partial": (
        "{actor} turns {ability} on {target}, which does not take full hold yet deals {dmg}",
        "{actor} catches {target} at the edge of {ability}, still dealing {dmg}",
    ),
    "ability.success": (
        "{actor} calls on {ability}{on_target}{effect}",
        "{actor} uses {ability}{on_target}{effect}",
    ),
    "ability.failure": (
        "{actor} calls on {ability}{on_target}, but it has no effect",
        "{actor} tries {ability}{on_target}, and it fails to take hold",
    ),
    "check.success": (
        "{actor} puts {skill} to work{on_target}, and it pays off",
        "{actor} tries {skill}{on_target} and comes through",
        "{actor} brings {skill} to bear{on_target}, to good effect",
    ),
    "check.failure": (
        "{actor} tries {skill}{on_target}, to no avail",
        "{actor} brings {skill} to bear{on_target}, but it comes up short",
        "{actor} attempts {skill}{on_target}, but it does not work out",
    ),
    "use_item.success": (
        "{actor} uses the {item}{on_target}{effect}",
        "{actor} puts the {item} to use{on_target}{effect}",
    ),
    "use_item.failure": (
        "{actor} tries the {item}{on_target}, without effect",
        "{actor} fumbles with the {item}{on_target}, and it comes to nothing",
    ),
    "give.success": (
        "{actor} hands {qty}{item} to {target}",
        "{actor} passes {qty}{item} across to {target}",
        "{actor} gives {qty}{item} to {target}",
    ),
    "give.failure": ("{actor} offers {qty}{item} to {target}, but it does not change hands",),
    "take.success": (
        "{actor} takes the {item}{from_target}",
        "{actor} picks up the {item}{from_target}",
        "{actor} snatches up the {item}{from_target}",
    ),
    "take.failure": (
        "{actor} reaches for the {item}{from_target} but comes away empty-handed",
        "{actor} tries to take the {item}{from_target} and fails",
    ),
    "move.success": ("{actor} heads for {dest}", "{actor} sets off for {dest}", "{actor} goes to {dest}"),
    "move.failure": (
        "{actor} sets out for {dest} but does not get there",
        "{actor} tries to reach {dest}, but the way is barred",
    ),
    "talk.success": (
        "{actor} {speech}",
        "{actor} steps closer and {speech}",
        "{actor} leans in and {speech}",
    ),
    "talk.failure": (
        "{actor} {speech}, but the words do not sway {target}",
        "{actor} {speech}, but it does not win {target} over",
    ),
    "help.success": (
        "{actor} helps {target}, giving an edge on the next attempt",
        "{actor} lends {target} a hand, setting up the next try",
    ),
    "help.failure": ("{actor} tries to help {target}, but it makes no difference",),
    "hold.success": (
        "{actor} holds position",
        "{actor} waits and watches",
        "{actor} stays put for now",
        "{actor} bides the moment",
    ),
    "refused": (
        "{actor} means to {plan}, but it does not happen: {reason}",
        "{actor} cannot {plan}: {reason}",
    ),
    "refused.dead_target": ("{actor} turns to {plan}, but {target} is already dead",),
    "died": ("{target} dies", "{target} is slain", "{target} collapses, dead"),
    "down": ("{target} drops unconscious", "{target} falls unconscious", "{target} is knocked out"),
    "healed": ("{target} regains {healing}",),
    "contest": (
        "{contester} contests it, and {winner} comes out on top, {detail}",
        "It comes down to a contest with {contester}, and {winner} prevails, {detail}",
    ),
    "contest.bare": (
        "{contester} contests it, and {winner} comes out on top",
        "It comes down to a contest with {contester}, and {winner} prevails",
    ),
    "contest_tie": (
        "{contester} contests it, and neither gives way, so it stays where it was",
        "It comes down to a contest with {contester}, a dead heat: nobody gets it",
    ),
    "quiet": (
        "A quiet moment passes at {place}. No one acts.",
        "At {place}, the round passes without action.",
    ),
}
#: Groups: several PCs moving to one place, several holding.
GROUPS: dict[str, tuple[str, ...]] = {
    "move": ("{names} head for {dest} together", "{names} set off for {dest}", "{names} make for {dest}"),
    "hold": ("{names} hold their ground", "{names} wait and watch", "{names} stay where they are"),
}
#: How a place opens the first beat.
PLACE_OPENERS: tuple[str, ...] = ("At {place}, ", "Over at {place}, ", "Here at {place}, ")
FIGHT_OPENERS: tuple[str, ...] = ("Blows fly at {place}. ", "At {place}, the fight is on. ", "")
#: Joins the second half of an exchange: a riposte, or a second blow on the same foe.
RIPOSTES: tuple[str, ...] = ("; in answer, ", "; at once ", "; without a pause, ", "; a heartbeat later, ")
FOLLOW_UPS: tuple[str, ...] = ("; then ", "; close behind, ", "; and ")
#: Openers some later beats get, never the same twice in a round.
CONNECTIVES: tuple[str, ...] = ("Meanwhile, ", "Then ", "Nearby, ", "A moment later, ", "At the same time, ")

# What a refused action was going to be, for "X means to <plan>, but it does not happen".
PLANS: dict[str, str] = {
    "attack": "attack {target}",
    "ability": "use {ability}{on_target}",
    "check": "try {skill}{on_target}",
    "use_item": "use the {item}",
    "give": "give {qty}{item} to {target}",
    "take": "take the {item}{from_target}",
    "move": "go to {dest}",
    "talk": "speak to {target}",
    "help": "help {target}",
    "hold": "hold position",
}
_SUCCESS_LIKE = {"success", "done", "hit", "critical"}
_FAILURE_LIKE = {"failure", "miss", "fumble"}
#: A ledger id or a record ref: never shown in narration.
ID_PATTERN = re.compile(
    r"\b(?:pc|npc|monster|loc|item|ev|favor|favour|debt|oath|bounty|prophecy|quest|round)-[a-z0-9][\w.#-]*\b",
    re.I,
)
_THREAD_REF = re.compile(r"^(favor|favour|debt|oath|bounty|prophecy|quest)-\d+-\d+$")
_THREAD_HEAD = re.compile(r"^\S+ \((?P<kind>[\w ]+), (?P<status>\w+), since session \d+\): ")
_KIND_WORDS = {"favor": "favour", "favour": "favour", "quest": "quest", "prophecy": "prophecy"}


class Picker:
    """Chooses phrasings with the round's own ``random.Random``, preferring ones not used yet this round."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._used: set[str] = set()

    def pick(self, options: Sequence[str]) -> str:
        """One of ``options``, never one already used this round while a fresh one is left."""
        fresh = [option for option in options if option not in self._used]
        choice = self.rng.choice(fresh or list(options))
        self._used.add(choice)
        return choice

    def phrase(self, key: str) -> str:
        """A phrasing of :data:`PHRASES` ``key``."""
        return self.pick(PHRASES[key])


@dataclass(frozen=True)
class Beat:
    """One or two sentences telling ``causes`` (outcome indexes); ``essential`` beats are never cut."""

    causes: tuple[int, ...]
    text: str
    essential: bool = False


def slug_to_name(value: str) -> str:
    """Turn an id-like ``fire-bolt`` into ``Fire Bolt``; leave real names alone."""
    if " " not in value and ("-" in value or "_" in value or value.islower()):
        return " ".join(part.capitalize() for part in re.split(r"[-_]", value) if part)
    return value


def sentence(text: str) -> str:
    """Collapse whitespace, capitalise the first letter, end with punctuation (a quote may close it)."""
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if text[-1] in '”"' and len(text) > 1 and text[-2] in ".!?":
        return text
    if text[-1] not in ".!?":
        text += "."
    return text


def dead_actors_turn(outcome: ActionOutcome) -> bool:
    """True for the refused turn of a creature that was already dead when its turn came."""
    reason = (outcome.refusal_reason or "").strip().rstrip(".")
    return outcome.outcome == "refused" and reason == f"{outcome.actor_name} is dead"


def essential(outcome: ActionOutcome) -> bool:
    """A result a player must read even in a cut post: a hit, damage, someone down or dead."""
    if outcome.outcome == "refused":
        return False
    hit = outcome.kind in ("attack", "ability") and outcome.outcome in ("hit", "critical")
    return hit or outcome.damage > 0 or outcome.target_down or outcome.target_died


def phrase_key(outcome: ActionOutcome) -> str:
    """Pick the phrase family: attacks keep hit/miss/critical/fumble; other kinds read as success/failure."""
    kind, result = outcome.kind, outcome.outcome
    if kind in ("attack", "ability") and result in _FAILURE_LIKE and outcome.damage:
        return f"{kind}.partial"
    if kind == "attack":
        if result in ("hit", "critical", "miss", "fumble"):
            return f"attack.{result}"
        return "attack.hit" if result in _SUCCESS_LIKE else "attack.miss"
    if kind == "ability" and result in ("hit", "critical", "miss", "fumble"):
        if result in ("hit", "critical") and not outcome.damage:
            return "ability.success"
        return f"ability.{result}"
    if kind == "hold":
        return "hold.success"
    family = "success" if result in _SUCCESS_LIKE else "failure"
    key = f"{kind}.{family}"
    return key if key in PHRASES else f"{kind}.success"


def fields(outcome: ActionOutcome, names: dict[str, str]) -> dict[str, str]:
    """The placeholders a phrase may use, all taken from the outcome (or the scene's names for its ids)."""
    target = outcome.target_name or names.get(outcome.target_id or "", "") or "the target"
    item = outcome.item_name or "item"
    damage = ""
    if outcome.damage:
        damage = f"{outcome.damage} {outcome.damage_type} damage" if outcome.damage_type else ""
        damage = damage or f"{outcome.damage} damage"
    has_target = bool(outcome.target_id or outcome.target_name)
    effect = ""
    if outcome.healing:
        who = target if has_target else outcome.actor_name
        effect = f", and {who} regains {hit_points(outcome.healing)}"
    elif outcome.damage:
        effect = f", dealing {damage}" if has_target else ""
    speech = ""
    if outcome.kind == "talk":
        listener = outcome.target_name if has_target else None
        speech = reported_speech(outcome.submitted_text, listener, speaker=outcome.actor_name)
    return {
        "actor": outcome.actor_name,
        "target": target,
        "item": item,
        "weapon": f" with the {outcome.item_name}" if outcome.kind == "attack" and outcome.item_name else "",
        "dest": outcome.destination_name or names.get(outcome.destination_id or "", "") or "another place",
        "skill": slug_to_name(outcome.skill) if outcome.skill else "a skill",
        "ability": slug_to_name(outcome.ability_name) if outcome.ability_name else "an ability",
        "dmg": damage or "no damage",
        "qty": f"{outcome.quantity} " if outcome.quantity > 1 else "the ",
        "on_target": f" on {target}" if has_target else "",
        "from_target": f" from {target}" if has_target else "",
        "effect": effect,
        "speech": speech,
    }


def _reason(outcome: ActionOutcome) -> str:
    """Why a refused action did not happen, in the narrator's third person; ids and brackets are not shown.

    The rules speak to the player ("You do not hold that"); the channel hears "Greyrock does not hold that".
    """
    reason = " ".join((outcome.refusal_reason or "").split()).strip().rstrip(".")
    if not reason or ID_PATTERN.search(reason) or re.search(r"[\[\](){}<>\"“”]", reason):
        return "the rules do not allow it"
    reason = reason.split(". ", 1)[0]
    for said, told in _SECOND_PERSON:
        reason = re.sub(said, told.replace("{actor}", outcome.actor_name), reason)
    if re.search(r"\b(you|your|yours|yourself|i|me|my)\b", reason, re.I):
        return "the rules do not allow it"
    first = reason.split(" ", 1)[0]
    return reason[0].lower() + reason[1:] if first in _PLAIN_OPENERS else reason


_SECOND_PERSON = (
    (r"^You do not\b", "{actor} does not"),
    (r"^You don't\b", "{actor} does not"),
    (r"^You are\b", "{actor} is"),
    (r"^You have\b", "{actor} has"),
    (r"^You cannot\b", "{actor} cannot"),
    (r"^You can't\b", "{actor} cannot"),
    (r"\byour\b", "{actor}'s"),
)
_PLAIN_OPENERS = frozenset({"The", "There", "It", "That", "This", "No", "Not", "Nothing", "Only", "A", "An"})


def clause(outcome: ActionOutcome, names: dict[str, str], rng: Picker) -> str:
    """The outcome's main clause, opening with the actor's name, without its consequences."""
    values = fields(outcome, names)
    if outcome.outcome == "refused":
        values["plan"] = PLANS[outcome.kind].format(**values)
        values["reason"] = _reason(outcome)
        if (outcome.refusal_reason or "").strip().rstrip(".") == f"{values['target']} is already dead":
            values["plan"] = values["target"] if outcome.kind == "talk" else values["plan"]
            return rng.phrase("refused.dead_target").format(**values)
        return rng.phrase("refused").format(**values)
    return rng.phrase(phrase_key(outcome)).format(**values)


def consequences(outcome: ActionOutcome, names: dict[str, str], rng: Picker, told: set[object]) -> list[str]:
    """What follows the clause: a contest's winner, healing told apart, a fall or a death."""
    if outcome.outcome == "refused":
        return []
    out: list[str] = []
    contest = outcome.contest
    if contest is not None:
        key = (frozenset({outcome.actor_id, contest.contested_by_id}), outcome.item_id)
        if key not in told:
            told.add(key)
            family = "contest" if contest.winner_id else "contest_tie"
            if family == "contest" and not contest.description:
                family = "contest.bare"
            out.append(
                rng.phrase(family).format(
                    contester=contest.contested_by_name,
                    winner=contest.winner_name,
                    detail=contest.description,
                )
            )
    template_has_effect = outcome.kind in ("ability", "use_item") and phrase_key(outcome).endswith("success")
    target = outcome.target_name or names.get(outcome.target_id or "", "") or "the target"
    if outcome.healing and not template_has_effect:
        healed = target if outcome.target_id or outcome.target_name else outcome.actor_name
        out.append(rng.phrase("healed").format(target=healed, healing=hit_points(outcome.healing)))
    if outcome.target_died:
        out.append(rng.phrase("died").format(target=target))
    elif outcome.target_down:
        out.append(rng.phrase("down").format(target=target))
    return out


def _combat(outcome: ActionOutcome) -> bool:
    return (
        outcome.kind in ("attack", "ability")
        and outcome.outcome != "refused"
        and bool(outcome.target_id or outcome.target_name)
        and outcome.contest is None
        and not outcome.healing
        and outcome.target_id != outcome.actor_id
    )


def _pairs(first: ActionOutcome, second: ActionOutcome) -> str | None:
    """How two blows read as one exchange: "riposte", "follow" (same foe), or None."""
    if not (_combat(first) and _combat(second)) or first.target_died or first.target_down:
        return None
    if second.actor_id == first.target_id and second.target_id == first.actor_id:
        return "riposte"
    if second.target_id == first.target_id and second.actor_id != first.actor_id:
        return "follow"
    return None


def _same_contest(first: ActionOutcome, second: ActionOutcome) -> bool:
    """The two sides of one opposed check (a scramble for the same item)."""
    a, b = first.contest, second.contest
    return (
        a is not None
        and b is not None
        and second.actor_id == a.contested_by_id
        and first.actor_id == b.contested_by_id
        and first.item_id == second.item_id
    )


def _join_names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def beats(request: NarrationRequest, rng: Picker, show_rolls: bool = False) -> list[Beat]:
    """The round's outcomes as beats, in initiative order, each outcome in exactly one beat."""
    names = {creature.id: creature.name for creature in request.creatures}
    outcomes = request.outcomes
    told: set[object] = set()
    out: list[Beat] = []
    i = 0
    while i < len(outcomes):
        outcome = outcomes[i]
        if dead_actors_turn(outcome):
            i += 1  # the dead do nothing: their plan is not news (the blow that killed them is)
            continue
        rolls = f" ({outcome.roll_line})" if show_rolls and outcome.roll_line else ""
        if outcome.target_died and outcome.target_id == outcome.actor_id:
            death = rng.phrase("died").format(target=outcome.actor_name)
            out.append(Beat((i,), sentence(death) + rolls, essential=True))
            i += 1
            continue
        group = _group(outcomes, i)
        if len(group) > 1:
            kind = outcome.kind
            who = _join_names([outcomes[j].actor_name for j in group])
            dest = fields(outcome, names)["dest"]
            text = rng.pick(GROUPS[kind]).format(names=who, dest=dest)
            out.append(Beat(tuple(group), sentence(text)))
            i = group[-1] + 1
            continue
        main = clause(outcome, names, rng)
        after = consequences(outcome, names, rng, told)
        nxt = outcomes[i + 1] if i + 1 < len(outcomes) else None
        if nxt is not None and _same_contest(outcome, nxt) and not show_rolls:
            parts = (main, *after, clause(nxt, names, rng), *consequences(nxt, names, rng, told))
            text = " ".join(sentence(part) for part in parts)
            out.append(Beat((i, i + 1), text, essential=essential(outcome) or essential(nxt)))
            i += 2
            continue
        how = _pairs(outcome, nxt) if nxt is not None and not show_rolls else None
        if nxt is not None and how is not None:
            joiner = rng.pick(RIPOSTES if how == "riposte" else FOLLOW_UPS)
            main = f"{main}{joiner}{clause(nxt, names, rng)}"
            after += consequences(nxt, names, rng, told)
            text = " ".join(sentence(part) for part in (main, *after))
            out.append(Beat((i, i + 1), text, essential=essential(outcome) or essential(nxt)))
            i += 2
            continue
        text = " ".join(sentence(part) for part in (main, *after)) + rolls
        out.append(Beat((i,), text, essential=essential(outcome)))
        i += 1
    return out


def _group(outcomes: Sequence[ActionOutcome], start: int) -> list[int]:
    """Consecutive successful moves to one place, or consecutive holds, by different actors."""
    first = outcomes[start]
    if first.outcome == "refused" or first.kind not in ("move", "hold") or first.target_died:
        return [start]
    if first.kind == "move" and first.outcome not in _SUCCESS_LIKE:
        return [start]
    group = [start]
    for j in range(start + 1, len(outcomes)):
        other = outcomes[j]
        same = (
            other.kind == first.kind
            and other.outcome == first.outcome
            and other.destination_id == first.destination_id
            and other.destination_name == first.destination_name
            and not other.target_died
            and other.actor_id not in {outcomes[k].actor_id for k in group}
        )
        if not same:
            break
        group.append(j)
    return group


def opener(request: NarrationRequest, rng: Picker) -> tuple[str, str]:
    """(a sentence before the first beat, a prefix for the first beat): the place, said once."""
    place = request.location.name
    fight = sum(1 for o in request.outcomes if _combat(o)) >= 2
    if fight:
        lead = rng.pick(FIGHT_OPENERS).format(place=place)
        if lead:
            return lead.strip(), ""
    first = request.outcomes[0] if request.outcomes else None
    if first is not None and first.kind == "move" and first.destination_name:
        return "", ""  # "At the harbour, Mira sets off for the harbour" reads wrong: the move says where
    return "", rng.pick(PLACE_OPENERS).format(place=place)


def connect(text: str, connective: str) -> str:
    """Prefix ``connective`` ("Meanwhile, ") to a beat that opens with a name."""
    return connective + text


# --- recalled matters ---------------------------------------------------------------------------------------

_NPC_MEMORY = (
    "{npc} remembers the {kind} well: {terms}.",
    "The {kind} is on {npc}'s mind, as everyone here recalls: {terms}.",
)
_NPC_OWED = (
    "{npc} remembers the {kind} {debtor} still owes.",
    "{npc} has a long memory, and recalls the {kind} {debtor} still owes.",
)
_PARTY_MEMORY = (
    "Everyone here remembers the {kind}: {terms}.",
    "The {kind} still stands, as the party well recalls: {terms}.",
    "No one has let the {kind} slip from memory: {terms}.",
)


@dataclass(frozen=True)
class Matter:
    """A recalled open thread, in words: its kind and its terms, with no ref, status or session."""

    ref: str
    kind: str
    terms: str


def matter_of(record: RetrievedRecord) -> Matter | None:
    """The open thread ``record`` holds, or None: closed, not a thread, or still carrying ids or brackets."""
    if not _THREAD_REF.match(record.ref):
        return None
    text = record.text.strip()
    head = _THREAD_HEAD.match(text)
    kind = record.ref.split("-", 1)[0]
    if head is not None:
        if head.group("status") != "open":
            return None
        kind = head.group("kind").split()[-1]
        text = text[head.end() :]
    elif re.search(r"\b(settled|broken|expired)\b", text.split(":", 1)[0]):
        return None
    text = re.sub(r"\s*\[[^\]]*\]\s*$", "", text).strip().rstrip(".")
    text = re.sub(r"\s*;\s*", ", and ", text)
    if not text or ID_PATTERN.search(text) or re.search(r"[\[\](){}<>\"“”]", text):
        return None
    return Matter(record.ref, _KIND_WORDS.get(kind, kind), text)


def mentions(haystack: str, name: str) -> bool:
    """True when ``name`` (or its last word, e.g. "Wei" of "Old Wei") appears as a word in ``haystack``."""
    candidates = {name.lower()}
    words = name.split()
    if len(words) > 1 and len(words[-1]) > 2:
        candidates.add(words[-1].lower())
    low = haystack.lower()
    return any(re.search(rf"\b{re.escape(candidate)}\b", low) for candidate in candidates)


def relevant_matter(request: NarrationRequest) -> tuple[Matter, RetrievedRecord] | None:
    """The best-ranked open thread naming someone acting or acted upon this round, unless told recently.

    Records arrive ranked (the decisive one first); one is enough to show the world remembers, and weaving
    more turns narration into a ledger dump. Old events are never woven in: told in the present tense they
    would read as news (a dead merchant "gives" something again), which the checker must refuse.
    """
    if not request.outcomes:
        return None
    involved: set[str] = set()
    for outcome in request.outcomes:
        if outcome.outcome == "refused":
            continue
        named = (outcome.actor_name, outcome.target_name, outcome.item_name, outcome.destination_name)
        involved.update(value for value in named if value)
    recent = " ".join(request.recent).lower()
    for record in request.records:
        matter = matter_of(record)
        if matter is None or _told_recently(matter, recent):
            continue
        if any(mentions(f"{matter.terms} {record.why}", name) for name in involved):
            return matter, record
    return None


def _told_recently(matter: Matter, recent: str) -> bool:
    """True when a recent narration already told this matter (its terms, or a memory of its kind)."""
    kind = re.escape(matter.kind)
    return matter.terms.lower() in recent or bool(
        re.search(rf"(remember|recall)[^.]*\b{kind}\b|\b{kind}\b[^.]*(remember|recall)", recent)
    )


def recalled(matter: Matter, record: RetrievedRecord, request: NarrationRequest, rng: Picker) -> str:
    """The matter as a sentence: remembered by an NPC present who knows it, else by everyone here."""
    holder = _rememberer(matter, record, request)
    if holder is not None:
        debtor = _debtor(matter, request)
        if debtor is not None and matter.kind in ("favour", "debt") and not mentions(debtor, holder.name):
            return rng.pick(_NPC_OWED).format(npc=holder.name, kind=matter.kind, debtor=debtor)
        return rng.pick(_NPC_MEMORY).format(npc=holder.name, kind=matter.kind, terms=matter.terms)
    return rng.pick(_PARTY_MEMORY).format(kind=matter.kind, terms=matter.terms)


def _rememberer(matter: Matter, record: RetrievedRecord, request: NarrationRequest) -> SceneCreature | None:
    for creature in request.creatures:
        if creature.is_pc or not creature.alive or creature.down:
            continue
        known = set(creature.knows) | set(creature.voice.knows if creature.voice else ())
        if matter.ref in known and mentions(f"{matter.terms} {record.why}", creature.name):
            return creature
    return None


def _debtor(matter: Matter, request: NarrationRequest) -> str | None:
    """The PC the terms say owes ("Greyrock owes one favour"), when one is in the scene."""
    for creature in request.creatures:
        if creature.is_pc and re.search(rf"\b{re.escape(creature.name)} owes\b", matter.terms):
            return creature.name
    return None
