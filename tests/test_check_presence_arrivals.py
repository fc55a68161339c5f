"""Issue 10, after the fresh_l/fresh_m run: someone who comes into the scene with the place the record has
them in named in the telling ("comes up out of the boathouse", "through it comes Marl, from the side of the
yard toward the kilns", "a cart pulls out of the mill yard ... Marl comes in") has a journey told, not an
appearance where the record says they are not. The controls stay flagged: the same arrival with no origin
told, or with some other place named, and someone recorded elsewhere who is simply shown here.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, RoundFacts, Scene, WorldSnapshot


def pottery() -> WorldSnapshot:
    """A potters' village: the PC Ilse in the yard; the kiln-master Marl Otway at the kilns; the miller Dosia
    Fenn at the mill; the carter Jory in the yard with Ilse."""
    here = frozenset({"pc-ilse", "npc-jory"})
    # the yard and the kilns lie in Potter's End; the mill stands outside it
    return WorldSnapshot.build(
        entities=[
            Entity("pc-ilse", "pc", "Ilse", owner="1", location="loc-yard", pronoun="she"),
            Entity("npc-jory", "npc", "Jory", location="loc-yard", pronoun="he"),
            Entity(
                "npc-marl",
                "npc",
                "Marl Otway",
                aliases=(Alias("Marl"), Alias("the kiln-master")),
                location="loc-kilns",
                pronoun="he",
            ),
            Entity(
                "npc-dosia",
                "npc",
                "Dosia Fenn",
                aliases=(Alias("Dosia"),),
                location="loc-mill",
                pronoun="she",
            ),
            Entity("loc-yard", "location", "the Clay Yard", aliases=(Alias("the yard"),), location="loc-end"),
            Entity(
                "loc-kilns", "location", "the Kiln Row", aliases=(Alias("the kilns"),), location="loc-end"
            ),
            Entity("loc-end", "location", "Potter's End", aliases=(Alias("the village"),)),
            Entity("loc-mill", "location", "Fenn's Mill", aliases=(Alias("the mill"),)),
        ],
        scene=Scene("loc-yard", here),
        round=RoundFacts(number=2, actions=(), submissions={}, acted=frozenset()),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, pottery()).conflicts()}


def test_an_arrival_out_of_the_recorded_place_is_a_journey_told() -> None:
    told = "Marl comes up out of the kilns, wiping his hands. He sets a jug on the bench."
    assert refuted(told) == set()
    # control: the same arrival with no origin told is someone the record has elsewhere
    bare = "Marl comes up, wiping his hands. He sets a jug on the bench."
    assert refuted(bare) == {"npc-marl-location"}


def test_an_inverted_arrival_from_the_side_of_the_recorded_place() -> None:
    told = (
        "A gap opens in the crowd on the side toward the kilns, and through it comes Marl, soot to the elbow."
    )
    assert refuted(told) == set()
    # control: a gap toward another place tells no journey from the kilns
    other = (
        "A gap opens in the crowd on the side toward the mill, and through it comes Marl, soot to the elbow."
    )
    assert refuted(other) == {"npc-marl-location"}


def test_the_lead_in_two_sentences_back_tells_where_the_arrival_came_from() -> None:
    told = (
        "Ilse watches a cart pull out of the mill yard and rattle across the lane. A dog barks. "
        "Dosia Fenn comes in with flour on her sleeves. She sets a sack by the gate."
    )
    assert refuted(told) == set()
    # control: the lead-in names the kilns, not the mill where the record has Dosia
    wrong = (
        "Ilse watches a cart pull out past the kilns and rattle across the lane. A dog barks. "
        "Dosia Fenn comes in with flour on her sleeves. She sets a sack by the gate."
    )
    assert refuted(wrong) == {"npc-dosia-location"}


def test_someone_recorded_elsewhere_shown_here_with_the_place_named_is_still_flagged() -> None:
    # no arrival at all: naming the kilns does not excuse Marl standing in the yard
    shown = "The smoke from the kilns drifts over the yard. Marl stands by the wheel and frowns at Ilse."
    assert refuted(shown) == {"npc-marl-location"}
    # and someone who is here stays clean
    assert refuted("Jory comes up out of the kilns and nods to Ilse.") == set()


def test_a_region_holding_both_the_scene_and_the_recorded_place_tells_no_way_in() -> None:
    # "the village" holds the yard as well as the kilns: naming it says nothing of where Marl came from
    region = "Dusk settles over the village. Marl comes up, wiping his hands. He sets a jug on the bench."
    assert refuted(region) == {"npc-marl-location"}
