"""Eyes at work as the subject of their own clause: a blinded creature's eyes that travel along writing or
settle on someone see, and contradict the blindness.

Clean controls: the creature can see; eyes told blind; writing made a thing to feel (carved letters under
the fingers); eyes that only move toward a door; a negated verb; the eyes of someone else. An invented
world: an archive under a cathedral, its blinded keeper and a visiting scholar.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def archive(*, blind: bool = True) -> WorldSnapshot:
    """Keeper Ysolde (blinded unless told otherwise), the scholar Marten (a PC) and the verger Hob."""
    conditions = frozenset({"blinded"}) if blind else frozenset()
    return WorldSnapshot.build(
        entities=[
            Entity("pc-marten", "pc", "Marten", owner="1", location="loc-archive", pronoun="he"),
            Entity(
                "npc-ysolde", "npc", "Ysolde", location="loc-archive", pronoun="she", conditions=conditions
            ),
            Entity("npc-hob", "npc", "Hob", location="loc-archive", pronoun="he"),
            Entity("loc-archive", "location", "the Undercroft Archive"),
        ],
        scene=Scene("loc-archive", frozenset({"pc-marten", "npc-ysolde", "npc-hob"})),
    )


def refuted(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


READING = "Ysolde tilts the charter to the lamp and her eyes move along the lines, one by one."
SETTLES = "Ysolde lifts her head, and her pale gaze settles on Marten and stays there."


def test_eyes_travelling_along_writing_see() -> None:
    assert "npc-ysolde-condition-blinded" in refuted(READING, archive())


def test_a_gaze_settling_on_someone_sees() -> None:
    assert "npc-ysolde-condition-blinded" in refuted(SETTLES, archive())


def test_clean_control_she_can_see() -> None:
    assert refuted(READING, archive(blind=False)) == set()
    assert refuted(SETTLES, archive(blind=False)) == set()


def test_clean_control_blind_eyes() -> None:
    text = "Ysolde tilts the charter to the lamp and her blind eyes move along the lines."
    assert refuted(text, archive()) == set()


def test_clean_control_carved_letters_are_felt() -> None:
    text = "Ysolde runs her fingers over the carved letters of the lintel; her eyes move along the lines."
    assert refuted(text, archive()) == set()


def test_clean_control_eyes_that_only_move() -> None:
    text = "Ysolde turns her head. Her eyes move toward the door as Hob comes in."
    assert refuted(text, archive()) == set()


def test_clean_control_a_negated_verb() -> None:
    text = "Ysolde sits very still. Her eyes do not follow Marten as he crosses the room."
    assert refuted(text, archive()) == set()


def test_clean_control_someone_elses_eyes() -> None:
    text = "Hob holds the charter up for Ysolde, and his eyes move along the lines as he reads it to her."
    assert refuted(text, archive()) == set()
