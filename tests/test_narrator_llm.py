"""The LLM narrator over the real openai SDK and the local fake server: each failure is a NarrationError."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.config import LLMSettings
from bot.narrator.base import (
    BudgetExceeded,
    DraftTruncated,
    InvalidDraft,
    NarratorTimeout,
    NarratorUnavailable,
)
from bot.narrator.llm import LLMNarrator
from tests.fake_llm import FakeLLM, FakeReply, fake_llm  # noqa: F401
from tests.test_narrator_offline import GREYROCK_PLAYER, LIN_PLAYER, harbour_round

# Calls meant to succeed get a generous timeout, so a loaded machine does not turn them into timeouts;
# only the timeout test uses a short one, against a reply far slower still.
GENEROUS_TIMEOUT = 30.0


@pytest.fixture
async def narrator(fake_llm: FakeLLM) -> AsyncIterator[LLMNarrator]:  # noqa: F811
    llm = LLMNarrator(base_url=fake_llm.base_url, model="fake", timeout=GENEROUS_TIMEOUT, max_retries=0)
    yield llm
    await llm.aclose()


async def test_a_good_reply_becomes_a_draft_whose_notes_come_from_the_record_not_the_model(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
) -> None:
    fake_llm.script(
        FakeReply.draft(
            "Mira's silver dagger finds the goblin; it falls. Greyrock's swing goes wide.",
            [
                {"player": str(LIN_PLAYER), "text": "Old Wei's hands shake when the ship is mentioned."},
                {"player": str(GREYROCK_PLAYER), "text": "You also sense a secret."},
            ],
        )
    )
    draft = await narrator.narrate(harbour_round())
    assert draft.source == "generated"
    assert draft.public_text.startswith("Mira's silver dagger")
    # The model's notes are ignored: Lin's note is her discovery word for word, and nobody else gets one.
    assert draft.private_notes == (
        (LIN_PLAYER, "Lin, you alone learn this: Old Wei is nervous about tomorrow's ship."),
    )
    assert "nervous about tomorrow's ship" not in fake_llm.prompt_text(0)  # never shown to the model
    sent = fake_llm.chat_requests[0]
    assert sent["model"] == "fake"
    assert sent["response_format"]["type"] == "json_schema"
    assert set(sent["response_format"]["json_schema"]["schema"]["properties"]) == {
        "public_text",
        "private_notes",
        "proposals",  # issue 12: what the model invents, proposed in a closed vocabulary
        "claims",  # issue 10: what each sentence claims, declared in the checker's vocabulary
    }


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (FakeReply.raw("The goblin falls. {not json"), InvalidDraft),
        (FakeReply.json({"public_text": 42}), InvalidDraft),
        (FakeReply.refusal(), InvalidDraft),
        (FakeReply.length(), DraftTruncated),
        (FakeReply.error(500), NarratorUnavailable),
        (FakeReply.error(503), NarratorUnavailable),
        (FakeReply.drop(), NarratorUnavailable),
        (FakeReply.draft("   "), InvalidDraft),
        (FakeReply.draft("The tide rolls in. " * 120), InvalidDraft),
    ],
    ids=[
        "invalid-json",
        "wrong-shape",
        "refusal",
        "length",
        "500",
        "503",
        "drop",
        "empty",
        "too-long",
    ],
)
async def test_each_failure_is_a_narration_error(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
    reply: FakeReply,
    error: type[Exception],
) -> None:
    fake_llm.script(reply)
    with pytest.raises(error):
        await narrator.narrate(harbour_round())


async def test_a_reply_slower_than_the_timeout_is_a_narrator_timeout(fake_llm: FakeLLM) -> None:  # noqa: F811
    llm = LLMNarrator(base_url=fake_llm.base_url, model="fake", timeout=0.5, max_retries=0)
    fake_llm.script(FakeReply.slow(60.0))
    try:
        with pytest.raises(NarratorTimeout):
            await llm.narrate(harbour_round())
    finally:
        await llm.aclose()


async def test_connection_refused_is_unavailable() -> None:
    async with FakeLLM() as fake:
        url = fake.base_url
    llm = LLMNarrator(base_url=url, model="fake", timeout=GENEROUS_TIMEOUT, max_retries=0)
    try:
        with pytest.raises(NarratorUnavailable, match="cannot reach"):
            await llm.narrate(harbour_round())
    finally:
        await llm.aclose()


async def test_over_budget_makes_no_call(fake_llm: FakeLLM) -> None:  # noqa: F811
    llm = LLMNarrator(
        base_url=fake_llm.base_url, model="fake", max_retries=0, context_tokens=1024, reply_tokens=900
    )
    try:
        with pytest.raises(BudgetExceeded):
            await llm.narrate(harbour_round())
    finally:
        await llm.aclose()
    assert fake_llm.requests == []


async def test_retries_are_bounded_by_settings(
    fake_llm: FakeLLM,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TK_TEST_LLM_KEY", "sk-test-123")
    settings = LLMSettings(
        enabled=True, base_url=fake_llm.base_url, model="m", api_key_env="TK_TEST_LLM_KEY", max_retries=1
    )
    llm = LLMNarrator.from_settings(settings)
    llm._client = llm._client.with_options(max_retries=1, timeout=GENEROUS_TIMEOUT)
    fake_llm.script(FakeReply.error(500), FakeReply.draft("Mira's dagger finds its mark."))
    try:
        draft = await llm.narrate(harbour_round())
    finally:
        await llm.aclose()
    assert draft.public_text == "Mira's dagger finds its mark."
    assert len(fake_llm.chat_requests) == 2
    assert fake_llm.headers[0]["Authorization"] == "Bearer sk-test-123"


async def test_a_missing_key_is_fine_for_local_servers(
    fake_llm: FakeLLM,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TK_TEST_NO_KEY", raising=False)
    settings = LLMSettings(base_url=fake_llm.base_url, model="m", api_key_env="TK_TEST_NO_KEY", max_retries=0)
    fake_llm.script(FakeReply.draft("Gulls wheel over the harbour."))
    async with LLMNarrator.from_settings(settings) as llm:
        draft = await llm.narrate(harbour_round())
    assert draft.public_text == "Gulls wheel over the harbour."
