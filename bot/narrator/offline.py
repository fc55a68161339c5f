"""The deterministic narrator: the round told straight from the rules engine's outcomes.

It is the only narrator when no LLM is configured, and the fallback whenever an LLM draft fails, so it must
always be right rather than clever: each outcome in initiative order, a miss told as a miss, damage to the
named target, the dead fall, a refused action told as not happening. It names only what the request names,
never posts a player's raw words (speech is reported indirectly, see :func:`reported_speech`), and weaves in
at most one retrieved record. Phrasing varies by ``variety_seed`` (its own ``random.Random``, never the global
one), so the same round always reads the same, and consecutive rounds do not.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Sequence

from bot.narrator.base import (
    MAX_PRIVATE_CHARS,
    MAX_PUBLIC_CHARS,
    ActionOutcome,
    Draft,
    NarrationRequest,
    RetrievedRecord,
)
from bot.text import clean_text

# Phrasings per situation. Placeholders: {actor} {target} {item} {dest} {skill} {ability} {dmg} {qty}.
# Miss, failure and refusal phrasings must never claim a success: no "hit", "strike", "lands" or damage.
# A target is never the subject of a sentence (it may be down or dead by now: "the thug takes 5 damage" reads
# as the thug acting), and down/death use the plain phrases the ledger's checker knows ("drops unconscious").
_PHRASES: dict[str, tuple[str, ...]] = {
    "attack.hit": (
        "{actor} strikes {target}{weapon}, dealing {dmg}.",
        "{actor}'s attack{weapon} lands on {target} for {dmg}.",
        "{actor} finds an opening and hits {target}{weapon}: {dmg}.",
        "{actor} hits {target}{weapon} for {dmg}.",
    ),
    "attack.critical": (
        "A critical hit: {actor} strikes {target}{weapon} for {dmg}.",
        "{actor} lands a devastating blow on {target}{weapon}, dealing {dmg}.",
        "{actor}'s attack{weapon} hits {target} perfectly: a critical for {dmg}.",
    ),
    "attack.miss": (
        "{actor} attacks {target}{weapon} but misses.",
        "{actor}'s attack{weapon} goes wide of {target}.",
        "{actor} swings at {target}{weapon} and finds only air.",
        "{actor}'s attack{weapon} misses {target}.",
    ),
    "attack.fumble": (
        "{actor} fumbles the attack on {target}{weapon} and misses badly.",
        "{actor}'s attack on {target}{weapon} goes badly wrong and misses entirely.",
    ),
    "ability.hit": (
        "{actor}'s {ability} strikes {target}, dealing {dmg}.",
        "{actor} hits {target} with {ability} for {dmg}.",
        "{actor}'s {ability} hits {target} for {dmg}.",
    ),
    "ability.critical": (
        "{actor}'s {ability} strikes {target} with full force: a critical for {dmg}.",
        "A critical hit: {actor}'s {ability} blasts {target} for {dmg}.",
    ),
    "ability.miss": (
        "{actor}'s {ability} misses {target}.",
        "{actor}'s {ability} goes wide of {target}.",
        "{actor} uses {ability}, but it misses {target}.",
    ),
    "ability.fumble": ("{actor}'s {ability} goes astray and misses {target} completely.",),
    # A failed save or a graze that still hurts: the result is a failure, but the damage is real.
    "ability.partial": (
        "{actor}'s {ability} still deals {dmg} to {target}, though not its full force.",
        "{actor}'s {ability} does not take full hold of {target}, yet deals {dmg}.",
    ),
    "attack.partial": ("{actor}'s attack{weapon} only grazes {target}: {dmg}.",),
    "ability.success": (
        "{actor} uses {ability}{on_target}{effect}.",
        "{actor} calls on {ability}{on_target}{effect}.",
        "With {ability}, {actor} acts{on_target}{effect}.",
    ),
    "ability.failure": (
        "{actor} uses {ability}{on_target}, but it has no effect.",
        "{actor}'s {ability}{on_target} fails to take hold.",
    ),
    "check.success": (
        "{actor} succeeds at {skill}{on_target}.",
        "{actor}'s {skill} attempt{on_target} succeeds.",
        "{actor} manages it: {skill}{on_target}, a success.",
    ),
    "check.failure": (
        "{actor} tries {skill}{on_target} but fails.",
        "{actor}'s {skill} attempt{on_target} falls short.",
        "{actor} attempts {skill}{on_target}, but it does not work out.",
    ),
    "use_item.success": (
        "{actor} uses the {item}{on_target}{effect}.",
        "{actor} puts the {item} to use{on_target}{effect}.",
        "{actor} makes use of the {item}{on_target}{effect}.",
    ),
    "use_item.failure": (
        "{actor} tries to use the {item}{on_target}, without effect.",
        "{actor}'s attempt to use the {item}{on_target} comes to nothing.",
    ),
    "give.success": (
        "{actor} hands {qty}{item} to {target}.",
        "{actor} gives {qty}{item} to {target}.",
        "{target} receives {qty}{item} from {actor}.",
    ),
    "give.failure": (
        "{actor} offers {qty}{item} to {target}, but it does not change hands.",
        "{actor} tries to give {qty}{item} to {target}; it does not change hands.",
    ),
    "take.success": (
        "{actor} takes the {item}{from_target}.",
        "{actor} picks up the {item}{from_target}.",
        "The {item} is now in {actor}'s hands{from_target}.",
    ),
    "take.failure": (
        "{actor} reaches for the {item}{from_target} but does not get it.",
        "{actor} tries to take the {item}{from_target} and fails.",
    ),
    "move.success": (
        "{actor} goes to {dest}.",
        "{actor} heads for {dest}.",
        "{actor} makes the way to {dest}.",
    ),
    "move.failure": (
        "{actor} tries to reach {dest} but does not get there.",
        "{actor} sets out for {dest}, but does not make it this round.",
    ),
    # Speech is reported, never quoted: {speech} is built by :func:`reported_speech` from the player's text.
    "talk.success": (
        "{actor} {speech}.",
        "{actor} steps up and {speech}.",
        "{actor} leans in and {speech}.",
    ),
    "talk.failure": (
        "{actor} {speech}. It does not sway {target}.",
        "{actor} {speech}. The words do not win {target} over.",
    ),
    "help.success": (
        "{actor} helps {target}, giving an edge on the next attempt.",
        "{actor} lends {target} a hand; {target} has advantage on the next try.",
        "With {actor}'s help, {target} is better placed for what comes next.",
    ),
    "help.failure": ("{actor} tries to help {target}, but it makes no difference.",),
    "hold.success": (
        "{actor} holds position.",
        "{actor} waits.",
        "{actor} stays put for now.",
        "{actor} bides the moment.",
    ),
    "refused": (
        "{actor} means to {plan}, but it does not happen: {reason}.",
        "{actor}'s attempt to {plan} does not happen: {reason}.",
        "{actor} cannot {plan}: {reason}.",
    ),
    # The target fell earlier in the round (the rules refused the action): said once, plainly.
    "refused.dead_target": ("{actor} turns to {plan}, but {target} is already dead.",),
    "died": (
        "{target} dies.",
        "{target} is slain.",
        "{target} collapses, dead.",
    ),
    "down": (
        "{target} drops unconscious.",
        "{target} falls unconscious.",
        "{target} is knocked out.",
    ),
    "healed": (
        "{target} regains {healing} hit points.",
        "{healing} hit points return to {target}.",
    ),
    "contest": (
        "{contester} contests it, and {winner} wins{detail}.",
        "It comes to a contest with {contester}; {winner} prevails{detail}.",
    ),
    "contest_tie": (
        "{contester} contests it; neither gives way, and it stays where it was{detail}.",
        "It comes to a contest with {contester}, a dead heat{detail}: nobody gets it.",
    ),
    "opener": (
        "At {place}:",
        "{place}.",
        "The scene: {place}.",
    ),
    "quiet": (
        "A quiet moment passes at {place}. No one acts.",
        "At {place}, the round passes without action.",
    ),
    "record": (
        # Each phrase marks the record as memory, so the checker reads it as recalled, not as news.
        "Not forgotten, the party remembers: {text}",
        "The ledger remembers: {text}",
        "An old account, recalled: {text}",
    ),
    "reveal": (
        "{name}, you alone notice: {text}",
        "Only you see it, {name}: {text}",
        "{name}, a private discovery: {text}",
    ),
}

# What a refused action was going to be, for "X means to <plan>, but it does not happen".
_PLANS: dict[str, str] = {
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

# Outcomes that are the same story for a kind: "done" reads as success; "hit" of a check reads as success.
_SUCCESS_LIKE = {"success", "done", "hit", "critical"}
_FAILURE_LIKE = {"failure", "miss", "fumble"}


def _slug_to_name(value: str) -> str:
    """Turn an id-like ``fire-bolt`` into ``Fire Bolt``; leave real names alone."""
    if " " not in value and ("-" in value or "_" in value or value.islower()):
        return " ".join(part.capitalize() for part in re.split(r"[-_]", value) if part)
    return value


def _sentence(text: str) -> str:
    """Collapse whitespace, capitalise the first letter ("the goblin falls" opens a sentence), end it."""
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if text.endswith('"') and len(text) > 1 and text[-2] in ".!?":
        return text
    if text[-1] not in ".!?:":
        text += "."
    return text


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


class OfflineNarrator:
    """Deterministic narration from the outcomes alone; the fallback that is always consistent.

    ``show_rolls`` appends each roll line in parentheses (useful in console play where no embed shows them).
    """

    def __init__(self, *, show_rolls: bool = False) -> None:
        self._show_rolls = show_rolls

    async def narrate(self, request: NarrationRequest) -> Draft:
        """Return the round's narration; never raises for a well-formed request."""
        return self.narrate_now(request)

    def narrate_now(self, request: NarrationRequest) -> Draft:
        """Synchronous :meth:`narrate`, for the CLI and benchmarks."""
        rng = random.Random(request.variety_seed)
        names = {creature.id: creature.name for creature in request.creatures}
        place = request.location.name
        # Each sentence with its weight when the post is too long: a hit, a fall or a death is never cut.
        body: list[tuple[str, str]] = []
        if not request.outcomes:
            body.append((_sentence(rng.choice(_PHRASES["quiet"]).format(place=place)), "opener"))
        else:
            body.append((_sentence(rng.choice(_PHRASES["opener"]).format(place=place)), "opener"))
            told: set[tuple[frozenset[str], str | None]] = set()  # contests already told once
            for outcome in request.outcomes:
                if _dead_actors_turn(outcome):
                    continue  # the dead do nothing: their plan is not news (the blow that killed them is)
                if outcome.target_died and outcome.target_id == outcome.actor_id:
                    # Died on their own turn (a third failed death save): said plainly, never left out.
                    death = rng.choice(_PHRASES["died"]).format(target=outcome.actor_name)
                    roll = f" ({outcome.roll_line})" if self._show_rolls and outcome.roll_line else ""
                    body.append((_sentence(death) + roll, "essential"))
                    continue
                text = self._tell(outcome, names, rng, told)
                body.append((text, "essential" if _essential(outcome) else "action"))
        record = _relevant_record(request)
        if record is not None:
            body.append(
                (_sentence(rng.choice(_PHRASES["record"]).format(text=record.text.strip())), "record")
            )
        public = _fit_weighted(body, MAX_PUBLIC_CHARS)
        notes = tuple(
            (
                reveal.player_id,
                _clip(
                    rng.choice(_PHRASES["reveal"]).format(
                        name=reveal.character_name, text=reveal.text.strip()
                    ),
                    MAX_PRIVATE_CHARS,
                ),
            )
            for reveal in request.reveals
        )
        return Draft(public_text=public, private_notes=notes, source="fallback")

    def _tell(
        self,
        outcome: ActionOutcome,
        names: dict[str, str],
        rng: random.Random,
        told: set[tuple[frozenset[str], str | None]] | None = None,
    ) -> str:
        """One outcome as one or more sentences, from its data only; a shared contest is told once."""
        fields = _fields(outcome, names)
        if outcome.outcome == "refused":
            fields["plan"] = _PLANS[outcome.kind].format(**fields)
            fields["reason"] = (outcome.refusal_reason or "the rules do not allow it").strip().rstrip(".")
            if fields["reason"] == f"{fields['target']} is already dead":
                # "Bram turns to Old Wei, but Old Wei is already dead": no talk with (or help for) the dead.
                fields["plan"] = fields["target"] if outcome.kind == "talk" else fields["plan"]
                parts = [rng.choice(_PHRASES["refused.dead_target"]).format(**fields)]
            else:
                parts = [rng.choice(_PHRASES["refused"]).format(**fields)]
        else:
            template = rng.choice(_PHRASES[_phrase_key(outcome)])
            parts = [template.format(**fields)]
            contest_key = (
                (frozenset({outcome.actor_id, outcome.contest.contested_by_id}), outcome.item_id)
                if outcome.contest is not None
                else None
            )
            if outcome.contest is not None and (told is None or contest_key not in told):
                if told is not None and contest_key is not None:
                    told.add(contest_key)
                contest = outcome.contest
                detail = f" ({contest.description})" if contest.description else ""
                key = "contest" if contest.winner_id else "contest_tie"
                parts.append(
                    rng.choice(_PHRASES[key]).format(
                        contester=contest.contested_by_name, winner=contest.winner_name, detail=detail
                    )
                )
            if outcome.healing and "{effect}" not in template:
                healed = fields["target"] if outcome.target_id or outcome.target_name else fields["actor"]
                phrase = rng.choice(_PHRASES["healed"])
                parts.append(phrase.format(target=healed, healing=outcome.healing))
            if outcome.target_died:
                parts.append(rng.choice(_PHRASES["died"]).format(**fields))
            elif outcome.target_down:
                parts.append(rng.choice(_PHRASES["down"]).format(**fields))
        text = " ".join(_sentence(part) for part in parts)
        if self._show_rolls and outcome.roll_line:
            text += f" ({outcome.roll_line})"
        return text


