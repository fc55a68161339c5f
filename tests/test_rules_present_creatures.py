"""A refusal that offers targets offers the living: the dead are named as dead, never as present.

Played through the real table: Greyrock cuts down the dock thug Bilge at the harbour, then Mira's attack names
nobody, and the refusal's list of who is there must not offer Bilge's body as someone to fight.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.errors import InvalidAction
from bot.intent_parser import OfflineIntentParser, ParseRefusal, ParseScene, SceneName
from tests.table_helpers import ALICE, BOB, CARA, DAN, GM, WHERE, make_table, seat_everyone


def test_the_parser_offers_only_the_living_and_names_the_dead_as_dead() -> None:
    scene = ParseScene(
        actor="pc-mira",
        creatures=(
            SceneName(id="pc-mira", name="Mira", kind="pc"),
            SceneName(id="npc-old-wei", name="Old Wei", kind="npc"),
            SceneName(id="monster-bilge", name="Bilge", kind="monster", alive=False),
            SceneName(id="monster-gaff", name="Gaff", kind="monster"),
        ),
    )
    parser = OfflineIntentParser()
    for text in ("attack", "help", "talk loudly"):
        refusal = parser.parse_now(text, scene)
        assert isinstance(refusal, ParseRefusal), text
        assert "Present: Old Wei, Gaff (Bilge is dead)." in refusal.reason, refusal.reason


async def test_after_a_kill_the_refusal_does_not_list_the_body_as_present(
    sqlite_url: str, tmp_path: Path
) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE, BOB))
        await table.submit(WHERE, ALICE, key="go-a", text="go to the harbour")
        await table.submit(WHERE, BOB, key="go-b", text="go to the harbour")
        await table.close_round(WHERE, GM)
        for number in range(12):
            await table.submit(WHERE, ALICE, key=f"a{number}", text="attack Bilge with my longsword")
            report = await table.close_round(WHERE, GM)
            if re.search(r"Bilge (dies|is slain|collapses, dead)", report.public_text):  # type: ignore[attr-defined]
                break
        else:
            pytest.fail("Bilge never fell")
        with pytest.raises(InvalidAction) as refused:
            await table.submit(WHERE, BOB, key="b", text="attack")
        message = str(refused.value)
        living, _, dead = message.split("Present:", 1)[1].partition("(")
        assert "Bilge" not in living and "Bilge" in dead and dead.endswith("dead)."), message
        assert "Greyrock" in living, message
    finally:
        await table.aclose()


async def test_first_aid_on_an_ally_at_the_table_meets_a_dc_not_the_allys_roll(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Seen in play: "fails on a medicine check (13 vs Orrin Vale's medicine 13)", an ally resisting help."""
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (CARA, DAN))
        receipt = await table.submit(WHERE, CARA, key="aid", text="bandage Orrin's arm")
        assert "medicine" in receipt.intent_summary.lower(), receipt.intent_summary
        report = await table.close_round(WHERE, GM)
        line = next(a for a in report.actions if a.actor == "Sister Tamsin")
        assert "vs DC 10)" in line.summary and "Orrin Vale's" not in line.summary, line.summary
        assert len(line.rolls) == 1 and "Orrin" not in line.rolls[0], line.rolls
    finally:
        await table.aclose()


async def test_an_attack_picked_on_a_body_is_refused_at_once_with_who_is_alive(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Seen in the evening: '/act attack Bilge' with Bilge picked as the target, a round after he died, was
    accepted and only came back 'cannot act: Bilge is already dead' in the next round's results."""
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE, BOB))
        await table.submit(WHERE, ALICE, key="go-a", text="go to the harbour")
        await table.submit(WHERE, BOB, key="go-b", text="go to the harbour")
        await table.close_round(WHERE, GM)
        for number in range(1, 12):
            await table.submit(WHERE, ALICE, key=f"a{number}", text="attack Bilge with my longsword")
            report = await table.close_round(WHERE, GM)
            if any("Bilge dies" in a.summary for a in report.actions):
                break
        else:
            pytest.fail("Bilge never died")
        with pytest.raises(InvalidAction) as err:
            await table.submit(WHERE, BOB, key="late", text="attack him with my shortbow", target="Bilge")
        assert "Bilge is already dead" in str(err.value) and "Greyrock" in str(err.value), err.value
        # searching the body is still an action
        receipt = await table.submit(WHERE, BOB, key="search", text="search the body", target="Bilge")
        assert receipt.intent_summary, receipt
    finally:
        await table.aclose()


def test_of_two_namesakes_the_living_one_is_the_target() -> None:
    """Two 'Skeleton's, the first already destroyed: 'attack the skeleton' means the one still standing."""
    scene = ParseScene(
        actor="pc-wren",
        creatures=(
            SceneName(id="monster-skeleton-1", name="Skeleton", kind="monster", alive=False),
            SceneName(id="monster-skeleton-2", name="Skeleton", kind="monster"),
        ),
    )
    intent = OfflineIntentParser().parse_now("attack the skeleton", scene)
    assert not isinstance(intent, ParseRefusal) and intent.target == "monster-skeleton-2", intent
