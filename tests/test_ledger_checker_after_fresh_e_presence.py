"""Issue 10, after the fresh_e run: who is where, who is who, and what the dice said, as English tells them.

Rules about the language, each with control sentences that must stay clean: a blow that meets "only" some
other thing, or "tears free", lands on no one; a clause after a semicolon whose subject is the attacker's own
limb tells the blow's outcome; "the senseless porter" describes the porter, not the subject before it; an
unnamed person opening a sentence ("The girl grins at Piet") owns the "he"/"she" that follows; a possessive
name with a kinship term ("the Reeve's sister") names the one relative the record ties by that term.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import ActionResult, Edge, Entity, RoundFacts, Scene, WorldSnapshot


def quarry(
    actions: tuple[ActionResult, ...] = (), submissions: dict[str, str] | None = None
) -> WorldSnapshot:
    """A quarry camp: PCs Piet and Ana, the Reeve Gorm Hask and his sister Wenna (senseless in the hut), a
    foreman elsewhere, and a rock-ogre."""
    here = frozenset({"pc-piet", "pc-ana", "npc-wenna", "npc-tobit", "monster-ogre"})
    return WorldSnapshot.build(
        entities=[
            Entity("pc-piet", "pc", "Piet", owner="1", location="loc-quarry", pronoun="he"),
            Entity("pc-ana", "pc", "Ana", owner="2", location="loc-quarry", pronoun="she"),
            Entity("npc-gorm", "npc", "Reeve Gorm Hask", location="loc-manor", pronoun="he"),
            Entity(
                "npc-wenna",
                "npc",
                "Wenna Hask",
                location="loc-quarry",
                pronoun="she",
                conditions=frozenset({"unconscious"}),
            ),
            Entity("npc-tobit", "npc", "Tobit Rusk", location="loc-quarry", pronoun="he"),
            Entity("monster-ogre", "monster", "the rock-ogre", location="loc-quarry", pronoun="it"),
            Entity("loc-quarry", "location", "the quarry"),
            Entity("loc-manor", "location", "the manor"),
        ],
        edges=[
            Edge("edge-wenna-gorm", "npc-wenna", "npc-gorm", "kin", 50, "Wenna is Reeve Gorm Hask's sister")
        ],
        scene=Scene("loc-quarry", here),
        round=RoundFacts(
            number=3,
            actions=actions,
            submissions=submissions or {},
            acted=frozenset(submissions or {}),
        ),
    )


OGRE_MISSES = (ActionResult("action-1", "monster-ogre", "attack", "pc-ana", "miss"),)
OGRE_HITS = (ActionResult("action-1", "monster-ogre", "attack", "pc-ana", "hit", 5),)


def refuted(text: str, world: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, world).conflicts()}


def test_a_blow_that_meets_only_something_else_is_a_miss() -> None:
    told = "The rock-ogre heaves its maul down at Ana, but the blow hammers only the boulder behind her."
    assert refuted(told, quarry(OGRE_HITS)) == {"round:action-1"}
    assert refuted(told, quarry(OGRE_MISSES)) == set()
    plain = "The rock-ogre heaves its maul down at Ana and the blow hammers her shield arm."
    assert refuted(plain, quarry(OGRE_MISSES)) == {"round:action-1"}


def test_tearing_free_is_no_blow_and_the_limb_after_a_semicolon_tells_the_outcome() -> None:
    missed = "The rock-ogre tears free of the rubble and lunges at Ana; its huge fist sails past her ear."
    assert refuted(missed, quarry(OGRE_MISSES)) == set()
    assert refuted(missed, quarry(OGRE_HITS)) == {"round:action-1"}
    landed = "The rock-ogre wrenches loose from the scree and lunges at Ana; its fist hammers into her ribs."
    assert refuted(landed, quarry(OGRE_MISSES)) == {"round:action-1"}
    assert refuted(landed, quarry(OGRE_HITS)) == set()
    # control: a reflexive after the verb of a blow still lands ("buries itself in")
    lodged = "The rock-ogre's flung stone buries itself in Ana's thigh."
    assert refuted(lodged, quarry(OGRE_MISSES)) == {"round:action-1"}


def test_a_clause_after_a_semicolon_about_someone_elses_weapon_is_not_the_outcome() -> None:
    text = "The rock-ogre lunges at Ana; her spear whistles past its ear."
    assert refuted(text, quarry(OGRE_HITS)) == set()


def test_a_down_word_before_a_noun_describes_that_noun() -> None:
    text = "Ana kneels beside the senseless porter and loosens his collar."
    assert refuted(text, quarry()) == set()
    assert refuted("Ana slumps, senseless, against the cart.", quarry()) == {"pc-ana-condition-unconscious"}


def test_an_unnamed_person_opening_a_sentence_owns_the_next_pronoun() -> None:
    sub = {"pc-piet": "I ask the foreman how deep the new cut goes."}
    text = (
        'Tobit Rusk hears Piet out. The lad grins at Piet over the cart. "Deep enough to bury a reeve," '
        'he says, "and his sister too."'
    )
    assert refuted(text, quarry(submissions=sub)) == set()
    # control: a named subject still owns the pronoun
    named = 'Tobit Rusk hears Piet out. Piet grins at Tobit. "Deeper than the old one, then," he says.'
    assert "round:submission-pc-piet" in refuted(named, quarry(submissions=sub))


def test_a_possessive_kin_phrase_names_the_recorded_relative() -> None:
    world = quarry()
    text = "In the hut the Reeve's sister sits up on her pallet and asks for water."
    assert refuted(text, world) == {"npc-wenna-condition-unconscious"}
    other = "Down by the cut, Reeve Hask's sister props herself on one elbow and calls for Piet."
    assert refuted(other, world) == {"npc-wenna-condition-unconscious"}
    # controls: a kin term the record does not give names no one; a copula makes it a kinship claim;
    # the Reeve himself is not here
    assert refuted("In the hut the Reeve's daughter sits up and asks for water.", world) == set()
    assert refuted("Wenna lies still; she is the Reeve's sister, and it shows in the jaw.", world) == set()


def test_a_place_named_inside_a_relative_clause_is_not_where_the_subject_is() -> None:
    world = quarry()
    text = "Tobit Rusk leans on the cart with the iron bar that everybody at the manor knows by sight."
    assert refuted(text, world) == set()
    # control: the place in the main clause still counts
    assert refuted("Tobit Rusk leans on the wall at the manor, whistling.", world) == {"npc-tobit-location"}


def test_having_a_spot_to_oneself_is_being_there() -> None:
    world = quarry()
    told = "No one at the quarry will sit near the Reeve. He has the bench by the fire to himself."
    assert refuted(told, world) == {"npc-gorm-location"}
    assert refuted("Reeve Gorm Hask has the best chair in the shelter to himself.", world) == {
        "npc-gorm-location"
    }
    # controls: his own place; an infinitive idiom; someone who is here
    assert refuted("Reeve Gorm Hask has the manor to himself tonight.", world) == set()
    assert refuted("Reeve Gorm Hask has a great deal to say to himself.", world) == set()
    assert refuted("Tobit Rusk has the cart to himself.", world) == set()


def test_an_arrival_whose_journey_from_the_recorded_place_is_told_is_travel() -> None:
    world = quarry()
    travel = (
        "Hooves on the track, and Reeve Gorm Hask barges in out of the sleet. "
        "He has ridden all the way from the manor, by the mud on him."
    )
    assert refuted(travel, world) == set()
    # controls: no journey told, or a journey from somewhere else, is an NPC appearing where he is not
    assert refuted("Hooves on the track, and Reeve Gorm Hask barges in out of the sleet.", world) == {
        "npc-gorm-location"
    }
    elsewhere = (
        "Reeve Gorm Hask barges in out of the sleet. He carries a letter from the manor under his arm."
    )
    assert refuted(elsewhere, world) == {"npc-gorm-location"}


def test_an_approach_that_stops_short_and_a_voice_from_a_distance_are_not_presence() -> None:
    world = quarry()
    short = (
        "Down the track comes Reeve Gorm Hask on his grey, pulling up at the edge of the spoil heaps and no "
        "nearer. He shouts up to the cutting face without dismounting."
    )
    assert refuted(short, world) == set()
    assert refuted("Reeve Gorm Hask rides up and halts outside the fence.", world) == set()
    # control: an approach that ends here
    assert refuted("Reeve Gorm Hask rides up and dismounts by the cart.", world) == {"npc-gorm-location"}


def court() -> WorldSnapshot:
    """A river toll-house: the PC Ana; a Toll Warden and a Harbour Inspector (both away), a Bailiff of no
    title list; a ferryman here."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-ana", "pc", "Ana", owner="2", location="loc-toll", pronoun="she"),
            Entity("npc-wick", "npc", "Sheriff Orla Wick", location="loc-town", pronoun="she"),
            Entity("npc-pell", "npc", "Harbour Inspector Ambrose Pell", location="loc-town", pronoun="he"),
            Entity("npc-ferry", "npc", "Tam Ludd", location="loc-toll", pronoun="he"),
            Entity("loc-toll", "location", "the toll-house"),
            Entity("loc-town", "location", "the town"),
        ],
        scene=Scene("loc-toll", frozenset({"pc-ana", "npc-ferry"})),
    )


