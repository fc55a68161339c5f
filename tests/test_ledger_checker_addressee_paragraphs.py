"""A game master keeps talking to the PC called, across paragraphs; and "that purse" is the PC's purse.

The PC called by name last, anywhere earlier in the narration, is still the "you" of a later paragraph,
until another PC is called (then it is that one), two PCs are called in one sentence or a plural "you"
speaks to the party (then nobody); quoted words are the speaker's. A count lying in "that purse", the purse
just told at the PC's waist, is that PC's count. The world is invented here: a ferry across a salt marsh,
two PCs (Tamsin, Corwen), the ferryman Abel; Tamsin has five copper pennies, Corwen three, Abel twenty
(so no count below twenty-eight is wrong of the pennies as a whole).
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, WorldSnapshot

WRONG = "item-pennies-quantity"


def ferry() -> WorldSnapshot:
    return WorldSnapshot.build(
        entities=[
            Entity("pc-tamsin", "pc", "Tamsin", owner="1", location="loc-ferry", pronoun="she"),
            Entity("pc-corwen", "pc", "Corwen", owner="2", location="loc-ferry", pronoun="he"),
            Entity("npc-abel", "npc", "Abel Marsh", (Alias("Abel"),), location="loc-ferry", pronoun="he"),
            Entity("loc-ferry", "location", "the Saltreach ferry"),
            Entity("item-pennies", "item", "copper pennies", (Alias("pennies"), Alias("penny"))),
        ],
        holdings=[
            Holding("item-pennies", "pc-tamsin", 5),
            Holding("item-pennies", "pc-corwen", 3),
            Holding("item-pennies", "npc-abel", 20),
        ],
        scene=Scene("loc-ferry", frozenset({"pc-tamsin", "pc-corwen", "npc-abel"})),
    )


def flagged(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, ferry()).conflicts()}


OPENING = "Abel finds you at the landing, Tamsin, where the reeds lean over the black water.\n\n"
MIDDLE = '"Fare is two pennies," he says, and holds out a palm like a board.\n\n'


def test_the_pc_called_stays_you_across_paragraphs() -> None:
    text = OPENING + MIDDLE + "The leather pouch at your belt holds nine copper pennies."
    assert WRONG in flagged(text)
    # control: the count is right for Tamsin
    assert flagged(text.replace("nine", "five")) == set()
    # told where they lie: "nine copper pennies sit in your purse"
    assert WRONG in flagged(OPENING + MIDDLE + "Nine copper pennies sit in your purse.")
    assert flagged(OPENING + MIDDLE + "Five copper pennies sit in your purse.") == set()


def test_another_pc_called_since_is_you_now() -> None:
    between = "Corwen, the mist beads on your hood and runs down your collar.\n\n"
    text = OPENING + between + "The leather pouch at your belt holds three copper pennies."
    # three are Corwen's count; read as Tamsin's (five), it would be flagged
    assert flagged(text) == set()
    assert WRONG in flagged(text.replace("three", "nine"))


def test_two_pcs_called_or_the_party_addressed_since_is_nobody() -> None:
    both = "Tamsin, the mist beads on your hood, and Corwen, the ferry rocks under your feet.\n\n"
    assert flagged(OPENING + both + "The leather pouch at your belt holds nine copper pennies.") == set()
    party = "The two of you stand at the rail while the reeds slide past.\n\n"
    assert flagged(OPENING + party + "The leather pouch at your belt holds nine copper pennies.") == set()


def test_quoted_you_is_the_speakers_addressee() -> None:
    quoted = '"The leather pouch at your belt holds nine copper pennies," Abel says, "I can hear them."'
    text = OPENING + quoted
    assert flagged(text) == set()


def test_that_purse_is_the_purse_told_at_your_waist() -> None:
    text = (
        "Tamsin, your hand drifts to the purse at your waist while Abel poles the ferry off the mud. "
        "Nine copper pennies sit in that purse, warm against your hip."
    )
    assert WRONG in flagged(text)
    assert flagged(text.replace("Nine", "Five")) == set()
    # the purse is Abel's: "that purse" is not hers
    other = (
        "Tamsin, your eyes drift to the purse at Abel's waist while he poles the ferry off the mud. "
        "Nine copper pennies sit in that purse."
    )
    assert flagged(other) == set()
