"""Things of the kind that are not the recorded one, and a "your" that may mean another PC: "a basket of
cacao" is some cacao, not a recorded stack; "his crown of antlers" is not the crown recorded as "of living
thorn"; "your fiddle" carried over from an earlier call, when the other PC addressed holds the fiddle. Each
with a conflict control that must stay flagged. An invented market: Itzel (PC) and Ocelo (PC) both hold
cocoa beans, Judge Tezca none; the Thorn Crown is Queen Mab's; the fiddle is Itzel's."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot


def market() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-itzel", "pc", "Itzel", owner="1", location="loc-market", pronoun="she"),
            Entity("pc-ocelo", "pc", "Ocelo", owner="2", location="loc-market", pronoun="he"),
            Entity("npc-tezca", "npc", "Judge Tezca", (Alias("Tezca"),), location="loc-market", pronoun="he"),
            Entity("npc-mab", "npc", "Queen Mab", (Alias("Mab"),), location="loc-market", pronoun="she"),
            Entity("loc-market", "location", "the market"),
            Entity("item-cocoa", "item", "cocoa beans", (Alias("cocoa"),)),
            Entity(
                "item-crown",
                "item",
                "the Thorn Crown",
                (Alias("the crown"),),
                description="A crown of living thorn and white blossom.",
            ),
            Entity("item-fiddle", "item", "the fiddle"),
        ],
        holdings=[
            Holding("item-cocoa", "pc-itzel", 50),
            Holding("item-cocoa", "pc-ocelo", 30),
            Holding("item-crown", "npc-mab", 1),
            Holding("item-fiddle", "pc-itzel", 1),
        ],
        scene=Scene("loc-market", frozenset({"pc-itzel", "pc-ocelo", "npc-tezca", "npc-mab"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, market()).conflicts()}


def test_an_indefinite_measure_of_a_stuff_is_some_of_it_not_a_recorded_stack() -> None:
    assert flags("Tezca weighs a basket of cocoa for a weeping widow.") == set()
    assert flags("Tezca pours out a sack of cocoa onto the mat.") == set()
    # control: the stuff itself in his hands is still told held
    assert flags("Tezca pockets the cocoa beans and smiles.") == {"item-cocoa-holder"}


def test_a_thing_of_another_make_is_not_the_recorded_one() -> None:
    assert flags("Tezca walks past with his crown of bare antlers hung with ribbons.") == set()
    # control: the crown told of its recorded make, on the wrong head
    assert flags("Tezca walks past with his crown of living thorn on his head.") == {"item-crown-holder"}


def test_a_carried_over_your_may_mean_the_other_pc_who_holds_it() -> None:
    opening = "Itzel, your arm aches from playing. Ocelo, you stand by the judge. "
    assert flags(opening + "Then, under your fiddle, another tune creeps in.") == set()
    # control: the PC called in that very sentence, who does not hold it
    assert flags(opening + "Ocelo, your fiddle sings under your chin.") == {"item-fiddle-holder"}


def test_a_thing_drawn_from_your_own_pocket_was_in_your_keeping() -> None:
    called = "Ocelo, you crouch by the grate. "
    assert flags(called + "You pull the fiddle out of your coat pocket.") == {"item-fiddle-holder"}
    assert flags(called + "You take the fiddle from your satchel and tune it.") == {"item-fiddle-holder"}
    # controls: the one who holds it, and a thing put into your pocket (no drawing out)
    assert flags("Itzel, you pull the fiddle out of your coat pocket.") == set()
    assert flags(called + "You stare at the fiddle by your coat pocket.") == set()