def _dead_actors_turn(outcome: ActionOutcome) -> bool:
    """True for the refused turn of a creature that was already dead when its turn came."""
    reason = (outcome.refusal_reason or "").strip().rstrip(".")
    return outcome.outcome == "refused" and reason == f"{outcome.actor_name} is dead"


def _essential(outcome: ActionOutcome) -> bool:
    """A result a player must read even in a cut post: a hit, damage, someone down or dead."""
    if outcome.outcome == "refused":
        return False
    hit = outcome.kind in ("attack", "ability") and outcome.outcome in ("hit", "critical")
    return hit or outcome.damage > 0 or outcome.target_down or outcome.target_died


def _phrase_key(outcome: ActionOutcome) -> str:
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
    return key if key in _PHRASES else f"{kind}.success"


def _fields(outcome: ActionOutcome, names: dict[str, str]) -> dict[str, str]:
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
        effect = f", and {who} regains {outcome.healing} hit points"
    elif outcome.damage:
        effect = f", dealing {damage}" if has_target else ""
    speech = ""
    if outcome.kind == "talk":
        speech = reported_speech(outcome.submitted_text, outcome.target_name if has_target else None)
    return {
        "actor": outcome.actor_name,
        "target": target,
        "item": item,
        "weapon": f" with the {outcome.item_name}" if outcome.kind == "attack" and outcome.item_name else "",
        "dest": outcome.destination_name or names.get(outcome.destination_id or "", "") or "another place",
        "skill": _slug_to_name(outcome.skill) if outcome.skill else "the check",
        "ability": _slug_to_name(outcome.ability_name) if outcome.ability_name else "an ability",
        "dmg": damage or "no damage",
        "qty": f"{outcome.quantity} " if outcome.quantity > 1 else "the ",
        "on_target": f" on {target}" if has_target else "",
        "from_target": f" from {target}" if has_target else "",
        "effect": effect,
        "speech": speech,
    }