def test_a_role_noun_names_the_one_record_whose_office_it_is() -> None:
    world = court()
    assert refuted("The sheriff warms her hands at the toll-house stove.", world) == {"npc-wick-location"}
    assert refuted("The harbour inspector sits by the stove, thumbing a ledger.", world) == {
        "npc-pell-location"
    }
    assert refuted("Ana pours tea; the inspector sips his without a word.", world) == {"npc-pell-location"}
    # controls: another office named with "of"; the office told of someone absent; the person who is here
    assert refuted("The sheriff of the next county sits by the stove.", world) == set()
    assert refuted("Ana says the sheriff rode out to the town at dawn.", world) == set()
    assert refuted("Tam Ludd sits by the stove, thumbing a ledger.", world) == set()


def test_a_journey_from_the_recorded_place_told_in_the_same_sentence_is_travel() -> None:
    world = quarry()
    assert (
        refuted("Fresh from the manor, Reeve Gorm Hask strides in and shakes the sleet off.", world) == set()
    )
    assert refuted("Reeve Gorm Hask arrives at last; he has come straight up from the manor.", world) == set()
    # control: the one fresh from the manor is someone else
    other = "Tobit, fresh from the manor, nods as Reeve Gorm Hask strides in."
    assert refuted(other, world) == {"npc-gorm-location"}


