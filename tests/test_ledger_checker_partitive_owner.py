"""The owner of a group a partitive counts from is not who acts next: in "Behind him one of Bastien's carters
leans close. He waves the carter off." the one carter leans, and "He" is not Bastien (who is at the quay);
in "Bastien's cart rolls in. He waves the carter off." Bastien is the only one named and "He" goes on with
him. An invented mill: Orso the weigher here, Bastien the merchant at the quay."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def mill() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("npc-orso", "npc", "Orso", location="loc-mill", pronoun="he"),
            Entity("npc-bastien", "npc", "Bastien Roux", location="loc-quay", pronoun="he"),
            Entity("npc-agathe", "npc", "Agathe Roux", location="loc-quay", pronoun="she"),
            Entity("loc-mill", "location", "the mill"),
            Entity("loc-quay", "location", "the quay"),
        ],
        scene=Scene("loc-mill", frozenset({"npc-orso"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, mill()).conflicts()}


def test_the_owner_of_a_partitive_group_is_not_the_next_he() -> None:
    text = (
        "Orso sits at his scales. Behind him one of Bastien's carters leans close. He waves the carter off."
    )
    assert "npc-bastien-location" not in flags(text)
    # control: the one named as owner of a thing, not of a counted group, is still whom "He" goes on with
    assert "npc-bastien-location" in flags("Bastien's cart rolls in. He waves the carter off.")