# --- reported speech ------------------------------------------------------------------------------------
#
# A player's words are data, and the channel is the game's voice: a fake transcript marker, a mention or a
# markdown block typed into /act must never be posted as typed. The offline narrator reports speech in its
# own words: the player's opening verb becomes the PC's action ("ask Old Wei what the ship carries" -> "asks
# Old Wei what the ship carries"), and only a short question or topic clause of the first sentence is kept,
# cleaned of markup and control characters. Anything else is told as the bare act of speaking.

# Discord mentions, channel and emoji tags, @everyone/@here, links.
_MENTIONS = re.compile(r"<(?:@[!&]?|#|a?:\w+:)\d*>|@\w+|\b(?:https?|ftp)://\S+|\bwww\.\S+", re.I)
# Characters with a meaning in markdown or as quotes; removed, never escaped (an escaped mark is still shown).
_MARKUP = re.compile(r"[*_~`|>#<\[\]{}()\\\"“”„«»=+^$]")
# Where the first sentence (or clause) ends: sentence punctuation, a line break, a dash, an ellipsis.
_SENTENCE_END = re.compile(r"[.!?;:\n\r…]|\s[-–—]+\s|--")
_LEADING_SUBJECT = re.compile(
    r"^(?:(?:i|we)(?:'ll| will| want to| try to| would like to)?|let me|to)\s+", re.I
)

