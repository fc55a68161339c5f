"""Embedding functions for the summary index, registered with Chroma so a reopened collection rebuilds them.

:class:`HashingEmbedding` is the offline default: lowercased words plus word bigrams, feature-hashed with
BLAKE2b (never Python's salted ``hash()``) into 384 signed buckets and L2-normalised. Identical text gives
identical vectors in every process, with no model download. :class:`OpenAICompatibleEmbedding` calls any
``/v1/embeddings`` endpoint (OpenAI, Ollama, vLLM, LM Studio) over plain HTTP, reading its key from an
environment variable; it uses ``httpx`` (a Chroma dependency) because the ledger never imports ``openai``.

Chroma rebuilds an embedding function from ``get_config()`` through ``build_from_config`` on every add, and a
fresh process can only do so after importing this module: :mod:`ledger.summaries` imports it for you.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

__all__ = [
    "DEFAULT_DIMS",
    "EmbeddingError",
    "HashingEmbedding",
    "OpenAICompatibleEmbedding",
    "cosine",
    "embedding_for",
    "hashed_features",
]

DEFAULT_DIMS = 384
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


class EmbeddingError(Exception):
    """An embedding endpoint failed or answered nonsense; the message is one line."""


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


@register_embedding_function
class OpenAICompatibleEmbedding(EmbeddingFunction[Documents]):
    """Embeddings from an OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

    The API key is read from the environment variable named ``api_key_env`` at call time (never stored in
    Chroma's config); a local server without auth works with the variable unset.
    """

    def __init__(
        self,
        *,
        base_url: str = "https://api.openai.com/v1",
        model: str = "text-embedding-3-small",
        api_key_env: str = "OPENAI_API_KEY",
        timeout_seconds: float = 30.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout_seconds = timeout_seconds

    def __call__(self, input: Documents) -> Embeddings:
        import httpx

        key = os.environ.get(self.api_key_env, "").strip()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            response = httpx.post(
                f"{self.base_url}/embeddings",
                json={"model": self.model, "input": list(input)},
                headers=headers,
                timeout=self.timeout_seconds,
            )
        except httpx.HTTPError as exc:
            raise EmbeddingError(f"embeddings endpoint {self.base_url} unreachable: {exc}") from None
        if response.status_code != 200:
            raise EmbeddingError(f"embeddings endpoint {self.base_url} answered HTTP {response.status_code}")
        try:
            rows = sorted(response.json()["data"], key=lambda row: row["index"])
            vectors = [np.asarray(row["embedding"], dtype=np.float32) for row in rows]
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(
                f"embeddings endpoint {self.base_url} answered an unexpected body: {exc}"
            ) from None
        if len(vectors) != len(input):
            raise EmbeddingError(f"asked for {len(input)} embeddings, got {len(vectors)}")
        return vectors  # type: ignore[return-value]

    @staticmethod
    def name() -> str:
        return "tablekeeper-openai-compatible"

    def get_config(self) -> dict[str, Any]:
        return {
            "base_url": self.base_url,
            "model": self.model,
            "api_key_env": self.api_key_env,
            "timeout_seconds": self.timeout_seconds,
        }

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> OpenAICompatibleEmbedding:
        return OpenAICompatibleEmbedding(
            base_url=str(config.get("base_url", "https://api.openai.com/v1")),
            model=str(config.get("model", "text-embedding-3-small")),
            api_key_env=str(config.get("api_key_env", "OPENAI_API_KEY")),
            timeout_seconds=float(config.get("timeout_seconds", 30.0)),
        )

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "l2", "ip"]

    def is_legacy(self) -> bool:
        return False


def embedding_for(
    provider: str = "hashing",
    *,
    model: str = "text-embedding-3-small",
    base_url: str = "https://api.openai.com/v1",
    api_key_env: str = "OPENAI_API_KEY",
) -> EmbeddingFunction[Documents]:
    """Return the embedding function for ``provider`` (``hashing`` or ``openai``), as ``[embeddings]`` says.

    Raises ``ValueError`` for an unknown provider.
    """
    if provider == "hashing":
        return HashingEmbedding()
    if provider == "openai":
        return OpenAICompatibleEmbedding(base_url=base_url, model=model, api_key_env=api_key_env)
    raise ValueError(f"unknown embedding provider {provider!r} (expected hashing or openai)")


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the cosine similarity of two vectors (1.0 = same direction)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
