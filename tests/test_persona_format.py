"""A scenario NPC's persona as a table (issue 13): validated with messages naming the key, carried into the
NPC's sheet by the timeline exactly as ``bot.narrator.voices`` reads it, and used by the bundled worlds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.narrator.voices import persona_from_sheet
from ledger.scenario.format import ScenarioError
from ledger.scenario.reading import load_scenario, parse_scenario
from ledger.scenario.timeline import timeline

ROOT = Path(__file__).resolve().parents[1]

WORLD = """
[campaign]
name = "Tiny"
current_session = 2
starting_location = "loc-yard"

[[locations]]
id = "loc-yard"
name = "The Yard"

[[items]]
id = "item-rope"
name = "rope"
holder = "loc-yard"

[[npcs]]
id = "npc-kel"
name = "Kel"
bestiary = "commoner"
location = "loc-yard"
speech = "Gruff."

[npcs.persona]
voice = "Gruff, loyal to the yard."
address = { everyone = "mate", pc-ana = "boss" }
wants = ["item-rope"]
knows = ["item-rope"]

[[npcs.persona.traits]]
on = "event"
ref = "addressed"
line = "Aye, {address}?"

[[npcs.persona.traits]]
on = "item"
ref = "item-rope"
line = "Mind my rope, {address}."
attitude = [-20, 100]
mentions = ["item-rope"]
says = true
"""


def _error(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source="broken.toml")
    return str(info.value)


def _sheet(text: str, npc: str) -> dict[str, object]:
    for event in timeline(parse_scenario(text)):
        for change in event.changes:
            if change.kind == "create_entity" and change.id == npc:
                assert change.sheet is not None
                return dict(change.sheet)
    raise AssertionError(f"{npc} is never created")


def test_a_persona_table_reaches_the_sheet_as_the_narrator_reads_it() -> None:
    sheet = _sheet(WORLD, "npc-kel")
    assert isinstance(sheet["persona"], dict)
    persona = persona_from_sheet(sheet)
    assert persona is not None and not persona.derived
    assert persona.voice == "Gruff, loyal to the yard."
    assert dict(persona.address) == {"everyone": "mate", "pc-ana": "boss"}
    assert persona.knows == ("item-rope",) and persona.wants == ("item-rope",)
    assert [(t.on, t.ref) for t in persona.traits] == [("event", "addressed"), ("item", "item-rope")]
    rope = persona.traits[1]
    assert (rope.attitude_min, rope.attitude_max, rope.mentions) == (-20, 100, ("item-rope",))


def test_a_free_text_persona_is_still_a_note() -> None:
    text = WORLD.split("[npcs.persona]")[0] + 'persona = "Secretly sells the rope."\n'
    sheet = _sheet(text, "npc-kel")
    assert sheet["persona"] == "Secretly sells the rope."
    persona = persona_from_sheet(sheet)
    assert persona is not None and persona.derived and persona.voice == ""


@pytest.mark.parametrize(
    ("old", "new", "path", "words"),
    [
        (
            'line = "Aye, {address}?"',
            'line = "Aye, {target}?"',
            "npcs[0].persona.traits[0].line",
            "placeholder",
        ),
        ('line = "Aye, {address}?"', 'line = "Ask npc-kel."', "npcs[0].persona.traits[0].line", "no ids"),
        ('ref = "addressed"', 'ref = "insulted"', "npcs[0].persona.traits[0]", "addressed, threatened"),
        ("attitude = [-20, 100]", "attitude = [50, 10]", "npcs[0].persona.traits[1]", "minimum"),
        ('on = "event"', 'on = "weather"', "npcs[0].persona.traits[0].on", ""),
        ("says = true", 'trigger = "x"', "npcs[0].persona.traits[1].trigger", ""),
        ('wants = ["item-rope"]', 'wants = ["rope"]', "npcs[0].persona.wants[0]", ""),
    ],
)
def test_a_bad_persona_table_names_the_key(old: str, new: str, path: str, words: str) -> None:
    assert WORLD.count(old) == 1
    message = _error(WORLD.replace(old, new))
    assert f"broken.toml: {path}" in message, message
    assert words in message, message


def test_the_bundled_worlds_give_their_npcs_a_voice_without_secrets() -> None:
    spoken = []
    for name, npcs in (("harbor", ("npc-old-wei", "npc-bessa")), ("crypt", ("npc-sefa", "npc-ilse-morrow"))):
        world = load_scenario(ROOT / "scenarios" / f"{name}.toml")
        by_id = {n.id: n for n in world.npcs}
        for npc in npcs:
            persona = persona_from_sheet({"persona": by_id[npc].persona.model_dump(mode="json")})  # type: ignore[union-attr]
            assert persona is not None and len(persona.traits) >= 2, npc
            spoken += [persona.voice, *(t.line for t in persona.traits)]
    wei = load_scenario(ROOT / "scenarios" / "harbor.toml")
    assert any("favour" in line for line in spoken)  # Old Wei on the favour he is owed
    assert any("under my roof" in line for line in spoken)  # Bessa on blades drawn in the Gull
    # The GM's secrets (who runs the ring, what Wei fears) are never in a line or a voice.
    secrets = [f.value for f in wei.facts if f.visibility == "gm" and isinstance(f.value, str)]
    assert secrets
    for line in spoken:
        assert "Maren" not in line and "smuggl" not in line.lower() and "harbourmaster" not in line, line
        assert not any(s.lower() in line.lower() for s in secrets), line
