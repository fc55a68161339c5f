"""The LLM narrator through the whole table: the real openai SDK over HTTP to a scripted local server.

No narration that contradicts the ledger reaches the channel, whatever the model writes, and the round
posts even when the model is down.
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.config import parse_settings
from bot.intent_parser import OfflineIntentParser
from bot.narrator.llm import LLMNarrator
from bot.table import Table
from tests.fake_llm import FakeLLM, FakeReply
from tests.table_helpers import ALICE, BOB, GM, WHERE, RecordingCourier, seat_everyone

CLEAN = "Greyrock scans the smoky common room of the Salty Gull while Bessa Marlow polishes a tankard."
DEAD_MERCHANT = "Harlan Voss greets the party from behind the bar and pours Greyrock an ale."
LEAK = (
    "Everyone in the Gull suddenly understands that Bessa lets the smugglers keep untaxed dye in her cellar."
)


async def _table(
    tmp_path: Path,
    fake: FakeLLM,
    courier: RecordingCourier,
    *,
    extract_claims: bool = False,
    timeout_seconds: float = 30.0,  # generous: a call meant to succeed must not time out on a loaded machine
) -> Table:
    settings = parse_settings(
        {
            "storage": {"data_dir": str(tmp_path / "data")},
            "llm": {
                "enabled": True,
                "base_url": fake.base_url,
                "model": "fake",
                "timeout_seconds": timeout_seconds,
                "max_retries": 0,
                "extract_claims": extract_claims,
            },
        }
    )
    rng = random.Random(4)
    narrator = LLMNarrator.from_settings(settings.llm, api_key="test-key")
    return await Table.create(
        settings,
        courier=courier,
        narrator=narrator,
        intent_parser=OfflineIntentParser(),
        seeds=lambda: rng.randrange(1, 2**53),
    )


async def _round(table: Table) -> object:
    await seat_everyone(table, (ALICE, BOB))
    await table.submit(WHERE, ALICE, key="a", text="look around the common room")
    await table.submit(WHERE, BOB, key="b", text="search the crates")
    return await table.close_round(WHERE, GM)


async def test_a_clean_draft_is_posted_as_generated(tmp_path: Path, fake_llm: FakeLLM) -> None:
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier)
    fake_llm.script(FakeReply.draft(CLEAN))
    try:
        report = await _round(table)
        assert report.source == "generated"  # type: ignore[attr-defined]
        assert CLEAN in courier.public[0][2]
        prompt = fake_llm.prompt_text(0)
        assert "search the crates" in prompt and "Mira Quickfinger" in prompt
    finally:
        await table.aclose()


async def test_a_dead_npc_never_reaches_the_channel(tmp_path: Path, fake_llm: FakeLLM) -> None:
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier)
    fake_llm.script(FakeReply.draft(DEAD_MERCHANT), FakeReply.draft(DEAD_MERCHANT))
    try:
        report = await _round(table)
        assert report.source == "fallback"  # type: ignore[attr-defined]
        posted = courier.public[0][2]
        assert "Harlan Voss" not in posted
        assert len(fake_llm.chat_requests) == 2, "exactly one rewrite"
        assert "Harlan Voss" in fake_llm.prompt_text(1)  # the rewrite was told what to fix
        conflicts = await table.gm_conflicts(WHERE, GM)
        assert any("Harlan Voss" in c.claim for c in conflicts)
    finally:
        await table.aclose()


async def test_a_rewrite_that_fixes_the_conflict_is_posted_as_regenerated(
    tmp_path: Path, fake_llm: FakeLLM
) -> None:
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier)
    fake_llm.script(FakeReply.draft(DEAD_MERCHANT), FakeReply.draft(CLEAN))
    try:
        report = await _round(table)
        assert report.source == "regenerated"  # type: ignore[attr-defined]
        assert CLEAN in courier.public[0][2]
        assert await table.gm_conflicts(WHERE, GM) == ()
    finally:
        await table.aclose()


ROOM = CLEAN + " Rain drums on the shutters and the fire in the hearth spits and crackles."


async def test_a_rewrite_that_mends_one_sentence_of_the_draft_is_posted_as_regenerated(
    tmp_path: Path, fake_llm: FakeLLM
) -> None:
    """The rewrite keeps the draft's good sentences: close to the rejected draft, yet it is the one posted."""
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier)
    mended = ROOM + " Mira Quickfinger kneels by the crates and runs her fingers along their lids."
    fake_llm.script(FakeReply.draft(f"{ROOM} {DEAD_MERCHANT}"), FakeReply.draft(mended))
    try:
        report = await _round(table)
        assert report.source == "regenerated"  # type: ignore[attr-defined]
        posted = courier.public[0][2]
        assert mended in posted and "Harlan Voss" not in posted
        assert await table.gm_conflicts(WHERE, GM) == ()
    finally:
        await table.aclose()


