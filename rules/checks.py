"""Ability checks, skill checks, saving throws and opposed checks (SRD 5.1, "Using Ability Scores").

Every roll comes back as a :class:`RollRecord`, the unit stored in the ledger: what was rolled and why, the
natural faces, the modifier, the total, the number to beat and the outcome. Advantage comes from the caller
(conditions, the Help action); :func:`check_advantage` and :func:`save_advantage` read it from conditions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules.creatures import Ability, Condition, Skill, StatBlock
from rules.dice import Advantage, roll_d20

# Uncontested DCs (SRD "Typical Difficulty Classes": easy 10, medium 15, hard 20). Most skills default to a
# medium task; stabilising a dying creature with Medicine is DC 10 in the SRD, and following tracks or
# performing for a crowd are treated as easy.
DEFAULT_DC: Mapping[Skill, int] = {
    Skill.ACROBATICS: 15,
    Skill.ANIMAL_HANDLING: 15,
    Skill.ARCANA: 15,
    Skill.ATHLETICS: 15,
    Skill.DECEPTION: 15,
    Skill.HISTORY: 15,
    Skill.INSIGHT: 15,
    Skill.INTIMIDATION: 15,
    Skill.INVESTIGATION: 15,
    Skill.MEDICINE: 10,
    Skill.NATURE: 15,
    Skill.PERCEPTION: 15,
    Skill.PERFORMANCE: 10,
    Skill.PERSUASION: 15,
    Skill.RELIGION: 15,
    Skill.SLEIGHT_OF_HAND: 15,
    Skill.STEALTH: 15,
    Skill.SURVIVAL: 10,
}
DEFAULT_ABILITY_DC = 15

# A check aimed at a creature is met by that creature's passive score where the SRD does so (hiding vs passive
# Perception; lies vs Insight). Persuasion and Intimidation also meet passive Insight here: the target reads
# the speaker. Any other skill aimed at a creature becomes an opposed check (both roll), except the
# :data:`UNOPPOSED` ones.
PASSIVE_OPPOSITION: Mapping[Skill, Skill] = {
    Skill.STEALTH: Skill.PERCEPTION,
    Skill.SLEIGHT_OF_HAND: Skill.PERCEPTION,
    Skill.DECEPTION: Skill.INSIGHT,
    Skill.PERSUASION: Skill.INSIGHT,
    Skill.INTIMIDATION: Skill.INSIGHT,
}

# Skills used on or about a creature that it does not resist: first aid, soothing an animal, a performance
# for it, lore about it, following its trail. They meet the skill's DC, never the creature's own roll (an ally
# does not roll Medicine against the friend who is bandaging them).
UNOPPOSED: frozenset[Skill] = frozenset(
    {
        Skill.MEDICINE,
        Skill.ANIMAL_HANDLING,
        Skill.PERFORMANCE,
        Skill.ARCANA,
        Skill.HISTORY,
        Skill.NATURE,
        Skill.RELIGION,
        Skill.SURVIVAL,
    }
)

# Skills whose success teaches the character something the others may not know (a private note).
REVEALING: frozenset[Skill] = frozenset({Skill.PERCEPTION, Skill.INSIGHT, Skill.INVESTIGATION})


class RollRecord(BaseModel):
    """One d20 or damage roll as resolved: enough to replay it and to narrate it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    roller: str  # creature id
    purpose: str  # "attack", "damage", "check:stealth", "save:dex", "death_save", "initiative", ...
    expression: str  # "1d20+5", "2d20kh1+5", "2d6+3"
    natural: tuple[int, ...]  # every face rolled, in order
    modifier: int
    total: int
    target: int | None = None  # DC, AC or the opposing total
    advantage: Advantage = Advantage.NONE
    outcome: str = (
        ""  # success / failure / hit / miss / critical_hit / critical_miss / win / loss / tie / rolled
    )


def d20_expression(modifier: int, advantage: Advantage) -> str:
    """The d20 notation of a check: ``1d20+3``, ``2d20kh1-1``."""
    base = {Advantage.NONE: "1d20", Advantage.ADVANTAGE: "2d20kh1", Advantage.DISADVANTAGE: "2d20kl1"}[
        advantage
    ]
    if modifier == 0:
        return base
    return f"{base}{'+' if modifier > 0 else '-'}{abs(modifier)}"


