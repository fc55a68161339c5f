"""A debt's or favour's status told only as someone's words is no status (issue 10).

Seen in the evening: Greyrock's player wrote "tell Old Wei the favour is paid: I stood by him on the pier",
the offline narrator told it ("Greyrock leans in and tells Old Wei that the favour is paid."), and the check
queued a conflict for the GM, as if the narrator had settled the favour. What a PC says is the player's claim;
the one a thread binds saying it is paid may be lying in their own defence. The creditor saying so, or the
narrator, still tells it, and a factive verb ("reminds himself that") takes its report as true.
"""

from __future__ import annotations

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import load_world
from tests.corpus.loader import world_path

HARBOUR = load_world(world_path("harbour"), None)  # favour favor-0003-01 open: Greyrock owes Old Wei


@pytest.mark.parametrize(
    "text",
    [
        "Greyrock leans in and tells Old Wei that the favour is paid.",
        "Greyrock tells Old Wei the favour is paid.",
        "The favour is paid, Greyrock tells Old Wei.",
        "Greyrock insists to Old Wei that the favour is long settled.",
    ],
)
def test_a_debtors_word_that_it_is_paid_tells_no_status(text: str) -> None:
    report = check(text, HARBOUR)
    assert not [v for v in report.conflicts() if v.claim.kind == "thread_status"], report.conflicts()


@pytest.mark.parametrize(
    "text",
    [
        "Old Wei tells Greyrock the favour is paid.",  # the creditor forgives it: a settlement told
        "Greyrock pays Old Wei back, and the favour is settled.",  # the narrator's own words
        "Greyrock reminds himself that the favour is paid.",  # factive: the report is taken as true
        "Greyrock swore once to repay Old Wei, and the favour is settled now.",  # the oath is another clause
    ],
)
def test_the_creditor_or_the_narrator_still_tells_the_status(text: str) -> None:
    report = check(text, HARBOUR)
    assert "favor-0003-01" in {v.refuted_by for v in report.conflicts()}, [v.claim for v in report.claims]
