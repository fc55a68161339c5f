"""The narration asks the summary index (Chroma) with no database connection held: under load a slow index
would otherwise keep pool connections (15) from every other campaign's round. A real Chroma client whose
collections note how many pool connections are checked out whenever they are queried."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import chromadb
from chromadb.config import Settings as ChromaClientSettings

from bot.config import parse_settings
from bot.table import Table
from ledger.recall.summaries import SummaryIndex
from tests.table_helpers import ALICE, GM, WHERE, Clock, RecordingCourier, seat_everyone


class WatchedChroma:
    """A real Chroma client; each query of its collections records the engine's checked-out connections."""

    def __init__(self, path: Path) -> None:
        self.real = chromadb.PersistentClient(
            path=str(path), settings=ChromaClientSettings(anonymized_telemetry=False)
        )
        self.checked_out: list[int] = []
        self.pool: Any = None

    def get_or_create_collection(self, **kwargs: Any) -> Any:
        return _WatchedCollection(self.real.get_or_create_collection(**kwargs), self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


class _WatchedCollection:
    def __init__(self, real: Any, owner: WatchedChroma) -> None:
        self._real = real
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if name != "query":
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self._owner.pool is not None:
                self._owner.checked_out.append(self._owner.pool.checkedout())
            return attr(*args, **kwargs)

        return call


async def test_the_summary_query_runs_with_no_connection_checked_out(
    database_url: str, tmp_path: Path
) -> None:
    chroma = WatchedChroma(tmp_path / "chroma")
    courier = RecordingCourier()
    data = {"storage": {"database_url": database_url, "data_dir": str(tmp_path / "data")}}
    rng = random.Random(5)
    table = await Table.create(
        parse_settings(data),
        courier=courier,
        seeds=lambda: rng.randrange(1, 2**53),
        clock=Clock(),
        summaries=SummaryIndex(chroma),  # type: ignore[arg-type]
    )
    try:
        await seat_everyone(table)
        chroma.pool = table.context.engine.sync_engine.pool
        await table.submit(WHERE, ALICE, key="k1", text="look around the tavern")
        report = await table.close_round(WHERE, GM)
        assert report.public_text
        assert chroma.checked_out, "the round's narration asked the summary index"
        assert set(chroma.checked_out) == {0}  # no connection held while Chroma answered
    finally:
        await table.aclose()
