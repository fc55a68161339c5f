"""Items changing hands: using a consumable, giving, taking, and the contest when many claim one thing.

``resolve_use_item``, ``resolve_give`` and ``resolve_take`` are the round's handlers; :func:`settle_contest`
settles an exclusive claim (taking more of an item from the ground than lies there, or holding the same
target) among everyone making it, at the first claimant's turn, and is shared with holding.
"""

from __future__ import annotations

from rules import combat
from rules.checks import RollRecord, with_outcome
from rules.creatures import DamageDice, Skill
from rules.intents import Intent, IntentKind
from rules.resolution import ActionResult, Outcome, hit_points, the_thing
from rules.round_book import RoundBook
from rules.skill_actions import best_of_athletics_acrobatics, check_roll
from rules.srd import item_effect
from rules.state import Change, Combatant


def resolve_use_item(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.item is not None
    if actor.held(intent.item) < intent.quantity:
        rnd.add(rnd.refuse(intent, f"{actor.name} no longer holds {the_thing(rnd.item_name(intent.item))}"))
        return
    name, effect_id = rnd.meta(intent.item)
    effect = item_effect(intent.item, effect_id, name)
    item_label = the_thing(name or (effect.name if effect else rnd.item_name(intent.item)))
    if effect is None:
        rnd.add(
            ActionResult(
                actor=actor.id,
                intent=intent,
                outcome=Outcome.DONE,
                summary=f"{actor.name} uses {item_label}.",
            )
        )
        return
    target_id = intent.target or actor.id
    target, reason = rnd.reachable(actor, target_id, ranged=False)
    if target is None:
        rnd.add(rnd.refuse(intent, reason or "no target"))
        return
    cause = rnd.index()
    rolls: list[RollRecord] = []
    changes: list[Change] = []
    if effect.form == "heal":
        record = combat.roll_damage(
            roller=actor.id,
            dice=DamageDice.parse(effect.dice),
            critical=False,
            rng=rnd.rng,
            purpose="healing",
        )
        after, changes = combat.heal(target, record.total, cause=cause)
        rnd.put(after)
        rolls.append(record)
        woke = " and wakes up" if target.hp == 0 and after.hp > 0 else ""
        who = "" if target.id == actor.id else f" to {target.name}"
        if after.hp == target.hp:  # seen in play: "uses potion of healing: 0 hit points restored"
            summary = f"{actor.name} uses {item_label}{who}, but {target.name} is already at full hit points."
        else:
            summary = (
                f"{actor.name} uses {item_label}{who}: {hit_points(after.hp - target.hp)} restored{woke}."
            )
    else:
        if not target.dying:
            rnd.add(rnd.refuse(intent, f"{target.name} is not dying"))
            return
        after, changes = combat.stabilize(target, cause=cause)
        rnd.put(after)
        summary = f"{actor.name} uses {item_label} on {target.name}: {target.name} is stable."
    changes.append(rnd.transfer(intent.item, actor.id, None, 1, cause))
    rnd.add(
        ActionResult(
            actor=actor.id, intent=intent, outcome=Outcome.SUCCESS, rolls=tuple(rolls), summary=summary
        ),
        changes,
    )


def resolve_give(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.item is not None and intent.target is not None
    if actor.held(intent.item) < intent.quantity:
        rnd.add(rnd.refuse(intent, f"{actor.name} no longer holds {the_thing(rnd.item_name(intent.item))}"))
        return
    target, reason = rnd.reachable(actor, intent.target, ranged=False)
    if target is None:
        rnd.add(rnd.refuse(intent, reason or "no target"))
        return
    cause = rnd.index()
    label = rnd.item_name(intent.item)
    change = rnd.transfer(intent.item, actor.id, target.id, intent.quantity, cause)
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.DONE,
            summary=f"{actor.name} gives {the_thing(label, intent.quantity)} to {target.name}.",
        ),
        [change],
    )


def _claim_key(intent: Intent, actor: Combatant) -> tuple[str, str] | None:
    """What an intent claims exclusively: an item lying here, or a held target (a door). None: nothing."""
    if intent.kind is IntentKind.TAKE and intent.target is None and intent.item:
        return ("take", f"{intent.item}@{actor.location}")
    if intent.kind is IntentKind.HOLD and intent.target:
        return ("hold", intent.target)
    return None


