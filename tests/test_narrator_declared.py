"""The narrator declares its claims per sentence: judged like extracted ones, and held to its own words.

Every draft here comes through the real openai SDK from the local fake endpoint, so the reply schema, the
tolerant parsing and the check are exercised as the table runs them.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.narrator import claims_llm
from bot.narrator.base import DECLARABLE_KINDS, Draft
from bot.narrator.claims_llm import LLMClaimExtractor, extra_conflicts
from bot.narrator.declared import UNDECLARED, UNSUPPORTED
from bot.narrator.llm import LLMNarrator
from bot.narrator.prompt import DECLARED_CONDITIONS, build_prompt
from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, RoundFacts, Scene, WorldSnapshot
from tests.fake_llm import FakeLLM, FakeReply, fake_llm  # noqa: F401
from tests.test_narrator_offline import harbour_round

GALUMPHS = "Harlan Voss galumphs onto the bar."
WIPES = "Bessa wipes the counter."
WAITS = "Marta waits in the Salty Gull."
MAP = "Bessa wipes the counter, and Mira holds the crypt map."


def world() -> WorldSnapshot:
    """A tavern: a dead merchant, a barkeep, Marta at the tavern (the docks are elsewhere), Mira's map."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-greyrock", "pc", "Greyrock", owner="1", location="loc-tavern"),
            Entity("pc-mira", "pc", "Mira", owner="2", location="loc-tavern"),
            Entity("npc-voss", "npc", "Harlan Voss", (Alias("Voss"),), alive=False, location="loc-tavern"),
            Entity("npc-marta", "npc", "Marta", location="loc-tavern"),
            Entity("npc-bessa", "npc", "Bessa", (Alias("the barkeep"),), location="loc-tavern"),
            Entity("loc-tavern", "location", "the Salty Gull", (Alias("the tavern"),)),
            Entity("loc-docks", "location", "the docks"),
            Entity("item-map", "item", "crypt map"),
        ],
        holdings=[Holding("item-map", "pc-mira")],
        scene=Scene("loc-tavern", frozenset({"pc-greyrock", "pc-mira", "npc-bessa", "npc-marta"})),
        round=RoundFacts(number=3, submissions={"pc-mira": "I watch the room"}, acted=frozenset({"pc-mira"})),
    )


def said(
    kind: str, *args: str, value: str | None = None, verb: str | None = None, qty: int | None = None
) -> dict[str, Any]:
    """One declared claim as the model writes it (names as the prompt gave them)."""
    return {"kind": kind, "args": list(args), "value": value, "verb": verb, "quantity": qty}


def narration(text: str, *sentences: tuple[str, list[Any]] | Any, raw_claims: Any = None) -> FakeReply:
    """A narration reply whose ``claims`` declares ``sentences`` (or is ``raw_claims`` as given)."""
    claims = raw_claims if raw_claims is not None else [{"sentence": s, "claims": c} for s, c in sentences]
    return FakeReply.json({"public_text": text, "private_notes": [], "proposals": [], "claims": claims})


@pytest.fixture
async def narrator(fake_llm: FakeLLM) -> AsyncIterator[LLMNarrator]:  # noqa: F811
    llm = LLMNarrator(base_url=fake_llm.base_url, model="fake", timeout=30.0, max_retries=0)
    yield llm
    await llm.aclose()


async def draft_of(fake: FakeLLM, narrator: LLMNarrator, reply: FakeReply) -> Draft:
    fake.script(reply)
    return await narrator.narrate(harbour_round())


async def test_a_declared_claim_the_ledger_contradicts_is_caught_without_an_extraction_call(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
) -> None:
    snap = world()
    text = f"{WIPES} {GALUMPHS}"
    assert check(text, snap).ok, "premise: the deterministic extractor does not know 'galumphs'"
    draft = await draft_of(
        fake_llm,
        narrator,
        narration(
            text,
            (WIPES, [said("acts", "Bessa", verb="wipes")]),
            (GALUMPHS, [said("acts", "Harlan Voss", verb="galumphs")]),
        ),
    )
    assert draft.public_text == text and len(draft.declared) == 2
    # declaring takes reply tokens of its own: the narration is never cut off for it
    sent = fake_llm.chat_requests[0]
    assert sent["max_completion_tokens"] == narrator.reply_tokens + narrator.claims_tokens > 900
    extractor = LLMClaimExtractor(base_url=fake_llm.base_url, model="fake", timeout=30.0, max_retries=0)
    try:
        [v] = await extra_conflicts(extractor, text, snap, audience="party", declared=draft.declared)
        assert len(fake_llm.chat_requests) == 1, "the declaration saves the extraction call"
        assert v.claim.label() == "acts(npc-voss)"
        assert v.refuted_by == "npc-voss-alive" and v.reason == "Harlan Voss is dead"
        start = text.index(GALUMPHS)
        assert v.claim.text == GALUMPHS and v.claim.span == (start, start + len(GALUMPHS))  # located
        # unless the configuration asks for both: then the extractor is asked as before
        extractor.extract_when_declared = True
        fake_llm.script(FakeReply.json({"claims": []}))
        again = await extra_conflicts(extractor, text, snap, audience="party", declared=draft.declared)
        assert [x.claim.label() for x in again] == ["acts(npc-voss)"]
        assert len(fake_llm.chat_requests) == 2
    finally:
        await extractor.aclose()


