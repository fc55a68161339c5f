"""Checks, talking and helping: ability and skill checks against a DC, a passive score or another creature.

``resolve_check``, ``resolve_talk`` and ``resolve_help`` are the round's handlers; :func:`check_roll` and
:func:`best_of_athletics_acrobatics` are shared with the contests over items and held targets, and
:func:`skill_or_ability` with the validation in :mod:`rules.round`.
"""

from __future__ import annotations

from rules.checks import (
    DEFAULT_ABILITY_DC,
    DEFAULT_DC,
    PASSIVE_OPPOSITION,
    REVEALING,
    UNOPPOSED,
    RollRecord,
    check_advantage,
    roll_check,
    with_outcome,
)
from rules.creatures import Ability, Skill
from rules.errors import IntentError
from rules.intents import Intent
from rules.resolution import ActionResult, Outcome
from rules.round_book import RoundBook
from rules.state import Combatant

TALK_SKILLS: frozenset[Skill] = frozenset({Skill.PERSUASION, Skill.DECEPTION, Skill.INTIMIDATION})


def skill_or_ability(name: str) -> Skill | Ability:
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    try:
        return Skill(key)
    except ValueError:
        pass
    aliases = {
        "strength": Ability.STR,
        "dexterity": Ability.DEX,
        "constitution": Ability.CON,
        "intelligence": Ability.INT,
        "wisdom": Ability.WIS,
        "charisma": Ability.CHA,
    }
    if key in aliases:
        return aliases[key]
    try:
        return Ability(key)
    except ValueError:
        raise IntentError(f"Unknown skill '{name}'") from None


def check_roll(
    rnd: RoundBook,
    roller: Combatant,
    what: Skill | Ability,
    dc: int | None,
    *,
    helped: bool,
    purpose: str | None = None,
) -> RollRecord:
    skill = what if isinstance(what, Skill) else None
    advantage = check_advantage(roller.conditions, skill=skill, helped=helped)
    if skill is not None:
        return roll_check(
            roller=roller.id,
            stats=roller.stats,
            rng=rnd.rng,
            skill=skill,
            dc=dc,
            advantage=advantage,
            purpose=purpose,
        )
    assert isinstance(what, Ability)
    return roll_check(
        roller=roller.id,
        stats=roller.stats,
        rng=rnd.rng,
        ability=what,
        dc=dc,
        advantage=advantage,
        purpose=purpose,
    )


def _article(word: str) -> str:
    """'an' before a vowel sound (an insight check), else 'a'."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def best_of_athletics_acrobatics(creature: Combatant) -> Skill:
    stats = creature.stats
    if stats.skill_modifier(Skill.ACROBATICS) > stats.skill_modifier(Skill.ATHLETICS):
        return Skill.ACROBATICS
    return Skill.ATHLETICS


def resolve_check(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.skill is not None
    what = skill_or_ability(intent.skill)
    helper = rnd.helped(actor.id)
    label = what.value.replace("_", " ")
    target = rnd.creatures.get(intent.target) if intent.target else None
    if target is not None and (target.dead or target.location != actor.location):
        target = None  # the creature is gone: the check is made against the situation
    if isinstance(what, Skill) and what in UNOPPOSED:
        target = None  # done for or about the creature (first aid, lore): it meets a DC, not the creature
    ally = target is not None and actor.is_pc and target.is_pc  # a fellow PC does not roll against the party
    rolls: list[RollRecord]
    if (
        target is not None
        and isinstance(what, Skill)
        and what in PASSIVE_OPPOSITION
        and not target.incapacitated
    ):
        passive_skill = PASSIVE_OPPOSITION[what]
        dc = target.stats.passive(passive_skill)
        record = check_roll(rnd, actor, what, dc, helped=helper is not None)
        rolls = [record]
        success = record.outcome == "success"
        against = f"{target.name}'s passive {passive_skill.value} {dc}"
    elif target is not None and not target.incapacitated and not ally:
        mine = check_roll(rnd, actor, what, None, helped=helper is not None)
        their_skill: Skill | Ability = what
        if what is Skill.ATHLETICS:
            their_skill = best_of_athletics_acrobatics(target)
        theirs = check_roll(rnd, target, their_skill, None, helped=False)
        success = mine.total > theirs.total  # a tie keeps the status quo: the attempt does not succeed
        rolls = [
            with_outcome(
                mine,
                target=theirs.total,
                outcome="win" if success else ("tie" if mine.total == theirs.total else "loss"),
            ),
            with_outcome(
                theirs,
                target=mine.total,
                outcome="loss" if success else ("tie" if mine.total == theirs.total else "win"),
            ),
        ]
        against = f"{target.name}'s {their_skill.value.replace('_', ' ')} {theirs.total}"
    else:
        dc = DEFAULT_DC[what] if isinstance(what, Skill) else DEFAULT_ABILITY_DC
        record = check_roll(rnd, actor, what, dc, helped=helper is not None)
        rolls = [record]
        success = record.outcome == "success"
        against = f"DC {dc}"
    total = rolls[0].total
    verdict = "succeeds" if success else "fails"
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.SUCCESS if success else Outcome.FAILURE,
            rolls=tuple(rolls),
            summary=f"{actor.name} {verdict} on {_article(label)} {label} check ({total} vs {against}).",
            reveals=success and isinstance(what, Skill) and what in REVEALING,
            helped_by=helper,
        )
    )


def resolve_talk(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    target = rnd.creatures.get(intent.target) if intent.target else None
    if target is not None and target.dead:  # killed earlier this round (or before): nobody to talk to
        rnd.add(rnd.refuse(intent, f"{target.name} is already dead"))
        return
    to = f" to {target.name}" if target else ""
    if not intent.skill:
        rnd.add(
            ActionResult(
                actor=actor.id, intent=intent, outcome=Outcome.DONE, summary=f"{actor.name} speaks{to}."
            )
        )
        return
    skill = skill_or_ability(intent.skill)
    assert isinstance(skill, Skill)
    helper = rnd.helped(actor.id)
    if target is not None and not target.dead and not target.incapacitated:
        dc = target.stats.passive(PASSIVE_OPPOSITION[skill])
        against = f"{target.name}'s passive insight {dc}"
    else:
        dc = DEFAULT_DC[skill]
        against = f"DC {dc}"
    record = check_roll(rnd, actor, skill, dc, helped=helper is not None)
    success = record.outcome == "success"
    verdict = "succeeds" if success else "fails"
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.SUCCESS if success else Outcome.FAILURE,
            rolls=(record,),
            summary=f"{actor.name} speaks{to} and {verdict} on {skill.value} ({record.total} vs {against}).",
            helped_by=helper,
        )
    )


def resolve_help(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.target is not None
    ally = rnd.creatures[intent.target]
    if ally.dead:  # the ally fell earlier this round: there is no roll left to help with
        rnd.add(rnd.refuse(intent, f"{ally.name} is already dead"))
        return
    if rnd.helpers.get(ally.id) != actor.id:
        if ally.location != actor.location:
            reason = f"{ally.name} is not beside {actor.name}"
        else:
            reason = f"{rnd.name(rnd.helpers.get(ally.id))} is already helping {ally.name}"
        rnd.add(rnd.refuse(intent, reason))
        return
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.DONE,
            summary=f"{actor.name} helps {ally.name} (advantage on {ally.name}'s roll this round).",
        )
    )
