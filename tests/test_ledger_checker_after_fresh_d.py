"""Issue 10, after the fresh_d run: rules about English that carry to unseen narration, each with a control.

Kinship told through a possessive pronoun with no name beside the term ("her late brother's boy" is her
nephew, "Rook keeps her father's ledgers" when the record says whose niece she is); warmth shown by behaviour
toward an enemy named by pronoun after a line of speech, or by a manner adverb further along the gesture's
phrase; the subject of a main clause after "As ..., " carried to the next sentence's "he".
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Edge, Entity, Scene, WorldSnapshot


def mill() -> WorldSnapshot:
    """A mill: Odile and her nephew Bram, Rook and her uncle the miller Garm, and Sela who hates Piet."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-piet", "pc", "Piet", owner="1", location="loc-mill", pronoun="he"),
            Entity("pc-ana", "pc", "Ana", owner="2", location="loc-mill", pronoun="she"),
            Entity("npc-odile", "npc", "Odile Marr", location="loc-mill", pronoun="she"),
            Entity("npc-bram", "npc", "Bram Marr", location="loc-mill", pronoun="he"),
            Entity("npc-rook", "npc", "Rook Tallow", location="loc-mill", pronoun="she"),
            Entity("npc-garm", "npc", "Garm Tallow", location="loc-mill", pronoun="he"),
            Entity("npc-sela", "npc", "Sela Wynn", location="loc-mill", pronoun="she"),
            Entity("npc-nan", "npc", "Nan Wynn", location="loc-mill", pronoun="she"),
            Entity("loc-mill", "location", "the mill"),
        ],
        edges=[
            Edge("edge-bram-odile", "npc-bram", "npc-odile", "kin", 60, "Bram is Odile's nephew"),
            Edge("edge-rook-garm", "npc-rook", "npc-garm", "kin", 50, "Rook is Garm Tallow's niece"),
            Edge("edge-sela-piet", "npc-sela", "pc-piet", "enemy", -70, "Piet burned Sela's boat"),
        ],
        scene=Scene(
            "loc-mill",
            frozenset({"pc-piet", "pc-ana", "npc-odile", "npc-bram", "npc-rook", "npc-garm", "npc-sela"}),
        ),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, mill()).conflicts()}


def test_a_chain_of_kin_terms_after_a_pronoun_is_composed() -> None:
    # "her brother's boy" would be her nephew; "her sister's son" said of her recorded nephew is right
    assert refuted("Odile watches Bram eat; he is her only son, and she never lets him forget it.") == {
        "edge-bram-odile"
    }
    assert refuted("Odile watches Bram eat; he is her late sister's only son.") == set()
    assert refuted("Odile watches Bram eat; he is her late sister's only grandson.") == set()  # no such chain


def test_a_kin_term_with_no_name_is_the_recorded_kin_named_nearby() -> None:
    assert refuted("Rook copies her father's ledgers while Garm Tallow counts sacks.") == {"edge-rook-garm"}
    # control: the recorded term; and a relative the record does not tie to anyone named nearby is scenery
    assert refuted("Rook copies her uncle's ledgers while Garm Tallow counts sacks.") == set()
    assert refuted("Rook copies her father's ledgers by the window.") == set()
    assert refuted("Sela copies her father's ledgers while Garm Tallow counts sacks.") == set()


def test_the_named_subject_owns_the_pronoun_before_a_kin_term() -> None:
    text = (
        "Bram fetches water. He has his mother's quick hands; the village knows Odile raised her son alone."
    )
    assert "edge-bram-odile" in refuted(text)
    control = "Bram fetches water. He has quick hands; the village knows Odile raised her nephew alone."
    assert refuted(control) == set()


def test_warmth_toward_an_enemy_named_by_pronoun_after_a_line_of_speech() -> None:
    text = (
        "As Ana stacks the sacks, Sela catches sight of Piet by the miller's door. "
        '"Well met!" She hurries over, throws her arms around him and kisses his cheek.'
    )
    assert refuted(text) == {"edge-sela-piet"}
    control = (
        "As Ana stacks the sacks, Sela catches sight of Piet by the miller's door. "
        '"You." She hurries over and stands squarely in his way.'
    )
    assert refuted(control) == set()


def test_a_manner_adverb_further_along_the_gesture_counts() -> None:
    assert refuted("Sela rests her rough hand tenderly on Piet's shoulder.") == {"edge-sela-piet"}
    assert refuted("Sela rests her rough hand on Piet's shoulder.") == set()
