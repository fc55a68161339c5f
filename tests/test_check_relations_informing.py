"""Informing on someone to their enemy: a blacksmith loyal to Pike who tells the sheriff (Pike's enemy)
where Pike hides is selling him out. Telling a friend of Pike's, telling the sheriff something else,
refusing to tell, or another doing the telling stays clean.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, WorldSnapshot


def camp() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-wren", "pc", "Wren", owner="1", location="loc-camp", pronoun="he"),
            Entity("npc-tomas", "npc", "Tomas Reyes", (Alias("Tomas"),), location="loc-camp", pronoun="he"),
            Entity("npc-pike", "npc", "Jonah Pike", (Alias("Pike"),), location="loc-mine", pronoun="he"),
            Entity(
                "npc-hale", "npc", "Augusta Hale", (Alias("the sheriff"),), location="loc-camp", pronoun="she"
            ),
            Entity("npc-ruby", "npc", "Ruby Okafor", (Alias("Ruby"),), location="loc-camp", pronoun="she"),
            Entity("loc-camp", "location", "the camp"),
            Entity("loc-mine", "location", "the mine"),
        ],
        edges=[
            Edge("e-tomas-pike", "npc-tomas", "npc-pike", "employer", 75, "Tomas is loyal to Pike"),
            Edge("e-hale-pike", "npc-hale", "npc-pike", "enemy", -45, "Pike's men ran off her deputy"),
            Edge("e-ruby-pike", "npc-ruby", "npc-pike", "friend", 60, "Ruby and Pike are old friends"),
        ],
    )


def refuted(text: str) -> set[str]:
    return {v.refuted_by or "" for v in check(text, camp()).claims if v.verdict == "contradicted"}


def test_telling_the_enemy_where_he_hides_is_flagged() -> None:
    assert "e-tomas-pike" in refuted(
        "Tomas leans toward the sheriff and tells her where Jonah Pike hides his gold."
    )
    assert "e-tomas-pike" in refuted("Tomas shows the sheriff which road Pike takes at night.")


def test_telling_a_friend_or_something_else_is_clean() -> None:
    assert not refuted("Tomas leans toward Ruby and tells her where Jonah Pike hides his gold.")
    assert not refuted("Tomas leans toward the sheriff and tells her that the pass is snowed in.")


def test_refusing_or_another_telling_is_clean() -> None:
    assert not refuted("Tomas leans toward the sheriff and refuses to tell her where Pike hides his gold.")
    assert not refuted("Wren leans toward the sheriff and tells her where Jonah Pike hides his gold.")