def test_a_blow_turned_by_what_it_meets_is_a_miss_and_a_weapon_noun_is_no_blow() -> None:
    for told in (
        "The rock-ogre's fist skids off Ana's shield.",
        "The rock-ogre swings at Ana, but its club clangs off her helm.",
        "The rock-ogre swings at Ana, who leaps back out of reach.",
        "The rock-ogre's maul cleaves nothing but air.",
    ):
        assert refuted(told, quarry(OGRE_HITS)) == {"round:action-1"}, told
        assert refuted(told, quarry(OGRE_MISSES)) == set(), told
    # "its maul" names the weapon; what the maul does says the outcome
    noun = "The rock-ogre swings at Ana and its maul rebounds off the boulder beside her."
    assert refuted(noun, quarry(OGRE_MISSES)) == set()
    landed = "The rock-ogre swings at Ana and its maul crushes her shoulder."
    assert refuted(landed, quarry(OGRE_MISSES)) == {"round:action-1"}
    assert refuted(landed, quarry(OGRE_HITS)) == set()


def test_a_place_the_sentence_opens_with_sets_the_scene_for_any_verb() -> None:
    world = quarry()
    assert refuted("Up at the manor, the Reeve paces.", world) == set()
    assert refuted("Meanwhile, back at the manor, Reeve Gorm Hask pours himself a brandy.", world) == set()
    # controls: a fronted place that is not his; no place at all
    assert refuted("In the quarry, Reeve Gorm Hask pours himself a brandy.", world) == {"npc-gorm-location"}
    assert refuted("Reeve Gorm Hask pours himself a brandy by the cart.", world) == {"npc-gorm-location"}