#: Opening verb (as the player types it) -> (the PC's verb, the word before the listener, the bare act).
_SPEECH_VERBS: dict[str, tuple[str, str, str]] = {
    "ask": ("asks", "", "asks {target} a question"),
    "enquire": ("asks", "", "asks {target} a question"),
    "inquire": ("asks", "", "asks {target} a question"),
    "question": ("questions", "", "questions {target}"),
    "interrogate": ("questions", "", "questions {target}"),
    "tell": ("tells", "", "speaks to {target}"),
    "say": ("speaks", "to", "speaks to {target}"),
    "speak": ("speaks", "to", "speaks to {target}"),
    "talk": ("talks", "to", "talks to {target}"),
    "chat": ("chats", "with", "chats with {target}"),
    "whisper": ("whispers", "to", "whispers to {target}"),
    "shout": ("shouts", "at", "shouts at {target}"),
    "call": ("calls out", "to", "calls out to {target}"),
    "greet": ("greets", "", "greets {target}"),
    "thank": ("thanks", "", "thanks {target}"),
    "warn": ("warns", "", "warns {target}"),
    "remind": ("reminds", "", "reminds {target}"),
    "explain": ("explains", "to", "explains something to {target}"),
    "beg": ("begs", "", "pleads with {target}"),
    "plead": ("pleads", "with", "pleads with {target}"),
    "persuade": ("tries to persuade", "", "tries to persuade {target}"),
    "convince": ("tries to convince", "", "tries to convince {target}"),
    "reason": ("reasons", "with", "reasons with {target}"),
    "negotiate": ("negotiates", "with", "negotiates with {target}"),
    "haggle": ("haggles", "with", "haggles with {target}"),
    "bargain": ("bargains", "with", "bargains with {target}"),
    "threaten": ("threatens", "", "threatens {target}"),
    "intimidate": ("tries to intimidate", "", "tries to intimidate {target}"),
    "lie": ("lies", "to", "lies to {target}"),
    "deceive": ("tries to deceive", "", "tries to deceive {target}"),
    "bluff": ("bluffs", "", "bluffs {target}"),
    "flatter": ("flatters", "", "flatters {target}"),
    "reassure": ("reassures", "", "reassures {target}"),
    "apologise": ("apologises", "to", "apologises to {target}"),
    "apologize": ("apologises", "to", "apologises to {target}"),
    "confront": ("confronts", "", "confronts {target}"),
    "accuse": ("accuses", "", "accuses {target}"),
    "promise": ("makes a promise", "to", "makes a promise to {target}"),
}
#: Clause openers kept after a verb: a question ("what the ship carries") or a topic ("about the ship").
_QUESTION_WORDS = frozenset(
    {"what", "where", "who", "whom", "whose", "why", "how", "when", "whether", "if", "which"}
)
_ASKING = frozenset({"asks", "questions"})
_TOPIC_WORDS = frozenset({"about"})
#: A kept clause ends at the first of these (what follows may be a second instruction, not the question).
_CLAUSE_BREAKS = frozenset({"and", "but", "then", "or", "so", "because", "while", "also", "plus"})
#: Words that mean one thing in the player's mouth and another in the narrator's: the clause is not kept.
_PERSONAL = frozenset(
    {
        "i",
        "i'm",
        "i'll",
        "i've",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "you",
        "your",
        "yours",
        "you're",
        "yourself",
        "ignore",
        "instruction",
        "instructions",
        "system",
        "prompt",
        "narrator",
        "transcript",
        "gm",
    }
)
_MAX_CLAUSE_WORDS = 12
#: Words allowed between the verb and the clause (the listener, named any way the player likes).
_MAX_LISTENER_WORDS = 5


