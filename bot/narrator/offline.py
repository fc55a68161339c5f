"""The deterministic narrator: the round told straight from the rules engine's outcomes.

It is the only narrator when no LLM is configured, and the fallback whenever an LLM draft fails, so it must
always be right before it is clever: each outcome in initiative order, a miss told as a miss, damage to the
named target, the dead fall, a refused action told as not happening. Within that it reads like a GM: blows
traded in one breath, a party moving together told once, a player's command told as the act ("tells Old Wei
that the pier will be empty"; see :mod:`bot.narrator.speech`), NPCs answering in their own voice
(:mod:`bot.narrator.voices`), and at most one recalled matter told as memory (:mod:`bot.narrator.prose`).
It names only what the request names and never shows an id, a bracket or a raw record. Phrasing varies by
``variety_seed`` (its own ``random.Random``, never the global one), so the same round always reads the same,
and consecutive rounds do not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.narrator.base import (
    MAX_PRIVATE_CHARS,
    MAX_PUBLIC_CHARS,
    ActionOutcome,
    Draft,
    NarrationRequest,
    VoiceLine,
)
from bot.narrator.discoveries import tell_reveal
from bot.narrator.prose import (
    CONNECTIVES,
    PHRASES,
    Picker,
    beats,
    opener,
    recalled,
    relevant_matter,
    sentence,
)
from bot.narrator.speech import clean_player_text, reported_speech
from bot.narrator.voices import wake

__all__ = ["OfflineNarrator", "clean_player_text", "reported_speech"]

_QUIET = PHRASES["quiet"]
_REVEAL = (
    "{name}, you alone notice: {text}",
    "Only you see it, {name}: {text}",
    "{name}, something only you catch: {text}",
)  # the discovery itself is prose from bot.narrator.discoveries
#: Chance that a later beat opens with a connective ("Meanwhile, "), never the same one twice a round.
_CONNECTIVE_ODDS = 0.35


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def _prefixed(prefix: str, text: str, outcome: ActionOutcome | None) -> str:
    """``prefix`` before a beat, keeping a lower-case name ("the goblin") lower-case after it."""
    if outcome is not None and outcome.actor_name[:1].islower() and text[:1].isupper():
        text = text[0].lower() + text[1:]
    return prefix + text


class OfflineNarrator:
    """Deterministic narration from the outcomes alone; the fallback that is always consistent.

    ``show_rolls`` appends each roll line in parentheses (console play, where no embed shows them); it is
    the only way a bracket reaches the text, and it keeps every action in a beat of its own.
    """

    def __init__(self, *, show_rolls: bool = False) -> None:
        self._show_rolls = show_rolls

    async def narrate(self, request: NarrationRequest) -> Draft:
        """Return the round's narration; never raises for a well-formed request."""
        return self.narrate_now(request)

    def narrate_now(self, request: NarrationRequest) -> Draft:
        """Synchronous :meth:`narrate`, for the CLI and benchmarks."""
        rng = random.Random(request.variety_seed)
        # Each sentence with its weight when the post is too long: a hit, a fall or a death is never cut.
        body: list[tuple[str, str]] = []
        voices: tuple[VoiceLine, ...] = ()
        if request.arrivals:  # what the GM just added to the scene is heard first
            body.append((_arrivals(request), "opener"))
        if not request.outcomes:
            body.append((sentence(rng.choice(_QUIET).format(place=request.location.name)), "opener"))
        else:
            picker = Picker(rng)
            told = beats(request, picker, self._show_rolls)
            found = relevant_matter(request)
            voices = wake(request, recalled=(found[0].ref,) if found else ())
            lead, prefix = opener(request, picker)
            if lead:
                body.append((lead, "opener"))
            connectives = list(CONNECTIVES)
            rng.shuffle(connectives)
            for number, beat in enumerate(told):
                first = request.outcomes[beat.causes[0]]
                text = beat.text
                if number == 0 and prefix:
                    text = _prefixed(prefix, text, first)
                elif number > 0 and connectives and not beat.essential and rng.random() < _CONNECTIVE_ODDS:
                    text = _prefixed(connectives.pop(), text, first)
                body.append((text, "essential" if beat.essential else "action"))
                body.extend((v.text, "voice") for v in voices if v.cause in beat.causes)
            body.extend((v.text, "voice") for v in voices if v.cause is None)
            if found is not None:
                body.append((recalled(found[0], found[1], request, picker), "record"))
        public = _fit_weighted(body, MAX_PUBLIC_CHARS)
        notes = tuple(
            (
                reveal.player_id,
                _clip(
                    rng.choice(_REVEAL).format(
                        name=reveal.character_name, text=tell_reveal(reveal.text, reveal.character_name)
                    ),
                    MAX_PRIVATE_CHARS,
                ),
            )
            for reveal in request.reveals
        )
        kept = tuple(v for v in voices if v.text in public)
        return Draft(public_text=public, private_notes=notes, source="fallback", voices=kept)


def _arrivals(request: NarrationRequest) -> str:
    """``Marta Vell and the first bandit are here.``: the creatures the GM brought into the scene."""
    names = [name for _, name in request.arrivals]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{listed[:1].upper()}{listed[1:]} {'is' if len(names) == 1 else 'are'} here."


def _fit_weighted(body: Sequence[tuple[str, str]], limit: int) -> str:
    """Join sentences within ``limit``, cutting the least important first and never a hit or a death.

    ``body`` holds (sentence, weight), weight "opener", "essential", "action", "voice" or "record". Past the
    limit the record and NPC lines go first, then ordinary actions from the last back (counted in "N more
    actions are resolved as rolled"); only if hits and deaths alone still do not fit does :func:`_fit` cut.
    """
    sentences = [text for text, _ in body if text]
    if len(" ".join(sentences)) <= limit:
        return " ".join(sentences)
    kept = [(text, weight) for text, weight in body if text and weight not in ("record", "voice")]
    dropped = 0

    def joined() -> str:
        tail = f" {dropped} more actions are resolved as rolled." if dropped else ""
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
    for index, one in enumerate(sentences):
        rest = len(sentences) - index
        tail = f" {rest} more actions are resolved as rolled."
        if len(" ".join([*kept, one])) + len(tail) > limit:
            return _clip(" ".join(kept) + tail, limit)
        kept.append(one)
    return _clip(" ".join(kept), limit)
