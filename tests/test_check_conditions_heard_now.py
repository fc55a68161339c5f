"""A past "heard" in a present narration that tells the scene just past: "He heard every word; you can see
it land", right after someone asked him something. A deafened creature hearing so contradicts the condition.

Clean controls: he can hear; no one spoke before it; a word placing it back then ("yesterday"); a negated
verb ("never heard a word"); something other than the words just said ("heard the bell"). An invented
world: a quarry yard after a blast, its deafened powder-boy and the foreman.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def quarry(*, deaf: bool = True) -> WorldSnapshot:
    """Nim the powder-boy (deafened by the blast unless told otherwise), Foreman Agathe and Dace (a PC)."""
    conditions = frozenset({"deafened"}) if deaf else frozenset()
    return WorldSnapshot.build(
        entities=[
            Entity("pc-dace", "pc", "Dace", owner="1", location="loc-yard", pronoun="he"),
            Entity("npc-nim", "npc", "Nim", location="loc-yard", pronoun="he", conditions=conditions),
            Entity("npc-agathe", "npc", "Agathe", location="loc-yard", pronoun="she"),
            Entity("loc-yard", "location", "the quarry yard"),
        ],
        scene=Scene("loc-yard", frozenset({"pc-dace", "npc-nim", "npc-agathe"})),
    )


def refuted(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


ASKED = (
    '"Who lit the short fuse?" Agathe asks. She does not raise her voice. '
    "Nim's head comes up at once. He heard every word; you can see it land."
)


def test_heard_every_word_after_the_question_is_hearing_now() -> None:
    assert "npc-nim-condition-deafened" in refuted(ASKED, quarry())


def test_clean_control_he_can_hear() -> None:
    assert refuted(ASKED, quarry(deaf=False)) == set()


def test_clean_control_no_one_spoke() -> None:
    text = "Agathe walks the line of carts. Nim's head comes up at once. He heard every word, he thinks."
    assert refuted(text, quarry()) == set()


def test_clean_control_back_then() -> None:
    text = '"Who lit the short fuse?" Agathe asks. Nim heard every word of the same speech yesterday.'
    assert refuted(text, quarry()) == set()


def test_clean_control_negated() -> None:
    text = '"Who lit the short fuse?" Agathe asks. Nim never heard a word; he stares at her mouth.'
    assert refuted(text, quarry()) == set()


def test_clean_control_another_sound() -> None:
    text = (
        '"Who lit the short fuse?" Agathe asks. Nim\'s head comes up. He heard the blast, and nothing since.'
    )
    assert refuted(text, quarry()) == set()