def clean_player_text(text: str) -> str:
    """The first sentence of ``text`` as plain words: no escapes, control characters, markup or mentions."""
    text = unicodedata.normalize("NFKC", clean_text(text))  # the table's own escape and control filter
    text = _SENTENCE_END.split(text, maxsplit=1)[0]
    text = "".join(" " if unicodedata.category(char)[0] in ("C", "Z") else char for char in text)
    text = _MARKUP.sub(" ", _MENTIONS.sub(" ", text))
    words = [word.strip("'‘’,-") for word in text.split()]
    return " ".join(word for word in words if word)


def reported_speech(text: str, target: str | None) -> str:
    """How a PC's speech is told: the predicate after the speaker's name, e.g. "asks Old Wei what ...".

    ``text`` is the player's submission. The player's opening verb becomes the action; only a question or
    "about" clause of its first sentence is kept (at most :data:`_MAX_CLAUSE_WORDS` words, cut before any
    "and ..." that may carry a second instruction). Anything unrecognised is told as the bare act of speaking,
    so no markup, mention, escape or fake transcript line typed by a player is ever posted.
    """
    listener = target or ""
    plain = clean_player_text(text)
    question = text.strip().split("\n", 1)[0].rstrip().endswith("?")
    plain = _LEADING_SUBJECT.sub("", plain)
    words = plain.split()
    verb = words[0].casefold() if words else ""
    if verb.endswith("s") and verb[:-1] in _SPEECH_VERBS:
        verb = verb[:-1]  # "asks" typed as the PC's own action
    spec = _SPEECH_VERBS.get(verb)
    if spec is None:
        if question:
            return f"asks {listener} a question" if listener else "asks a question"
        return f"speaks to {listener}" if listener else "speaks up"
    told, preposition, bare = spec
    clause = _kept_clause(words[1:], asking=told in _ASKING)
    if not listener:
        if clause is not None:
            return f"{told} {clause}"
        return "asks a question" if told in _ASKING else "speaks up"
    if clause is None:
        return bare.format(target=listener)
    to = f"{preposition} " if preposition else ""
    return f"{told} {to}{listener} {clause}"


