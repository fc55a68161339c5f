"""A senseless body told as a state: what a sleeper's body does in a sentence that tells the sleep, and a
participle describing the body in a present-tense narration, are no acts against the record; a place
named after its keeper ("Oda's") leaves the keeper's own name a person's, so "she" after her is her.

Conflict controls that must stay flagged: the sleeper who really sits up and talks, one whose sleep is told
as past, the sleep denied, a participle that takes an object. An invented world: a lighthouse keeper's
kitchen, the keeper Oda, her granddaughter Tam (knocked out), and a visiting PC, Brisk.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Scene, WorldSnapshot

TAM_OUT = "npc-tam-condition-unconscious"


def kitchen(*, out: bool = True) -> WorldSnapshot:
    """Oda (her kitchen is "Oda's"), her granddaughter Tam (unconscious unless told otherwise), Brisk."""
    conditions = frozenset({"unconscious"}) if out else frozenset()
    return WorldSnapshot.build(
        entities=[
            Entity("pc-brisk", "pc", "Brisk", owner="1", location="loc-kitchen", pronoun="he"),
            Entity("npc-oda", "npc", "Oda Varrow", location="loc-kitchen", pronoun="she"),
            Entity("npc-tam", "npc", "Tam", location="loc-kitchen", pronoun="she", conditions=conditions),
            Entity(
                "loc-kitchen", "location", "Oda's Kitchen", aliases=(Alias("Oda's"), Alias("the kitchen"))
            ),
        ],
        scene=Scene("loc-kitchen", frozenset({"pc-brisk", "npc-oda", "npc-tam"})),
    )


def refuted(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


def test_a_sleeper_stirring_in_a_sentence_that_tells_the_sleep() -> None:
    assert refuted("Tam stirs, rolls over, and sleeps on.", kitchen()) == set()
    text = "She does not wake; she only sighs, and smiles in her sleep, and turns toward the stove."
    assert refuted("Oda lays a hand on Tam's brow. " + text, kitchen()) == set()


def test_conflict_control_the_sleeper_sits_up_and_talks() -> None:
    assert TAM_OUT in refuted("Tam sits up, stretches, and grins at Brisk.", kitchen())
    assert TAM_OUT in refuted('Tam, asleep on the bench, says, "Pass the bread."', kitchen())
    assert TAM_OUT in refuted("Tam lies out cold on the bench and grabs the ladle.", kitchen())


def test_conflict_control_the_sleep_told_as_past_or_denied() -> None:
    assert TAM_OUT in refuted("Tam, who was asleep, stirs the pot and grins.", kitchen())
    assert TAM_OUT in refuted("Tam is not asleep at all; she stirs the pot and grins.", kitchen())


def test_a_participle_describing_the_body_is_no_act() -> None:
    text = "Tam is on the bench by the stove, wrapped in a blanket, eyes shut."
    assert refuted(text, kitchen()) == set()


def test_conflict_control_a_finite_verb_after_the_comma() -> None:
    assert TAM_OUT in refuted("Tam is on the bench by the stove, wraps a blanket round Brisk.", kitchen())


def test_clean_control_he_is_awake() -> None:
    assert refuted("Tam sits up, stretches, and grins at Brisk.", kitchen(out=False)) == set()


def test_the_keeper_of_a_place_named_after_her_is_a_person() -> None:
    text = (
        "Brisk comes into Oda's out of the rain. Tam sleeps on the bench by the stove. "
        "Oda sees his face and points at a stool. She pulls a pot from the fire."
    )
    assert refuted(text, kitchen()) == set()
    got = "Brisk sits by the stove. Tam sleeps on the bench. Oda's got a ladle in her hand; she taps it."
    assert refuted(got, kitchen()) == set()


def test_conflict_control_the_sleeper_named_after_the_keeper() -> None:
    text = "Brisk comes into Oda's out of the rain. Oda sees his face. Tam pulls a pot from the fire."
    assert TAM_OUT in refuted(text, kitchen())