def test_a_kin_phrase_reads_the_record_from_either_end() -> None:
    world = quarry()
    # the record says Wenna is the Reeve's sister, so Wenna's brother is the Reeve (who is away)
    assert refuted("By the cart, Wenna's brother counts the day's blocks.", world) == {"npc-gorm-location"}
    # controls: a term of the wrong gender or another tie names no one
    assert refuted("Wenna's sister counts the day's blocks by the cart.", world) == set()
    assert refuted("Wenna's father counts the day's blocks by the cart.", world) == set()


def test_a_verb_of_a_blow_landing_on_a_creature_is_a_hit_by_its_lemma() -> None:
    for told in (
        "The rock-ogre's fist clips Ana's temple.",
        "The rock-ogre thumps Ana in the chest.",
        "The rock-ogre's club sends Ana sprawling.",
        "The rock-ogre knocks her flat as she turns.",
    ):
        assert refuted(told, quarry(OGRE_MISSES)) == {"round:action-1"}, told
        assert refuted(told, quarry(OGRE_HITS)) == set(), told
    # controls: the same verbs on a thing, or on something a creature holds, land on no one
    for scenery in (
        "The rock-ogre kicks the cart over and roars at Ana.",
        "The rock-ogre knocks Ana's lantern aside.",
        "The rock-ogre pounds the ground beside Ana.",
    ):
        assert refuted(scenery, quarry(OGRE_MISSES)) == set(), scenery


def test_a_habit_a_plan_and_a_reporting_aside_put_no_one_here() -> None:
    world = quarry()
    for clean in (
        "Tomorrow the Reeve rides in to count the blocks.",
        "Ana glances at the empty stool where the Reeve usually sits.",
        "The Reeve, Tobit says, sits at the manor with his ledgers.",
        "Reeve Gorm Hask, Tobit swears, drinks by this very cart most nights.",
    ):
        assert refuted(clean, world) == set(), clean
    # controls: told as now, in the narrator's voice
    assert refuted("The Reeve sits on the cart, counting blocks.", world) == {"npc-gorm-location"}
    assert refuted("Tobit says nothing; the Reeve sits on the cart beside him.", world) == {
        "npc-gorm-location"
    }


def test_a_sentence_opening_at_a_distance_puts_its_subject_there_not_here() -> None:
    world = quarry()
    assert refuted("Far below, Reeve Gorm Hask trots his grey along the lane.", world) == set()
    assert refuted("In the distance, Reeve Gorm Hask sits his horse and watches.", world) == set()
    # controls: a near place, or across a room, is here
    assert refuted("By the cart, Reeve Gorm Hask sits and watches.", world) == {"npc-gorm-location"}
    assert refuted("Across the shelter, Reeve Gorm Hask raises his mug.", world) == {"npc-gorm-location"}


def test_a_blow_that_lands_beside_someone_missed_them() -> None:
    for told in (
        "The rock-ogre's maul buries itself in the mud beside Ana.",
        "The rock-ogre's fist smashes into the cart next to Ana.",
    ):
        assert refuted(told, quarry(OGRE_HITS)) == {"round:action-1"}, told
        assert refuted(told, quarry(OGRE_MISSES)) == set(), told
    # control: the blow lands on her
    assert refuted("The rock-ogre's maul smashes into Ana.", quarry(OGRE_MISSES)) == {"round:action-1"}


def test_a_blow_told_in_the_passive_is_a_hit() -> None:
    told = "Ana is struck by the rock-ogre's maul and sits down hard."
    assert refuted(told, quarry(OGRE_MISSES)) == {"round:action-1"}
    assert refuted(told, quarry(OGRE_HITS)) == set()
    # control: a passive of no blow
    assert refuted("Ana is deafened by the rock-ogre's roar.", quarry(OGRE_MISSES)) == set()
