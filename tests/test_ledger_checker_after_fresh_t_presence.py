"""Issue 10, after the fresh_t run: who is where, who is who, and what the dice said, as English tells them.

Rules about the language, each with controls that must stay clean: a speaker whose line tag is followed by
more verbs ('"...," Bertil mutters and reaches for the jug') is here doing them; a scene cut away to a place
("Down in the cellar, Bertil counts casks") stays there for what its subject goes on doing; "his mother"
after a named creature in the same sentence is the one mother the record gives them; an attack's outcome
told in the next sentence with the attacker's missile as subject ("The bolt takes the wolf in its throat");
jaws or a trap closing ("snap shut on empty air") are no blow landing, what they close on tells the outcome; a
player character found in the middle of an activity ("Ana is mending a net") is a backdrop, not a choice
the narrator made for them.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import ActionResult, Edge, Entity, RoundFacts, Scene, WorldSnapshot


def inn(
    actions: tuple[ActionResult, ...] = (),
    submissions: dict[str, str] | None = None,
    bertil_at: str = "loc-tower",
) -> WorldSnapshot:
    """A snowbound post inn: PCs Piet and Ana, the ostler Bertil Haag (recorded up in the signal tower), the
    potboy Tam Ferrow and his mother Hilde (drowned last winter), the cook Marit and her living father Oske,
    and a grey wolf in the yard."""
    here = frozenset({"pc-piet", "pc-ana", "npc-tam", "npc-marit", "npc-oske", "monster-wolf"})
    return WorldSnapshot.build(
        entities=[
            Entity("pc-piet", "pc", "Piet", owner="1", location="loc-taproom", pronoun="he"),
            Entity("pc-ana", "pc", "Ana", owner="2", location="loc-taproom", pronoun="she"),
            Entity("npc-bertil", "npc", "Bertil Haag", location=bertil_at, pronoun="he"),
            Entity("npc-tam", "npc", "Tam Ferrow", location="loc-taproom", pronoun="he"),
            Entity("npc-hilde", "npc", "Hilde Ferrow", location="loc-river", pronoun="she", alive=False),
            Entity("npc-marit", "npc", "Marit Sand", location="loc-taproom", pronoun="she"),
            Entity("npc-oske", "npc", "Oske Sand", location="loc-taproom", pronoun="he"),
            Entity("monster-wolf", "monster", "the grey wolf", location="loc-taproom", pronoun="it"),
            Entity("loc-taproom", "location", "the taproom"),
            Entity("loc-tower", "location", "the signal tower"),
            Entity("loc-cellar", "location", "the cellar"),
            Entity("loc-river", "location", "the river"),
        ],
        edges=[
            Edge("edge-tam-hilde", "npc-tam", "npc-hilde", "kin", 80, "Tam is Hilde Ferrow's son"),
            Edge("edge-marit-oske", "npc-marit", "npc-oske", "kin", 70, "Marit is Oske Sand's daughter"),
        ],
        scene=Scene("loc-taproom", here),
        round=RoundFacts(
            number=5,
            actions=actions,
            submissions=submissions or {},
            acted=frozenset(submissions or {}),
        ),
    )


def refuted(text: str, world: WorldSnapshot | None = None) -> set[str | None]:
    return {v.refuted_by for v in check(text, world or inn()).conflicts()}


def test_verbs_after_a_speakers_line_tag_are_the_speakers_own_acts_here() -> None:
    told = '"Snow till spring," Bertil mutters. "Mark me." Bertil grunts, scratches his beard and pours ale.'
    assert "npc-bertil-location" in refuted(told)
    told2 = '"They\'ll not come tonight." Bertil sighs, kicks the settle straight and sits down by the fire.'
    assert "npc-bertil-location" in refuted(told2)
    # control: the same where the record has him
    assert refuted(told, inn(bertil_at="loc-taproom")) == set()


def test_a_scene_cut_away_to_a_place_stays_there_for_its_subject() -> None:
    cut = (
        "Down in the cellar, Bertil Haag counts casks by lantern light. The frost has got into the walls. "
        "Bertil whistles tunelessly and chalks a mark on the nearest barrel."
    )
    assert refuted(cut, inn(bertil_at="loc-cellar")) == set()
    # flagged: the place cut to is not where he is recorded; and with no cut, his acts are here
    assert "npc-bertil-location" in refuted(cut)
    plain = "Bertil whistles tunelessly and chalks a mark on the nearest barrel."
    assert "npc-bertil-location" in refuted(plain, inn(bertil_at="loc-cellar"))


def test_a_kin_term_after_a_pronoun_names_the_recorded_relative_of_the_creature_before_it() -> None:
    assert "npc-hilde-alive" in refuted(
        "Tam wipes the tables while his mother scolds the carter at the door."
    )
    assert "npc-hilde-alive" in refuted(
        "Piet watches Tam stack the cups; behind him, his mother laughs and ladles out the stew."
    )
    # controls: a living relative who is here; a thing named by its owner; no one named before the pronoun
    assert refuted("Marit kneads the dough while her father stokes the oven.") == set()
    assert refuted("Tam folds his mother's old shawl and sets it on the shelf.") == set()
    assert refuted("His mother scolds the carter at the door.") == set()


PIET_MISSES = (ActionResult("action-1", "pc-piet", "attack", "monster-wolf", "miss"),)
PIET_HITS = (ActionResult("action-1", "pc-piet", "attack", "monster-wolf", "hit", 6),)
WOLF_HITS = (ActionResult("action-1", "monster-wolf", "attack", "pc-ana", "hit", 4),)
WOLF_MISSES = (ActionResult("action-1", "monster-wolf", "attack", "pc-ana", "miss"),)


def test_the_attackers_missile_opening_the_next_sentence_tells_the_outcome() -> None:
    told = "Piet, you brace the crossbow on the bar and squeeze. The bolt takes the beast in its throat."
    assert refuted(told, inn(PIET_MISSES)) == {"round:action-1"}
    assert refuted(told, inn(PIET_HITS)) == set()
    told2 = "Piet hurls the hatchet overhand. The blade catches the grey wolf on the shoulder with a crack."
    assert refuted(told2, inn(PIET_MISSES)) == {"round:action-1"}
    told3 = "Piet, you draw and loose in one motion. The arrow finds its mark."
    assert refuted(told3, inn(PIET_MISSES)) == {"round:action-1"}
    told4 = "Piet, you draw and loose. The arrow whistles past its ear and thuds into the wall."
    assert refuted(told4, inn(PIET_HITS)) == {"round:action-1"}
    assert refuted(told4, inn(PIET_MISSES)) == set()
    # control: a missile that meets only a thing says nothing about the target
    wall = "Piet, you brace the crossbow on the bar and squeeze. The bolt hits the doorpost and sticks there."
    assert refuted(wall, inn(PIET_HITS)) == set()


def test_jaws_closing_on_nothing_miss_and_closing_on_a_body_hit() -> None:
    empty = "The grey wolf springs at Ana, who is nearest the door, and its jaws snap shut on empty air."
    assert refuted(empty, inn(WOLF_HITS)) == {"round:action-1"}
    assert refuted(empty, inn(WOLF_MISSES)) == set()
    body = "The grey wolf springs at Ana, who throws up an arm, and its jaws clamp shut on her forearm."
    assert refuted(body, inn(WOLF_MISSES)) == {"round:action-1"}
    assert refuted(body, inn(WOLF_HITS)) == set()


def test_a_player_character_found_in_the_middle_of_an_activity_is_a_backdrop() -> None:
    only_piet = {"pc-piet": "I ask the ostler about the road."}
    assert (
        refuted("By the hearth, Ana is mending a fishing net for the potboy.", inn(submissions=only_piet))
        == set()
    )
    # controls: a step taken for her still reads, in the simple present or as a movement
    assert "round:submission-pc-ana" in refuted(
        "Ana mends a fishing net for the potboy and sells it to him.", inn(submissions=only_piet)
    )
    assert "round:submission-pc-ana" in refuted(
        "Ana is slipping out through the back door into the snow.", inn(submissions=only_piet)
    )
    assert "round:submission-pc-ana" in refuted(
        "Ana is quietly picking the lock of Marit's spice chest.", inn(submissions=only_piet)
    )
