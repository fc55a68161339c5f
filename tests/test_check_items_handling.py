"""Handling read from the shape of the clause: a verb of posture with the thing as its direct object puts it
somewhere by hand ("lays the cloak over the bench", "hangs the ring on a peg"); a hand closing around a thing
grasps it; wrapping oneself in a thing wears it; a thing the record itself calls by a plural ("the cards" of
a tarot pack) told so counts no more than the one pack. Controls: lying on it, leaning on it, the right
holder, a hand closing on nothing, seeing oneself in it.
An invented longhall: Snorri holds the blue cloak and the arm-ring; Gudrun holds her tarot pack."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot


def hall() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-eyvind", "pc", "Eyvind", owner="1", location="loc-hall", pronoun="he"),
            Entity("npc-gudrun", "npc", "Gudrun", location="loc-hall", pronoun="she"),
            Entity("npc-snorri", "npc", "Snorri", location="loc-hall", pronoun="he"),
            Entity("loc-hall", "location", "the longhall"),
            Entity("item-cloak", "item", "blue cloak"),
            Entity("item-ring", "item", "arm-ring"),
            Entity("item-tarot", "item", "Tarot pack", (Alias("the cards"),)),
        ],
        holdings=[
            Holding("item-cloak", "npc-snorri", 1),
            Holding("item-ring", "npc-snorri", 1),
            Holding("item-tarot", "npc-gudrun", 1),
        ],
        scene=Scene("loc-hall", frozenset({"pc-eyvind", "npc-gudrun", "npc-snorri"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, hall()).conflicts()}


RING, CLOAK = {"item-ring-holder"}, {"item-cloak-holder"}


def test_a_verb_of_posture_with_the_thing_as_object_puts_it_down_by_hand() -> None:
    assert flags("Gudrun lays the blue cloak over the bench.") == CLOAK
    assert flags("Gudrun hangs the arm-ring on a peg.") == RING
    # controls: the verb of posture with the thing as a place, and the right holder
    assert flags("Gudrun lies on the blue cloak.") == set()
    assert flags("Gudrun rests against the blue cloak.") == set()
    assert flags("Snorri hangs the arm-ring on a peg.") == set()


def test_a_hand_closing_around_a_thing_grasps_it() -> None:
    assert flags("Gudrun's hand closes around the arm-ring.") == RING
    assert flags("Gudrun's fingers close around the arm-ring.") == RING
    assert flags("Snorri's hand closes around the arm-ring.") == set()
    assert flags("Gudrun's hand closes around nothing: the arm-ring is gone.") == set()
    assert flags("Gudrun remembers how her hand closed around the arm-ring.") == set()


def test_wrapping_oneself_in_a_thing_wears_it() -> None:
    assert flags("Gudrun wraps herself in the blue cloak.") == CLOAK
    assert flags("Snorri wraps himself in the blue cloak.") == set()
    assert flags("Gudrun sees herself in the blue cloak, in a dream.") == set()


def test_a_plural_the_record_calls_one_thing_by_counts_one() -> None:
    assert flags("Gudrun lays the cards out on the cloth one by one.") == set()
    assert flags("Snorri lays the cards out on the cloth one by one.") == {"item-tarot-holder"}
