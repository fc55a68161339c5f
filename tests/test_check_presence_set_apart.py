"""Issue 10, after the fresh_l run: a name set off by a comma and a phrase of place, with no verb of its own
("Dosia Fenn, up at the mill with flour to her elbows, on the speaking-tube."), tells where that person is: a
voice on a line, a face on a screen, a cut-away. What she goes on doing ("She sets the tube down.") is done
there. Controls: the same person shown here with no such phrase stays flagged, and the phrase of place
contradicts the record when it names a place she is not in.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, RoundFacts, Scene, WorldSnapshot


def pottery() -> WorldSnapshot:
    """A potters' village: the PC Ilse in the yard; the miller Dosia Fenn at the mill; the kiln-master Marl at
    the kilns."""
    here = frozenset({"pc-ilse"})
    return WorldSnapshot.build(
        entities=[
            Entity("pc-ilse", "pc", "Ilse", owner="1", location="loc-yard", pronoun="she"),
            Entity("npc-dosia", "npc", "Dosia Fenn", (Alias("Dosia"),), location="loc-mill", pronoun="she"),
            Entity("npc-marl", "npc", "Marl Otway", (Alias("Marl"),), location="loc-kilns", pronoun="he"),
            Entity("loc-yard", "location", "the Clay Yard", (Alias("the yard"),)),
            Entity("loc-kilns", "location", "the Kiln Row", (Alias("the kilns"),)),
            Entity("loc-mill", "location", "Fenn's Mill", (Alias("the mill"),)),
        ],
        scene=Scene("loc-yard", here),
        round=RoundFacts(number=2, actions=(), submissions={}, acted=frozenset()),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, pottery()).conflicts()}


def test_a_name_set_apart_at_the_recorded_place_keeps_what_she_does_there() -> None:
    told = (
        "The speaking-tube by the gate whistles. Dosia Fenn, up at the mill with flour to her elbows, "
        "sounds tired. Ilse answers her. Dosia laughs. She sets the tube down."
    )
    assert refuted(told) == set()
    # control: with no phrase of place, the miller laughing and setting things down is shown in the yard
    shown = "The speaking-tube by the gate whistles. Ilse answers it. Dosia laughs. She sets the tube down."
    assert refuted(shown) == {"npc-dosia-location"}


def test_a_name_set_apart_at_another_place_is_a_wrong_place() -> None:
    wrong = "Dosia Fenn, over at the kilns with soot on her apron, waves to Ilse."
    assert "npc-dosia-location" in refuted(wrong)
    # and the same phrase naming her own place is clean
    assert refuted("Dosia Fenn, over at the mill with flour on her apron, waves to Ilse.") == set()
