"""Issue 10, after the fresh_m run: a name after a verb that has a pronoun for its subject ("You promised
Dosia.") is the verb's object, not an inverted subject ('"Welcome," says Dosia'); so Dosia, recorded at the
mill, is not put in the yard by it. Controls: a real inversion ("By the gate stands Dosia") still shows her
here, and "Beside you sits Dosia" (the pronoun after a preposition) is still one.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, RoundFacts, Scene, WorldSnapshot


def pottery() -> WorldSnapshot:
    """The PC Ilse in the yard; the miller Dosia Fenn at the mill."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-ilse", "pc", "Ilse", owner="1", location="loc-yard", pronoun="she"),
            Entity("npc-dosia", "npc", "Dosia Fenn", (Alias("Dosia"),), location="loc-mill", pronoun="she"),
            Entity("loc-yard", "location", "the Clay Yard", (Alias("the yard"),)),
            Entity("loc-mill", "location", "Fenn's Mill", (Alias("the mill"),)),
        ],
        scene=Scene("loc-yard", frozenset({"pc-ilse"})),
        round=RoundFacts(number=2, actions=(), submissions={}, acted=frozenset()),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, pottery()).conflicts()}


def test_a_name_after_a_pronoun_and_its_verb_is_the_object() -> None:
    assert refuted("Ilse sits on the step. You promised Dosia.") == set()
    assert refuted("Ilse sits on the step. She promised Dosia.") == set()
    # control: an inversion after a place puts her here
    assert refuted("By the gate stands Dosia.") == {"npc-dosia-location"}


def test_a_pronoun_after_a_preposition_keeps_the_inversion() -> None:
    assert refuted("Beside you sits Dosia, dusting flour from her hands.") == {"npc-dosia-location"}