async def test_a_declaration_the_sentence_does_not_bear_out_is_an_unsupported_declaration(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
) -> None:
    snap = world()
    text = f"{WAITS} {WIPES}"
    draft = await draft_of(
        fake_llm,
        narrator,
        narration(
            text,
            # the text says the Salty Gull: one flag, not also "undeclared" for the place it does name
            (WAITS, [said("at", "Marta", "the docks", verb="waits"), said("acts", "Marta", verb="waits")]),
            ("Marta dances on the table.", [said("acts", "Marta", verb="dances")]),  # not in the text
            (WIPES, [said("acts", "the barkeep", verb="wipes")]),
        ),
    )
    flags = await extra_conflicts(None, text, snap, audience="party", declared=draft.declared)
    assert len(flags) == 2
    at_docks, dances = sorted(flags, key=lambda v: v.reason)[::-1]
    assert at_docks.reason.startswith(UNSUPPORTED)
    assert "at(Marta, the docks)" in at_docks.reason and "at(Marta, the Salty Gull)" in at_docks.reason
    assert at_docks.claim.span == (0, len(WAITS)) and at_docks.refuted_by is None
    assert dances.reason.startswith(UNSUPPORTED) and "not in the narration" in dances.reason
    # the unsupported claim is not also judged against the ledger: the text never says the docks
    assert not any(v.refuted_by for v in flags)


async def test_a_claim_the_sentence_makes_but_its_declaration_leaves_out_is_an_undeclared_claim(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
) -> None:
    snap = world()
    draft = await draft_of(fake_llm, narrator, narration(MAP, (MAP, [said("acts", "Bessa", verb="wipes")])))
    [v] = await extra_conflicts(None, MAP, snap, audience="party", declared=draft.declared)
    assert v.reason.startswith(UNDECLARED) and "holds(Mira, crypt map)" in v.reason
    assert v.claim.label() == "holds(pc-mira, item-map)" and v.claim.span == (0, len(MAP))
    # declared in full, the same sentence is clean
    full = await draft_of(
        fake_llm,
        narrator,
        narration(MAP, (MAP, [said("acts", "Bessa", verb="wipes"), said("holds", "Mira", "crypt map")])),
    )
    assert await extra_conflicts(None, MAP, snap, audience="party", declared=full.declared) == []
    # ... and so is a declaration that gives the same sentence twice, half in each
    split = await draft_of(
        fake_llm,
        narrator,
        narration(
            MAP, (MAP, [said("acts", "Bessa", verb="wipes")]), (MAP, [said("holds", "Mira", "crypt map")])
        ),
    )
    assert await extra_conflicts(None, MAP, snap, audience="party", declared=split.declared) == []


async def test_a_declaration_less_specific_than_the_text_is_no_mismatch(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
) -> None:
    snap = world()
    text = f"{WAITS} {MAP}"
    draft = await draft_of(
        fake_llm,
        narrator,
        narration(
            text,
            (WAITS, [said("present", "Marta")]),  # no place, where the text names one
            (MAP, [said("acts", "Bessa", verb="wipes"), said("holds", "Mira", "the crypt map")]),  # no count
        ),
    )
    assert await extra_conflicts(None, text, snap, audience="party", declared=draft.declared) == []


async def test_malformed_claims_are_dropped_and_logged_and_the_draft_is_kept(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
    caplog: pytest.LogCaptureFixture,
) -> None:
    snap = world()
    text = f"{WIPES} {GALUMPHS}"
    broken = [
        "not a sentence",
        {"sentence": WIPES},  # no claims list
        {
            "sentence": GALUMPHS,
            "claims": [
                {"kind": "acts"},  # fields missing: dropped when the reply is read
                said("teleports", "Harlan Voss"),  # off the vocabulary: dropped at the check
                said("acts", "Nobody Known", verb="galumphs"),  # a name that fits no record
                said("acts", "Harlan Voss", verb="dances"),  # a verb the sentence does not hold
                said("acts", "Harlan Voss", verb="galumphs"),  # the one good claim
            ],
        },
    ]
    with caplog.at_level(logging.INFO, logger="bot.narrator"):
        draft = await draft_of(fake_llm, narrator, narration(text, raw_claims=broken))
        assert draft.public_text == text
        [sentence] = draft.declared
        assert len(sentence.claims) == 4
        [v] = await extra_conflicts(None, text, snap, audience="party", declared=draft.declared)
    assert v.claim.label() == "acts(npc-voss)" and v.refuted_by == "npc-voss-alive"
    logged = [r.getMessage() for r in caplog.records]
    assert any("dropped 3 malformed declared claim(s)" in m for m in logged)
    assert any("dropped 3 declared claim(s)" in m for m in logged)
    # a claims field that is not a list at all costs the declaration, never the narration
    junk = await draft_of(fake_llm, narrator, narration(text, raw_claims={"claims": "everything is fine"}))
    assert junk.public_text == text and junk.declared == ()


