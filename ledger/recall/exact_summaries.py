"""Summaries searched exactly in memory, by the rule the Chroma index follows: for a reader that asks once.

``tablekeeper recall`` on a file it has just loaded asks one scene and exits. Building the kept Chroma index
first (importing Chroma, opening a persistent client, one upsert of every summary) costs more than the rest
of the call together, and answers nothing the summaries in memory cannot: so that call searches them here
and the index is built by the next call on the same ledger (:meth:`SummaryIndex.sync_now`), then kept.

The answer is the index's: the summaries the viewer may see (:func:`~ledger.recall.summaries.split_by_scene`),
those mentioning the scene first, then the closest others, each group closest first by cosine distance
(``1 - cos``, as Chroma's cosine space), at most :data:`~ledger.recall.summaries.MAX_HITS`. Chroma's search
is approximate and this one exact, so they can differ only where the approximate one misses a neighbour.
No Chroma import here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ledger.recall.hashing import embed_texts
from ledger.recall.summaries import (
    MAX_HITS,
    EmbedFn,
    Scope,
    SummaryDoc,
    SummaryError,
    SummaryHit,
    split_by_scene,
)


class ExactSummaries:
    """A campaign's summaries (``docs``) with their vectors, answering :meth:`query` as the index would.

    ``embedding`` defaults to the offline hashing of :mod:`ledger.recall.hashing` (the index's default,
    without importing Chroma); vectors are computed on the first query, in one call.
    """

    def __init__(self, docs: Sequence[SummaryDoc], *, embedding: EmbedFn | None = None) -> None:
        for doc in docs:
            doc.check()
        self._docs = {d.id: d for d in docs}
        if len(self._docs) != len(docs):
            raise SummaryError("summary ids must be unique")
        self._embedding = embedding
        self._matrix: Any = None
        self._row = {sid: i for i, sid in enumerate(self._docs)}

    def _embed(self, texts: list[str]) -> Any:
        """Unit float32 rows, one per text (the offline hashing one unless an embedding was given)."""
        raw = embed_texts(texts) if self._embedding is None else self._embedding(texts)
        vectors = np.asarray([np.asarray(v, dtype=np.float32) for v in raw], dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms > 0, norms, 1.0)

    def query_now(
        self,
        *,
        campaign: str = "",
        text: str,
        visibilities: Iterable[str] | None = ("public", "party"),
        entities: Sequence[str] = (),
        n: int = MAX_HITS,
    ) -> tuple[SummaryHit, ...]:
        """Up to ``n`` (at most 5) summaries closest to ``text`` the viewer may see, the scene's first.

        ``campaign`` is accepted for the index's signature and ignored: these are one campaign's summaries.
        """
        if not 1 <= n <= MAX_HITS:
            raise SummaryError(f"n must be between 1 and {MAX_HITS}, got {n}")
        if not text.strip():
            raise SummaryError("query text is empty")
        if not self._docs:
            return ()
        if self._matrix is None:
            self._matrix = self._embed([d.text for d in self._docs.values()])
        question = self._embed([text])[0]
        scopes = ((d.id, Scope(d.visibility, frozenset(d.entities))) for d in self._docs.values())
        about, others = split_by_scene(scopes, visibilities, entities)
        hits: list[SummaryHit] = []
        for group in (about, others):
            if len(hits) >= n or not group:
                continue
            rows = np.asarray([self._row[sid] for sid in group])
            distances = 1.0 - self._matrix[rows] @ question
            order = np.lexsort((rows, distances))[: n - len(hits)]  # closest first, ties by position
            for i in order:
                doc = self._docs[group[int(i)]]
                hits.append(
                    SummaryHit(
                        id=doc.id,
                        text=doc.text,
                        session=doc.session,
                        scope=doc.scope,
                        event_ids=doc.event_ids,
                        entities=doc.entities,
                        visibility=doc.visibility,
                        distance=float(distances[int(i)]),
                    )
                )
        return tuple(hits)

    async def query(
        self,
        *,
        campaign: str = "",
        text: str,
        visibilities: Iterable[str] | None = ("public", "party"),
        entities: Sequence[str] = (),
        n: int = MAX_HITS,
    ) -> tuple[SummaryHit, ...]:
        """Async :meth:`query_now` (in a thread, as the index's)."""
        return await asyncio.to_thread(
            self.query_now,
            campaign=campaign,
            text=text,
            visibilities=None if visibilities is None else tuple(visibilities),
            entities=tuple(entities),
            n=n,
        )


__all__ = ["ExactSummaries"]
