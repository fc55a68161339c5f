"""Checked narration: draft, check, rewrite once, else the offline narration.

The loop, per round:

1. The narrator drafts (offline mode: the offline narrator does, and that draft is posted).
2. ``check(draft)`` (the caller's ledger assertion check and secret-leak check) and the repetition check run.
3. Any conflict or repetition gets exactly one rewrite: the conflicts become ``hints``, the bad draft goes on
   the ``avoid`` list, and the narrations it repeated leave ``recent`` so the model does not copy them again.
4. Still bad (or any :class:`NarrationError` at any step): the offline narration is posted instead, and the
   conflicts go back to the caller for the GM queue.

The offline draft is checked too. It is built from the results and is the last word, so it is always posted,
but never with a sentence the check flags: flagged sentences are dropped (each sentence is checked alone, then
the rest together), and the conflicts are reported to the GM. Every attempt is returned so the GM can see why.
"""

from __future__ import annotations

import functools
import inspect
import logging
import re
from collections.abc import Awaitable, Callable, Sequence

from bot.narrator.base import (
    ConflictNote,
    Draft,
    DraftSource,
    NarrationAttempt,
    NarrationError,
    NarrationOutcome,
    NarrationRequest,
    Narrator,
)
from bot.narrator.offline import OfflineNarrator
from bot.narrator.repetition import DEFAULT_THRESHOLD, WINDOW
from bot.narrator.repetition import bigrams as _bigrams

_log = logging.getLogger(__name__)

#: ``check(draft)`` may be sync or async; it returns the draft's conflicts (empty when the draft is fine).
DraftCheck = Callable[[Draft], Sequence[ConflictNote] | Awaitable[Sequence[ConflictNote]]]

REPETITION_HINT = "The previous draft repeated an earlier narration; tell this round in new words."
#: Extra seeds the offline narrator tries when its first phrasing repeats a recent narration.
OFFLINE_RESEEDS = 3
#: Posted when the check flags every sentence of the offline narration: it claims nothing.
NOTHING_SAFE_TO_TELL = "The round is resolved as the dice fell."
#: Sentences dropped one at a time (each costs one check per remaining sentence) before the cheaper cut.
_GREEDY_DROPS = 3
#: Where the offline narration's sentences end: after end punctuation (or a closing quote after it).
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|(?<=[.!?]”)\s+")


def split_sentences(text: str) -> list[str]:
    """The offline narration's sentences; an NPC's quoted line stays whole with the sentence around it."""
    out: list[str] = []
    for part in _SENTENCE_BREAK.split(text):
        if not part.strip():
            continue
        if out and out[-1].count("“") > out[-1].count("”"):
            out[-1] = f"{out[-1]} {part}"  # still inside a quote: "“Well, love? Out with it.”"
        else:
            out.append(part)
    return out


async def _run_check(check: DraftCheck, draft: Draft) -> tuple[ConflictNote, ...]:
    result = check(draft)
    if inspect.isawaitable(result):
        result = await result
    return tuple(result)


def _merge(*groups: Sequence[ConflictNote]) -> tuple[ConflictNote, ...]:
    seen: dict[tuple[str, str | None, str], ConflictNote] = {}
    for group in groups:
        for note in group:
            seen.setdefault((note.claim, note.refuted_by, note.message), note)
    return tuple(seen.values())