async def test_without_a_declaration_the_check_is_as_before(
    fake_llm: FakeLLM,  # noqa: F811
    narrator: LLMNarrator,
) -> None:
    snap = world()
    text = f"{WIPES} {GALUMPHS}"
    draft = await draft_of(fake_llm, narrator, FakeReply.draft(text))
    assert draft.declared == ()
    assert await extra_conflicts(None, text, snap, audience="party", declared=draft.declared) == []
    extractor = LLMClaimExtractor(base_url=fake_llm.base_url, model="fake", timeout=30.0, max_retries=0)
    try:
        claim = {
            **said("acts", "npc-voss", verb="galumphs"),
            "quote": GALUMPHS,
            "in_dialogue": False,
            "hypothetical": False,
            "memory": False,
            "rumour": False,
            "negated": False,
        }
        fake_llm.script(FakeReply.json({"claims": [claim]}))
        [v] = await extra_conflicts(extractor, text, snap, audience="party", declared=draft.declared)
        assert v.claim.label() == "acts(npc-voss)" and len(fake_llm.chat_requests) == 2  # the extractor asked
    finally:
        await extractor.aclose()


async def test_through_the_table_a_declared_contradiction_gets_the_one_rewrite(
    tmp_path: Path,
    fake_llm: FakeLLM,  # noqa: F811
) -> None:
    """No claim extractor configured: the declaration alone catches the dead man, and the rewrite posts."""
    from tests.table_helpers import GM, WHERE, RecordingCourier
    from tests.test_table_llm import CLEAN, ODD_VERB, _round, _table

    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier, extract_claims=False)
    fake_llm.script(
        narration(ODD_VERB, (ODD_VERB, [said("acts", "Harlan Voss", verb="galumphs")])),
        FakeReply.draft(CLEAN),
    )
    try:
        report = await _round(table)
        assert report.source == "regenerated"  # type: ignore[attr-defined]
        assert CLEAN in courier.public[0][2] and "galumphs" not in courier.public[0][2]
        assert "REWRITE" in fake_llm.prompt_text(1) and "Harlan Voss is dead" in fake_llm.prompt_text(1)
        assert len(fake_llm.chat_requests) == 2  # no extraction call: the narrator declared its claims
        assert await table.gm_conflicts(WHERE, GM) == ()
    finally:
        await table.aclose()


def test_the_prompt_asks_for_declarations_and_for_arrivals_to_be_proposed() -> None:
    request = harbour_round().model_copy(update={"arrivals": (("npc-sela", "Sela"),)})
    system = build_prompt(request, context_tokens=8192, reply_tokens=900).messages[0].content
    assert "Declare your claims" in system and '"claims": [...]' in system
    assert 'propose them as "npc", with their place' in system
    assert "JUST ARRIVED" in system and "- Sela" in system
    assert "npc-sela" not in system  # names only, never ids
    # the vocabulary the prompt and the schema offer is the one the check validates
    assert DECLARED_CONDITIONS.split("|") == list(claims_llm.CONDITIONS)
    assert set(DECLARABLE_KINDS) == set(claims_llm._SLOTS)


async def test_opposites_are_mismatches_but_a_second_reading_of_the_same_claim_is_not() -> None:
    """Alive against dead is flagged; "pours the ale and says nothing" (said, and negated) is not.

    Names resolve as the prompt gave them, by alias, or by id: each form below names Harlan Voss.
    """
    from bot.narrator.base import DeclaredClaim, DeclaredSentence

    snap = world()

    def declare(sentence: str, *claims: dict[str, Any]) -> tuple[DeclaredSentence, ...]:
        return (DeclaredSentence(sentence=sentence, claims=tuple(DeclaredClaim(**c) for c in claims)),)

    corpse = "Harlan Voss lies dead behind the bar."
    [v] = await extra_conflicts(None, corpse, snap, declared=declare(corpse, said("alive", "Harlan Voss")))
    assert v.reason.startswith(UNSUPPORTED) and "dead(Harlan Voss)" in v.reason
    for name in ("Voss", "npc-voss", "harlan voss"):
        assert await extra_conflicts(None, corpse, snap, declared=declare(corpse, said("dead", name))) == []
    quiet = "Bessa pours the ale and says nothing."
    for verb in ("pours", "says"):
        mine = declare(quiet, said("acts", "Bessa", verb=verb))
        assert await extra_conflicts(None, quiet, snap, declared=mine) == []