def check_advantage(
    conditions: tuple[Condition, ...], *, skill: Skill | None = None, helped: bool = False
) -> Advantage:
    """Advantage state of an ability check from the roller's conditions and the Help action.

    Poisoned, frightened and exhaustion give disadvantage on ability checks; a blinded creature fails checks
    that need sight, treated here as disadvantage on Perception and Investigation.
    """
    disadvantage = any(
        c in conditions for c in (Condition.POISONED, Condition.FRIGHTENED, Condition.EXHAUSTION)
    )
    if Condition.BLINDED in conditions and skill in (Skill.PERCEPTION, Skill.INVESTIGATION):
        disadvantage = True
    return Advantage.combine(helped, disadvantage)


def save_advantage(conditions: tuple[Condition, ...], ability: Ability) -> tuple[Advantage, bool]:
    """(advantage state, automatic failure) of a saving throw from the saver's conditions.

    Paralyzed, stunned, petrified and unconscious creatures fail Strength and Dexterity saves; restrained
    creatures make Dexterity saves at disadvantage.
    """
    auto_fail = ability in (Ability.STR, Ability.DEX) and any(
        c in conditions
        for c in (Condition.PARALYZED, Condition.STUNNED, Condition.PETRIFIED, Condition.UNCONSCIOUS)
    )
    disadvantage = ability is Ability.DEX and Condition.RESTRAINED in conditions
    return Advantage.combine(False, disadvantage), auto_fail


def roll_check(
    *,
    roller: str,
    stats: StatBlock,
    rng: random.Random,
    skill: Skill | None = None,
    ability: Ability | None = None,
    dc: int | None = None,
    advantage: Advantage = Advantage.NONE,
    purpose: str | None = None,
) -> RollRecord:
    """Roll a skill check (``skill``) or a plain ability check (``ability``) against ``dc``.

    Without ``dc`` the outcome is ``rolled`` (the caller compares totals, as in an opposed check). A check has
    no automatic success on a natural 20 (SRD: that rule is for attacks only).
    """
    if skill is not None:
        modifier = stats.skill_modifier(skill)
        label = f"check:{skill.value}"
    elif ability is not None:
        modifier = stats.modifier(ability)
        label = f"check:{ability.value}"
    else:
        raise ValueError("roll_check needs a skill or an ability")
    die = roll_d20(rng, advantage)
    total = die.natural + modifier
    outcome = "rolled" if dc is None else ("success" if total >= dc else "failure")
    return RollRecord(
        roller=roller,
        purpose=purpose or label,
        expression=d20_expression(modifier, advantage),
        natural=die.faces,
        modifier=modifier,
        total=total,
        target=dc,
        advantage=advantage,
        outcome=outcome,
    )


def roll_save(
    *,
    roller: str,
    stats: StatBlock,
    conditions: tuple[Condition, ...],
    ability: Ability,
    dc: int,
    rng: random.Random,
) -> RollRecord:
    """Roll a saving throw against ``dc``, applying condition disadvantage and automatic failure.

    An automatic failure still consumes no dice, so the record's ``natural`` is empty and the outcome is
    ``failure``.
    """
    advantage, auto_fail = save_advantage(conditions, ability)
    modifier = stats.save_modifier(ability)
    if auto_fail:
        return RollRecord(
            roller=roller,
            purpose=f"save:{ability.value}",
            expression="auto-fail",
            natural=(),
            modifier=modifier,
            total=0,
            target=dc,
            advantage=Advantage.NONE,
            outcome="failure",
        )
    die = roll_d20(rng, advantage)
    total = die.natural + modifier
    return RollRecord(
        roller=roller,
        purpose=f"save:{ability.value}",
        expression=d20_expression(modifier, advantage),
        natural=die.faces,
        modifier=modifier,
        total=total,
        target=dc,
        advantage=advantage,
        outcome="success" if total >= dc else "failure",
    )


Side = Literal["first", "second"]


def settle_opposed(first: RollRecord, second: RollRecord, *, status_quo: Side | None) -> Side | None:
    """Who wins an opposed check: the higher total; a tie keeps the status quo (the holder keeps the item).

    ``status_quo`` names the side that already has what is contested (None when nobody does); on a tie that
    side wins, or nobody does when there is no status quo.
    """
    if first.total > second.total:
        return "first"
    if second.total > first.total:
        return "second"
    return status_quo


def with_outcome(record: RollRecord, *, target: int | None, outcome: str) -> RollRecord:
    """A copy of ``record`` with the opposing total and the outcome filled in."""
    return record.model_copy(update={"target": target, "outcome": outcome})
