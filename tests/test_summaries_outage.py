"""The summary index may fail and the table keeps playing: rounds post from the ledger, the GM hears of it
once, session end completes, and the summaries that could not be indexed are indexed when the index is back.

Failures are injected with real parts: a real Chroma client whose collections raise Chroma's own error, an
embeddings endpoint (the local fake, through the real openai SDK) answering 500 or a port nobody listens on,
and a Chroma server that is not running.
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import chromadb
from chromadb.config import Settings as ChromaClientSettings
from chromadb.errors import InternalError

from bot.config import parse_settings
from bot.table import Table
from ledger.recall.retrieval import scene_context
from ledger.recall.summaries import SummaryIndex
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer
from tests.fake_llm import FakeLLM
from tests.table_helpers import ALICE, GM, HARBOR, WHERE, Clock, RecordingCourier, seat_everyone

OUTAGE = "summary index is unavailable"
BACK = "summary index is back"


class FlakyChroma:
    """A real Chroma client whose collections raise Chroma's own ``InternalError`` while ``down``."""

    def __init__(self, path: Path) -> None:
        self.real = chromadb.PersistentClient(
            path=str(path), settings=ChromaClientSettings(anonymized_telemetry=False)
        )
        self.down = True
        self.failures = 0

    def get_or_create_collection(self, **kwargs: Any) -> Any:
        return _FlakyCollection(self.real.get_or_create_collection(**kwargs), self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


class _FlakyCollection:
    def __init__(self, real: Any, owner: FlakyChroma) -> None:
        self._real = real
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if name not in ("upsert", "query", "count", "get"):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self._owner.down:
                self._owner.failures += 1
                raise InternalError("segment reader failed: disk I/O error")
            return attr(*args, **kwargs)

        return call


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _table(
    database_url: str,
    tmp_path: Path,
    courier: RecordingCourier,
    config: dict[str, Any] | None = None,
    **kw: Any,
) -> Table:
    data = {"storage": {"database_url": database_url, "data_dir": str(tmp_path / "data")}, **(config or {})}
    rng = random.Random(5)
    return await Table.create(
        parse_settings(data), courier=courier, seeds=lambda: rng.randrange(1, 2**53), clock=Clock(), **kw
    )


async def _states(table: Table, campaign_id: int) -> Counter[str]:
    from sqlmodel import select

    async with table.context.session() as s:
        rows = (await s.exec(select(m.Summary).where(m.Summary.campaign_id == campaign_id))).all()
    return Counter(r.index_state for r in rows)


async def _play_round(table: Table, courier: RecordingCourier, key: str) -> str:
    """Alice acts, the GM closes the round; return the narration the channel received."""
    before = len(courier.public)
    await table.submit(WHERE, ALICE, key=key, text="look around the tavern")
    report = await table.close_round(WHERE, GM)
    assert len(courier.public) == before + 1  # the round's story reached the channel
    assert report.public_text and report.public_text in courier.public[-1][2]
    return report.public_text


def _later(table: Table, minutes: float) -> None:
    """Move the table's clock on (the index rests a while after each failure)."""
    assert isinstance(table.clock, Clock)
    table.clock.advance(minutes)


def _gm_dms(courier: RecordingCourier, words: str) -> list[str]:
    return [text for user, text in courier.dms if user == GM.user_id and words in text]


async def test_rounds_post_and_the_session_ends_while_chroma_fails_then_the_queue_is_indexed(
    database_url: str, tmp_path: Path
) -> None:
    chroma = FlakyChroma(tmp_path / "chroma")
    courier = RecordingCourier()
    table = await _table(database_url, tmp_path, courier, summaries=SummaryIndex(chroma))  # type: ignore[arg-type]
    try:
        await seat_everyone(table)  # the harbour's history summaries cannot be indexed: the start goes on
        cid = (await table.campaign_status(WHERE, GM)).id
        history = (await _states(table, cid))["pending"]
        assert history > 0 and chroma.failures > 0
        failures = chroma.failures
        await _play_round(table, courier, "r1")
        assert chroma.failures == failures  # resting after the failure: the round did not wait on Chroma
        _later(table, 2)
        await _play_round(table, courier, "r2")
        assert chroma.failures > failures  # asked again after the rest, still down: the round posted anyway
        assert len(_gm_dms(courier, OUTAGE)) == 1  # told once for the outage, not once per round
        recap = await table.end_session(WHERE, GM)
        assert recap.session_number is not None and recap.text  # the summary was filed in the ledger
        assert await _states(table, cid) == Counter(pending=history + 1)  # ... and queued for the index

        chroma.down = False
        await table.start_session(WHERE, GM)
        _later(table, 30)
        await _play_round(table, courier, "r3")
        assert await _states(table, cid) == Counter(indexed=history + 1)
        index = table.summaries
        assert index is not None and await index.count(f"campaign-{cid}") == history + 1
        assert len(_gm_dms(courier, BACK)) == 1 and len(_gm_dms(courier, OUTAGE)) == 1
    finally:
        await table.aclose()


async def test_an_embeddings_endpoint_answering_500_queues_summaries_until_it_is_back(
    database_url: str, tmp_path: Path, fake_llm: FakeLLM
) -> None:
    fake_llm.embeddings_status = 500
    config = {"embeddings": {"provider": "openai", "base_url": fake_llm.base_url, "max_retries": 0}}
    courier = RecordingCourier()
    table = await _table(database_url, tmp_path, courier, config)
    try:
        await seat_everyone(table)
        cid = (await table.campaign_status(WHERE, GM)).id
        history = (await _states(table, cid))["pending"]
        assert history > 0
        await _play_round(table, courier, "r1")
        await table.end_session(WHERE, GM)
        assert await _states(table, cid) == Counter(pending=history + 1)
        assert len(_gm_dms(courier, OUTAGE)) == 1 and "HTTP 500" in _gm_dms(courier, OUTAGE)[0]

        fake_llm.embeddings_status = 200
        await table.start_session(WHERE, GM)
        _later(table, 30)
        await _play_round(table, courier, "r2")
        assert await _states(table, cid) == Counter(indexed=history + 1)
        hits = await table.summaries.query(  # type: ignore[union-attr]
            campaign=f"campaign-{cid}", text="Old Wei favour", visibilities=None
        )
        assert hits  # found through the endpoint's vectors
    finally:
        await table.aclose()


async def test_the_queue_outlives_a_restart_and_the_next_process_indexes_it(
    sqlite_url: str, tmp_path: Path, fake_llm: FakeLLM
) -> None:
    fake_llm.embeddings_status = 503
    config = {"embeddings": {"provider": "openai", "base_url": fake_llm.base_url, "max_retries": 0}}
    table = await _table(sqlite_url, tmp_path, RecordingCourier(), config)
    try:
        await seat_everyone(table)
        cid = (await table.campaign_status(WHERE, GM)).id
        queued = await _states(table, cid)
        assert set(queued) == {"pending"}
    finally:
        await table.aclose()  # the bot stops during the outage

    fake_llm.embeddings_status = 200
    courier = RecordingCourier()
    table = await _table(sqlite_url, tmp_path, courier, config)  # a new process, the endpoint back
    try:
        await _play_round(table, courier, "r1")
        assert await _states(table, cid) == Counter(indexed=queued["pending"])
        assert not _gm_dms(courier, OUTAGE)
    finally:
        await table.aclose()


async def test_an_embeddings_endpoint_nobody_listens_on_and_a_chroma_server_that_is_down(
    sqlite_url: str, tmp_path: Path
) -> None:
    port = _closed_port()
    config = {
        "embeddings": {"provider": "openai", "base_url": f"http://127.0.0.1:{port}/v1", "max_retries": 0},
    }
    chroma_down = {"chroma": {"mode": "http", "host": "127.0.0.1", "port": port}}
    for n, settings in enumerate((config, chroma_down)):
        courier = RecordingCourier()
        table = await _table(
            sqlite_url.replace("ledger.store.db", f"ledger-{n}.db"), tmp_path / str(n), courier, settings
        )
        try:
            await seat_everyone(table)
            await _play_round(table, courier, "r1")
            recap = await table.end_session(WHERE, GM)
            assert recap.text
            assert len(_gm_dms(courier, OUTAGE)) == 1
            cid = (await table.campaign_status(WHERE, GM)).id
            assert set(await _states(table, cid)) == {"pending"}
        finally:
            await table.aclose()


async def test_retrieval_gives_the_ledger_records_when_the_index_fails(
    database_url: str, tmp_path: Path
) -> None:
    engine = create_engine(database_url)
    await init_db(engine)
    chroma = FlakyChroma(tmp_path / "chroma")
    try:
        async with ledger_session(engine) as s:
            cid = await load_scenario_into(s, scenario=load_scenario(HARBOR), source="harbor.toml")
        async with ledger_session(engine) as s:
            ctx = await scene_context(
                s,
                campaign_id=cid,
                location="loc-harbor",
                present=["npc-old-wei", "pc-greyrock"],
                viewer=Viewer.party(),
                current_session=12,
                summaries=SummaryIndex(chroma),  # type: ignore[arg-type]
            )
        assert ctx.records and ctx.records[0].ref == "favor-0003-01"  # the ledger still answers in full
        assert ctx.summaries == ()
        assert ctx.summaries_unavailable is not None and "InternalError" in ctx.summaries_unavailable
    finally:
        await engine.dispose()


async def test_a_gm_who_takes_no_dms_finds_the_outage_in_the_conflict_queue(
    sqlite_url: str, tmp_path: Path
) -> None:
    chroma = FlakyChroma(tmp_path / "chroma")
    courier = RecordingCourier(closed=frozenset({GM.user_id}))
    table = await _table(sqlite_url, tmp_path, courier, summaries=SummaryIndex(chroma))  # type: ignore[arg-type]
    try:
        await seat_everyone(table)
        await _play_round(table, courier, "r1")
        notes = [c.claim for c in await table.gm_conflicts(WHERE, GM) if OUTAGE in c.claim]
        assert len(notes) == 1 and "InternalError" in notes[0]
    finally:
        await table.aclose()


@contextmanager
def _chroma_server(port: int, folder: Path) -> Iterator[None]:
    """A real ``chroma run`` on ``port`` (the CLI beside this interpreter) until the block ends."""
    beside = Path(sys.executable).parent / "chroma"
    exe = str(beside) if beside.is_file() else shutil.which("chroma")
    assert exe is not None, f"the chroma CLI is not installed: neither {beside} nor chroma on PATH"
    log = (folder / "chroma-server.log").open("wb")
    server = subprocess.Popen(
        [exe, "run", "--path", str(folder / "server-data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 90  # generous: a loaded machine starts it slowly
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "chroma run did not start"
            time.sleep(0.2)
        yield
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


async def test_a_chroma_server_started_later_receives_the_queued_summaries(
    sqlite_url: str, tmp_path: Path
) -> None:
    port = _closed_port()
    courier = RecordingCourier()
    table = await _table(sqlite_url, tmp_path, courier, {"chroma": {"mode": "http", "port": port}})
    try:
        await seat_everyone(table)  # the server is not running yet
        cid = (await table.campaign_status(WHERE, GM)).id
        queued = await _states(table, cid)
        assert set(queued) == {"pending"} and len(_gm_dms(courier, OUTAGE)) == 1
        with _chroma_server(port, tmp_path):
            _later(table, 30)
            await _play_round(table, courier, "r1")
            assert await _states(table, cid) == Counter(indexed=queued["pending"])
            index = table.summaries
            assert index is not None and await index.count(f"campaign-{cid}") == queued["pending"]
            assert len(_gm_dms(courier, BACK)) == 1
    finally:
        await table.aclose()
