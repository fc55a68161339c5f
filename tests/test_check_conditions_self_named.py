"""A speaker who names themself on a medium: "Halloran here," says a tired voice over the radio.

The line's protocol names the one who acts: a dead man reporting over the radio contradicts his death. Clean
controls: the speaker alive; another person introducing him ("This is Halloran," the warden says); a
question ("Halloran here?"); a name set off by a comma (calling him: "Halloran, here!"); a memory of his
voice. An invented world: a fire lookout tower in a pine forest.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def lookout(*, alive: bool = False) -> WorldSnapshot:
    """Ranger Halloran died in the Sawtooth burn (or lives, for the controls); Warden Ostrova and Kit (a PC)
    are in the tower."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-kit", "pc", "Kit", owner="1", location="loc-tower", pronoun="she"),
            Entity("npc-ostrova", "npc", "Warden Ostrova", location="loc-tower", pronoun="she"),
            Entity("npc-halloran", "npc", "Ranger Halloran", location="loc-ridge", pronoun="he", alive=alive),
            Entity("loc-tower", "location", "Cinder Peak Lookout"),
            Entity("loc-ridge", "location", "Sawtooth Ridge"),
        ],
        scene=Scene("loc-tower", frozenset({"pc-kit", "npc-ostrova"})),
    )


def refuted(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


OVER_RADIO = (
    'The radio on the desk crackles. "Tower, Ridge. Ranger Halloran here," says a tired voice. '
    '"Smoke on the north face, moving east."'
)


def test_a_dead_man_naming_himself_on_the_radio_acts() -> None:
    assert "npc-halloran-alive" in refuted(OVER_RADIO, lookout(alive=False))


def test_clean_control_he_is_alive() -> None:
    assert refuted(OVER_RADIO, lookout(alive=True)) == set()


def test_signing_off_names_the_speaker() -> None:
    text = 'The radio on the desk crackles. "Smoke on the north face. Copy. Halloran out."'
    assert "npc-halloran-alive" in refuted(text, lookout(alive=False))


def test_clean_control_someone_else_introduces_him() -> None:
    text = 'Warden Ostrova taps the photograph by the radio. "This is Halloran," Ostrova says. "He was good."'
    assert refuted(text, lookout(alive=False)) == set()


def test_clean_control_a_question_and_a_call() -> None:
    question = 'Kit keys the radio. "Ranger Halloran here?" Only static answers.'
    calling = 'Kit leans over the rail and shouts into the smoke. "Halloran, here! Over here!"'
    assert refuted(question, lookout(alive=False)) == set()
    assert refuted(calling, lookout(alive=False)) == set()


def test_clean_control_a_remembered_voice() -> None:
    text = (
        "Kit remembers the last time the radio spoke with his voice, back in June: "
        '"Halloran here, all quiet on the ridge."'
    )
    assert refuted(text, lookout(alive=False)) == set()
