"""A thing told lying in the scene while the one creature who holds it is elsewhere: the thing set off after
its name by a participle of posture ("the coupling from the wreck, lying on a square of film"), or the
subject of a verb of lying ("The coupling lies on the desk"), is held to its holder's whereabouts ("at the
back" of a room is part of the room, not "back" at another place). Controls: the holder here, a
memory, a negation, another place named.
An invented workshop: Reyes (away in the tower) holds the actuator coupling; Mori and Hilde are here."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot


def workshop(*, reyes_here: bool = False) -> WorldSnapshot:
    present = {"pc-hilde", "npc-mori"} | ({"npc-reyes"} if reyes_here else set())
    return WorldSnapshot.build(
        entities=[
            Entity("pc-hilde", "pc", "Hilde", owner="1", location="loc-yard", pronoun="she"),
            Entity("npc-mori", "npc", "Chief Mori", (Alias("Mori"),), location="loc-yard", pronoun="she"),
            Entity("npc-reyes", "npc", "Reyes", location="loc-yard" if reyes_here else "loc-tower"),
            Entity("loc-yard", "location", "the yard"),
            Entity("loc-tower", "location", "the tower"),
            Entity("item-coupling", "item", "actuator coupling", (Alias("coupling"),)),
        ],
        holdings=[Holding("item-coupling", "npc-reyes", 1)],
        scene=Scene("loc-yard", frozenset(present)),
    )


def flags(text: str, *, reyes_here: bool = False) -> set[str | None]:
    return {v.refuted_by for v in check(text, workshop(reyes_here=reyes_here)).conflicts()}


SET_OFF = (
    "The desk sits at the back, a slab of steel with nothing on it but a tablet and the actuator coupling "
    "from the wreck, lying on a square of evidence film."
)
LIES = "The actuator coupling lies on a square of film on the desk."


def test_a_thing_set_off_lying_somewhere_here_is_held_to_its_holders_whereabouts() -> None:
    assert flags(SET_OFF) == {"item-coupling-holder"}
    assert flags(SET_OFF, reyes_here=True) == set()  # its holder is here: it may lie on his desk


def test_a_thing_told_lying_here_is_held_to_its_holders_whereabouts() -> None:
    assert flags(LIES) == {"item-coupling-holder"}
    # controls: the holder here, another place, a memory, a negation
    assert flags(LIES, reyes_here=True) == set()
    assert flags("The actuator coupling lies on a square of film in the tower.") == set()
    assert flags("Mori remembers how the actuator coupling lay on the desk.") == set()
    assert flags("No actuator coupling lies on the desk.") == set()


def test_back_at_another_place_is_not_the_back_of_this_one() -> None:
    assert flags("Back at the tower, the actuator coupling is lying on a square of film.") == set()
