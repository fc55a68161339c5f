"""Things told worn or carried on someone's body by the shape of the phrase: a fronted place on the body
("On Gudrun's wrist the arm-ring glints", "Around your shoulders hangs the blue cloak"), a participle of
clothing ("Gudrun, wrapped in the blue cloak, ..."), a hand gone to a place on one's own body where the thing
is found ("your hand goes to your belt ..., and there it is: the arm-ring"). A hand named as the subject's is
no verb of handing over ("Gudrun's hand goes to her belt: the arm-ring is gone" is clean). Controls: the
right wearer, a thing told gone or once there, a negation, a place that is no body.
An invented longhall: Snorri holds the blue cloak and the arm-ring; Gudrun and two PCs are in the hall."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Holding, Scene, WorldSnapshot


def hall() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-eyvind", "pc", "Eyvind", owner="1", location="loc-hall", pronoun="he"),
            Entity("pc-hallveig", "pc", "Hallveig", owner="2", location="loc-hall", pronoun="she"),
            Entity("npc-gudrun", "npc", "Gudrun", location="loc-hall", pronoun="she"),
            Entity("npc-snorri", "npc", "Snorri", location="loc-hall", pronoun="he"),
            Entity("loc-hall", "location", "the longhall"),
            Entity("item-cloak", "item", "blue cloak"),
            Entity("item-ring", "item", "arm-ring"),
        ],
        holdings=[Holding("item-cloak", "npc-snorri", 1), Holding("item-ring", "npc-snorri", 1)],
        scene=Scene("loc-hall", frozenset({"pc-eyvind", "pc-hallveig", "npc-gudrun", "npc-snorri"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, hall()).conflicts()}


RING, CLOAK = {"item-ring-holder"}, {"item-cloak-holder"}


def test_a_fronted_place_on_the_body_tells_who_wears_the_thing() -> None:
    assert flags("On Gudrun's wrist the arm-ring glints.") == RING
    assert flags("Around Gudrun's shoulders hangs the blue cloak.") == CLOAK
    assert flags("Gudrun stands there. On her wrist the arm-ring glints.") == RING
    assert flags("Eyvind, around your shoulders hangs the blue cloak.") == CLOAK
    # controls: the right wearer, a place that is no body, a memory, a negation
    assert flags("On Snorri's wrist the arm-ring glints.") == set()
    assert flags("Snorri stands there. At his wrist glints the arm-ring.") == set()
    assert flags("On Gudrun's table the arm-ring glints.") == set()
    assert flags("Gudrun remembers the day: on Thorgrim's wrist the arm-ring glinted.") == set()
    assert flags("On Gudrun's wrist no arm-ring glints.") == set()


def test_a_participle_of_clothing_tells_who_wears_the_thing() -> None:
    assert flags("Gudrun, wrapped in the blue cloak, watches the sea.") == CLOAK
    assert flags("Gudrun sits wrapped in the blue cloak.") == CLOAK
    assert flags("Snorri, wrapped in the blue cloak, watches the sea.") == set()
    assert flags("Gudrun, wrapped in furs, eyes the blue cloak.") == set()


def test_a_hand_gone_to_ones_own_body_finds_the_thing_there() -> None:
    found = "your hand goes to your belt without your telling it to, and there it is: the arm-ring, snug."
    assert flags(f"Eyvind, {found}") == RING
    assert flags("Gudrun's fingers drop to her belt and close on the arm-ring.") == RING
    # controls: the right one, told gone, once there
    assert flags("Snorri's hand goes to his belt, and there it is: the arm-ring.") == set()
    assert flags("Eyvind, your hand goes to your belt: the arm-ring is gone.") == set()
    assert flags("Gudrun's hand goes to her belt: the arm-ring is gone.") == set()
    assert flags("Gudrun's hand goes to her belt, where the arm-ring used to hang.") == set()


def test_worn_things_stay_clean_after_a_hand_over_in_a_plan_a_quote_or_a_negation() -> None:
    assert flags("Snorri hands Gudrun the arm-ring. On Gudrun's wrist the arm-ring glints.") == set()
    lent = "Snorri lends Gudrun the blue cloak. Gudrun, wrapped in the blue cloak, watches the sea."
    assert flags(lent) == set()
    assert flags('"On Gudrun\'s wrist the arm-ring will glint," Snorri says.') == set()
    assert flags("Tomorrow Gudrun will wrap herself in the blue cloak.") == set()
    assert flags("If Gudrun wrapped herself in the blue cloak, Snorri would rage.") == set()
    assert flags("Gudrun does not wrap herself in the blue cloak.") == set()
