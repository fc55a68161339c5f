"""Repetition check: is a new narration too close to one of the campaign's last few?

Character bigrams after stripping whitespace and punctuation are cheap, language-agnostic and catch a model
that copies its previous narration with a word or two changed. Only the last :data:`WINDOW` narrations count:
an echo of something from an hour ago is a callback, not a loop.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

WINDOW = 4
DEFAULT_THRESHOLD = 0.6


def _normalise(text: str) -> str:
    """Lower-case the text and keep only letters and digits (whitespace and punctuation carry no echo)."""
    return "".join(char for char in text.casefold() if unicodedata.category(char)[0] in ("L", "N"))


def bigrams(text: str) -> frozenset[str]:
    """Return the set of character bigrams of ``text`` after normalisation."""
    flat = _normalise(text)
    return frozenset(flat[i : i + 2] for i in range(len(flat) - 1))


def similarity(first: str, second: str) -> float:
    """Return the Jaccard similarity (0..1) of the two texts' character bigrams; 0 when either is empty."""
    a, b = bigrams(first), bigrams(second)
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def repeated_of(text: str, recent: Sequence[str], threshold: float = DEFAULT_THRESHOLD) -> tuple[str, ...]:
    """Return which of the last :data:`WINDOW` narrations in ``recent`` ``text`` repeats."""
    return tuple(old for old in recent[-WINDOW:] if similarity(text, old) >= threshold)


def is_repetitive(text: str, recent: Sequence[str], threshold: float = DEFAULT_THRESHOLD) -> bool:
    """True when ``text`` is at least ``threshold`` similar to any of the last :data:`WINDOW` narrations."""
    return bool(repeated_of(text, recent, threshold))
