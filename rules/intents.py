"""What a character tries to do this round, as structured data.

An :class:`Intent` is the only thing the rules engine accepts from players (via slash-command options, the
offline text parser, or the LLM parser). The engine decides what happens; an intent is a request.
Ids are ledger entity ids (``pc-mira``, ``npc-old-wei``, ``item-silver-key``, ``loc-harbor``).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class IntentKind(StrEnum):
    """The whitelist of things a character can do in a round."""

    ATTACK = "attack"  # weapon or natural attack against a target
    ABILITY = "ability"  # cast a spell or use a class/racial ability (``ability_name``)
    CHECK = "check"  # a skill or ability check (``skill``), opposed by ``target`` when there is one
    USE_ITEM = "use_item"  # drink a potion, read a scroll, use a tool (``item``)
    GIVE = "give"  # hand ``quantity`` of ``item`` to ``target``
    TAKE = "take"  # pick up ``item`` (from the scene, or from ``target`` with a contest)
    MOVE = "move"  # go to ``destination`` (a location id)
    TALK = "talk"  # speak to ``target``; ``text`` is what the character says or asks
    HELP = "help"  # the Help action: give ``target`` (an ally) advantage on their next check or attack
    HOLD = "hold"  # do nothing in particular (also the default action for absent players)


class Intent(BaseModel):
    """One character's declared action for one round."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: IntentKind
    actor: str = Field(min_length=1, max_length=80)
    target: str | None = Field(default=None, max_length=80)
    item: str | None = Field(default=None, max_length=80)
    quantity: int = Field(default=1, ge=1, le=1_000_000)
    skill: str | None = Field(default=None, max_length=40)  # a rules.Skill value, e.g. "stealth"
    ability_name: str | None = Field(default=None, max_length=80)  # spell or feature id, e.g. "fire-bolt"
    destination: str | None = Field(default=None, max_length=80)
    spare: bool = False  # an attack that would kill knocks out instead
    text: str = Field(default="", max_length=1000)  # the player's own words, kept for the narrator
