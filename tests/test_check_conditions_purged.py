"""A poison or sickness told driven out of a body ends the condition: "the coolant fumes burned clean out of
him overnight" of a creature the record still has poisoned contradicts it.

Clean controls: the record agrees (no longer poisoned); the poison not yet out ("not yet out of him"); a
wait ("until the fumes are out of him"); smoke out of someone's hair, of someone never poisoned. An invented
world: a foundry after a gas leak.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def foundry(*, poisoned: bool = True) -> WorldSnapshot:
    """Master Brandt (poisoned by the leak unless told otherwise), the smelter Ilka and Juno (a PC)."""
    conditions = frozenset({"poisoned"}) if poisoned else frozenset()
    return WorldSnapshot.build(
        entities=[
            Entity("pc-juno", "pc", "Juno", owner="1", location="loc-foundry", pronoun="she"),
            Entity(
                "npc-brandt",
                "npc",
                "Master Brandt",
                location="loc-foundry",
                pronoun="he",
                conditions=conditions,
            ),
            Entity("npc-ilka", "npc", "Ilka", location="loc-foundry", pronoun="she"),
            Entity("loc-foundry", "location", "the Hollin Foundry"),
        ],
        scene=Scene("loc-foundry", frozenset({"pc-juno", "npc-brandt", "npc-ilka"})),
    )


def refuted(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


RECOVERED = (
    "Master Brandt is already at the crucible at dawn. He looks a different man from yesterday's wreck, "
    "the gas fumes burned clean out of him overnight."
)


def test_a_poison_driven_out_of_the_body_ends_the_condition() -> None:
    assert "npc-brandt-condition-poisoned" in refuted(RECOVERED, foundry())


def test_clean_control_the_record_agrees() -> None:
    assert refuted(RECOVERED, foundry(poisoned=False)) == set()


def test_clean_control_not_yet_out() -> None:
    text = "Master Brandt sits by the door, grey. The gas fumes are not yet out of him, and he coughs."
    assert refuted(text, foundry()) == set()


def test_clean_control_a_wait_until() -> None:
    text = "Master Brandt sits by the door. Ilka will keep him there until the gas fumes are out of him."
    assert refuted(text, foundry()) == set()


def test_clean_control_smoke_out_of_hair_and_someone_never_poisoned() -> None:
    hair = "Master Brandt stands in the yard. The smoke blows right out of his hair in the wind."
    other = "Ilka stands in the yard, the gas fumes burned clean out of her overnight."
    assert refuted(hair, foundry()) == set()
    assert refuted(other, foundry()) == set()
