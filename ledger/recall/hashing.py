"""The offline feature-hashing embedding without Chroma: what
:class:`ledger.recall.embeddings.HashingEmbedding` computes, for callers that must not pay for importing
Chroma (:mod:`ledger.recall.exact_summaries`).

Lowercased words plus word bigrams, feature-hashed with BLAKE2b (never Python's salted ``hash()``) into
``dims`` signed buckets and L2-normalised: identical text gives identical vectors in every process.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from itertools import pairwise

import numpy as np

DEFAULT_DIMS = 384
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


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


def embed_one(text: str, dims: int = DEFAULT_DIMS) -> np.ndarray:
    """The unit vector (float32) of ``text``; a fixed unit vector for text with no words."""
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


def embed_texts(texts: list[str], dims: int = DEFAULT_DIMS) -> list[np.ndarray]:
    """:func:`embed_one` of each text, in order."""
    return [embed_one(text, dims) for text in texts]


__all__ = ["DEFAULT_DIMS", "embed_one", "embed_texts", "hashed_features"]
