"""The model's leak question (issue 9): asked per secret, with a yes/no and the sentence, on top of the words.

When a model is configured, :class:`bot.narrator.claims_llm.LLMClaimExtractor` is also asked, for each secret
the channel may not see, whether a draft reveals it, through ``chat.completions.parse`` against the fake
endpoint in ``tests/fake_llm.py``. A secret it says is revealed, in a sentence that is really in the draft,
keeps the draft out of the channel; an answer it cannot back with the draft's own words is dropped.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.narrator.claims_llm import LLMClaimExtractor, extra_leaks, secrets_from_snapshot
from ledger.check.judge import check
from ledger.check.snapshot import WorldSnapshot, load_world
from tests.corpus.loader import leak_world_path
from tests.fake_llm import FakeLLM, FakeReply, fake_llm  # noqa: F401
from tests.table_helpers import RecordingCourier

# Told without the Ashen Circle's name, so the word lists miss it (tests/corpus/leaks, mill-leak-12).
CULT = (
    "The cult that meets in the woods answers to one man: the priest of Saint Wend, Anselm, is their master."
)
CALM = "Rain drums on the chapel roof."


def millbrook() -> WorldSnapshot:
    return load_world(leak_world_path("millbrook"))


def verdicts(*items: tuple[str, bool, str | None]) -> FakeReply:
    return FakeReply.json({"secrets": [{"id": i, "revealed": r, "sentence": s} for i, r, s in items]})


@pytest.fixture
async def extractor(fake_llm: FakeLLM) -> AsyncIterator[LLMClaimExtractor]:  # noqa: F811
    llm = LLMClaimExtractor(base_url=fake_llm.base_url, model="fake", timeout=5.0, max_retries=0)
    yield llm
    await llm.aclose()


async def test_the_model_is_asked_per_secret_and_a_revealed_secret_keeps_its_sentence(
    fake_llm: FakeLLM,  # noqa: F811
    extractor: LLMClaimExtractor,
) -> None:
    snap = millbrook()
    text = f"{CALM} {CULT}"
    assert not check(text, snap, audience="party").leaks, "premise: the word lists miss this paraphrase"
    fake_llm.script(verdicts(("npc-anselm-identity", True, CULT), ("npc-grell-poisons-well", False, None)))
    [leak] = await extra_leaks(extractor, text, snap, audience="party")
    assert (leak.record, leak.text, leak.visibility) == ("npc-anselm-identity", CULT, "gm")
    assert text[leak.span[0] : leak.span[1]] == CULT
    [request] = fake_llm.chat_requests
    assert request["response_format"]["type"] == "json_schema"  # structured output, not free text
    prompt = fake_llm.prompt_text(0)
    # every secret the party may not see is asked about; what the party may see is not a secret
    for secret in ("npc-anselm-identity", "npc-grell-poisons-well", "npc-hobb-fear", "npc-marl-theft"):
        assert secret in prompt
    assert "loc-well-sickness" not in prompt and "someone has been poisoning" not in prompt


async def test_an_answer_the_draft_does_not_back_is_dropped(
    fake_llm: FakeLLM,  # noqa: F811
    extractor: LLMClaimExtractor,
) -> None:
    snap = millbrook()
    fake_llm.script(
        verdicts(
            ("npc-invented", True, CALM),  # not a secret we asked about
            ("npc-marl-theft", True, "The reeve stole the silver."),  # not a sentence of the draft
            ("npc-anselm-identity", False, None),
        )
    )
    assert await extra_leaks(extractor, CALM, snap, audience="party") == []
    assert len(extractor.last_dropped) == 2


@pytest.mark.parametrize(
    "answer",
    [
        FakeReply.error(503, "overloaded"),
        FakeReply.raw("Yes, it leaks."),
        FakeReply.length(),
        FakeReply.refusal(),
    ],
    ids=["503", "prose", "length", "refusal"],
)
async def test_a_failed_leak_question_leaves_the_word_lists_and_is_counted(
    fake_llm: FakeLLM,  # noqa: F811
    extractor: LLMClaimExtractor,
    answer: FakeReply,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake_llm.script(answer)
    with caplog.at_level(logging.WARNING, logger="bot.narrator.claims_llm"):
        assert await extra_leaks(extractor, CULT, millbrook(), audience="party") == []
    assert extractor.fallbacks == 1 and extractor.last_error
    assert any(r.levelno == logging.WARNING for r in caplog.records)


def test_the_gm_asks_about_nothing_and_the_party_about_what_it_may_not_see() -> None:
    snap = millbrook()
    assert secrets_from_snapshot(snap, CULT, audience="gm") == ()
    party = [s.id for s in secrets_from_snapshot(snap, CULT, audience="party")]
    assert party[0] == "npc-anselm-identity"  # the secret sharing most words with the draft comes first
    assert "npc-hobb-fear" in party  # one player's secret is hidden from the party channel
    player = [s.id for s in secrets_from_snapshot(snap, CULT, audience="player:5001")]
    assert "npc-hobb-fear" not in player


async def test_a_draft_the_model_says_reveals_a_secret_never_reaches_the_channel(
    tmp_path: Path,
    fake_llm: FakeLLM,  # noqa: F811
) -> None:
    from tests.test_table_llm import _round, _table

    hinted = "Somebody in this town lies awake dreading that a certain account book has turned up."
    clean = "The common room smells of pipe smoke and wet wool."
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier, extract_claims=True)
    fake_llm.script(
        FakeReply.draft(hinted),
        FakeReply.json({"claims": []}),
        verdicts(("npc-old-wei-fear", True, hinted)),
        FakeReply.draft(clean),
        FakeReply.json({"claims": []}),
        verdicts(("npc-old-wei-fear", False, None)),
    )
    try:
        report = await _round(table)
        assert report.source == "regenerated"  # type: ignore[attr-defined]
        posted = " ".join(p[2] for p in courier.public)
        assert clean in posted and "account book" not in posted
        assert "SECRETS" in fake_llm.prompt_text(2)  # the third call asked about the secrets
        assert "reveals a gm record" in fake_llm.prompt_text(3)  # and the rewrite was told why
    finally:
        await table.aclose()
