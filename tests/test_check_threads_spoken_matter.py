"""A thread's status in a line of speech that names what the thread is about, not its other party.

A party's line may name the thread's matter and not the other side ("The lamp-oil money stands owing"): the
speaker's one thread whose recorded terms share most words with the line is the one meant. A line that names
a thread by its alias tells its status whoever says it ("The ferry toll's paid"). The one bound by a debt
saying it is paid is no evidence (they may lie in their own defence) unless the narration right after vouches
for the line ("And it is true"). Conditions ("when the toll's paid, ..."), hearsay, lines marked as lies and
plans tell nothing. An invented world: a lighthouse on a tidal island and its ferry.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, Thread, WorldSnapshot


def lighthouse(*, oil: str = "settled", toll: str = "open", wages: str = "open") -> WorldSnapshot:
    """Keeper Anselm owes Mother Brisk eighty shillings for lamp oil; the ferrywoman Dory owes the Harbour
    Reeve the ferry toll of six barrels of tar; the Reeve owes Piet (a PC) forty shillings in back wages."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-piet", "pc", "Piet", owner="1", location="loc-light", pronoun="he"),
            Entity("npc-anselm", "npc", "Anselm", location="loc-light", pronoun="he"),
            Entity("npc-brisk", "npc", "Mother Brisk", location="loc-light", pronoun="she"),
            Entity("npc-dory", "npc", "Dory", location="loc-light", pronoun="she"),
            Entity("npc-reeve", "npc", "the Harbour Reeve", location="loc-light", pronoun="he"),
            Entity("npc-gull", "npc", "Gull", location="loc-light", pronoun="she"),
            Entity("loc-light", "location", "Skerry Light"),
        ],
        threads=[
            Thread(
                "debt-oil",
                "debt",
                oil,
                ("npc-anselm", "npc-brisk"),
                "Anselm owes Mother Brisk eighty shillings for lamp oil",
            ),
            Thread(
                "debt-toll",
                "debt",
                toll,
                ("npc-dory", "npc-reeve"),
                "Dory owes the Harbour Reeve six barrels of tar as the ferry toll",
                aliases=("the ferry toll",),
            ),
            Thread(
                "debt-wages",
                "debt",
                wages,
                ("npc-reeve", "pc-piet"),
                "the Harbour Reeve owes Piet forty shillings in back wages",
            ),
        ],
        scene=Scene("loc-light", frozenset({"pc-piet", "npc-anselm", "npc-brisk", "npc-dory", "npc-reeve"})),
    )


def refuted(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


CREDITOR = (
    'Mother Brisk sets down her basket. "I carried that lamp oil up the cliff path myself, every can of it. '
    'The oil money stands owing, Keeper." She does not smile.'
)


def test_the_creditor_naming_the_matter_tells_it_open() -> None:
    assert "debt-oil" in refuted(CREDITOR, lighthouse(oil="settled"))


def test_clean_control_the_debt_is_open() -> None:
    assert refuted(CREDITOR, lighthouse(oil="open")) == set()


VOUCHED = (
    "Piet asks about the wages. The Reeve frowns at him. "
    '"Those were paid out at the quay, every shilling of the forty, into your own hand." '
    "And it is true; Piet remembers the purse."
)


def test_the_debtor_saying_paid_counts_when_the_narration_vouches_for_it() -> None:
    assert "debt-wages" in refuted(VOUCHED, lighthouse(wages="open"))


def test_clean_control_the_debtor_alone_may_be_lying() -> None:
    text = VOUCHED.replace(" And it is true; Piet remembers the purse.", "")
    assert refuted(text, lighthouse(wages="open")) == set()


def test_clean_control_vouched_and_true() -> None:
    assert refuted(VOUCHED, lighthouse(wages="settled")) == set()


BY_ALIAS = (
    'Gull leans on the rail. "Your Dory paid him at last. Six barrels of tar, counted out on the bluff. '
    "The ferry toll's paid, and the chain comes down whenever you like.\""
)


def test_a_line_naming_the_thread_by_its_alias_tells_its_status() -> None:
    assert "debt-toll" in refuted(BY_ALIAS, lighthouse(toll="open"))


def test_clean_control_the_toll_is_paid() -> None:
    assert refuted(BY_ALIAS, lighthouse(toll="settled")) == set()


def test_clean_control_a_condition_is_no_settlement() -> None:
    text = (
        'Gull leans on the rail. "When the tar is counted and the ferry toll is paid, the chain comes down."'
    )
    assert refuted(text, lighthouse(toll="open")) == set()


def test_clean_control_hearsay_is_no_settlement() -> None:
    text = 'Gull leans on the rail. "I heard the ferry toll\'s paid, but folk say a lot of things."'
    assert refuted(text, lighthouse(toll="open")) == set()


def test_clean_control_a_line_marked_as_a_lie() -> None:
    text = 'Gull leans on the rail. "The ferry toll\'s paid," she lies, not meeting your eye.'
    assert refuted(text, lighthouse(toll="open")) == set()


def test_clean_control_a_settlement_told_in_the_narration_itself_is_read_as_before() -> None:
    text = "Anselm counts eighty shillings into Mother Brisk's palm. The lamp oil is paid for at last."
    assert refuted(text, lighthouse(oil="settled")) == set()