def settle_contest(rnd: RoundBook, actor: Combatant, intent: Intent) -> bool:
    """Settle an exclusive claim among everyone making it; return False when there is no contest."""
    key = _claim_key(intent, actor)
    if key is None:
        return False
    claimants = [
        rnd.creatures[other.actor]
        for other in rnd.intents.values()
        if other.actor not in rnd.done or other.actor == actor.id
        if _claim_key(other, rnd.creatures[other.actor]) == key
    ]
    able = [
        c for c in claimants if not c.incapacitated and (key[0] == "hold" or c.location == actor.location)
    ]
    if len(able) < 2:
        return False
    if key[0] == "take":
        assert intent.item is not None
        wanted = sum(rnd.intents[c.id].quantity for c in able)
        if wanted <= rnd.available(intent.item, actor.location):
            return False  # enough for everyone
    # Everyone in the contest resolves now: the first claimant, then the others in initiative order.
    order = [actor, *sorted((c for c in able if c.id != actor.id), key=lambda c: rnd.position[c.id])]
    rolls: list[RollRecord] = []
    for claimant in order:
        skill = best_of_athletics_acrobatics(claimant) if key[0] == "take" else Skill.ATHLETICS
        rolls.append(
            check_roll(
                rnd,
                claimant,
                skill,
                None,
                helped=rnd.helped(claimant.id) is not None,
                purpose=f"contest:{skill.value}",
            )
        )
    best = max(r.total for r in rolls)
    top = [r for r in rolls if r.total == best]
    winner = top[0].roller if len(top) == 1 else None  # a tie leaves things as they are
    contest = tuple(c.id for c in order)
    marked = tuple(
        with_outcome(
            r,
            target=max((o.total for o in rolls if o is not r), default=None),
            outcome="win" if r.roller == winner else ("tie" if r.total == best else "loss"),
        )
        for r in rolls
    )
    thing = rnd.item_name(intent.item) if key[0] == "take" and intent.item else rnd.name(key[1])
    names = " and ".join(rnd.name(c) for c in contest)
    for claimant in order:
        claim = rnd.intents[claimant.id]
        rnd.done.add(claimant.id)
        cause = rnd.index()
        changes: list[Change] = []
        if claimant.id == winner:
            outcome = Outcome.SUCCESS
            if key[0] == "take":
                assert claim.item is not None
                quantity = min(claim.quantity, rnd.available(claim.item, claimant.location))
                changes.append(rnd.transfer(claim.item, claimant.location, claimant.id, quantity, cause))
                text = f"{claimant.name} wins the scramble for {thing} ({names} contest it) and takes it."
            else:
                text = f"{claimant.name} wins the struggle over {thing} ({names} contest it) and holds it."
            reason = None
        elif winner is None:
            outcome = Outcome.FAILURE
            text = f"{names} tie in the struggle over {thing}; nobody gets it."
            reason = "tied opposed check: things stay as they are"
        else:
            outcome = Outcome.FAILURE
            text = f"{claimant.name} loses the struggle over {thing} to {rnd.name(winner)}."
            reason = f"{rnd.name(winner)} won the opposed check"
        rnd.add(
            ActionResult(
                actor=claimant.id,
                intent=claim,
                outcome=outcome,
                rolls=marked,
                summary=text,
                reason=reason,
                contest=contest,
                helped_by=rnd.helped(claimant.id),
            ),
            changes,
        )
    return True


def resolve_take(rnd: RoundBook, actor: Combatant, intent: Intent) -> None:
    assert intent.item is not None
    if settle_contest(rnd, actor, intent):
        return
    label = rnd.item_name(intent.item)
    source_id = intent.target or actor.location
    if rnd.available(intent.item, source_id) < intent.quantity:
        where = rnd.name(intent.target) + " no longer holds it" if intent.target else "it is no longer here"
        rnd.add(rnd.refuse(intent, f"{label}: {where}"))
        return
    cause = rnd.index()
    helper = rnd.helped(actor.id)
    rolls: tuple[RollRecord, ...] = ()
    holder = rnd.creatures.get(intent.target) if intent.target else None
    if holder is not None:
        if holder.location != actor.location:
            rnd.add(rnd.refuse(intent, f"{holder.name} is out of reach"))
            return
        if not holder.incapacitated:
            mine = check_roll(
                rnd, actor, Skill.ATHLETICS, None, helped=helper is not None, purpose="contest:athletics"
            )
            defence = best_of_athletics_acrobatics(holder)
            theirs = check_roll(rnd, holder, defence, None, helped=False, purpose=f"contest:{defence.value}")
            won = mine.total > theirs.total  # tie: the holder keeps the item
            tie = mine.total == theirs.total
            rolls = (
                with_outcome(mine, target=theirs.total, outcome="win" if won else ("tie" if tie else "loss")),
                with_outcome(theirs, target=mine.total, outcome="loss" if won else ("tie" if tie else "win")),
            )
            if not won:
                why = "a tie: the holder keeps it" if tie else f"{holder.name} holds on"
                rnd.add(
                    ActionResult(
                        actor=actor.id,
                        intent=intent,
                        outcome=Outcome.FAILURE,
                        rolls=rolls,
                        summary=f"{actor.name} tries to take {the_thing(label)} from {holder.name}, "
                        f"but {why} ({mine.total} vs {theirs.total}).",
                        reason=why,
                        contest=(actor.id, holder.id),
                        helped_by=helper,
                    )
                )
                return
    change = rnd.transfer(intent.item, source_id, actor.id, intent.quantity, cause)
    source = f" from {holder.name}" if holder else ""
    rnd.add(
        ActionResult(
            actor=actor.id,
            intent=intent,
            outcome=Outcome.SUCCESS,
            rolls=rolls,
            summary=f"{actor.name} takes {the_thing(label, intent.quantity)}{source}.",
            contest=(actor.id, holder.id) if holder and rolls else (),
            helped_by=helper if rolls else None,
        ),
        [change],
    )
