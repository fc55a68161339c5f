"""Attitude told as a disposition with "would": "He would sell Vell for a loaf of bread" of a devoted clerk
is hostility now, though nothing is sold yet. A supposition ("if pressed"), a look back ("would have"), a
question, a denial ("would never") or an act done for the other's sake ("would die for him") is no
hostility; warmth so told toward a friend is no conflict.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Edge, Entity, WorldSnapshot


def town_hall() -> WorldSnapshot:
    """Pieter, clerk devoted to the burgomaster Vell; Nyx, a PC."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-nyx", "pc", "Nyx", owner="1", location="loc-hall", pronoun="she"),
            Entity("npc-pieter", "npc", "Pieter Vann", location="loc-hall", pronoun="he"),
            Entity("npc-vell", "npc", "Casimir Vell", location="loc-hall", pronoun="he"),
            Entity("loc-hall", "location", "the town hall"),
        ],
        edges=[
            Edge("e-pieter-vell", "npc-pieter", "npc-vell", "employer", 75, "Pieter is devoted to Vell"),
        ],
    )


def refuted(text: str) -> set[str]:
    return {v.refuted_by or "" for v in check(text, town_hall()).claims if v.verdict == "contradicted"}


OPEN = "Pieter Vann catches Nyx's eye at the door. "


def test_a_disposition_to_betray_is_flagged() -> None:
    assert "e-pieter-vell" in refuted(OPEN + "He would sell Vell for a loaf of bread.")
    assert "e-pieter-vell" in refuted(OPEN + "He would sell Vell for a loaf of bread, and tonight he has.")
    assert "e-pieter-vell" in refuted(OPEN + "Pieter Vann would gladly betray Vell.")


def test_a_supposition_a_look_back_or_a_question_is_clean() -> None:
    assert not refuted(OPEN + "If pressed, he would sell Vell.")
    assert not refuted(OPEN + "He would have sold Vell, once.")
    assert not refuted(OPEN + "Would Pieter Vann sell Vell?")
    assert not refuted(OPEN + "He would betray Vell if he dared.")


def test_a_denial_or_an_act_for_the_others_sake_is_clean() -> None:
    assert not refuted(OPEN + "He would never sell Vell.")
    assert not refuted(OPEN + "He would die for Vell.")
    assert not refuted(OPEN + "He would gladly embrace Vell.")


def test_eagerness_in_a_hostile_act_is_more_hostility() -> None:
    # "gladly" is rated warm; with a betrayal it tells relish, not softness
    assert "e-pieter-vell" in refuted(OPEN + "Pieter Vann sells Vell out, gladly.")
    assert "e-pieter-vell" in refuted(OPEN + "Pieter Vann gladly betrays Vell.")
    assert not refuted(OPEN + "Pieter Vann gladly embraces Vell.")
    assert not refuted(OPEN + "Pieter Vann gladly helps Vell with the ledgers.")
