"""The narration pipeline: check, rewrite once with hints, else the offline narration (always a text)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.narrator.base import ActionOutcome, ConflictNote, Draft, NarrationOutcome, NarrationRequest
from bot.narrator.llm import LLMNarrator
from bot.narrator.offline import OfflineNarrator
from bot.narrator.pipeline import NOTHING_SAFE_TO_TELL, REPETITION_HINT, DraftCheck, narrate_checked
from bot.narrator.repetition import is_repetitive, similarity
from tests.fake_llm import FakeLLM, FakeReply, fake_llm  # noqa: F401
from tests.test_narrator_offline import LIN_PLAYER, harbour_round

GOOD = (
    "Mira's silver dagger sinks into the goblin and it falls still. "
    "Greyrock's axe whistles past the second one."
)
RISEN = "The goblin climbs back to its feet, grinning, as Greyrock's axe whistles past its friend."
LEAK = "Everyone can see that Old Wei is nervous about tomorrow's ship."
RISEN_NOTE = ConflictNote(
    claim="alive(monster-goblin-1)",
    refuted_by="ev-000120",
    message="the goblin died this round (ev-000120): it cannot get up",
)
LEAK_NOTE = ConflictNote(
    claim="public text reveals a private discovery",
    refuted_by="reveal:1002",
    message="Lin's insight about Old Wei is private: keep it out of the public text",
)
OLD_NARRATION = (
    "Rain lashes the harbour as Mira and Greyrock corner two goblins between the crates while Lin "
    "keeps Old Wei talking at the tax office door."
)


def ledger_check(draft: Draft) -> list[ConflictNote]:
    """A stand-in for the ledger's assertion check and secret-leak check."""
    notes = []
    if "back to its feet" in draft.public_text:
        notes.append(RISEN_NOTE)
    if "nervous" in draft.public_text:
        notes.append(LEAK_NOTE)
    return notes


async def async_ledger_check(draft: Draft) -> list[ConflictNote]:
    return ledger_check(draft)


# Calls meant to succeed get a generous timeout, so a loaded machine does not turn them into timeouts;
# only the timeout test uses a short one, against a reply far slower still.
GENEROUS_TIMEOUT = 30.0


@pytest.fixture
async def llm(fake_llm: FakeLLM) -> AsyncIterator[LLMNarrator]:  # noqa: F811
    narrator = LLMNarrator(base_url=fake_llm.base_url, model="fake", timeout=GENEROUS_TIMEOUT, max_retries=0)
    yield narrator
    await narrator.aclose()


offline = OfflineNarrator()


async def run(
    llm: LLMNarrator | None, request: NarrationRequest | None = None, check: DraftCheck = ledger_check
) -> NarrationOutcome:
    """Narrate the harbour round (or ``request``) through the pipeline."""
    return await narrate_checked(request or harbour_round(), narrator=llm, fallback=offline, check=check)


async def test_a_clean_draft_is_posted_as_generated(fake_llm: FakeLLM, llm: LLMNarrator) -> None:  # noqa: F811
    fake_llm.script(FakeReply.draft(GOOD))
    outcome = await run(llm)
    assert outcome.source == "generated"
    assert outcome.draft.public_text == GOOD
    assert outcome.conflicts == ()
    assert len(outcome.attempts) == 1


@pytest.mark.parametrize(
    "failure",
    [
        FakeReply.raw("{broken"),
        FakeReply.refusal(),
        FakeReply.length(),
        FakeReply.error(500),
        FakeReply.drop(),
        FakeReply.draft(""),
    ],
    ids=["invalid-json", "refusal", "length", "500", "drop", "empty"],
)
async def test_every_llm_failure_still_gives_the_round_the_offline_narration(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
    failure: FakeReply,
) -> None:
    fake_llm.script(failure)
    outcome = await run(llm)
    expected = offline.narrate_now(harbour_round())
    assert outcome.source == "fallback"
    assert outcome.draft.public_text == expected.public_text
    assert outcome.draft.private_notes == expected.private_notes
    assert outcome.attempts[0].error
    assert not outcome.offline
    assert len(fake_llm.chat_requests) == 1  # a failed call is not rewritten, it falls back


