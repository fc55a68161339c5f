"""The summary index's embedding function, built from ``[embeddings]``: offline hashing or the openai SDK.

The ledger takes any function from texts to vectors (:class:`ledger.recall.embeddings.Embedder`) and never
imports
``openai``; this module builds the OpenAI-compatible one (OpenAI, Ollama, vLLM, LM Studio) from the SDK, which
brings bounded retries with backoff, timeouts and typed errors. Inputs are sent in batches of
``batch_size``. Every failure (down, HTTP 5xx after the retries, a reply with the wrong count) is raised as
:class:`ledger.recall.summaries.EmbeddingError`, so the index reports it as unavailable and the table plays
on.

The summary index calls it from a worker thread (Chroma is synchronous), so this is the synchronous client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ledger.recall.summaries import EmbeddingError

if TYPE_CHECKING:
    from openai import OpenAI

    from bot.config import EmbeddingSettings
    from ledger.recall.embeddings import Embedder

__all__ = ["OpenAIEmbedding", "embedding_from_settings"]

NO_KEY = "not-needed"  # a local server without auth still needs some key for the SDK


class OpenAIEmbedding:
    """Vectors from ``client.embeddings.create``, ``batch_size`` texts per request, in input order.

    ``max_retries`` is the SDK's retry of connection errors, timeouts, 429 and 5xx (with backoff); each try
    waits at most ``timeout`` seconds. Call :meth:`close` when done.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 20.0,
        max_retries: int = 2,
        batch_size: int = 64,
    ) -> None:
        from openai import OpenAI

        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.base_url = base_url
        self.model = model
        self.batch_size = batch_size
        self._client: OpenAI = OpenAI(
            base_url=base_url, api_key=api_key or NO_KEY, timeout=timeout, max_retries=max_retries
        )

    def __call__(self, input: Sequence[str], /) -> list[list[float]]:
        import openai

        texts = list(input)
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            try:
                reply = self._client.embeddings.create(model=self.model, input=batch)
            except openai.APIStatusError as err:
                raise EmbeddingError(
                    f"embeddings endpoint {self.base_url} answered HTTP {err.status_code}"
                ) from err
            except openai.APIError as err:  # connection refused, timeout, a body the SDK cannot read
                raise EmbeddingError(f"embeddings endpoint {self.base_url} unreachable: {err}") from err
            rows = sorted(reply.data, key=lambda row: row.index)
            if len(rows) != len(batch):
                raise EmbeddingError(f"asked {self.base_url} for {len(batch)} embeddings, got {len(rows)}")
            vectors.extend(list(row.embedding) for row in rows)
        return vectors

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()


def embedding_from_settings(settings: EmbeddingSettings, *, api_key: str | None = None) -> Embedder:
    """Return the embedding function ``[embeddings]`` asks for: ``hashing`` (offline) or ``openai``.

    The key comes from the environment variable ``api_key_env`` (may be unset for a local server).
    """
    if settings.provider == "hashing":
        from ledger.recall.embeddings import HashingEmbedding

        return HashingEmbedding()
    from bot.config import Settings

    return OpenAIEmbedding(
        base_url=settings.base_url,
        model=settings.model,
        api_key=api_key if api_key is not None else Settings.secret(settings.api_key_env),
        timeout=settings.timeout_seconds,
        max_retries=settings.max_retries,
        batch_size=settings.batch_size,
    )
