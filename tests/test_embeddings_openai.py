"""The summary index's embeddings through the real openai SDK, against the local fake endpoint."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import parse_settings
from bot.embeddings import OpenAIEmbedding, embedding_from_settings
from ledger.recall.embeddings import HashingEmbedding
from ledger.recall.summaries import EmbeddingError, IndexUnavailable, SummaryError, SummaryIndex
from tests.fake_llm import FakeLLM, embed

ROOT = Path(__file__).resolve().parents[1]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_openai_embedding_sends_batches_and_keeps_input_order(fake_llm: FakeLLM) -> None:
    texts = ["Old Wei counts crates", "Greyrock owes a favour", "the silver dagger", "Bessa pours ale", "fog"]
    ef = OpenAIEmbedding(base_url=fake_llm.base_url, model="nomic", api_key="sk-local", batch_size=2)
    try:
        vectors = await asyncio.to_thread(ef, texts)
    finally:
        ef.close()
    assert len(vectors) == len(texts)
    for vector, text in zip(vectors, texts, strict=True):
        assert vector == pytest.approx(embed(text))  # each text's own vector, in input order
    sent = [body["input"] for path, body in zip(fake_llm.paths, fake_llm.requests, strict=True)]
    assert sent == [texts[0:2], texts[2:4], texts[4:5]]
    assert {h.get("Authorization") for h in fake_llm.headers} == {"Bearer sk-local"}
    assert {body["model"] for body in fake_llm.requests} == {"nomic"}


async def test_an_endpoint_answering_500_is_retried_then_reported_as_index_unavailable(
    fake_llm: FakeLLM,
) -> None:
    fake_llm.embeddings_status = 500
    ef = OpenAIEmbedding(base_url=fake_llm.base_url, model="nomic", max_retries=1)
    try:
        with pytest.raises(EmbeddingError, match="HTTP 500") as failed:
            await asyncio.to_thread(ef, ["Old Wei"])
    finally:
        ef.close()
    assert isinstance(failed.value, IndexUnavailable) and isinstance(failed.value, SummaryError)
    assert len(fake_llm.requests) == 2  # the SDK's retry, then the error


async def test_an_endpoint_that_is_down_is_reported_as_unreachable() -> None:
    ef = OpenAIEmbedding(base_url=f"http://127.0.0.1:{_closed_port()}/v1", model="nomic", max_retries=0)
    try:
        with pytest.raises(EmbeddingError, match="unreachable"):
            await asyncio.to_thread(ef, ["Old Wei"])
    finally:
        ef.close()


async def test_the_index_finds_summaries_by_meaning_with_sdk_embeddings(
    fake_llm: FakeLLM, tmp_path: Path
) -> None:
    ef = OpenAIEmbedding(base_url=fake_llm.base_url, model="nomic", max_retries=0)
    index = SummaryIndex.local(tmp_path / "chroma", embedding=ef)

    async def verify(facts: object) -> list[object]:
        return []

    try:
        await index.add(
            summary_id="s1",
            campaign="c",
            session=1,
            scope="session",
            text="Old Wei counts crates",
            verify=verify,
        )
        await index.add(
            summary_id="s2", campaign="c", session=2, scope="session", text="Bessa pours ale", verify=verify
        )
        hits = await index.query(campaign="c", text="who counts crates", n=1)
        assert [h.id for h in hits] == ["s1"]
        fake_llm.embeddings_status = 503
        with pytest.raises(IndexUnavailable, match="HTTP 503"):
            await index.query(campaign="c", text="who counts crates", n=1)
    finally:
        ef.close()


def test_settings_pick_the_embedding_and_bound_each_call() -> None:
    assert isinstance(embedding_from_settings(parse_settings({}).embeddings), HashingEmbedding)
    settings = parse_settings(
        {
            "embeddings": {
                "provider": "openai",
                "base_url": "http://127.0.0.1:9/v1",
                "model": "m",
                "timeout_seconds": 5,
                "max_retries": 3,
                "batch_size": 16,
            }
        }
    )
    ef = embedding_from_settings(settings.embeddings, api_key="sk-x")
    assert isinstance(ef, OpenAIEmbedding)
    try:
        assert ef.batch_size == 16 and ef.model == "m"
        assert ef._client.max_retries == 3 and ef._client.timeout == 5
    finally:
        ef.close()


def test_the_ledger_imports_no_openai() -> None:
    code = (
        "import sys, ledger.recall.summaries, ledger.recall.embeddings, ledger.recall.retrieval;"
        " print('openai' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "False"
