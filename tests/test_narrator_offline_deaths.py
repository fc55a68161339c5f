"""The offline narrator tells every death and hit of a round, and never a dead creature's plan.

From the evening run, round 5 at the harbour: Mira shot Bilge dead, and Bilge's turn came after; the post said
"Bilge means to attack Mira Quickfinger, but it does not happen: Bilge is dead". A corpse has no plans. And a
long round cut to the post limit must drop chatter, never "Tarry Jack hits Greyrock" or a death.
"""

from __future__ import annotations

import re

from bot.narrator.base import MAX_PUBLIC_CHARS, ActionOutcome, NarrationRequest, SceneCreature, SceneLocation
from bot.narrator.offline import OfflineNarrator

narrator = OfflineNarrator()

KILL = ActionOutcome(
    actor_id="pc-mira",
    actor_name="Mira Quickfinger",
    actor_is_pc=True,
    kind="attack",
    outcome="hit",
    target_id="monster-bilge",
    target_name="Bilge",
    item_name="shortbow",
    damage=10,
    damage_type="piercing",
    target_died=True,
)
CORPSE_TURN = ActionOutcome(
    actor_id="monster-bilge",
    actor_name="Bilge",
    kind="attack",
    outcome="refused",
    target_id="pc-mira",
    target_name="Mira Quickfinger",
    refusal_reason="Bilge is dead",
)
TARRY_HITS = ActionOutcome(
    actor_id="monster-tarry-jack",
    actor_name="Tarry Jack",
    kind="attack",
    outcome="hit",
    target_id="pc-greyrock",
    target_name="Greyrock",
    item_name="belaying pin",
    damage=5,
    damage_type="bludgeoning",
)


def chatter(n: int) -> ActionOutcome:
    return ActionOutcome(
        actor_id="pc-tamsin",
        actor_name="Sister Tamsin",
        actor_is_pc=True,
        kind="talk",
        outcome="done",
        submitted_text=f"ask Old Wei about the ship that came in on tide {n} with the salt barrels",
        target_id="npc-old-wei",
        target_name="Old Wei",
    )


def request(outcomes: tuple[ActionOutcome, ...], seed: int) -> NarrationRequest:
    return NarrationRequest(
        campaign="Greyrock's Debt",
        session=12,
        round=5,
        location=SceneLocation(id="loc-harbor", name="Saltmere Harbour", description="Wet planks."),
        creatures=(
            SceneCreature(id="pc-mira", name="Mira Quickfinger", kind="pc", is_pc=True, player_id=1),
            SceneCreature(id="pc-greyrock", name="Greyrock", kind="pc", is_pc=True, player_id=2),
            SceneCreature(id="pc-tamsin", name="Sister Tamsin", kind="pc", is_pc=True, player_id=3),
            SceneCreature(id="npc-old-wei", name="Old Wei", kind="npc"),
            SceneCreature(id="monster-bilge", name="Bilge", kind="monster", alive=False),
            SceneCreature(id="monster-tarry-jack", name="Tarry Jack", kind="monster"),
        ),
        outcomes=outcomes,
        variety_seed=seed,
    )


def test_a_creature_killed_earlier_in_the_round_dies_in_the_post_and_makes_no_plans() -> None:
    for seed in range(20):
        text = narrator.narrate_now(request((KILL, CORPSE_TURN, TARRY_HITS), seed)).public_text
        assert re.search(r"Bilge (dies|is slain|collapses, dead)\.", text), text
        assert "Bilge means" not in text and "attempt to attack" not in text, text
        assert not re.search(r"Bilge (cannot|turns to)", text), text
        assert "does not happen" not in text, text
        assert "Tarry Jack" in text and "Greyrock" in text


def test_a_post_cut_to_the_limit_keeps_every_hit_and_death() -> None:
    outcomes = (KILL, *(chatter(n) for n in range(40)), CORPSE_TURN, TARRY_HITS)
    for seed in range(10):
        text = narrator.narrate_now(request(outcomes, seed)).public_text
        assert len(text) <= MAX_PUBLIC_CHARS
        assert re.search(r"Bilge (dies|is slain|collapses, dead)\.", text), text
        tarry = [s for s in re.split(r"(?<=\.)\s+", text) if s.startswith(("Tarry Jack", "A critical"))]
        assert tarry and "Greyrock" in tarry[0] and "5 bludgeoning damage" in tarry[0], text
        assert "more actions are resolved as rolled" in text


def test_a_pc_who_dies_on_a_third_failed_death_save_is_told_dead() -> None:
    """Greyrock lies dying, two failures, and declares nothing: when his save fails, the post says he died."""
    from bot.scene import Scene, outcomes
    from rules import srd
    from rules.creatures import AbilityScores
    from rules.round import resolve_round
    from rules.state import Combatant, DeathSaves, Died, RoundState

    stats = srd.build_pc(
        {"name": "Greyrock", "level": 5, "abilities": AbilityScores.of([16, 10, 16, 8, 12, 10]).model_dump()},
        char_class="fighter",
    )
    greyrock = Combatant(
        id="pc-greyrock",
        name="Greyrock",
        stats=stats,
        hp=0,
        location="loc-harbor",
        death_saves=DeathSaves(failures=2),
    )
    state = RoundState(combatants=(greyrock,), locations=("loc-harbor",))
    seed = next(
        s
        for s in range(200)
        if any(isinstance(c, Died) for c in resolve_round(seed=s, intents=[], state=state).changes)
    )
    resolution = resolve_round(seed=seed, intents=[], state=state)
    scene = Scene(
        campaign_id=1, locations=("loc-harbor",), creatures={}, holdings={}, items={}, places={}, exits=()
    )
    told = outcomes(resolution, scene, {})
    assert [(o.actor_id, o.target_died) for o in told] == [("pc-greyrock", True)]
    named = tuple(o.model_copy(update={"actor_name": "Greyrock", "target_name": "Greyrock"}) for o in told)
    for variety in range(10):
        text = narrator.narrate_now(request(named, variety)).public_text
        assert re.search(r"Greyrock (dies|is slain|collapses, dead)\.", text), text
