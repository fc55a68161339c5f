"""Things worn or carried: a thing named for one owner but told lying in the addressed PC's clothes or pack
("Reyes's keycard is inside your jacket") is in that PC's keeping; a look back inside a relative clause
after the thing ("the pin at her breast where he used to wear it") frames only that clause, not the
wearing told now; a material word before a noun and a participle of place ("the silver pin fastened at her
breast") is the pin's, not the silver record's. Controls: threats held at the PC's throat, a look back
over the whole sentence, the right wearer, a memory.
An invented longhall: Snorri holds Thorgrim's blue cloak and the arm-ring, Gudrun 40 hack-silver."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot


def hall() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-eyvind", "pc", "Eyvind", owner="1", location="loc-hall", pronoun="he"),
            Entity("pc-hallveig", "pc", "Hallveig", owner="2", location="loc-hall", pronoun="she"),
            Entity("npc-gudrun", "npc", "Gudrun", location="loc-hall", pronoun="she"),
            Entity("npc-snorri", "npc", "Snorri", location="loc-hall", pronoun="he"),
            Entity("npc-thorgrim", "npc", "Thorgrim", alive=False, pronoun="he"),
            Entity("loc-hall", "location", "the longhall"),
            Entity("item-cloak", "item", "blue cloak"),
            Entity("item-silver", "item", "hack-silver", (Alias("silver"),)),
            Entity("item-ring", "item", "arm-ring"),
        ],
        holdings=[
            Holding("item-cloak", "npc-snorri", 1),
            Holding("item-silver", "npc-gudrun", 40),
            Holding("item-ring", "npc-snorri", 1),
        ],
        scene=Scene("loc-hall", frozenset({"pc-eyvind", "pc-hallveig", "npc-gudrun", "npc-snorri"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, hall()).conflicts()}


WEARS = (
    "Gudrun stands in the doorway. She has Thorgrim's blue cloak around her shoulders, the silver pin "
    "fastened at her breast where he used to wear it."
)


def test_a_look_back_in_a_relative_clause_after_the_thing_frames_only_that_clause() -> None:
    assert flags(WEARS) == {"item-cloak-holder"}  # the silver pin is no hack-silver of Gudrun's
    # controls: the right wearer; the look back over the whole sentence or inside a clause around the thing
    assert flags(WEARS.replace("Gudrun", "Snorri").replace("She", "He").replace("her", "his")) == set()
    assert (
        flags("Gudrun stands in the doorway. She used to have Thorgrim's blue cloak around her shoulders.")
        == set()
    )
    assert flags("Gudrun, who used to wear Thorgrim's blue cloak, stands in the doorway.") == set()


def test_a_thing_in_the_addressed_pcs_clothes_is_in_that_pcs_keeping() -> None:
    assert flags("Eyvind, Snorri's arm-ring is inside your tunic.") == {"item-ring-holder"}
    assert flags("Eyvind, Gudrun's silver is in your pouch.") == {"item-silver-holder"}
    # controls: held to the PC's throat is a threat, not keeping; a memory; the owner's own clothes
    assert flags("Eyvind, Snorri's arm-ring is at your throat.") == set()
    assert flags("Eyvind, Snorri's arm-ring was inside your tunic once, long ago.") == set()
    assert flags("Snorri's arm-ring is inside his tunic.") == set()
