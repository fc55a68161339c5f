"""The round's results list what happened: the automatic turn of an NPC or monster killed earlier in the
round is left out (seen in the evening: "Bilge: Bilge cannot act: Bilge is dead. → refused"), while a PC's
refused turn and an attack on someone already dead stay, with their reasons."""

from __future__ import annotations

from types import SimpleNamespace

from bot.table.narration import _action_lines
from rules.intents import Intent, IntentKind
from rules.resolution import ActionResult, Outcome

NAMES = {"pc-ada": "Ada", "pc-bo": "Bo", "monster-rat": "Giant Rat"}


def _refused(actor: str, target: str, reason: str, name: str) -> ActionResult:
    intent = Intent(kind=IntentKind.ATTACK, actor=actor, target=target, text="attack")
    return ActionResult(
        actor=actor,
        intent=intent,
        outcome=Outcome.REFUSED,
        summary=f"{name} cannot act: {reason}.",
        reason=reason,
    )


def test_a_slain_monsters_turn_is_not_listed_but_a_pcs_refusals_are() -> None:
    results = (
        _refused("monster-rat", "pc-ada", "Giant Rat is dead", "Giant Rat"),
        _refused("pc-bo", "monster-rat", "Giant Rat is already dead", "Bo"),
        _refused("pc-ada", "monster-rat", "Ada is dead", "Ada"),
    )
    lines = _action_lines(SimpleNamespace(results=results), NAMES)  # type: ignore[arg-type]
    assert [(line.actor, line.outcome) for line in lines] == [("Bo", "refused"), ("Ada", "refused")]
    assert "already dead" in lines[0].summary and "Ada is dead" in lines[1].summary


def test_healing_counts_one_hit_point_in_the_singular() -> None:
    """Seen in the evening: "Orrin Vale uses potion of healing: 1 hit points restored"."""
    from rules.resolution import hit_points

    assert [hit_points(n) for n in (0, 1, 9)] == ["0 hit points", "1 hit point", "9 hit points"]
