"""Holdings false alarms on things told gone, told found, or named by a bare common noun.

- a PC called by name at the head of a sentence ("Oriel, your hand goes ...") is addressed, not the subject;
  a thing named in a "where" clause telling where it was ("where the compass once hung", "used to hang") is
  no longer there: nobody is told holding it, nor handing it over;
- a thing its old owner names, told lost, sunk, buried or gone where it lies, is held by nobody;
- a lost thing brought up out of a place now ("fishes the lost sextant out of the cistern") is a find told
  in the text, replayed for later sentences like a hand-over; out of one's own satchel it was one's own;
- "her notebook" when the world's one notebook is someone else's and that one is not in the scene: her own
  notebook, not the recorded one; a distinctive name, a describing word or its holder here links it still.

The world is invented here: a salvage yard round a flooded cistern; the jade compass and the brass sextant
were lost, Hask keeps the storm lamp, Bram a notebook.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, ItemFate, Scene, WorldSnapshot

ALL = ("pc-oriel", "npc-bram", "npc-hask", "npc-okoro")


def yard(present: tuple[str, ...] = ALL) -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-oriel", "pc", "Oriel", owner="1", location="loc-yard", pronoun="she"),
            Entity("npc-bram", "npc", "Bram Cole", (Alias("Bram"),), location="loc-yard", pronoun="he"),
            Entity("npc-hask", "npc", "Hask Murrow", (Alias("Hask"),), location="loc-yard", pronoun="he"),
            Entity(
                "npc-okoro", "npc", "Dilys Okoro", (Alias("Constable Okoro"), Alias("Okoro")), pronoun="she"
            ),
            Entity("loc-yard", "location", "the cistern yard"),
            Entity("item-compass", "item", "jade compass", (Alias("compass"),)),
            Entity("item-sextant", "item", "brass sextant", (Alias("sextant"),)),
            Entity("item-notebook", "item", "Bram's notebook", (Alias("notebook"),)),
            Entity("item-lamp", "item", "storm lamp", (Alias("lamp"),)),
            Entity("item-winch", "item", "winch"),
        ],
        holdings=[
            Holding("item-notebook", "npc-bram"),
            Holding("item-lamp", "npc-hask"),
            Holding("item-winch", "loc-yard"),
        ],
        fates=[ItemFate("item-compass", "lost"), ItemFate("item-sextant", "lost")],
        scene=Scene("loc-yard", frozenset(present)),
    )


def flagged(text: str, present: tuple[str, ...] = ALL) -> set[str | None]:
    return {v.refuted_by for v in check(text, yard(present)).conflicts()}


def test_a_hand_going_to_where_a_lost_thing_once_hung_holds_nothing() -> None:
    assert flagged("Oriel, your hand goes to your throat, where the jade compass once hung.") == set()
    assert flagged("Bram's hand goes to the nail, where the sextant used to hang.") == set()
    # the lamp is Hask's: Bram's hand at its old nail hands nothing over and takes nothing
    assert flagged("Bram's hand goes to the nail, where the lamp used to hang. Hask lifts the lamp.") == set()


def test_a_hand_going_to_a_thing_there_now_still_reads() -> None:
    assert "item-compass-holder" in flagged(
        "Oriel, your hand goes to your throat, where the jade compass hangs."
    )
    assert "item-compass-holder" in flagged("Oriel, the jade compass hangs at your throat.")
    assert "item-lamp-holder" in flagged("Bram's hand goes to the shelf, where the lamp sits.")


def test_an_owners_thing_told_lost_where_it_lies_is_held_by_nobody() -> None:
    assert flagged("Hask's sextant lies lost beneath forty fathoms.") == set()
    assert flagged("Hask's sextant is gone, sunk with the Heron.") == set()


def test_an_owners_lost_thing_told_lying_or_hanging_here_is_still_flagged() -> None:
    assert "item-sextant-holder" in flagged("Hask's sextant lies on the bench.")
    assert "item-sextant-holder" in flagged("Hask's sextant hangs from his belt.")


def test_a_lost_thing_brought_up_now_is_a_find_replayed_for_later_sentences() -> None:
    assert flagged("Bram fishes the lost sextant out of the cistern. He hands the sextant to Oriel.") == set()
    assert flagged("Bram hauls the sextant up from the silt. Later he hands the sextant to Oriel.") == set()


def test_a_lost_thing_drawn_from_ones_own_bag_or_just_handed_is_still_flagged() -> None:
    assert "item-sextant-holder" in flagged("Bram fishes the sextant out of his own satchel.")
    assert "item-sextant-holder" in flagged("Okoro sets down the sextant, fished out of her own satchel.")
    assert "item-sextant-holder" in flagged("Bram hands the sextant to Oriel.")
    assert "item-sextant-holder" in flagged("Bram stares at the cistern. He hands the sextant to Oriel.")


def test_her_notebook_is_her_own_when_the_recorded_one_is_away() -> None:
    away = ("pc-oriel", "npc-okoro")
    assert flagged("Constable Okoro is standing by the cistern with her notebook out.", away) == set()


def test_a_notebook_linked_still_by_its_holder_here_a_description_or_a_distinctive_name() -> None:
    away = ("pc-oriel", "npc-okoro")
    # Bram is in the yard: the one notebook here is his
    assert "item-notebook-holder" in flagged(
        "Constable Okoro is standing by the cistern with her notebook out."
    )
    assert "item-notebook-holder" in flagged("Okoro stands with her battered notebook out.", away)
    # "storm lamp" is a name of its own, wherever Hask is
    assert "item-lamp-holder" in flagged("Okoro raises her storm lamp.", ("pc-oriel", "npc-okoro"))
    # the yard's own winch lies here: "her winch" is that one
    assert "item-winch-holder" in flagged("Okoro leans on her winch.", away)