async def test_a_secret_in_public_text_is_refused(tmp_path: Path, fake_llm: FakeLLM) -> None:
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier)
    fake_llm.script(FakeReply.draft(LEAK), FakeReply.draft(LEAK))
    try:
        await _round(table)
        assert "cellar" not in courier.public[0][2]
    finally:
        await table.aclose()


async def test_the_round_posts_when_the_model_is_down_or_slow(tmp_path: Path, fake_llm: FakeLLM) -> None:
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier, timeout_seconds=0.5)
    fake_llm.script(FakeReply.error(500), FakeReply.slow(60.0))
    try:
        report = await _round(table)
        assert report.source == "fallback" and report.public_text  # type: ignore[attr-defined]
        assert len(courier.public) == 1
        await table.submit(WHERE, ALICE, key="a2", text="look around")
        second = await table.close_round(WHERE, GM)
        assert second.source == "fallback" and len(courier.public) == 2
    finally:
        await table.aclose()


ODD_VERB = "Harlan Voss galumphs across the common room toward Greyrock."


async def test_the_models_own_reading_catches_what_the_word_lists_miss(
    tmp_path: Path, fake_llm: FakeLLM
) -> None:
    """A dead man doing something no word list knows: the LLM extractor reports it; nothing is posted."""
    from ledger.check.judge import check
    from ledger.check.snapshot import snapshot_from_world
    from ledger.scenario.reading import load_scenario
    from ledger.scenario.replay import final_world
    from tests.table_helpers import HARBOR

    world = snapshot_from_world(final_world(load_scenario(HARBOR)))
    assert check(ODD_VERB, world).ok, "premise: the deterministic extractor does not know 'galumphs'"
    claim = {
        "kind": "acts",
        "args": ["npc-harlan-voss"],
        "value": None,
        "verb": "galumphs",
        "quantity": None,
        "quote": ODD_VERB,
        "in_dialogue": False,
        "hypothetical": False,
        "memory": False,
        "rumour": False,
        "negated": False,
    }
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier, extract_claims=True)
    fake_llm.script(
        FakeReply.draft(ODD_VERB),
        FakeReply.json({"claims": [claim]}),
        FakeReply.draft(ODD_VERB),
        FakeReply.json({"claims": [claim]}),
    )
    try:
        report = await _round(table)
        assert report.source == "fallback"  # type: ignore[attr-defined]
        assert "galumphs" not in courier.public[0][2]
        assert any("galumphs" in c.claim for c in await table.gm_conflicts(WHERE, GM))
    finally:
        await table.aclose()


async def test_the_model_is_never_told_a_discovery_and_the_discoverer_reads_it_from_the_record(
    tmp_path: Path, fake_llm: FakeLLM
) -> None:
    """A secret the rules reveal to one player is DM'd word for word and never enters a narration prompt."""
    courier = RecordingCourier()
    table = await _table(tmp_path, fake_llm, courier)
    fake_llm.default = FakeReply.draft(CLEAN)
    try:
        await seat_everyone(table, (ALICE, BOB))
        for n in range(12):  # Insight on Bessa succeeds within a few rounds for this seed
            await table.submit(
                WHERE, ALICE, key=f"a{n}", text="read her face", target="npc-bessa", skill="insight"
            )
            await table.submit(
                WHERE, BOB, key=f"b{n}", text="read her face", target="npc-bessa", skill="insight"
            )
            await table.close_round(WHERE, GM)
            if courier.dms:
                break
        assert courier.dms, "a successful Insight sends its player a DM"
        _user, note = courier.dms[0]
        secrets = (
            "Bessa lets the smugglers keep barrels of untaxed dye in the Salty Gull's cellar",
            "Old Wei fears the harbourmaster has found the bond-room ledger that names him",
        )
        discovery = next((secret for secret in secrets if secret in note), None)
        assert discovery is not None, note  # the discoverer reads the record word for word
        prompts = [fake_llm.prompt_text(i) for i in range(len(fake_llm.chat_requests))]
        assert prompts and not any(discovery in p for p in prompts)
    finally:
        await table.aclose()
