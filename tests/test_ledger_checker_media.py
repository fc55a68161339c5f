"""People seen or heard through a medium: a living voice on a live line is not in the room; anyone inside a
recording, a photograph or a letter does not act. A dead man on a LIVE line still acts (a contradiction).

An invented lighthouse: the keeper Tamsin and the boatman Corvin are at the lighthouse, the harbourmaster
Ilse is at the harbour office, and the old keeper Brannoch drowned last winter.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def lighthouse() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-tamsin", "pc", "Tamsin", owner="1", location="loc-light", pronoun="she"),
            Entity("npc-corvin", "npc", "Corvin Dale", location="loc-light", pronoun="he"),
            Entity("npc-ilse", "npc", "Ilse Varga", location="loc-office", pronoun="she"),
            Entity("npc-brannoch", "npc", "Brannoch Hale", location="loc-light", pronoun="he", alive=False),
            Entity("loc-light", "location", "the lighthouse"),
            Entity("loc-office", "location", "the harbour office"),
        ],
        scene=Scene("loc-light", frozenset({"pc-tamsin", "npc-corvin"})),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, lighthouse()).conflicts()}


def test_a_living_voice_over_a_live_line_is_not_here() -> None:
    assert refuted("Ilse Varga speaks over the radio, her voice thin with static.") == set()
    assert refuted("Ilse's face fills the cracked monitor, and she frowns at the weather chart.") == set()
    assert refuted("On the screen, Ilse shakes her head slowly.") == set()
    # control: no medium, she stands here, and the record puts her at the harbour office
    assert "npc-ilse-location" in refuted("Ilse Varga stands by the lamp, shaking her head slowly.")


def test_a_live_line_opened_before_carries_the_newcomer() -> None:
    text = (
        "Corvin picks up the radio handset and thumbs the switch. It hisses twice. Ilse Varga sounds tired."
    )
    assert refuted(text) == set()
    # control: a newcomer told in a place of the room is here, line or not
    text = (
        "Corvin picks up the radio handset and thumbs the switch. It hisses. Beside the lamp, Ilse sits down."
    )
    assert "npc-ilse-location" in refuted(text)


def test_the_dead_inside_a_recording_do_not_act() -> None:
    assert refuted("In the old footage, Brannoch Hale waves at the camera from the gallery.") == set()
    assert refuted("The tape runs. Brannoch's voice crackles from the speaker, calm and slow.") == set()
    assert refuted("A faded photograph of Brannoch Hale hangs by the stairs, smiling.") == set()


def test_the_dead_on_a_live_line_still_act() -> None:
    # live comms from a dead man is acting: the contradiction stays
    assert "npc-brannoch-alive" in refuted("Brannoch Hale reports over the radio that the lamp is lit.")
    # control: no medium at all
    assert "npc-brannoch-alive" in refuted("Brannoch Hale climbs the stairs and lights the lamp.")


def test_a_medium_word_as_a_modifier_or_object_is_no_medium() -> None:
    # "the radio room" is a place, not a line; "writes a letter" is her act, here
    assert "npc-ilse-location" in refuted("Ilse Varga sits in the radio room below the lamp.")
    assert "npc-ilse-location" in refuted("Ilse Varga sits at the lamp table and writes a letter.")
