"""The offline embedding function of the summary index, and the contract any other one meets.

:class:`HashingEmbedding` is the offline default: lowercased words plus word bigrams, feature-hashed with
BLAKE2b (never Python's salted ``hash()``) into 384 signed buckets and L2-normalised. Identical text gives
identical vectors in every process, with no model download.

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

import hashlib
import math
import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Any, Protocol

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

from ledger.recall.summaries import EmbeddingError

__all__ = [
    "DEFAULT_DIMS",
    "Embedder",
    "EmbeddingError",
    "HashingEmbedding",
    "cosine",
    "hashed_features",
]

DEFAULT_DIMS = 384
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


class Embedder(Protocol):
    """What the summary index needs: one vector per text, in order; raise (e.g. EmbeddingError) on failure."""

    def __call__(self, input: list[str], /) -> Sequence[Any]: ...


@lru_cache(maxsize=200_000)
def _bucket(feature: str, dims: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    # The low bits pick the bucket, the top bit the sign, so colliding features tend to cancel, not pile up.
    return value % dims, -1.0 if value >> 63 else 1.0


def hashed_features(text: str) -> list[str]:
    """Return the features of ``text``: its lowercased words, then ``"w1 w2"`` bigrams of adjacent words."""
    words = _WORD.findall(text.lower())
    return words + [f"{a} {b}" for a, b in pairwise(words)]


def _embed_one(text: str, dims: int) -> np.ndarray:
    vector = np.zeros(dims, dtype=np.float32)
    for feature in hashed_features(text):
        index, sign = _bucket(feature, dims)
        vector[index] += sign
    norm = float(np.linalg.norm(vector))
    if norm > 0:
        vector /= norm
    else:
        # Empty or symbol-only text: a fixed unit vector keeps cosine distance defined.
        vector[0] = 1.0
    return vector


@register_embedding_function
class HashingEmbedding(EmbeddingFunction[Documents]):
    """Deterministic, offline feature-hashing embedding (words + bigrams, ``dims`` buckets, L2-normalised)."""

    def __init__(self, dims: int = DEFAULT_DIMS) -> None:
        if not 8 <= dims <= 8192:
            raise ValueError(f"dims must be between 8 and 8192, got {dims}")
        self.dims = dims

    def __call__(self, input: Documents) -> Embeddings:
        return [_embed_one(text, self.dims) for text in input]

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
