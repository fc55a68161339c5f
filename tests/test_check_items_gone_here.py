"""Things no one holds any more (sold, lost) told back in someone's reach or lying in the scene: a thing told
lying "by your elbow" or "at Rourke's feet" is in that one's reach again, whoever it is named for ("Harcourt's
jade case lies on the zinc by your elbow"); a place opening the last coordinate clause ("There's a crate by
the wall, and on it lies the survey map") tells the thing there. Controls: a picture of it, a memory, a
pawnbroker's window, a map of that kind ("a map of the old workings"), a past verb.
An invented club: the jade cigarette case was sold (Harcourt, its owner, is dead), the survey map lost."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, ItemFate, Scene, WorldSnapshot


def club() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-rourke", "pc", "Rourke", owner="1", location="loc-club", pronoun="he"),
            Entity("pc-nadia", "pc", "Nadia", owner="2", location="loc-club", pronoun="she"),
            Entity("npc-vidal", "npc", "Madame Vidal", (Alias("Vidal"),), location="loc-club", pronoun="she"),
            Entity("npc-harcourt", "npc", "Harcourt", alive=False, pronoun="he"),
            Entity("loc-club", "location", "the club"),
            Entity("item-case", "item", "jade cigarette case", (Alias("cigarette case"),)),
            Entity("item-map", "item", "survey map", (Alias("the survey"),)),
        ],
        fates=[ItemFate("item-case", "sold"), ItemFate("item-map", "lost")],
        scene=Scene("loc-club", frozenset({"pc-rourke", "pc-nadia", "npc-vidal"})),
    )


def flags(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, club()).conflicts()}


CASE, MAP = {"item-case-holder"}, {"item-map-holder"}


def test_a_thing_no_one_holds_told_in_someones_reach_is_theirs_again() -> None:
    assert flags("Harcourt's jade cigarette case lies on the bar by Rourke's elbow.") == CASE
    elbow = "Rourke, you sit at the bar. Harcourt's jade cigarette case lies on the zinc by your elbow."
    assert flags(elbow) == CASE
    # controls: a picture, a memory, a shop window
    assert flags("Harcourt's jade cigarette case lies by Vidal's elbow, in a photograph.") == set()
    assert flags("Rourke remembers how Harcourt's jade cigarette case lay by his elbow.") == set()
    assert flags("Harcourt's jade cigarette case lies in the pawnbroker's window.") == set()


def test_a_place_opening_the_last_coordinate_clause_tells_the_thing_there() -> None:
    assert flags("There's a crate by the wall, and on it lies the survey map, unrolled.") == MAP
    # controls: a past verb, a map of that kind, a sold thing (in someone's hands somewhere: it may be here)
    assert flags("There's a crate by the wall, and on it once lay the survey map.") == set()
    assert flags("There's a crate by the wall, and on it lies a map of the old workings.") == set()
    assert flags("On the crate lies a map of the old workings.") == set()
    assert flags("There's a crate by the wall, and on it lies the jade cigarette case.") == set()
