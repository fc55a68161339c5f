"""The values a scenario file writes: ids and keys by pattern, names, sessions, visibilities, 5e words.

The file's models (:mod:`.format`, :mod:`.changes`) are built from these types, the replay checks prefixes
and conditions against them, and :mod:`.validate` turns a failed pattern back into words.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import Field, StrictBool, StrictInt, StrictStr

SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"
VISIBILITY_RE = re.compile(r"^(public|party|gm|player:[A-Za-z0-9_.\-]+)$")
ENTITY_PREFIXES = {"pc": "pc-", "npc": "npc-", "monster": "monster-"}
THREAD_KINDS = ("favour", "debt", "oath", "bounty", "prophecy", "quest", "feud", "rumour")
# Thread ids are kind-session-seq; the favour kind is spelled the short way in ids (favor-0003-01).
THREAD_ID_PREFIX = {
    "favour": "favor",
    "debt": "debt",
    "oath": "oath",
    "bounty": "bounty",
    "prophecy": "prophecy",
    "quest": "quest",
    "feud": "feud",
    "rumour": "rumour",
}
THREAD_ID_RE = re.compile(r"^(favor|debt|oath|bounty|prophecy|quest|feud|rumour)-(\d{4})-(\d{2})$")
THREAD_STATUSES = ("open", "settled", "expired", "broken")
CONDITIONS = frozenset(
    {
        "blinded",
        "charmed",
        "deafened",
        "frightened",
        "grappled",
        "incapacitated",
        "invisible",
        "paralyzed",
        "petrified",
        "poisoned",
        "prone",
        "restrained",
        "stunned",
        "unconscious",
        "exhaustion",
        # Beyond the 5e list: conditions a story needs and the assertion check reads (a silenced creature
        # cannot speak or sing; a diseased one is not in rude health). The rules engine gives them no
        # mechanical effect.
        "silenced",
        "diseased",
    }
)
# Why an item nobody holds any more is gone (``[[items]] fate``): the check says so when a narration shows
# it ("the lantern was sold").
ItemFateName = Literal["sold", "lost", "destroyed", "used_up", "confiscated", "given_away", "stolen"]
ITEM_FATES: tuple[str, ...] = get_args(ItemFateName)
# Who stands where on a thread (``[[threads]] roles``): who owes and who is owed on a debt or favour, who
# swore and to whom on an oath or quest, who offers and who hunts on a bounty.
ThreadRoleName = Literal["owes", "owed", "sworn", "sworn_to", "offers", "hunts"]
THREAD_ROLE_NAMES: tuple[str, ...] = get_args(ThreadRoleName)
SKILLS = frozenset(
    {
        "acrobatics",
        "animal_handling",
        "arcana",
        "athletics",
        "deception",
        "history",
        "insight",
        "intimidation",
        "investigation",
        "medicine",
        "nature",
        "perception",
        "performance",
        "persuasion",
        "religion",
        "sleight_of_hand",
        "stealth",
        "survival",
    }
)
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
FACT_KEY_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+){2,}$")

Visibility = Annotated[
    str, Field(pattern=VISIBILITY_RE.pattern, examples=["public", "party", "player:alice"])
]
Slug = Annotated[str, Field(pattern=rf"^{SLUG}$", min_length=1, max_length=80)]
RecordId = Annotated[str, Field(pattern=rf"^[a-z]+-{SLUG}$", min_length=3, max_length=80)]
Name = Annotated[str, Field(min_length=1, max_length=120)]
Text = Annotated[str, Field(max_length=4000)]
Session = Annotated[StrictInt, Field(ge=1, le=100_000)]
ThreadId = Annotated[str, Field(pattern=THREAD_ID_RE.pattern)]
Reason = Annotated[str, Field(min_length=1, max_length=1000)]
Scalar = StrictBool | StrictInt | StrictStr
PropertyValue = StrictBool | StrictInt | float | StrictStr