def _kept_clause(rest: Sequence[str], *, asking: bool) -> str | None:
    """The question or topic clause after the verb and the listener, or None when none is safe to keep."""
    openers = _TOPIC_WORDS | (_QUESTION_WORDS | {"for"} if asking else frozenset())
    lowered = [word.casefold() for word in rest]
    start = next((i for i, word in enumerate(lowered) if word in openers), None)
    if start is None or start > _MAX_LISTENER_WORDS:
        return None
    clause: list[str] = []
    for word, low in zip(rest[start:], lowered[start:], strict=True):
        if clause and low in _CLAUSE_BREAKS:
            break
        clause.append(word)
    if len(clause) < 2 or len(clause) > _MAX_CLAUSE_WORDS:
        return None
    if any(word.strip("'’") in _PERSONAL for word in lowered[start : start + len(clause)]):
        return None
    if not all(re.fullmatch(r"[\w'’-]{1,30}", word) for word in clause):
        return None
    return " ".join(clause)


_CLOSED = re.compile(r"\b(settled|broken|expired)\b")
_THREAD_PREFIXES = ("favor-", "favour-", "debt-", "oath-", "bounty-", "prophecy-", "quest-")


def _relevant_record(request: NarrationRequest) -> RetrievedRecord | None:
    """The best-ranked record that names someone acting or acted upon this round, unless told recently.

    Records arrive ranked (the decisive one first); one is enough to show the world remembers, and weaving
    more turns narration into a ledger dump.
    """
    if not request.outcomes:
        return None
    involved: set[str] = set()
    for outcome in request.outcomes:
        if outcome.outcome == "refused":
            continue
        named = (outcome.actor_name, outcome.target_name, outcome.item_name, outcome.destination_name)
        involved.update(value.lower() for value in named if value)
    recent = " ".join(request.recent).lower()
    for record in request.records:
        text = record.text.strip()
        if not text or text.lower() in recent:
            continue
        # Only open promises are woven in: an old event told in the present tense would read as news
        # (a dead merchant "gives" something again), which is exactly what the checker must refuse.
        if not record.ref.startswith(_THREAD_PREFIXES) or _CLOSED.search(text.split(":", 1)[0]):
            continue  # only promises still open are news worth weaving in
        haystack = f"{text} {record.why}".lower()
        if any(_mentions(haystack, name) for name in involved):
            return record
    return None


