"""A place right after "no one", "everyone" or "somebody" is where those others are, not the subject's:
"Silas whispers the order, low, so no one on the cay can hear it" keeps Silas aboard.

Clean control and conflict: the subject's own place phrase still places them ("Silas whispers the order on
the cay" with Silas recorded aboard the ship). "The far end" of a place the sentence opens with is the
scene's far end, not a distance from it ("At the far end of the deck, Marl leans on the rail" puts Marl
here); "Far below," and "In the distance," still do not. An invented world: a sloop anchored off a reef islet.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def sloop() -> WorldSnapshot:
    """Bosun Ketch and the gunner Oda aboard the Kittiwake; Marl ashore on the reef islet."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-wren", "pc", "Wren", owner="1", location="loc-sloop", pronoun="she"),
            Entity("npc-ketch", "npc", "Ketch", location="loc-sloop", pronoun="he"),
            Entity("npc-oda", "npc", "Oda", location="loc-sloop", pronoun="she"),
            Entity("npc-marl", "npc", "Marl", location="loc-islet", pronoun="he"),
            Entity("loc-sloop", "location", "the Kittiwake"),
            Entity("loc-islet", "location", "Gannet Key"),
        ],
        scene=Scene("loc-sloop", frozenset({"pc-wren", "npc-ketch", "npc-oda"})),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, sloop()).conflicts()}


def test_a_place_of_no_one_is_not_the_subjects() -> None:
    text = (
        "Ketch bends close and whispers the order into Oda's ear, low, so no one on Gannet Key can hear it."
    )
    assert refuted(text) == set()


def test_a_place_of_everybody_is_not_the_subjects() -> None:
    assert refuted("Ketch waves his hat so that everybody on Gannet Key sees it.") == set()


def test_the_subjects_own_place_still_places_him() -> None:
    assert "npc-ketch-location" in refuted("Ketch whispers the order on Gannet Key, low, to the shore party.")


def test_the_far_end_of_the_scene_is_the_scene() -> None:
    assert "npc-marl-location" in refuted("At the far end of the deck, Marl leans on the rail.")


def test_clean_control_a_distance_is_not_the_scene() -> None:
    assert refuted("Far below, Marl leans on the rail of the jetty.") == set()
    assert refuted("In the distance, Marl leans on the rail of the jetty.") == set()
