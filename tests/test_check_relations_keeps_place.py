"""Keeping a house is a trade, not presence: "Brann, Old Wei's oldest friend, keeps the Gilded Anchor" told
while Brann is at the inn and the scene at the harbour puts him nowhere; Brann acting here still does.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def harbour() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-lin", "pc", "Lin", owner="1", location="loc-harbour", pronoun="she"),
            Entity("npc-brann", "npc", "Brann", location="loc-anchor", pronoun="he"),
            Entity("loc-harbour", "location", "the harbour"),
            Entity("loc-anchor", "location", "the Gilded Anchor"),
        ],
        scene=Scene("loc-harbour", frozenset({"pc-lin"})),
    )


def refuted(text: str) -> set[str]:
    return {v.refuted_by or "" for v in check(text, harbour()).claims if v.verdict == "contradicted"}


def test_keeping_a_house_puts_no_one_here() -> None:
    assert not refuted("Brann keeps the Gilded Anchor and sends Lin a jug of plum wine every feast day.")
    assert not refuted("Brann runs the Gilded Anchor these days.")


def test_acting_here_still_puts_him_here() -> None:
    assert "npc-brann-location" in refuted("Brann sits down beside Lin on the harbour wall.")