def _mentions(haystack: str, name: str) -> bool:
    """True when ``name`` (or its last word, e.g. "Wei" of "Old Wei") appears as a word in ``haystack``."""
    candidates = {name}
    words = name.split()
    if len(words) > 1 and len(words[-1]) > 2:
        candidates.add(words[-1])
    return any(re.search(rf"\b{re.escape(candidate)}\b", haystack) for candidate in candidates)


def _fit_weighted(body: Sequence[tuple[str, str]], limit: int) -> str:
    """Join sentences within ``limit``, cutting the least important first and never a hit or a death.

    ``body`` holds (sentence, weight) with weight "opener", "essential", "action" or "record". Past the limit
    the record goes first, then ordinary actions from the last back (counted in "N more actions resolved as
    rolled"); only if hits and deaths alone still do not fit does :func:`_fit` cut them in order.
    """
    sentences = [text for text, _ in body if text]
    if len(" ".join(sentences)) <= limit:
        return " ".join(sentences)
    kept = [(text, weight) for text, weight in body if text and weight != "record"]
    dropped = 0

    def joined() -> str:
        tail = f" ({dropped} more actions resolved as rolled.)" if dropped else ""
        return " ".join(text for text, _ in kept) + tail

    for index in range(len(kept) - 1, -1, -1):
        if len(joined()) <= limit:
            return joined()
        if kept[index][1] == "action":
            del kept[index]
            dropped += 1
    if len(joined()) <= limit:
        return joined()
    return _fit([text for text, _ in kept] + [""] * dropped, limit)


def _fit(sentences: Sequence[str], limit: int) -> str:
    """Join sentences; past ``limit`` keep whole sentences and say how many actions were left untold."""
    text = " ".join(sentences)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for index, sentence in enumerate(sentences):
        rest = len(sentences) - index
        tail = f" ({rest} more actions resolved as rolled.)"
        if len(" ".join([*kept, sentence])) + len(tail) > limit:
            return _clip(" ".join(kept) + tail, limit)
        kept.append(sentence)
    return _clip(" ".join(kept), limit)
