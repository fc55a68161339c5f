"""Whose a thing is named as, against who holds it now: a possessive naming the owner the item's own name or
description gives ("Brannoc's amulet" of "Brannoc's bone amulet") says whose it is, which stays true after
it changes hands; and "his chest" is a body, not the recorded "sea chest". Each with a conflict control
that must stay flagged. An invented harbour: Brannoc's amulet and torc are now in Captain Ysolde's keeping;
the sea chest sits on the quay."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot


def harbour() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-tamsin", "pc", "Tamsin", owner="1", location="loc-quay", pronoun="she"),
            Entity(
                "npc-brannoc", "npc", "Brannoc Hale", (Alias("Brannoc"),), pronoun="he", location="loc-quay"
            ),
            Entity("npc-ysolde", "npc", "Captain Ysolde", (Alias("Ysolde"),), pronoun="she"),
            Entity("loc-quay", "location", "the quay"),
            Entity("item-amulet", "item", "Brannoc Hale's bone amulet", (Alias("the amulet"),)),
            Entity(
                "item-torc",
                "item",
                "a gold torc",
                (Alias("the torc"),),
                description="Brannoc's twisted gold neck-ring, token of his rank.",
            ),
            Entity("item-chest", "item", "the sea chest", (Alias("the chest"),)),
        ],
        holdings=[
            Holding("item-amulet", "npc-ysolde", 1),
            Holding("item-torc", "npc-ysolde", 1),
            Holding("item-chest", "loc-quay", 1),
        ],
        scene=Scene("loc-quay", frozenset({"pc-tamsin", "npc-brannoc", "npc-ysolde"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, harbour()).conflicts()}


def test_the_owner_named_by_the_items_name_is_whose_not_who_holds() -> None:
    assert flags("Brannoc's amulet lies on the captain's table, a knot of yellowed bone.") == set()
    assert flags("Ysolde has Brannoc's amulet in her hand, turning it over.") == set()
    assert flags("Tamsin, you found Brannoc's amulet on the stairs, and his knife beside it.") == set()
    # controls: the owner told handling it, or another's possessive, still says who holds it now
    assert flags("Brannoc fingers his amulet and scowls at the sea.") == {"item-amulet-holder"}
    assert flags("Tamsin's amulet swings from her fist.") == {"item-amulet-holder"}


def test_the_owner_named_by_the_items_description_is_whose_not_who_holds() -> None:
    assert flags("Brannoc's torc lies inside on a bed of wool.") == set()
    assert flags("Ysolde opens the box. Brannoc's torc gleams inside it.") == set()
    # control: the owner told handling it now
    assert flags("Brannoc turns his torc over in his hands.") == {"item-torc-holder"}


def test_a_body_part_is_no_item_of_the_same_word() -> None:
    assert flags("Brannoc sleeps by the bollard. His chest lifts and falls, slow as the tide.") == set()
    assert flags("Tamsin, you sit with Brannoc; the rope burn on his chest is raw.") == set()
    # control: the chest itself taken up is still the recorded one, which sits on the quay
    assert flags("Brannoc hoists the sea chest onto his shoulder and walks off.") == {"item-chest-holder"}
