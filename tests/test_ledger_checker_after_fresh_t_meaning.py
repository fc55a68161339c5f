"""Issue 10, after the fresh_t run: rules about English that carry to unseen narration, each with a control.

- A deafened creature who says, in her own line of speech, that she heard what was just said ("I heard
  that", "I can hear you", "I heard every word") is hearing; hearsay ("I heard you were ill", "I heard it
  from the miller"), a denial and a question are not.
- An oath told with what came of it by verb-phrase ellipsis ("made him swear to guard it, and he did") is
  kept; "but he never did" is broken; in a party's line of speech or in narration.
- A secret about an item is not told by the item doing its ordinary work: the verb that shares the item's
  stem ("weighs" with the weights, "locks" with the lock) is no concept of the secret.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Edge, Entity, Fact, Holding, Scene, Thread, WorldSnapshot


def forge(oath: str = "broken") -> WorldSnapshot:
    """A smithy: the deafened smith Hild, the apprentice Tam sworn to the master Orrin, and a padlock with a
    secret."""
    here = "loc-smithy"
    return WorldSnapshot.build(
        entities=[
            Entity("pc-vara", "pc", "Vara", owner="1", location=here, pronoun="she"),
            Entity("pc-dunn", "pc", "Dunn", owner="2", location=here, pronoun="he"),
            Entity(
                "npc-hild",
                "npc",
                "Hild Brask",
                location=here,
                pronoun="she",
                conditions=frozenset({"deafened"}),
            ),
            Entity("npc-orrin", "npc", "Orrin Vey", location=here, pronoun="he"),
            Entity("npc-tam", "npc", "Tam Corlis", location=here, pronoun="he"),
            Entity("npc-beda", "npc", "Beda Vey", location=here, pronoun="she"),
            Entity("item-padlock", "item", "iron padlock", aliases=()),
            Entity(here, "location", "the smithy"),
            Entity("loc-quarry", "location", "the quarry"),
        ],
        holdings=[Holding("npc-beda", "item-padlock", 1)],
        threads=[
            Thread(
                "oath-07",
                "oath",
                oath,
                ("npc-tam", "npc-orrin"),
                "Tam swore to guard the quarry gate; he left it in the flood",
            )
        ],
        facts=[
            Fact(
                "item-padlock-false",
                "Beda Vey's iron padlock is rigged and locks nothing",
                visibility="gm",
            )
        ],
        scene=Scene(here, frozenset({"pc-vara", "pc-dunn", "npc-hild", "npc-orrin", "npc-beda", "npc-tam"})),
    )


HILD_DEAF = "npc-hild-condition-deafened"


def refuted(text: str, oath: str = "broken") -> set[str | None]:
    report = check(text, forge(oath))
    return {v.refuted_by for v in report.conflicts()} | {lk.record for lk in report.leaks}


# --- a deafened creature says she heard ---------------------------------------------------------------------


def test_a_deafened_speaker_saying_she_heard_the_words_is_hearing() -> None:
    text = 'Dunn mutters a joke about the bellows. Hild Brask whirls round. "I heard that," she snaps.'
    assert refuted(text) == {HILD_DEAF}
    assert refuted('Vara whispers to Dunn. "I can hear you perfectly well," Hild Brask says.') == {HILD_DEAF}
    assert refuted('Vara whispers to Dunn. "I heard every word!" Hild Brask says.') == {HILD_DEAF}
    assert refuted('Dunn snickers. "I heard what you called me," Hild Brask says.') == {HILD_DEAF}
    assert refuted('Dunn snickers. "I heard you muttering," Hild Brask says.') == {HILD_DEAF}


def test_hearsay_denials_and_questions_are_not_hearing() -> None:
    assert refuted('Hild Brask wipes her hands. "I heard you were ill last winter," she says.') == set()
    assert refuted('Hild Brask wipes her hands. "I heard it from the miller," she says.') == set()
    assert refuted('Hild Brask shakes her head. "I didn\'t hear that," she says.') == set()
    assert refuted('Hild Brask frowns. "Did I hear that right?" she says.') == set()
    assert refuted('Hild Brask frowns. "I heard what happened at the mill," she says.') == set()


# --- an oath and what came of it, by ellipsis ---------------------------------------------------------------


def test_an_oath_told_done_by_ellipsis_is_kept() -> None:
    text = 'Orrin Vey sets down his tongs. "I made Tam Corlis swear to guard that gate, and he did."'
    assert refuted(text) == {"oath-07"}
    text = "Tam Corlis vowed that he would guard the quarry gate, and he has."
    assert refuted(text) == {"oath-07"}


def test_an_oath_told_failed_or_standing_is_no_contradiction() -> None:
    text = 'Orrin Vey sets down his tongs. "I made Tam Corlis swear to guard that gate, but he never did."'
    assert refuted(text) == set()
    text = 'Orrin Vey sets down his tongs. "I made Tam Corlis swear to guard that gate, and he did."'
    assert refuted(text, oath="open") == set()
    assert refuted("Tam Corlis vowed that he would guard the quarry gate, but he never did.") == set()
    assert refuted("If Tam Corlis swore to guard the gate, he did.") == set()
    # another promise than the recorded oath
    assert refuted("Tam Corlis swore to bring the ale back from town, and he did.") == set()
    # "and he did his best": the clause goes on, it does not stand for the sworn act
    text = 'Orrin Vey sets down his tongs. "I made Tam Corlis swear to guard that gate, and he did his best."'
    assert refuted(text) == set()


# --- a secret item at its ordinary work ---------------------------------------------------------------------


def test_an_item_at_its_ordinary_work_tells_no_secret_about_it() -> None:
    text = "Beda Vey locks the shed with her iron padlock and pockets the key."
    assert refuted(text) == set()


def test_the_secret_itself_is_still_told() -> None:
    text = "Beda Vey's iron padlock is rigged, Vara; it locks nothing at all."
    assert "item-padlock-false" in refuted(text)


# --- a verb of begetting is a kin claim ---------------------------------------------------------------------


def croft() -> WorldSnapshot:
    """A croft: Maud Penn with her stepson Aldo and her daughter Ysolde."""
    here = "loc-croft"
    return WorldSnapshot.build(
        entities=[
            Entity("pc-rue", "pc", "Rue", owner="1", location=here, pronoun="she"),
            Entity("npc-maud", "npc", "Maud Penn", location=here, pronoun="she"),
            Entity("npc-aldo", "npc", "Aldo Penn", location=here, pronoun="he"),
            Entity("npc-ysolde", "npc", "Ysolde Penn", location=here, pronoun="she"),
            Entity(here, "location", "the croft"),
        ],
        edges=[
            Edge("edge-aldo-maud", "npc-aldo", "npc-maud", "kin", 20, "Aldo is Maud Penn's stepson"),
            Edge("edge-ysolde-maud", "npc-ysolde", "npc-maud", "kin", 80, "Ysolde is Maud Penn's daughter"),
        ],
        scene=Scene(here, frozenset({"pc-rue", "npc-maud", "npc-aldo", "npc-ysolde"})),
    )


def at_croft(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, croft()).conflicts()}


def test_a_verb_of_begetting_makes_a_child() -> None:
    assert at_croft("Aldo Penn coughs by the fire. Maud Penn, who bore him, tucks a blanket round him.") == {
        "edge-aldo-maud"
    }
    assert at_croft("Maud Penn gave birth to Aldo Penn the year the river froze.") == {"edge-aldo-maud"}


def test_begetting_told_of_a_true_child_or_carrying_is_clean() -> None:
    assert (
        at_croft("Ysolde Penn coughs by the fire. Maud Penn, who bore her, tucks a blanket round her.")
        == set()
    )
    assert at_croft("Maud Penn bore Aldo Penn up the ladder to the loft.") == set()
    assert at_croft("Maud Penn never bore Aldo Penn, and both of them know it.") == set()


def _salon(name: str) -> WorldSnapshot:
    """A salon where a dead woman recorded under a foreign honorific and her full name is shown acting."""
    here = "loc-salon"
    return WorldSnapshot.build(
        entities=[
            Entity("pc-vara", "pc", "Vara", owner="1", location=here, pronoun="she"),
            Entity("npc-dead", "npc", name, location=here, alive=False, pronoun="she"),
            Entity(here, "location", "the salon"),
        ],
        scene=Scene(here, frozenset({"pc-vara"})),
    )


def test_a_foreign_honorific_opens_a_name_so_the_given_name_after_it_is_hers() -> None:
    """Seen in fresh_t: "Donna Celestine Mauvais" took "Donna" for a given name; "Celestine" named nobody."""
    text = "Celestine sweeps down the stair and offers Vara her gloved hand."
    for name in ("Donna Celestine Mauvais", "Signora Celestine Mauvais", "Frau Celestine Mauvais"):
        refuted = {v.refuted_by for v in check(text, _salon(name)).conflicts()}
        assert "npc-dead-alive" in refuted, (name, refuted)
    # control: the dead woman named only as a memory
    assert (
        check("Vara remembers how Celestine laughed.", _salon("Donna Celestine Mauvais")).verdict == "clean"
    )
