"""Hostility shown by behaviour the lexicon misreads: riddance ("is glad to be rid of the captain" is no
gladness toward her) and a sneer or jeer aimed "at" someone (a verb of speech otherwise, a tone of voice).
Gladness to see someone, a sneer at something else, and an enemy glad to be rid of her stay clean.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, WorldSnapshot


def ship() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-gorm", "pc", "Gorm", owner="1", location="loc-deck", pronoun="he"),
            Entity(
                "npc-captain",
                "npc",
                "Oriel Vance",
                (Alias("the captain"),),
                location="loc-deck",
                pronoun="she",
            ),
            Entity(
                "npc-bosun", "npc", "Harl Teague", (Alias("the bosun"),), location="loc-deck", pronoun="he"
            ),
            Entity(
                "npc-sabine", "npc", "Sabine Rook", (Alias("Sabine"),), location="loc-deck", pronoun="she"
            ),
            Entity("loc-deck", "location", "the deck"),
        ],
        edges=[
            Edge("e-bosun-captain", "npc-bosun", "npc-captain", "ally", 80, "Teague has sailed with Vance"),
            Edge(
                "e-sabine-captain", "npc-sabine", "npc-captain", "enemy", -90, "the captain burned her ship"
            ),
        ],
    )


def refuted(text: str) -> set[str]:
    return {v.refuted_by or "" for v in check(text, ship()).claims if v.verdict == "contradicted"}


def test_riddance_is_hostility() -> None:
    assert "e-bosun-captain" in refuted("Harl Teague is glad to be rid of the captain.")


def test_riddance_clean_controls() -> None:
    assert not refuted("Harl Teague is glad to see the captain.")
    # an enemy glad to be rid of her: no warmth read from "glad" (it was, before riddance was read)
    assert not refuted("Sabine is glad to be rid of the captain.")


def test_a_sneer_at_someone_is_hostility() -> None:
    assert "e-bosun-captain" in refuted("Harl Teague sneers at the captain.")
    assert "e-bosun-captain" in refuted("Harl Teague jeers at the captain's back.")


def test_a_sneer_at_something_else_or_as_a_tone_is_clean() -> None:
    assert not refuted("Harl Teague sneers at the rain and follows the captain below.")
    assert not refuted('The captain passes. "Coward," Harl Teague sneers.')
