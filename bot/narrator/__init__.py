"""Narration: the offline and LLM narrators, the prompt builder, and the checked narration pipeline.

Import the concrete parts from their modules (:mod:`.offline`, :mod:`.llm`, :mod:`.pipeline`); this package
re-exports only the light contract from :mod:`.base` so importing it never pulls in the openai SDK.
"""

from __future__ import annotations

from bot.narrator.base import (
    MAX_PUBLIC_CHARS,
    ActionOutcome,
    BudgetExceeded,
    ConflictNote,
    Contest,
    Draft,
    DraftTruncated,
    InvalidDraft,
    NarrationAttempt,
    NarrationError,
    NarrationOutcome,
    NarrationRequest,
    Narrator,
    NarratorTimeout,
    NarratorUnavailable,
    RetrievedRecord,
    Reveal,
    SceneCreature,
    SceneLocation,
    SceneSummary,
)

__all__ = [
    "MAX_PUBLIC_CHARS",
    "ActionOutcome",
    "BudgetExceeded",
    "ConflictNote",
    "Contest",
    "Draft",
    "DraftTruncated",
    "InvalidDraft",
    "NarrationAttempt",
    "NarrationError",
    "NarrationOutcome",
    "NarrationRequest",
    "Narrator",
    "NarratorTimeout",
    "NarratorUnavailable",
    "RetrievedRecord",
    "Reveal",
    "SceneCreature",
    "SceneLocation",
    "SceneSummary",
]
