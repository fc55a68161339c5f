"""A lost, destroyed or used-up thing told here by any verb, with a clean control for each exemption.

Patterns of English, not one batch's words: the thing the subject of a passive participle of placing with a
place ("the map is tacked up over the door", "is spread on a crate"); the thing the object of a present verb
of bringing or using, whoever does it ("A girl brings the tankard", "drinks from the tankard"). Exempt: a
thing named only as what was lost ("the tankard he smashed"), remembered, negated, compared, past, wrecked,
told where it was lost, taken from where it was lost, kept by a place or force, or sold or stolen (someone has
it somewhere). The world is invented for these tests (a tide mill on an estuary).
"""

from __future__ import annotations

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, ItemFate, Scene, WorldSnapshot


def tide_mill() -> WorldSnapshot:
    """Wren (player) and the miller Tobin at the tide mill. Tobin's tankard was smashed (destroyed), the
    millrace map lost, the quince cordial drunk (used up), the toll ledger stolen; the sluice bell hangs in
    the mill."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-wren", "pc", "Wren", owner="1", location="loc-mill", pronoun="she"),
            Entity("npc-tobin", "npc", "Tobin", location="loc-mill", pronoun="he"),
            Entity("loc-mill", "location", "the tide mill"),
            Entity("item-tankard", "item", "Tobin's pewter tankard", description="A pewter tankard, lidded."),
            Entity(
                "item-map", "item", "the millrace map", (Alias("millrace map"),), description="A linen map."
            ),
            Entity("item-cordial", "item", "the quince cordial", description="A flask of quince cordial."),
            Entity("item-ledger", "item", "the toll ledger", description="A ledger of tolls."),
            Entity("item-bell", "item", "the sluice bell", description="A bronze bell."),
        ],
        holdings=[Holding("item-bell", "loc-mill")],
        fates=[
            ItemFate("item-tankard", "destroyed"),
            ItemFate("item-map", "lost"),
            ItemFate("item-cordial", "used up"),
            ItemFate("item-ledger", "stolen"),
        ],
        scene=Scene("loc-mill", frozenset({"pc-wren", "npc-tobin"})),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, tide_mill()).conflicts()}


@pytest.mark.parametrize(
    ("text", "record"),
    [
        ("The millrace map is tacked up over the door where it has always been.", "item-map-holder"),
        ("The millrace map is spread on a crate by the sluice.", "item-map-holder"),
        ("By the stove, the millrace map is still pinned to the beam.", "item-map-holder"),
        ("A girl brings the pewter tankard, brimming with cider.", "item-tankard-holder"),
        ("A girl carries in the pewter tankard.", "item-tankard-holder"),
        ("Tobin drinks from the pewter tankard.", "item-tankard-holder"),
        ("A boy pours the quince cordial into two cups.", "item-cordial-holder"),
    ],
)
def test_a_gone_thing_placed_or_used_now_is_refuted(text: str, record: str) -> None:
    assert record in refuted(text)


@pytest.mark.parametrize(
    "text",
    [
        # named only as what was lost
        "A girl brings the pewter tankard he smashed.",
        "The millrace map that went down with the barge is tacked up nowhere now.",
        "The girl sets a cup on the table; the millrace map that went down with the barge was never found.",
        # memory, negation, nobody doing it, a likeness, past verbs, the wreck
        "Tobin remembers how a girl brings the pewter tankard every feast day.",
        "Nobody brings the pewter tankard anymore.",
        "The girl wants to bring the pewter tankard.",
        "A girl brings a cup like the pewter tankard.",
        "A girl brought the pewter tankard, years ago.",
        "A girl brings the broken pewter tankard.",
        # where it was lost; taken from there; kept or carried by a place or force
        "The millrace map is lost somewhere under the silt.",
        "Wren pulls the millrace map from the water.",
        "The river carries the millrace map down to the sea.",
        "The silt holds the millrace map.",
        "The millrace map is spread in her memory.",
        # someone has a stolen thing somewhere: it may be here
        "A girl brings the toll ledger.",
        "The toll ledger is spread on a crate.",
        # a thing in the world told here
        "A girl brings the sluice bell.",
    ],
)
def test_controls_stay_clean(text: str) -> None:
    gone = {"item-map-holder", "item-tankard-holder", "item-cordial-holder", "item-ledger-holder"}
    assert not refuted(text) & gone
