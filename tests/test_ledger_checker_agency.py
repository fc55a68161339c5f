"""A PC's words and choices belong to their player (issue 9): the narrator may retell, never add a commitment.

The player of Greyrock submitted "ask Old Wei what the ship carries". A narration may have Greyrock ask that
in other words, but not have him say words the player never wrote ("I will do whatever you ask") or make a
promise, agree, swear, accept, refuse, confess or decide anything the player did not choose.
"""

from __future__ import annotations

from functools import cache

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import RoundFacts, Scene, WorldSnapshot, load_world
from tests.corpus.loader import world_path

ASKED = "ask Old Wei what the ship carries"


@cache
def _tax_office() -> WorldSnapshot:
    """The harbour world: Greyrock and Mira at the tax office with Old Wei; Greyrock's player wrote ASKED."""
    world = load_world(world_path("harbour"))
    return world.with_round(
        RoundFacts(
            number=16,
            submissions={"pc-greyrock": ASKED, "pc-mira": "I keep watch at the door."},
            acted=frozenset({"pc-greyrock", "pc-mira"}),
        ),
        Scene("loc-tax-office", frozenset({"pc-greyrock", "pc-mira", "npc-old-wei"})),
    )


def _pc_conflicts(text: str) -> list[tuple[str, str | None]]:
    report = check(text, _tax_office(), audience="party")
    return [
        (v.claim.label(), v.refuted_by)
        for v in report.conflicts()
        if v.refuted_by == "round:submission-pc-greyrock"
    ]


@pytest.mark.parametrize(
    "text",
    [
        'Greyrock says, "I will do whatever you ask."',
        'Greyrock leans on the counter. "I will do whatever you ask," Greyrock says.',
        'Greyrock says, "You have my word, old man: I will find your lost cargo."',
        "Greyrock promises Old Wei that he will find out what the ship carries.",
        "Greyrock agrees to carry the ship's crates for Old Wei.",
        "Greyrock swears to keep the ship's cargo a secret.",
        "Greyrock accepts Old Wei's offer of work on the ship.",
        "Greyrock refuses to pay Old Wei for the news about the ship.",
        "Greyrock confesses to Old Wei that he sank the last ship.",
        "Greyrock decides to sail on the ship himself.",
    ],
)
def test_words_or_a_commitment_the_player_never_wrote_are_a_conflict(text: str) -> None:
    assert _pc_conflicts(text), text


@pytest.mark.parametrize(
    "text",
    [
        'Greyrock asks, "What does that ship carry, Wei?"',
        'Greyrock leans on the counter. "What is the ship carrying, Old Wei?" Greyrock asks.',
        "Greyrock asks Old Wei what the ship has in her hold.",
        "Greyrock asks Old Wei about the ship's cargo.",
        "Greyrock nods to Old Wei and asks what the ship carries.",
    ],
)
def test_the_pc_asking_what_the_player_wrote_in_other_words_is_clean(text: str) -> None:
    assert _pc_conflicts(text) == [], text


def _tamsin_conflicts(text: str) -> list[str | None]:
    """Tamsin's player wrote nothing this round."""
    report = check(text, _tax_office(), audience="party")
    return [v.refuted_by for v in report.conflicts() if v.refuted_by == "round:submission-pc-tamsin"]


@pytest.mark.parametrize(
    "text",
    [
        "Tamsin pats her coat and checks her purse strings.",
        "Tamsin fingers the healing potion tucked in her belt.",
    ],
)
def test_a_pc_whose_player_wrote_nothing_may_handle_their_own_things(text: str) -> None:
    assert _tamsin_conflicts(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "Tamsin draws her dagger and slips behind Old Wei.",
        "Tamsin shoulders her pack and walks off toward the docks.",
        "Tamsin tells Old Wei her price.",
    ],
)
def test_a_pc_whose_player_wrote_nothing_takes_no_part_in_the_scene(text: str) -> None:
    assert _tamsin_conflicts(text), text