async def narrate_checked(
    request: NarrationRequest,
    *,
    narrator: Narrator | None,
    fallback: OfflineNarrator,
    check: DraftCheck,
    recent_texts: Sequence[str] | None = None,
    repetition_threshold: float = DEFAULT_THRESHOLD,
) -> NarrationOutcome:
    """Return the narration to post for ``request``, its source, the conflicts for the GM, and the attempts.

    ``narrator`` None means offline mode. ``recent_texts`` are the campaign's last narrations (newest last)
    for the repetition check; ``request.recent`` is used when it is None. Never raises a NarrationError.
    """
    recent = tuple(request.recent if recent_texts is None else recent_texts)
    attempts: list[NarrationAttempt] = []
    if narrator is None:
        return await _post_offline(
            request, fallback, check, recent, repetition_threshold, attempts, (), offline=True
        )

    first = await _attempt(narrator, request, "generated", check, recent, repetition_threshold, attempts)
    if first is not None and first[0] is not None:
        return NarrationOutcome(draft=first[0], source="generated", attempts=tuple(attempts))
    if first is None:  # the narrator failed outright: no rewrite, the offline narration goes out
        return await _post_offline(request, fallback, check, recent, repetition_threshold, attempts, ())

    _, bad_draft, conflicts, repeated = first
    hints = tuple(note.message for note in conflicts)
    if repeated:
        hints += (REPETITION_HINT,)
    rewrite = request.model_copy(
        update={
            "hints": request.hints + hints,
            "avoid": (*request.avoid, bad_draft.public_text, *repeated),
            "recent": tuple(text for text in request.recent if text not in repeated),
        }
    )
    # Repetition is measured against posted narrations only. The rejected draft was never posted, and a
    # rewrite that fixes just its bad sentence is meant to stay close to it; the checker judges the fix.
    second = await _attempt(narrator, rewrite, "regenerated", check, recent, repetition_threshold, attempts)
    if second is not None and second[0] is not None:
        return NarrationOutcome(draft=second[0], source="regenerated", conflicts=(), attempts=tuple(attempts))
    queued = _merge(conflicts, second[2] if second is not None else ())
    posted = await _post_offline(request, fallback, check, recent, repetition_threshold, attempts, queued)
    return _carrying_proposals(posted, second[1] if second is not None else bad_draft)


def _carrying_proposals(outcome: NarrationOutcome, replaced: Draft) -> NarrationOutcome:
    """The fallback ``outcome`` carrying the proposals of the model draft it ``replaced``.

    They are not posted with it: the table refuses them with the reason (``proposals_of``), so the GM sees
    them in ``/gm proposals`` instead of their vanishing without a word.
    """
    from bot.narrator.proposals import ProposingDraft, proposing_draft

    if not isinstance(replaced, ProposingDraft) or not (replaced.proposals or replaced.refused):
        return outcome
    draft = proposing_draft(outcome.draft, replaced.proposals, replaced.refused)
    return outcome.model_copy(update={"draft": draft})


_Tried = tuple[Draft | None, Draft, tuple[ConflictNote, ...], tuple[str, ...]]


async def _attempt(
    narrator: Narrator,
    request: NarrationRequest,
    label: DraftSource,
    check: DraftCheck,
    recent: Sequence[str],
    threshold: float,
    attempts: list[NarrationAttempt],
) -> _Tried | None:
    """Draft once and check it. None: the narrator or the check failed. Else (good draft or None, ...)."""
    try:
        draft = await narrator.narrate(request)
    except NarrationError as exc:
        _log.warning("narrator failed (%s): %s", label, exc)
        attempts.append(NarrationAttempt(source=label, error=f"{type(exc).__name__}: {exc}"))
        return None
    except Exception as exc:  # a narrator bug must not cost the round its narration
        _log.exception("narrator crashed (%s); using the offline narration", label)
        attempts.append(
            NarrationAttempt(source=label, error=f"narrator crashed: {type(exc).__name__}: {exc}")
        )
        return None
    draft = draft.model_copy(update={"source": label})
    try:
        conflicts = await _run_check(check, draft)
    except Exception as exc:  # the draft cannot be verified, so it must not be posted
        _log.exception("narration check failed; using the offline narration")
        attempts.append(NarrationAttempt(source=label, error=f"check failed: {type(exc).__name__}: {exc}"))
        return None
    repeated = repeated_of(draft.public_text, recent, threshold)
    attempts.append(NarrationAttempt(source=label, conflicts=conflicts, repetitive=bool(repeated)))
    good = draft if not conflicts and not repeated else None
    return good, draft, conflicts, repeated


@functools.lru_cache(maxsize=256)
def bigrams(text: str) -> frozenset[str]:
    """:func:`bot.narrator.repetition.bigrams`, remembered: the campaign's recent narrations are compared with
    every draft of every round, and normalising them again each time was a large part of a round's CPU."""
    return _bigrams(text)


