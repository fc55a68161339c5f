"""The offline embedding function of the summary index, and the contract any other one meets.

:class:`HashingEmbedding` is the offline default: lowercased words plus word bigrams, feature-hashed with
BLAKE2b (never Python's salted ``hash()``) into 384 signed buckets and L2-normalised. Identical text gives
identical vectors in every process, with no model download. The hashing itself lives in
:mod:`ledger.recall.hashing` (no Chroma import); this module registers it with Chroma.

:class:`ledger.recall.summaries.SummaryIndex` takes any :class:`Embedder` (texts in, one vector each out) and
gives
Chroma the vectors itself. An OpenAI-compatible endpoint is the application's business: ``bot.embeddings``
builds that function from the openai SDK (batching, retries, timeouts), so the ledger never imports
``openai``; a failing endpoint raises :class:`EmbeddingError`, an
:class:`~ledger.recall.summaries.IndexUnavailable`.

:class:`HashingEmbedding` stays registered with Chroma so collections created by earlier versions (which
stored it in their configuration) reopen without a warning.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

from ledger.recall.hashing import DEFAULT_DIMS, embed_one, hashed_features
from ledger.recall.summaries import EmbeddingError

__all__ = [
    "DEFAULT_DIMS",
    "Embedder",
    "EmbeddingError",
    "HashingEmbedding",
    "cosine",
    "hashed_features",
]


class Embedder(Protocol):
    """What the summary index needs: one vector per text, in order; raise (e.g. EmbeddingError) on failure."""

    def __call__(self, input: list[str], /) -> Sequence[Any]: ...


@register_embedding_function
class HashingEmbedding(EmbeddingFunction[Documents]):
    """Deterministic, offline feature-hashing embedding (words + bigrams, ``dims`` buckets, L2-normalised)."""

    def __init__(self, dims: int = DEFAULT_DIMS) -> None:
        if not 8 <= dims <= 8192:
            raise ValueError(f"dims must be between 8 and 8192, got {dims}")
        self.dims = dims

    def __call__(self, input: Documents) -> Embeddings:
        return [embed_one(text, self.dims) for text in input]

    @staticmethod
    def name() -> str:
        return "tablekeeper-hashing"

    def get_config(self) -> dict[str, Any]:
        return {"dims": self.dims}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> HashingEmbedding:
        return HashingEmbedding(dims=int(config.get("dims", DEFAULT_DIMS)))

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "l2", "ip"]

    def is_legacy(self) -> bool:
        return False


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the cosine similarity of two vectors (1.0 = same direction)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
