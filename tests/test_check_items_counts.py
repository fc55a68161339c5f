"""Counts read through the words describing the thing and through "own": "six charged power cells" counts
cells as "six power cells" does, "your own five cans" is the addressed PC's stack (held to that PC's count,
not the total), and "tomorrow's frames" is a thing of tomorrow, not a plan. Each with clean controls.
An invented workshop: Chief Mori with 4 power cells and 3 poppy draughts, Hilde (a PC) with 4 draughts."""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot


def workshop(*, lone_draughts: bool = False) -> WorldSnapshot:
    holdings = [Holding("item-cells", "npc-mori", 4), Holding("item-draughts", "pc-hilde", 4)]
    if not lone_draughts:
        holdings.append(Holding("item-draughts", "npc-mori", 3))
    return WorldSnapshot.build(
        entities=[
            Entity("pc-hilde", "pc", "Hilde", owner="1", location="loc-yard", pronoun="she"),
            Entity("pc-oskar", "pc", "Oskar", owner="2", location="loc-yard", pronoun="he"),
            Entity("npc-mori", "npc", "Chief Mori", (Alias("Mori"),), location="loc-yard", pronoun="she"),
            Entity("loc-yard", "location", "the yard"),
            Entity("item-cells", "item", "power cells", (Alias("cells"),)),
            Entity("item-draughts", "item", "poppy draughts", (Alias("draughts"),)),
        ],
        holdings=holdings,
        scene=Scene("loc-yard", frozenset({"pc-hilde", "pc-oskar", "npc-mori"})),
    )


def flags(text: str, *, lone_draughts: bool = False) -> set[str | None]:
    return {v.refuted_by for v in check(text, workshop(lone_draughts=lone_draughts)).conflicts()}


def test_a_count_before_describing_words_counts_the_thing() -> None:
    assert flags("In the rack, six charged power cells glow green.") == {"item-cells-quantity"}
    assert flags("Hilde, you count two little stoppered draughts, the last of them.", lone_draughts=True) == {
        "item-draughts-quantity"
    }
    # controls: the right count, a memory, a plan, a count of something else beside the thing
    assert flags("In the rack, four charged power cells glow green.") == set()
    four = "Hilde, you count four little stoppered draughts, the last of them."
    assert flags(four, lone_draughts=True) == set()
    assert flags("Mori once kept six charged power cells in the rack.") == set()
    assert flags("Mori will bring six charged power cells tomorrow.") == set()
    assert flags("Six dead men lie in the yard beside the cells.") == set()


def test_tomorrows_things_are_no_plan_but_tomorrow_is() -> None:
    assert flags("In the rack, six charged power cells glow green, ready for tomorrow's frames.") == {
        "item-cells-quantity"
    }
    assert flags("Tomorrow six charged power cells come up from the depot.") == set()


def test_your_own_count_is_the_addressed_pcs_stack_not_the_total() -> None:
    # seven draughts in all, four of them Hilde's: "your own five" is too many for her
    assert flags("Hilde, the wind drops. Your own five poppy draughts sit in a row.") == {
        "item-draughts-quantity"
    }
    assert flags("Mori sets out her own five poppy draughts.") == {"item-draughts-quantity"}
    # controls: each holder's own right count, and someone else's stack
    assert flags("Hilde, the wind drops. Your own four poppy draughts sit in a row.") == set()
    assert flags("Mori sets out her own three poppy draughts.") == set()


def test_a_count_in_an_owners_container_or_after_a_contracted_have_is_that_owners() -> None:
    assert flags("Hilde, you've got five draughts left.") == {"item-draughts-quantity"}
    assert flags("The five draughts in Hilde's satchel clink.") == {"item-draughts-quantity"}
    hers = "Hilde opens her satchel. The five draughts in her satchel clink."
    assert flags(hers) == {"item-draughts-quantity"}
    assert flags("Six fully charged power cells glow in the rack.") == {"item-cells-quantity"}
    # controls: each owner's right count (seven draughts in all: the total is no one's)
    assert flags("Hilde, you've got four draughts left.") == set()
    assert flags("The four draughts in Hilde's satchel clink.") == set()
    assert flags("The three draughts in Mori's satchel clink.") == set()
    assert flags("Four fully charged power cells glow in the rack.") == set()
