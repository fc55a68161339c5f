"""Narrative events: what happened between people when no state changed, in one small vocabulary.

An insult, a rescue, a bargain struck or a warning given changes no row of the world, yet it is what a
table remembers ("the last time you two met, he threatened her"). The history keeps such an event with its
kind, its participants, its place and the thread it bears on; recall ranks it by what its kind says about
the people involved (:func:`significance`), never by a number written in a file.

This is the one definition used by the store (the ``record_event`` change), the scenario format
(``[[history]]`` entries with ``event``), the table (events written from rounds: a talk, a help, a threat)
and the narrator's proposals.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

NarrativeKind = Literal[
    # bonds made or broken between people
    "bargain",
    "promise",
    "gift",
    "rescue",
    "help",
    "betrayal",
    "theft",
    # words that change how people stand
    "insult",
    "threat",
    "warning",
    "confession",
    "accusation",
    "apology",
    # what someone learned or saw
    "discovery",
    "revelation",
    # encounters and small talk
    "meeting",
    "fight",
    "talk",
    "sighting",
]
"""Every kind of narrative event, as written in files and payloads."""

NARRATIVE_KINDS: Final[tuple[str, ...]] = get_args(NarrativeKind)

# How much a kind of event matters to the people in it, 0 (small talk) to 3 (remembered for years). Bonds
# made or broken and words that change how people stand outlast encounters; recall uses this to let "the
# last notable thing between these people" beat newer small talk.
_SIGNIFICANCE: Final[dict[str, int]] = {
    "bargain": 3,
    "promise": 3,
    "betrayal": 3,
    "rescue": 3,
    "confession": 3,
    "revelation": 3,
    "theft": 2,
    "gift": 2,
    "help": 2,
    "insult": 2,
    "threat": 2,
    "warning": 2,
    "accusation": 2,
    "apology": 2,
    "discovery": 2,
    "fight": 1,
    "meeting": 1,
    "sighting": 0,
    "talk": 0,
}


def significance(kind: str, participants: int = 2) -> int:
    """How notable an event of ``kind`` is: its kind's weight, plus one when it binds two or more people.

    An unknown kind (an older record) counts as small talk. A one-person "discovery" matters less to a
    relationship than a bargain between two people, which is why the participant count takes part.
    """
    base = _SIGNIFICANCE.get(kind, 0)
    return base + (1 if participants >= 2 and base > 0 else 0)


def is_narrative_kind(kind: str) -> bool:
    """Whether ``kind`` belongs to the vocabulary (files and proposals are refused otherwise)."""
    return kind in _SIGNIFICANCE
