"""A count told of "you" is held to the PC that very "you" addresses, by the one rule the whole checker reads
second person with (:mod:`ledger.check.extract.addressee`): the PC called in the sentence, else the one
called last earlier in the narration, else the scene's only PC. A plural "you" or a call only after the count
names no holder, and a count with no holder of a split stack is not judged.
An invented salt caravan: two PCs in the scene, Odile with 3 salt cakes, Barnabé with 2, the cart with 20."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot


def caravan() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-odile", "pc", "Odile", owner="1", location="loc-camp", pronoun="she"),
            Entity("pc-barnabe", "pc", "Barnabé", owner="2", location="loc-camp", pronoun="he"),
            Entity("loc-camp", "location", "the dune camp"),
            Entity("item-cakes", "item", "salt cakes", (Alias("cakes"),), unit="cake"),
        ],
        holdings=[
            Holding("item-cakes", "pc-odile", 3),
            Holding("item-cakes", "pc-barnabe", 2),
            Holding("item-cakes", "loc-camp", 20),
        ],
        scene=Scene("loc-camp", frozenset({"pc-odile", "pc-barnabe"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, caravan()).conflicts()}


TOOK = "The nine salt cakes you took from the cart rattle in the sack"


def test_your_count_is_held_to_the_pc_called_in_the_sentence_or_earlier_in_the_paragraph() -> None:
    assert "item-cakes-quantity" in flags(f"Odile, the wind drops. {TOOK}.")
    assert "item-cakes-quantity" in flags(f"{TOOK}, Odile.")
    # controls: the right count for the PC called
    assert (
        flags("Odile, the wind drops. The three salt cakes you took from the cart rattle in the sack.")
        == set()
    )
    assert flags("The two salt cakes you took from the cart rattle in the sack, Barnabé.") == set()


def test_a_plural_you_or_a_later_call_names_no_holder() -> None:
    # the two of you: the party, not the PC called before
    assert flags(f"Odile, you feel the wind drop. {TOOK}, the two of you sharing the load.") == set()
    # a call after the count does not reach back to it
    assert flags(f"{TOOK}. Odile, you feel the wind drop.") == set()
    # a call in an earlier paragraph carries over (the GM goes on talking to her), unless another is called
    assert "item-cakes-quantity" in flags(f"Odile, you feel the wind drop.\n\n{TOOK}.")
    three = TOOK.replace("nine", "three")  # right for Odile, too many for Barnabé
    assert flags(f"Odile, you feel the wind drop.\n\n{three}.") == set()
    assert "item-cakes-quantity" in flags(
        f"Odile, you feel the wind drop.\n\nBarnabé, you shiver.\n\n{three}."
    )
    # the same call in the same paragraph does
    assert "item-cakes-quantity" in flags(f"Odile, you feel the wind drop. {TOOK}.")
