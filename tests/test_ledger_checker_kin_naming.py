"""Kin terms a narrator slips in by naming or by apposition: "Ulf calls her his wife" of his sister,
"Maud, Kettil's mother," of one who is no kin of his, "Kettil, Maud's son" when the record makes Orla his
mother. A verb of naming with a possessive kin term claims the kinship unless the naming is play (quotes, a
manner word, "in jest"); an apposition after a name says who that one is; a mother or a father is exclusive,
so the recorded one refutes another, while sisters, aunts and step-parents may be many.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, WorldSnapshot


def fjord() -> WorldSnapshot:
    """A fjord hall: Ulf and his sisters Grima and Asa; Kettil, his mother Orla and stepmother Hrefna; Maud,
    no kin of Kettil's; Asa and Sif sworn sisters."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-sigga", "pc", "Sigga", owner="1", location="loc-hall", pronoun="she"),
            Entity("npc-ulf", "npc", "Ulf Bersson", location="loc-hall", pronoun="he"),
            Entity("npc-grima", "npc", "Grima Bersdottir", location="loc-hall", pronoun="she"),
            Entity("npc-asa", "npc", "Asa Bersdottir", location="loc-hall", pronoun="she"),
            Entity("npc-sif", "npc", "Sif Ravnsdottir", location="loc-hall", pronoun="she"),
            Entity("npc-orla", "npc", "Orla Stone", location="loc-hall", pronoun="she"),
            Entity("npc-maud", "npc", "Maud Hale", location="loc-hall", pronoun="she"),
            Entity(
                "npc-kettil", "npc", "Kettil Orlasson", (Alias("Kettil"),), location="loc-hall", pronoun="he"
            ),
            Entity("npc-hrefna", "npc", "Hrefna", location="loc-hall", pronoun="she"),
            Entity("loc-hall", "location", "the hall"),
        ],
        edges=[
            Edge("e-grima-ulf", "npc-grima", "npc-ulf", "kin", 70, "Grima is Ulf's elder sister"),
            Edge("e-asa-ulf", "npc-asa", "npc-ulf", "kin", 70, "Asa is Ulf's younger sister"),
            Edge("e-orla-kettil", "npc-orla", "npc-kettil", "mother", 70, "Orla is Kettil's mother"),
            Edge("e-hrefna-kettil", "npc-hrefna", "npc-kettil", "kin", 70, "Hrefna is Kettil's stepmother"),
            Edge("e-asa-sif", "npc-asa", "npc-sif", "sworn-sister", 60, "Asa and Sif swore sisterhood"),
        ],
    )


def refuted(text: str) -> set[str]:
    return {v.refuted_by or "" for v in check(text, fjord()).claims if v.verdict == "contradicted"}


def kin_claims(text: str) -> list[tuple[str, ...]]:
    return [v.claim.args for v in check(text, fjord()).claims if v.claim.kind == "kinship"]


# --- naming -------------------------------------------------------------------------------------------


def test_calls_her_his_wife_of_a_sister_is_flagged() -> None:
    assert "e-grima-ulf" in refuted("Grima sits at the loom. Ulf calls her his wife.")
    assert "e-grima-ulf" in refuted("Ulf sits down by Grima and calls her his wife.")


def test_naming_forms_are_flagged() -> None:
    assert "e-grima-ulf" in refuted("Ulf introduces Grima as his wife.")
    assert "e-grima-ulf" in refuted("At the door Ulf calls Grima wife.")


def test_naming_in_play_is_clean() -> None:
    assert not refuted("Ulf jokingly calls Grima his wife.")
    assert not refuted('Ulf calls Grima his "little wife".')
    assert not refuted("Ulf calls Grima his wife in jest.")
    assert not refuted("Ulf greets Grima as if she were his wife.")
    assert not refuted("They say Ulf calls Grima his wife.")


def test_naming_that_agrees_and_sworn_sisters_are_clean() -> None:
    assert not refuted("Ulf calls Asa his sister.")
    assert not refuted("Kettil calls Hrefna his stepmother.")
    assert not refuted("Asa calls Sif her sister.")
    assert not refuted("Hrefna is like a mother to Kettil.")


# --- apposition and the exclusive parent ------------------------------------------------------------


def test_son_given_to_the_wrong_mother_is_flagged() -> None:
    assert "e-orla-kettil" in refuted("Kettil, Maud's son, splits the wood.")
    assert "e-orla-kettil" in refuted("Maud's son Kettil splits the wood.")


def test_mother_in_apposition_to_the_wrong_woman_is_flagged() -> None:
    assert "e-orla-kettil" in refuted("Maud, Kettil's mother, splits the wood.")
    assert ("npc-maud", "npc-kettil", "mother") in kin_claims("Maud, Kettil's mother, splits the wood.")


def test_apposition_controls_are_clean() -> None:
    assert not refuted("Orla, Kettil's mother, splits the wood.")
    assert not refuted("Kettil, Orla's son, splits the wood.")
    assert not refuted("Hrefna, Kettil's stepmother, splits the wood.")
    assert not refuted("Asa, Ulf's sister, splits the wood.")  # a second sister
    assert not refuted("Grima, Ulf's sister, splits the wood.")
    # a list of three, not an apposition: Kettil's mother is Orla, named by the phrase
    assert not refuted("Maud, Kettil's mother, and Asa split the wood.")
    # a name called out, then the phrase as the subject: Orla waves
    assert not refuted("Maud, Kettil's mother waves from the door.")


def test_aunt_is_not_exclusive() -> None:
    # no record ties Maud to Kettil, and an aunt may be one of many: nothing to judge
    assert not refuted("Maud, Kettil's aunt, splits the wood.")
