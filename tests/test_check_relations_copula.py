"""Kinship told by a copula with a pronoun subject or in the perfect ("She's the Deacon's daughter",
"Hana has been your mother for nineteen years"), and a kin phrase whose relative opens the next sentence
("two sweets from her mother. Parvati has sent ..."). Each is judged against the recorded term; a denial,
a likeness, quoted words or a pair the record does not tie as kin stay clean.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Edge, Entity, WorldSnapshot


def landing() -> WorldSnapshot:
    """A river landing: Tilly, the Deacon's younger sister; Hana, aunt to the PC Oskar; Parvati, Kamala's
    aunt; Mara, no kin to anyone; Vale, a second PC."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-oskar", "pc", "Oskar", owner="1", location="loc-landing", pronoun="he"),
            Entity("pc-vale", "pc", "Vale", owner="2", location="loc-landing", pronoun="she"),
            Entity("npc-tilly", "npc", "Tilly Marsh", location="loc-landing", pronoun="she"),
            Entity("npc-deacon", "npc", "the Deacon", location="loc-landing", pronoun="he"),
            Entity("npc-hana", "npc", "Hana Mori", location="loc-landing", pronoun="she"),
            Entity("npc-kamala", "npc", "Kamala", location="loc-landing", pronoun="she"),
            Entity("npc-parvati", "npc", "Parvati", location="loc-landing", pronoun="she"),
            Entity("npc-mara", "npc", "Mara Quill", location="loc-landing", pronoun="she"),
            Entity("loc-landing", "location", "the landing"),
        ],
        edges=[
            Edge(
                "e-tilly-deacon",
                "npc-tilly",
                "npc-deacon",
                "sibling",
                60,
                "Tilly is the Deacon's younger sister",
            ),
            Edge("e-hana-oskar", "npc-hana", "pc-oskar", "aunt", 80, "Hana is Oskar's aunt"),
            Edge("e-parvati-kamala", "npc-parvati", "npc-kamala", "aunt", 80, "Parvati is Kamala's aunt"),
        ],
    )


def refuted(text: str) -> set[str]:
    return {v.refuted_by or "" for v in check(text, landing()).claims if v.verdict == "contradicted"}


# --- a pronoun subject, the contracted copula --------------------------------------------------------


def test_pronoun_subject_with_the_wrong_term_is_flagged() -> None:
    assert "e-tilly-deacon" in refuted("Tilly Marsh packs her blanket. She's the Deacon's daughter.")
    assert "e-tilly-deacon" in refuted("Tilly Marsh packs her blanket. She is the Deacon's only daughter.")
    assert "e-tilly-deacon" in refuted("Tilly Marsh packs her blanket. She was the Deacon's wife.")


def test_pronoun_subject_with_the_right_term_is_clean() -> None:
    assert not refuted("Tilly Marsh packs her blanket. She's the Deacon's younger sister.")
    assert not refuted("Tilly Marsh packs her blanket. She is the Deacon's sister, and proud of it.")


def test_pronoun_copula_denied_likened_or_quoted_is_clean() -> None:
    assert not refuted("Tilly Marsh packs her blanket. She's not the Deacon's daughter.")
    assert not refuted("Tilly Marsh packs her blanket. She is like the Deacon's own daughter.")
    assert not refuted("Tilly Marsh packs her blanket. \"She's the Deacon's daughter,\" Mara lies.")


def test_pronoun_for_someone_the_record_does_not_tie_is_clean() -> None:
    # Mara is no kin of the Deacon's: a pronoun is too weak a link to judge an unrecorded kinship on
    assert not refuted("Mara Quill packs her blanket. She's the Deacon's daughter.")


# --- the perfect, and "your" -------------------------------------------------------------------------


def test_has_been_your_mother_of_an_aunt_is_flagged() -> None:
    text = 'Hana Mori looks at you both. "Oskar." Hana Mori has been your mother for nineteen years.'
    assert "e-hana-oskar" in refuted(text)
    assert "e-hana-oskar" in refuted("Oskar, Hana Mori has been your mother for nineteen years.")


def test_has_been_your_aunt_likeness_or_denial_is_clean() -> None:
    assert not refuted("Hana Mori looks at you both. Hana Mori has been your aunt for nineteen years.")
    assert not refuted("Hana Mori looks at you both. Hana Mori has been like a mother to you.")
    assert not refuted("Hana Mori looks at you both. Hana Mori has never been your mother.")


def test_your_for_a_pc_the_record_does_not_tie_is_clean() -> None:
    # two PCs, neither named: whose mother is not told
    assert not refuted("Hana Mori looks at you both. Hana Mori has been your mother for nineteen years.")
    # Mara is tied to no PC: "your" stays unresolved and nothing is claimed
    assert not refuted("Mara Quill looks at you both. Mara Quill has been your mother for nineteen years.")


# --- the relative opening the next sentence ----------------------------------------------------------


def test_relative_opening_the_next_sentence_is_read() -> None:
    text = "Kamala unwraps two sweets from her mother. Parvati sends a packet every evening."
    assert "e-parvati-kamala" in refuted(text)


def test_relative_opening_the_next_sentence_clean_controls() -> None:
    assert not refuted("Kamala unwraps two sweets from her aunt. Parvati sends a packet every evening.")
    # the next sentence's subject is no recorded kin of Kamala's: "her mother" is someone unrecorded
    assert not refuted("Kamala unwraps two sweets from her mother. Mara Quill sends a packet every evening.")


def test_a_possessive_kin_term_of_fellowship_is_clean() -> None:
    assert "e-tilly-deacon" in refuted("The Deacon preaches. Tilly Marsh is his daughter.")
    assert not refuted("The Deacon preaches. Tilly Marsh is his daughter in all but blood.")
    assert not refuted("The Deacon preaches. Tilly Marsh has always been his daughter in all but name.")