async def test_a_timed_out_llm_still_gives_the_round_the_offline_narration(fake_llm: FakeLLM) -> None:  # noqa: F811
    narrator = LLMNarrator(base_url=fake_llm.base_url, model="fake", timeout=0.5, max_retries=0)
    fake_llm.script(FakeReply.slow(60.0))
    try:
        outcome = await run(narrator)
    finally:
        await narrator.aclose()
    assert outcome.source == "fallback"
    assert outcome.draft.public_text == offline.narrate_now(harbour_round()).public_text
    assert "NarratorTimeout" in (outcome.attempts[0].error or "")
    assert len(fake_llm.chat_requests) == 1


async def test_an_unreachable_endpoint_falls_back() -> None:
    async with FakeLLM() as fake:
        url = fake.base_url
    narrator = LLMNarrator(base_url=url, model="fake", timeout=GENEROUS_TIMEOUT, max_retries=0)
    try:
        outcome = await run(narrator)
    finally:
        await narrator.aclose()
    assert outcome.source == "fallback"
    assert "NarratorUnavailable" in (outcome.attempts[0].error or "")


async def test_a_contradiction_gets_one_rewrite_with_the_hint_then_falls_back_with_the_conflict(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    fake_llm.script(
        FakeReply.draft(RISEN), FakeReply.draft(RISEN + " Still standing."), FakeReply.draft(GOOD)
    )
    outcome = await run(llm, check=async_ledger_check)
    assert len(fake_llm.chat_requests) == 2  # exactly one rewrite
    assert fake_llm.pending == 1
    first, rewrite = fake_llm.prompt_text(0), fake_llm.prompt_text(1)
    assert RISEN_NOTE.message not in first
    system = fake_llm.chat_requests[1]["messages"][0]["content"]
    assert RISEN_NOTE.message in system and "REWRITE" in system
    assert RISEN in rewrite  # on the avoid list
    assert outcome.source == "fallback"
    assert outcome.draft.public_text == offline.narrate_now(harbour_round()).public_text
    assert outcome.conflicts == (RISEN_NOTE,)
    assert [a.source for a in outcome.attempts] == ["generated", "regenerated", "fallback"]


async def test_a_contradiction_fixed_on_the_rewrite_is_posted_as_regenerated(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    fake_llm.script(FakeReply.draft(RISEN), FakeReply.draft(GOOD))
    outcome = await run(llm)
    assert outcome.source == "regenerated"
    assert outcome.draft.public_text == GOOD
    assert outcome.conflicts == ()
    assert outcome.attempts[0].conflicts == (RISEN_NOTE,)


async def test_a_leaked_secret_is_rewritten_and_then_kept_out(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    fake_llm.script(FakeReply.draft(LEAK), FakeReply.draft(LEAK))
    outcome = await run(llm)
    assert outcome.source == "fallback"
    assert "nervous" not in outcome.draft.public_text
    assert outcome.draft.private_notes[0][0] == LIN_PLAYER
    assert outcome.conflicts == (LEAK_NOTE,)


async def test_repetition_triggers_a_rewrite_without_the_repeated_narration_in_context(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    copy = OLD_NARRATION.replace("Rain lashes", "Rain whips")
    assert is_repetitive(copy, [OLD_NARRATION])
    request = harbour_round(recent=("The party reached the harbour at dusk.", OLD_NARRATION))
    fake_llm.script(FakeReply.draft(copy), FakeReply.draft(GOOD))
    outcome = await run(llm, request)
    assert outcome.source == "regenerated"
    assert outcome.draft.public_text == GOOD
    assert outcome.attempts[0].repetitive
    recent_block = next(
        m["content"] for m in fake_llm.chat_requests[1]["messages"] if m["content"].startswith("RECENT")
    )
    assert "at dusk" in recent_block and "Rain lashes" not in recent_block
    system = fake_llm.chat_requests[1]["messages"][0]["content"]
    assert REPETITION_HINT in system and "DO NOT REUSE" in system and "Rain whips" in system


async def test_a_rewrite_that_copies_the_rejected_draft_falls_back(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    request = harbour_round(recent=(OLD_NARRATION,))
    fake_llm.script(FakeReply.draft(OLD_NARRATION), FakeReply.draft(OLD_NARRATION + "!"))
    outcome = await run(llm, request)
    assert outcome.source == "fallback"
    assert outcome.conflicts == ()
    assert [a.repetitive for a in outcome.attempts[:2]] == [True, True]


SCENE = GOOD + " Rain lashes the crates while Lin keeps Old Wei talking at the tax office door."


async def test_a_rewrite_that_fixes_only_the_bad_sentence_is_posted_as_regenerated(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    """The rewrite keeps the good sentences and mends the refuted one: that is the fix, not a loop."""
    bad = SCENE + " The goblin climbs back to its feet, grinning."
    fixed = SCENE + " The goblin stays down among the crates."
    assert is_repetitive(fixed, [bad]), "premise: the rewrite is a near-copy of the rejected draft"
    request = harbour_round(recent=(OLD_NARRATION,))
    fake_llm.script(FakeReply.draft(bad), FakeReply.draft(fixed))
    outcome = await run(llm, request)
    assert outcome.source == "regenerated"
    assert outcome.draft.public_text == fixed
    assert outcome.conflicts == ()
    assert [a.repetitive for a in outcome.attempts] == [False, False]


async def test_a_failure_during_the_rewrite_falls_back_and_keeps_the_conflict(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    fake_llm.script(FakeReply.draft(RISEN), FakeReply.error(500))
    outcome = await run(llm)
    assert outcome.source == "fallback"
    assert outcome.conflicts == (RISEN_NOTE,)
    assert "NarratorUnavailable" in (outcome.attempts[1].error or "")


async def test_offline_mode_posts_the_offline_narration_without_any_call() -> None:
    outcome = await run(None)
    assert outcome.source == "fallback"
    assert outcome.draft == offline.narrate_now(harbour_round())
    assert len(outcome.attempts) == 1 and outcome.attempts[0].source == "fallback"
    assert outcome.offline


async def test_an_offline_narration_the_check_refutes_everywhere_posts_nothing_of_it() -> None:
    note = ConflictNote(claim="at(pc-mira, loc-harbor)", refuted_by="ev-9", message="Mira left the harbour")
    outcome = await run(None, check=lambda draft: [note])
    assert outcome.source == "fallback"
    assert outcome.draft.public_text == NOTHING_SAFE_TO_TELL
    assert outcome.conflicts == (note,)


TALK_TO_THE_DEAD = ConflictNote(
    claim="talks_to(pc-lin, monster-goblin-1)",
    refuted_by="ev-000120",
    message="the goblin died earlier this round: nobody talks to it",
)


def dead_goblin_check(draft: Draft) -> list[ConflictNote]:
    """Flags any sentence in which someone speaks to the goblin Mira killed (as the ledger checker would)."""
    spoken_to = re.search(r"\b(speaks to|asks|turns to) the goblin\b", draft.public_text)
    return [TALK_TO_THE_DEAD] if spoken_to else []


async def test_a_flagged_sentence_of_the_offline_narration_is_dropped_and_the_rest_posted() -> None:
    """Offline "The goblin collapses, dead. Lin speaks to the goblin": the second sentence is dropped."""
    talk_to_corpse = ActionOutcome(
        actor_id="pc-lin",
        actor_name="Lin",
        actor_is_pc=True,
        kind="talk",
        outcome="done",
        submitted_text="ask the goblin who sent it",
        target_id="monster-goblin-1",
        target_name="the goblin",
    )
    base = harbour_round()
    request = base.model_copy(update={"outcomes": (base.outcomes[0], talk_to_corpse, base.outcomes[1])})
    for seed in range(6):
        told = offline.narrate_now(request.model_copy(update={"variety_seed": seed})).public_text
        assert dead_goblin_check(Draft(public_text=told)), "premise: the whole offline text is flagged"
        outcome = await run(None, request.model_copy(update={"variety_seed": seed}), check=dead_goblin_check)
        posted = outcome.draft.public_text
        assert dead_goblin_check(outcome.draft) == [], posted
        assert "Lin" not in posted and "Mira" in posted and "Greyrock" in posted, posted
        assert re.search(r"the goblin (dies|is slain|collapses, dead)", posted, re.I), posted
        assert outcome.conflicts == (TALK_TO_THE_DEAD,)


async def test_the_fallback_for_a_failed_draft_drops_what_the_real_checker_refutes() -> None:
    """Through the real ledger checker: a hand-over to a dead merchant is cut, the rest is posted."""
    from ledger.check.judge import check
    from ledger.check.snapshot import load_world

    world = load_world(Path(__file__).parent / "corpus" / "worlds" / "harbour.json", "brawl")

    def ledger(draft: Draft) -> list[ConflictNote]:
        report = check(draft.public_text, world)
        return [
            ConflictNote(claim=v.claim.text, message=v.reason or "contradicts the ledger")
            for v in report.claims
            if v.verdict == "contradicted"
        ]

    # The ledger's round says Greyrock's attack was aimed at a thug: a blow on Harlan Voss is refuted.
    give = ActionOutcome(
        actor_id="pc-greyrock",
        actor_name="Greyrock",
        actor_is_pc=True,
        kind="attack",
        outcome="hit",
        target_id="npc-harlan-voss",
        target_name="Harlan Voss",
        damage=6,
    )
    look = ActionOutcome(
        actor_id="pc-mira", actor_name="Mira Quickfinger", kind="check", outcome="success", skill="perception"
    )
    request = harbour_round(outcomes=(look, give), records=(), reveals=(), creatures=())
    flagged = [
        seed
        for seed in range(12)
        if ledger(offline.narrate_now(request.model_copy(update={"variety_seed": seed})))
    ]
    assert flagged, "premise: the blow on the wrong target is refuted by the checker"
    for seed in flagged:
        outcome = await run(None, request.model_copy(update={"variety_seed": seed}), check=ledger)
        posted = outcome.draft.public_text
        assert check(posted, world).verdict == "clean", posted
        assert "Harlan Voss" not in posted and "Mira Quickfinger" in posted, posted
        assert outcome.conflicts


async def test_offline_mode_reseeds_when_it_would_repeat_the_last_round() -> None:
    request = harbour_round(variety_seed=5)
    last_round = offline.narrate_now(request).public_text
    outcome = await run(None, request.model_copy(update={"recent": (last_round,)}))
    assert outcome.draft.public_text != last_round
    assert similarity(outcome.draft.public_text, last_round) < 1.0


async def test_a_crashing_check_never_posts_the_unchecked_llm_draft(
    fake_llm: FakeLLM,  # noqa: F811
    llm: LLMNarrator,
) -> None:
    def broken_check(draft: Draft) -> list[ConflictNote]:
        if draft.source != "fallback":
            raise RuntimeError("ledger unavailable")
        return []

    fake_llm.script(FakeReply.draft(GOOD))
    outcome = await run(llm, check=broken_check)
    assert outcome.source == "fallback"
    assert "check failed" in (outcome.attempts[0].error or "")


class CrashingNarrator:
    """A narrator with a bug: it raises something that is not a NarrationError."""

    async def narrate(self, request: NarrationRequest) -> Draft:
        raise KeyError("pc-mira")


async def test_a_crashing_narrator_still_gives_the_round_its_narration() -> None:
    outcome = await narrate_checked(
        harbour_round(), narrator=CrashingNarrator(), fallback=offline, check=ledger_check
    )
    assert outcome.source == "fallback"
    assert outcome.draft.public_text == offline.narrate_now(harbour_round()).public_text
    assert "crashed" in (outcome.attempts[0].error or "")


async def test_a_round_too_big_for_the_context_falls_back_without_a_call(fake_llm: FakeLLM) -> None:  # noqa: F811
    tiny = LLMNarrator(
        base_url=fake_llm.base_url, model="fake", max_retries=0, context_tokens=1100, reply_tokens=900
    )
    try:
        outcome = await run(tiny)
    finally:
        await tiny.aclose()
    assert outcome.source == "fallback"
    assert "BudgetExceeded" in (outcome.attempts[0].error or "")
    assert fake_llm.requests == []


async def test_sentences_refuted_only_together_are_cut_until_the_rest_is_clean() -> None:
    """A check that refutes any two sentences together: what is posted still passes it, in bounded checks."""
    calls: list[str] = []
    note = ConflictNote(claim="together", message="these sentences contradict each other")

    def pairwise(draft: Draft) -> list[ConflictNote]:
        calls.append(draft.public_text)
        return [note] if len(re.findall(r"[.!?](\s|$)", draft.public_text)) > 1 else []

    request = harbour_round(outcomes=harbour_round().outcomes * 4)
    sentences = len(re.findall(r"[.!?](\s|$)", offline.narrate_now(request).public_text))
    outcome = await run(None, request, check=pairwise)
    assert outcome.draft.public_text and pairwise(outcome.draft) == []
    assert outcome.conflicts == (note,)
    assert len(calls) <= 2 + sentences * 5, (len(calls), sentences)
