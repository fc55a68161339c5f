"""A dead man named inside a reduced relative clause ("Not the bench Orrin died on.") is not who the next
sentence's "he" continues with: the fragment's own subject is the bench.

Conflict controls that must stay flagged: the dead man as the subject of his own sentence before the "he",
and the dead man acting by name. An invented world: a ferry landing, the ferryman Cobb (a PC's host), his
dead brother Orrin, and the PC Wren.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot

ORRIN_DEAD = "npc-orrin-alive"


def landing() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-wren", "pc", "Wren", owner="1", location="loc-landing", pronoun="she"),
            Entity("npc-cobb", "npc", "Cobb", location="loc-landing", pronoun="he"),
            Entity("npc-orrin", "npc", "Orrin", alive=False, pronoun="he"),
            Entity("loc-landing", "location", "the Ferry Landing"),
        ],
        scene=Scene("loc-landing", frozenset({"pc-wren", "npc-cobb"})),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, landing()).conflicts()}


def test_the_dead_named_in_a_reduced_relative_is_not_the_next_he() -> None:
    text = (
        "Cobb sits on the jetty and points at the far bench. Not the bench Orrin died on. The other one. "
        "He turns the rope over in his hands."
    )
    assert refuted(text) == set()


def test_conflict_control_the_dead_man_opens_his_own_sentence() -> None:
    text = "Cobb sits on the jetty. Orrin died on that bench. He turns the rope over in his hands."
    assert ORRIN_DEAD in refuted(text)


def test_conflict_control_the_dead_man_acts_by_name() -> None:
    text = "Not the bench Orrin died on. The other one. Orrin turns the rope over in his hands."
    assert ORRIN_DEAD in refuted(text)


def test_conflict_control_a_fronted_phrase_then_the_dead_man() -> None:
    text = "Down at the end of the jetty Orrin is hunched over a net. He blows on his hands and laughs."
    assert ORRIN_DEAD in {
        v.refuted_by for v in check(text, landing()).conflicts() if v.claim.text.startswith("He")
    }
