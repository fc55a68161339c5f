"""A thread's status told by what is done with its matter: an oath's word told worthless is broken; a debt's
matter still waited on or demanded by its creditor is owed.

Clean controls: the record agrees; a condition ("if he talks, his word is worth nothing"), a rumour, a memory
and a plan tell nothing; "the word" is no one's pledge; the debtor waiting on it and a wait for something
that shares one word with the debt ("waits for the casks to dry") are no claim. An invented world: a
vineyard on a river terrace.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, Thread, WorldSnapshot


def vineyard(*, oath: str = "open", debt: str = "settled") -> WorldSnapshot:
    """Bastien swore to the Abbess to keep the cellar's secret; the cooper Oriol owes Vintner Mahaut nine
    casks of last year's red for the pressing."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-bastien", "pc", "Bastien", owner="1", location="loc-terrace", pronoun="he"),
            Entity("npc-abbess", "npc", "the Abbess", location="loc-terrace", pronoun="she"),
            Entity("npc-oriol", "npc", "Oriol", location="loc-terrace", pronoun="he"),
            Entity("npc-mahaut", "npc", "Mahaut", location="loc-terrace", pronoun="she"),
            Entity("loc-terrace", "location", "the Upper Terrace"),
        ],
        threads=[
            Thread(
                "oath-cellar",
                "oath",
                oath,
                ("pc-bastien", "npc-abbess"),
                "Bastien swore to the Abbess to keep the cellar's secret",
            ),
            Thread(
                "debt-casks",
                "debt",
                debt,
                ("npc-oriol", "npc-mahaut"),
                "Oriol owes Mahaut nine casks of red wine for the pressing",
            ),
        ],
        scene=Scene("loc-terrace", frozenset({"pc-bastien", "npc-abbess", "npc-oriol", "npc-mahaut"})),
    )


def refuted(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


WORTHLESS = "The Abbess looks at Bastien a long time: this is the man whose sworn word is worth nothing now."


def test_a_pledged_word_told_worthless_breaks_the_oath() -> None:
    assert "oath-cellar" in refuted(WORTHLESS, vineyard(oath="open"))


def test_a_named_possessor_word_told_worthless() -> None:
    text = "The Abbess turns away. Bastien's word is worthless to her now."
    assert "oath-cellar" in refuted(text, vineyard(oath="open"))


def test_clean_control_the_oath_is_broken() -> None:
    assert refuted(WORTHLESS, vineyard(oath="broken")) == set()


def test_clean_control_a_condition() -> None:
    text = "The Abbess looks at Bastien. If he talks, his word is worth nothing."
    assert refuted(text, vineyard(oath="open")) == set()


def test_clean_control_a_rumour() -> None:
    text = "The Abbess looks at Bastien. Rumour has it his word is worthless."
    assert refuted(text, vineyard(oath="open")) == set()


def test_clean_control_the_word_is_nobody_pledge() -> None:
    text = "The Abbess looks at Bastien. The word is meaningless to her; she does not read the old script."
    assert refuted(text, vineyard(oath="open")) == set()


WAITING = "Mahaut stands by the press. She is still waiting on the nine casks of red from the pressing."


def test_the_creditor_still_waiting_on_the_matter_tells_it_owed() -> None:
    assert "debt-casks" in refuted(WAITING, vineyard(debt="settled"))


def test_clean_control_the_debt_is_open() -> None:
    assert refuted(WAITING, vineyard(debt="open")) == set()


def test_clean_control_the_debtor_waiting_is_no_claim() -> None:
    text = "Oriol stands by the press. He is still waiting on the nine casks of red from the pressing."
    assert refuted(text, vineyard(debt="settled")) == set()


def test_clean_control_one_shared_word_is_not_the_debt() -> None:
    text = "Mahaut stands by the press and waits for the casks to dry."
    assert refuted(text, vineyard(debt="settled")) == set()


def test_clean_control_a_memory_and_a_plan() -> None:
    memory = "Mahaut stands by the press. She remembers waiting on the nine casks of red from the pressing."
    plan = "Mahaut stands by the press. She will demand the nine casks of red wine if the harvest fails."
    assert refuted(memory, vineyard(debt="settled")) == set()
    assert refuted(plan, vineyard(debt="settled")) == set()


LINGERS = "Mahaut sets down her ladle. The nine casks of red still sit between her and Oriol like a wall."


def test_the_matter_still_between_the_parties_is_owed() -> None:
    assert "debt-casks" in refuted(LINGERS, vineyard(debt="settled"))


def test_clean_control_lingering_and_open() -> None:
    assert refuted(LINGERS, vineyard(debt="open")) == set()


def test_clean_control_the_things_themselves_still_standing() -> None:
    text = "Mahaut sets down her ladle. The casks still stand between her and Oriol on the cellar floor."
    assert refuted(text, vineyard(debt="settled")) == set()
