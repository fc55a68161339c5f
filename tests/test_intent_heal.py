"""Healing asked for in plain words (seen in play: "heal Orrin with a prayer to the drowned saint" became
"talk to Orrin Vale"): the actor's own healing spell, else tending the wounds with a Medicine check."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.intent_parser import OfflineIntentParser, ParseRefusal, ParseScene, SceneName
from rules.intents import Intent
from tests.table_helpers import CARA, DAN, GM, WHERE, make_table, seat_everyone

PEOPLE = (
    SceneName(id="pc-ansel", name="Ansel Brack", kind="pc"),
    SceneName(id="npc-rook", name="Rook", kind="npc"),
    SceneName(id="npc-dead", name="Old Hendry", kind="npc", alive=False),
)
CURE = SceneName(id="cure-wounds", name="Cure Wounds", kind="heal")
WORD = SceneName(id="healing-word", name="Healing Word", kind="heal")
FLAME = SceneName(id="sacred-flame", name="Sacred Flame", kind="spell")
WIND = SceneName(id="second-wind", name="Second Wind", kind="heal", aliases=("self",))


def _parse(text: str, spells: tuple[SceneName, ...]) -> Intent | ParseRefusal:
    scene = ParseScene(actor="pc-ilse", creatures=PEOPLE, spells=spells)
    return OfflineIntentParser().parse_now(text, scene)


@pytest.mark.parametrize(
    ("text", "spells", "kind", "detail"),
    [
        ("heal Ansel Brack with a prayer to the river god", (FLAME, CURE, WORD), "ability", "cure-wounds"),
        ("I try to heal Rook with a healing word", (CURE, WORD), "ability", "healing-word"),
        ("lay hands on Rook", (CURE,), "ability", "cure-wounds"),
        ("heal myself", (WIND,), "ability", "second-wind"),
        # no healing magic (or only for oneself): tending the wounds is a Medicine check
        ("patch Ansel Brack up", (), "check", "medicine"),
        ("heal Rook", (WIND, FLAME), "check", "medicine"),
        # healing in a question or a topic of talk is still talk
        ("ask Rook how to cure the marsh rot", (CURE,), "talk", None),
        ("ask Rook about the healing trade", (CURE,), "talk", None),
    ],
)
def test_healing_in_plain_words(
    text: str, spells: tuple[SceneName, ...], kind: str, detail: str | None
) -> None:
    intent = _parse(text, spells)
    assert isinstance(intent, Intent), intent
    assert intent.kind.value == kind, intent
    if kind == "ability":
        assert intent.ability_name == detail, intent
    if kind == "check":
        assert intent.skill == detail, intent


@pytest.mark.parametrize(
    ("text", "spells", "words"),
    [("heal Old Hendry", (CURE,), "dead"), ("heal myself", (), "no healing")],
)
def test_healing_that_cannot_be_done_is_refused_with_a_reason(
    text: str, spells: tuple[SceneName, ...], words: str
) -> None:
    refusal = _parse(text, spells)
    assert isinstance(refusal, ParseRefusal) and words in refusal.reason, refusal


async def test_a_cleric_healing_an_ally_at_the_table_casts_her_healing_spell(
    sqlite_url: str, tmp_path: Path
) -> None:
    """Through the real table, harbour world: Sister Tamsin (a cleric) heals Orrin Vale (19 of 27 HP)."""
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (CARA, DAN))
        receipt = await table.submit(
            WHERE, CARA, key="heal", text="heal Orrin with a prayer to the drowned saint", target="Orrin Vale"
        )
        assert "talk" not in receipt.intent_summary.lower(), receipt.intent_summary
        report = await table.close_round(WHERE, GM)
        line = next(a for a in report.actions if a.actor == "Sister Tamsin")
        assert "Cure Wounds restores" in line.summary and "Orrin Vale" in line.summary, line.summary
        assert line.rolls, line
    finally:
        await table.aclose()