def _similarity(first: str, second: str) -> float:
    """:func:`bot.narrator.repetition.similarity` over the remembered bigrams (the same Jaccard)."""
    a, b = bigrams(first), bigrams(second)
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def repeated_of(text: str, recent: Sequence[str], threshold: float = DEFAULT_THRESHOLD) -> tuple[str, ...]:
    """:func:`bot.narrator.repetition.repeated_of` over the remembered bigrams."""
    return tuple(old for old in recent[-WINDOW:] if _similarity(text, old) >= threshold)


async def _post_offline(
    request: NarrationRequest,
    fallback: OfflineNarrator,
    check: DraftCheck,
    recent: Sequence[str],
    threshold: float,
    attempts: list[NarrationAttempt],
    queued: tuple[ConflictNote, ...],
    *,
    offline: bool = False,
) -> NarrationOutcome:
    """The offline narration, reseeded when it repeats a recent one; checked, and posted regardless."""
    plain = request.model_copy(update={"hints": (), "avoid": ()})
    draft = await fallback.narrate(plain)
    if repeated_of(draft.public_text, recent, threshold):
        candidates = [draft]
        for step in range(1, OFFLINE_RESEEDS + 1):
            reseeded = plain.model_copy(update={"variety_seed": request.variety_seed + step})
            candidates.append(await fallback.narrate(reseeded))

        def closeness(candidate: Draft) -> float:
            return max((_similarity(candidate.public_text, old) for old in recent), default=0.0)

        draft = min(candidates, key=closeness)
    draft = draft.model_copy(update={"source": "fallback"})
    try:
        conflicts = await _run_check(check, draft)
        error = None
    except Exception as exc:  # the offline narration is posted even when it cannot be checked
        _log.exception("check of the offline narration failed")
        conflicts, error = (), f"check failed: {type(exc).__name__}: {exc}"
    if conflicts:
        _log.error("the offline narration conflicts with the ledger: %s", [c.message for c in conflicts])
        draft = await _without_flagged_sentences(draft, check)
    attempts.append(
        NarrationAttempt(
            source="fallback",
            conflicts=conflicts,
            repetitive=bool(repeated_of(draft.public_text, recent, threshold)),
            error=error,
        )
    )
    return NarrationOutcome(
        draft=draft,
        source="fallback",
        conflicts=_merge(queued, conflicts),
        attempts=tuple(attempts),
        offline=offline,
    )


async def _without_flagged_sentences(draft: Draft, check: DraftCheck) -> Draft:
    """``draft`` without the sentences ``check`` flags; :data:`NOTHING_SAFE_TO_TELL` if none is left.

    Each sentence is checked alone first (the offline narration names everyone, so a sentence stands on its
    own); if the rest still conflicts together, the sentence whose removal clears the most conflicts goes,
    one at a time (at most :data:`_GREEDY_DROPS`), and past that only the longest clean opening is kept. A
    check that fails here drops the sentence it failed on: unverified text is not posted.
    """

    async def flagged(sentences: Sequence[str]) -> int:
        try:
            found = await _run_check(check, draft.model_copy(update={"public_text": " ".join(sentences)}))
        except Exception:
            _log.exception("check of an offline sentence failed; the sentence is dropped")
            return 1_000_000
        return len(found)

    sentences = split_sentences(draft.public_text)
    kept = [sentence for sentence in sentences if not await flagged([sentence])]
    remaining = await flagged(kept) if kept else 0
    for _ in range(_GREEDY_DROPS):
        if not kept or not remaining:
            break
        scores = [await flagged(kept[:i] + kept[i + 1 :]) for i in range(len(kept))]
        best = min(range(len(kept)), key=scores.__getitem__)
        del kept[best]
        remaining = scores[best] if kept else 0
    if kept and remaining:  # still refuted together: keep the longest clean opening, one check per sentence
        prefix: list[str] = []
        for sentence in kept:
            if await flagged([*prefix, sentence]):
                break
            prefix.append(sentence)
        kept = prefix
    dropped = [sentence for sentence in sentences if sentence not in kept]
    _log.error("dropped from the offline narration: %s", dropped)
    public = " ".join(kept) or NOTHING_SAFE_TO_TELL
    voices = tuple(v for v in draft.voices if v.text in public)  # an NPC line that was cut did not wake
    return draft.model_copy(update={"public_text": public, "voices": voices})
