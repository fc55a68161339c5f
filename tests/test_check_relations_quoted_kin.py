"""A kin phrase a speaker uses to point at someone ("we buried her brother Cassian", '"My wife ...," Ulf
says' of his sister) is judged against the recorded tie like a narrated one. A speaker's assertion ("she is
my wife"), a told lie, a likeness, a pair the record does not tie as kin, or two tied women either of whom
"my wife" could mean stay clean.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, WorldSnapshot


def hall() -> WorldSnapshot:
    """Ulf and his sisters Grima and Asa; Sif, no kin of his; the Abbess and her nephew Brother Cassian."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-sigga", "pc", "Sigga", owner="1", location="loc-hall", pronoun="she"),
            Entity("npc-ulf", "npc", "Ulf Bersson", (Alias("Ulf"),), location="loc-hall", pronoun="he"),
            Entity("npc-grima", "npc", "Grima", location="loc-hall", pronoun="she"),
            Entity("npc-asa", "npc", "Asa", location="loc-hall", pronoun="she"),
            Entity("npc-sif", "npc", "Sif", location="loc-hall", pronoun="she"),
            Entity(
                "npc-abbess",
                "npc",
                "Abbess Hilde",
                (Alias("Mother Abbess"),),
                location="loc-hall",
                pronoun="she",
            ),
            Entity("npc-cassian", "npc", "Brother Cassian", location="loc-hall", pronoun="he"),
            Entity("npc-prior", "npc", "the Prior", location="loc-hall", pronoun="he"),
            Entity("loc-hall", "location", "the hall"),
        ],
        edges=[
            Edge("e-grima-ulf", "npc-grima", "npc-ulf", "sibling", 70, "Grima is Ulf's elder sister"),
            Edge("e-asa-ulf", "npc-asa", "npc-ulf", "sibling", 70, "Asa is Ulf's younger sister"),
            Edge(
                "e-cassian-abbess", "npc-cassian", "npc-abbess", "kin", 70, "Cassian was the Abbess's nephew"
            ),
        ],
    )


def refuted(text: str) -> set[str]:
    return {v.refuted_by or "" for v in check(text, hall()).claims if v.verdict == "contradicted"}


def test_the_speakers_own_kin_word_for_a_sister_is_flagged() -> None:
    assert "e-grima-ulf" in refuted('Ulf nods toward Grima. "My wife has buried three children," Ulf says.')
    assert "e-grima-ulf" in refuted('Ulf nods toward Grima. "My wife has buried three children," he says.')


def test_the_speakers_own_kin_word_clean_controls() -> None:
    assert not refuted('Ulf nods toward Grima. "My sister has buried three children," Ulf says.')
    assert not refuted('Ulf nods toward Grima. "She is my wife," Ulf says.')  # an assertion: may be a lie
    assert not refuted('Ulf nods toward Grima. "My wife is sick," Ulf lies to the guard.')
    assert not refuted('Ulf nods toward Grima. "She is like my own wife," Ulf says.')
    # Sif is no kin of his: "my wife" is someone else, unrecorded
    assert not refuted('Ulf nods toward Sif. "My wife has buried three children," Ulf says.')
    # two sisters named: which one "my wife" means is not told
    assert not refuted('Ulf nods toward Grima and Asa. "My wife has buried three children," Ulf says.')


def test_a_kin_phrase_about_others_in_speech_is_judged() -> None:
    text = 'The Prior sighs. "Mother Abbess has barely eaten since we buried her brother Cassian."'
    assert "e-cassian-abbess" in refuted(text)
    assert not refuted(text.replace("her brother Cassian", "her nephew Cassian"))
    # the title alone is no kinship
    assert not refuted('The Prior sighs. "Mother Abbess has barely eaten since we buried Brother Cassian."')
