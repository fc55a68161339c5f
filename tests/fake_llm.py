"""A scripted OpenAI-compatible server on 127.0.0.1 for tests: the real openai SDK talks to it over HTTP.

Each test queues the replies it wants (:class:`FakeReply`), runs the code under test, then inspects
``fake.requests`` (every JSON body received, in order) to assert what the prompt contained. It is a test
double for the transport only; the product runs without it (offline narrator) or against a real endpoint.

Use the fixture (``from tests.fake_llm import fake_llm  # noqa: F401``) or ``async with FakeLLM() as fake``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from aiohttp import web

ReplyKind = Literal["content", "refusal", "status", "drop"]


@dataclass(frozen=True)
class FakeReply:
    """One scripted answer to one ``POST /v1/chat/completions``."""

    kind: ReplyKind = "content"
    content: str = ""
    finish_reason: str = "stop"
    status: int = 200
    delay: float = 0.0  # seconds to wait before answering (beyond the client's timeout = a timeout)

    @classmethod
    def draft(
        cls, public_text: str, private_notes: list[dict[str, str]] | None = None, *, delay: float = 0.0
    ) -> FakeReply:
        """A well-formed narration reply."""
        body = {"public_text": public_text, "private_notes": private_notes or []}
        return cls(content=json.dumps(body), delay=delay)

    @classmethod
    def json(cls, value: Any) -> FakeReply:
        """Any JSON value as the message content (e.g. an intent reply)."""
        return cls(content=json.dumps(value))

    @classmethod
    def raw(cls, content: str, finish_reason: str = "stop") -> FakeReply:
        """Content exactly as given, e.g. invalid JSON."""
        return cls(content=content, finish_reason=finish_reason)

    @classmethod
    def refusal(cls, text: str = "I can't help with that.") -> FakeReply:
        """The model refuses (``message.refusal`` set, no content)."""
        return cls(kind="refusal", content=text)

    @classmethod
    def length(cls) -> FakeReply:
        """The reply stops at the token limit (``finish_reason`` "length") mid-JSON."""
        return cls(content='{"public_text": "The goblin', finish_reason="length")

    @classmethod
    def slow(cls, seconds: float, then: FakeReply | None = None) -> FakeReply:
        """Answer only after ``seconds`` (use more than the client's timeout to provoke a timeout)."""
        base = then or cls.draft("Too late to matter.")
        return FakeReply(base.kind, base.content, base.finish_reason, base.status, seconds)

    @classmethod
    def error(cls, status: int = 500, message: str = "fake server error") -> FakeReply:
        """An HTTP error status with an OpenAI-style error body."""
        return cls(kind="status", status=status, content=message)

    @classmethod
    def drop(cls) -> FakeReply:
        """Close the connection without answering."""
        return cls(kind="drop")


@dataclass
class FakeLLM:
    """The server. ``base_url`` is ready after start (``async with``); queue replies with :meth:`script`.

    With the queue empty it answers ``default`` when set, else HTTP 500 "no scripted reply" so a test that
    forgot to script fails loudly instead of passing on a made-up answer.
    """

    default: FakeReply | None = None
    model: str = "fake-narrator"
    embeddings_status: int = 200  # set to 500 (or 503) to make ``/v1/embeddings`` fail until set back
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    _queue: deque[FakeReply] = field(default_factory=deque)
    _runner: web.AppRunner | None = None
    _port: int = 0
    _count: int = 0

    @property
    def base_url(self) -> str:
        """The ``base_url`` to give the openai SDK."""
        return f"http://127.0.0.1:{self._port}/v1"

    @property
    def port(self) -> int:
        """The port the server listens on (0 before start)."""
        return self._port

    def script(self, *replies: FakeReply) -> None:
        """Queue replies, answered in order, one per chat request."""
        self._queue.extend(replies)

    @property
    def pending(self) -> int:
        """How many scripted replies have not been used."""
        return len(self._queue)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """The chat-completion bodies received, in order."""
        return [
            body
            for path, body in zip(self.paths, self.requests, strict=True)
            if path.endswith("/chat/completions")
        ]

    def prompt_text(self, index: int = -1) -> str:
        """All message contents of chat request ``index`` joined, for ``in`` assertions."""
        return "\n".join(str(m.get("content", "")) for m in self.chat_requests[index]["messages"])

    async def start(self) -> FakeLLM:
        """Bind a random port on 127.0.0.1 and serve."""
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/embeddings", self._embeddings)
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self._port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        """Stop serving (idempotent)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeLLM:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _record(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except json.JSONDecodeError:
            body = {"_invalid": await request.text()}
        self.paths.append(request.path)
        self.headers.append(dict(request.headers))
        self.requests.append(body)
        return body if isinstance(body, dict) else {"_body": body}

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await self._record(request)
        reply = self._queue.popleft() if self._queue else self.default
        if reply is None:
            reply = FakeReply.error(500, "fake LLM: no scripted reply left")
        if reply.delay:
            await asyncio.sleep(reply.delay)
        if reply.kind == "drop":
            if request.transport is not None:
                request.transport.abort()
            raise asyncio.CancelledError  # aiohttp ends the handler without writing a response
        if reply.kind == "status":
            error = {"error": {"message": reply.content, "type": "server_error", "code": None}}
            return web.json_response(error, status=reply.status)
        self._count += 1
        message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": None}
        if reply.kind == "refusal":
            message = {"role": "assistant", "content": None, "refusal": reply.content}
        prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
        completion = {
            "id": f"chatcmpl-fake-{self._count}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.model),
            "choices": [
                {"index": 0, "message": message, "finish_reason": reply.finish_reason, "logprobs": None}
            ],
            "usage": {
                "prompt_tokens": prompt_chars // 4,
                "completion_tokens": len(reply.content) // 4,
                "total_tokens": prompt_chars // 4 + len(reply.content) // 4,
            },
        }
        return web.json_response(completion)

    async def _embeddings(self, request: web.Request) -> web.StreamResponse:
        body = await self._record(request)
        if self.embeddings_status != 200:
            error = {"error": {"message": "fake embeddings outage", "type": "server_error", "code": None}}
            return web.json_response(error, status=self.embeddings_status)
        texts = body.get("input", [])
        if isinstance(texts, str):
            texts = [texts]
        dims = int(body.get("dimensions") or 64)
        data = [
            {"object": "embedding", "index": i, "embedding": embed(str(text), dims)}
            for i, text in enumerate(texts)
        ]
        tokens = sum(len(str(t)) for t in texts) // 4
        return web.json_response(
            {
                "object": "list",
                "data": data,
                "model": body.get("model", "fake-embedding"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )


def embed(text: str, dims: int = 64) -> list[float]:
    """A deterministic unit vector for ``text``: hashed words, so similar texts share dimensions."""
    vector = [0.0] * dims
    for word in text.lower().split():
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        slot = int.from_bytes(digest[:4], "big") % dims
        vector[slot] += 1.0 if digest[4] % 2 else -1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    """A running :class:`FakeLLM` for one test."""
    async with FakeLLM() as fake:
        yield fake
