"""A bare surname two kin share names the one the others call by title and surname ("Bosun Teague"): the
bosun's hostility toward a captain he is loyal to is then read; with no such alias the surname stays
ambiguous and names nobody.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, WorldSnapshot


def deck(titled: bool = True) -> WorldSnapshot:
    bosun_aliases = (Alias("the bosun"), Alias("Bosun Teague")) if titled else (Alias("the bosun"),)
    return WorldSnapshot.build(
        entities=[
            Entity("pc-gorm", "pc", "Gorm", owner="1", location="loc-deck", pronoun="he"),
            Entity(
                "npc-captain",
                "npc",
                "Captain Oriel Vance",
                (Alias("the captain"),),
                location="loc-deck",
                pronoun="she",
            ),
            Entity("npc-bosun", "npc", "Harl Teague", bosun_aliases, location="loc-deck", pronoun="he"),
            Entity(
                "npc-pip", "npc", "Pip Teague", (Alias("the cabin boy"),), location="loc-deck", pronoun="he"
            ),
            Entity("loc-deck", "location", "the deck"),
        ],
        edges=[
            Edge("e-bosun-captain", "npc-bosun", "npc-captain", "ally", 80, "Teague has sailed with Vance"),
            Edge("e-pip-bosun", "npc-pip", "npc-bosun", "kin", 90, "Pip is the bosun's son"),
        ],
    )


def refuted(text: str, titled: bool = True) -> set[str]:
    return {v.refuted_by or "" for v in check(text, deck(titled)).claims if v.verdict == "contradicted"}


def test_the_bare_surname_is_the_one_called_by_title_and_surname() -> None:
    text = "As the captain passes, Teague spits on the deck behind her."
    assert "e-bosun-captain" in refuted(text)
    assert not refuted("As the captain passes, Teague salutes her.")


def test_without_a_title_alias_the_surname_names_nobody() -> None:
    assert not refuted("As the captain passes, Teague spits on the deck behind her.", titled=False)
