"""Issue 10, "bodies and dice": conditions read against what a body does, and the round's dice against the
way each attack is told.

- Dice (ledger.check.extract.blows): an attack is told over a passage that follows its attacker as the agent
  (named, addressed as "you", its weapon or an item it holds as the subject), and its outcome is read from
  what the blow meets: contact with the target or its body (into, across, against; "takes him in the
  shoulder") against passing it by (past, off after a glancing verb, a distance "from" it), nothing or
  air, or a word of missing. Other attacks of the same narration told as rolled stay clean, and so do
  blows in quotation, hypotheticals and memory.
- Conditions: see the tests below each world.

Worlds are invented here (a fen troll hunt, a frontier saloon, a salvage ship), not the batches'.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import ActionResult, Alias, Entity, Holding, RoundFacts, Scene, WorldSnapshot


def _world(actions: tuple[ActionResult, ...], extra: tuple[Entity, ...] = ()) -> WorldSnapshot:
    """A fen troll hunt: Hale (he, a cleaver), Marisol (she, a boathook), Pell (he, an npc), the troll."""
    here = "loc-fen"
    people = (
        Entity("pc-hale", "pc", "Hale", owner="1", location=here, pronoun="he", hp=20, max_hp=20),
        Entity("pc-marisol", "pc", "Marisol", owner="2", location=here, pronoun="she", hp=20, max_hp=20),
        Entity("npc-pell", "npc", "Pell Rudd", location=here, pronoun="he", hp=10, max_hp=10),
        Entity(
            "monster-troll",
            "monster",
            "the fen troll",
            aliases=(Alias("the troll"),),
            location=here,
            hp=40,
            max_hp=40,
        ),
        Entity("item-cleaver", "item", "the cleaver"),
        Entity("item-boathook", "item", "the boathook"),
        Entity(here, "location", "the fen"),
        *extra,
    )
    return WorldSnapshot.build(
        entities=people,
        holdings=[Holding("item-cleaver", "pc-hale"), Holding("item-boathook", "pc-marisol")],
        scene=Scene(here, frozenset(e.id for e in people if e.kind in ("pc", "npc", "monster"))),
        round=RoundFacts(
            number=2,
            actions=actions,
            submissions={"pc-hale": "I attack the troll.", "pc-marisol": "I attack the troll."},
            acted=frozenset({"pc-hale", "pc-marisol"}),
        ),
    )


def _dice(text: str, snap: WorldSnapshot) -> set[str]:
    """The round results a narration is said to contradict."""
    return {
        str(v.refuted_by)
        for v in check(text, snap).conflicts()
        if str(v.refuted_by).startswith("round:action")
    }


HALE_MISSES = ActionResult("action-1", "pc-hale", "attack", "monster-troll", outcome="miss")
HALE_HITS = ActionResult("action-1", "pc-hale", "attack", "monster-troll", outcome="hit", damage=7)
MARISOL_HITS = ActionResult("action-2", "pc-marisol", "attack", "monster-troll", outcome="hit", damage=5)
MARISOL_MISSES = ActionResult("action-2", "pc-marisol", "attack", "monster-troll", outcome="miss")
TROLL_MISSES_PELL = ActionResult("action-3", "monster-troll", "attack", "npc-pell", outcome="miss")
TROLL_HITS_PELL = ActionResult("action-3", "monster-troll", "attack", "npc-pell", outcome="hit", damage=6)


# --- a miss told as a hit ----------------------------------------------------------------------------------


def test_a_missed_blow_told_landing_through_the_weapon_the_attacker_holds() -> None:
    snap = _world((HALE_MISSES, MARISOL_HITS))
    text = (
        "Hale sets his heels in the peat. The cleaver comes round low and bites across the troll's knee, "
        "and black blood wells up through the moss."
    )
    assert "round:action-1" in _dice(text, snap)


def test_a_missed_blow_told_landing_on_the_one_addressed() -> None:
    snap = _world((HALE_HITS, MARISOL_MISSES))
    text = "Marisol, breathing hard, you jab the boathook up against the troll's jaw and feel it crunch."
    assert "round:action-2" in _dice(text, snap)


def test_a_missed_shot_told_taking_the_target_high_in_a_body_part() -> None:
    snap = _world((HALE_HITS, MARISOL_HITS, TROLL_MISSES_PELL))
    text = (
        "The troll heaves a stone from the bank toward the reeds where Pell Rudd crouches, and the stone "
        "takes the old eel-man hard in the shoulder, spinning him into the water."
    )
    assert "round:action-3" in _dice(text, snap)


def test_a_missed_blow_told_landing_on_the_target_called_by_an_epithet() -> None:
    snap = _world((HALE_MISSES,))
    assert "round:action-1" in _dice("Hale roars, and the cleaver crunches into the brute hilt-deep.", snap)


def test_you_after_a_player_is_addressed_by_name_is_that_player() -> None:
    snap = _world((MARISOL_MISSES,))
    text = (
        "Marisol, the troll looms over you. You drive the boathook up under its jaw, and it bites deep "
        "into the soft flesh of its throat."
    )
    assert "round:action-2" in _dice(text, snap)


def test_it_opening_a_sentence_is_the_one_monster_attacking() -> None:
    snap = _world((HALE_HITS, TROLL_MISSES_PELL))
    text = "Hale hacks at it again and again. It answers by raking its claws across Pell Rudd's back."
    assert "round:action-3" in _dice(text, snap)


# --- a hit told as a miss ----------------------------------------------------------------------------------


def test_a_landed_blow_told_passing_the_target_by() -> None:
    snap = _world((HALE_HITS, MARISOL_HITS))
    text = "Hale swings with everything he has. The cleaver hums past the troll's ear and sinks into a stump."
    assert "round:action-1" in _dice(text, snap)


def test_a_landed_blow_told_meeting_nothing() -> None:
    snap = _world((HALE_HITS, MARISOL_HITS))
    text = (
        "Marisol, you lunge with the boathook, and it meets nothing at all: the troll has already "
        "folded itself down into the reeds."
    )
    assert "round:action-2" in _dice(text, snap)


def test_a_landed_blow_told_glancing_off_the_hide() -> None:
    snap = _world((HALE_HITS, MARISOL_MISSES))
    text = "Hale brings the cleaver down, but the edge skids uselessly off its warty hide."
    assert "round:action-1" in _dice(text, snap)


def test_a_landed_blow_told_with_the_target_getting_out_of_its_way() -> None:
    snap = _world((HALE_HITS, MARISOL_MISSES))
    text = "Hale hacks at the troll's knees. The troll rolls aside, and the cleaver chops only reeds."
    assert "round:action-1" in _dice(text, snap)


def test_a_missed_throw_of_an_improvised_weapon_told_striking_the_target() -> None:
    snap = _world((HALE_HITS, MARISOL_MISSES))
    text = "Marisol's lantern sails end over end and smashes the troll's snout in a burst of oil."
    assert "round:action-2" in _dice(text, snap)


# --- told as rolled: must stay clean ----------------------------------------------------------------------


def test_every_attack_told_as_rolled_is_clean() -> None:
    snap = _world((HALE_HITS, MARISOL_MISSES, TROLL_HITS_PELL))
    text = (
        "Hale goes in first. The cleaver opens a long gash across the troll's flank and it roars. "
        "Marisol, you thrust the boathook for its eye; the hook scrapes past its brow and tangles in the "
        "weed. The troll answers by raking its claws across Pell Rudd's back, and the old man drops."
    )
    assert _dice(text, snap) == set()


def test_another_attackers_blow_in_the_passage_is_not_this_one() -> None:
    # Hale hits; the troll's own swipe at Pell misses: "whistles past Pell's ear" is the troll's miss
    snap = _world((HALE_HITS, TROLL_MISSES_PELL))
    text = "Hale's cleaver sinks into the troll's side; its answering swipe whistles past Pell Rudd's ear."
    assert _dice(text, snap) == set()


def test_an_unnamed_pronoun_ends_the_attackers_passage() -> None:
    # Marisol misses; "He answers with a kick to Pell's ribs" is someone else's, not Marisol's blow
    snap = _world((HALE_HITS, MARISOL_MISSES))
    text = (
        "Marisol's hook snags the troll's ear-ring and tears free. He answers with a kick to Pell Rudd's "
        "ribs."
    )
    assert _dice(text, snap) == set()


def test_the_attacker_darting_past_the_target_is_no_miss() -> None:
    snap = _world((HALE_HITS,))
    text = "Hale ducks past the troll, quick as a weasel, hacking at its flank as he goes."
    assert _dice(text, snap) == set()


def test_a_first_try_missing_before_a_second_lands_is_no_miss() -> None:
    snap = _world((HALE_HITS,))
    text = "Hale's first swing goes wide. His second does not: the cleaver takes the troll in the hip."
    assert _dice(text, snap) == set()


def test_a_look_shot_at_the_target_is_no_blow() -> None:
    snap = _world((HALE_MISSES,))
    assert _dice("Hale shoots the troll a look of pure loathing over the cleaver's edge.", snap) == set()


def test_a_miss_denied_is_no_miss() -> None:
    snap = _world((HALE_HITS,))
    assert _dice("Hale hefts the cleaver. This time he doesn't miss.", snap) == set()


def test_a_hand_taken_is_no_blow() -> None:
    snap = _world((HALE_MISSES,))
    text = "Hale's cleaver goes wide of the troll. He takes Pell Rudd's arm and hauls him back from the bank."
    assert _dice(text, snap) == set()


def test_a_blow_washing_over_the_target_is_no_miss() -> None:
    snap = _world((HALE_HITS,))
    text = "Hale hurls the lamp oil and the flame washes over the troll, blackening its hide."
    assert _dice(text, snap) == set()


def test_a_name_that_is_also_a_health_word_tells_no_health() -> None:
    # "Hale's cleaver comes down on the troll's shoulder": Hale is a name, not the troll told hale
    snap = _world((HALE_HITS,))
    text = "Hale's cleaver comes down on the troll's shoulder with a wet crack."
    assert [v.refuted_by for v in check(text, snap).conflicts()] == []


def test_blows_in_quotation_hypothesis_and_memory_are_not_told() -> None:
    snap = _world((HALE_MISSES, MARISOL_MISSES))
    for text in (
        '"Next time I\'ll put the cleaver into its skull," Hale mutters.',
        "Had Hale been a breath quicker, the cleaver would have gone deep into the troll's neck.",
        "Hale remembers how, last spring, his cleaver sank into a troll's neck on this very bank.",
    ):
        assert _dice(text, snap) == set(), text


# --- conditions against what a body does ------------------------------------------------------------------


def _abbey() -> WorldSnapshot:
    """A mountain abbey: Orla silenced (she), Brother Anselm blinded (he), Tomas deafened (he), Hob
    unconscious (he), Corin restrained (he), and the visiting pc Ysolde (she)."""
    here = "loc-abbey"

    def npc(eid: str, name: str, pronoun: str, condition: str) -> Entity:
        return Entity(eid, "npc", name, location=here, pronoun=pronoun, conditions=frozenset({condition}))

    people = (
        Entity("pc-ysolde", "pc", "Ysolde", owner="1", location=here, pronoun="she"),
        npc("npc-orla", "Sister Orla", "she", "silenced"),
        npc("npc-anselm", "Brother Anselm", "he", "blinded"),
        npc("npc-tomas", "Tomas Reeve", "he", "deafened"),
        npc("npc-hob", "Hob Lark", "he", "unconscious"),
        npc("npc-corin", "Corin Vell", "he", "restrained"),
        Entity(here, "location", "the abbey"),
    )
    return WorldSnapshot.build(
        entities=people,
        scene=Scene(here, frozenset(e.id for e in people if e.kind in ("pc", "npc"))),
        round=RoundFacts(number=1, submissions={"pc-ysolde": "I wait."}, acted=frozenset({"pc-ysolde"})),
    )


def _conditions(text: str) -> set[str]:
    return {
        str(v.refuted_by) for v in check(text, _abbey()).conflicts() if "-condition-" in str(v.refuted_by)
    }


def test_a_silenced_voice_told_sounding() -> None:
    text = "Sister Orla lifts the psalter. Her voice, when at last it comes, is thin but perfectly steady."
    assert "npc-orla-condition-silenced" in _conditions(text)


def test_a_silenced_voice_told_gone_is_no_speech() -> None:
    text = "Sister Orla opens her mouth. Her voice is gone, stolen by the abbot's charm."
    assert _conditions(text) == set()


def test_words_given_by_hand_are_no_speech() -> None:
    for text in (
        "Sister Orla answers the novice in the old hand-talk of the cloister.",
        "Sister Orla replies with a stub of chalk on the refectory slate.",
        "Sister Orla answers with her hands, quick and sure.",
    ):
        assert _conditions(text) == set(), text


def test_a_hand_placed_on_someone_is_not_the_means_of_the_words() -> None:
    text = "Sister Orla answers, with a hand on Ysolde's arm, that the gate is shut at dusk."
    assert "npc-orla-condition-silenced" in _conditions(text)


def test_a_blinded_man_moving_his_gaze_over_a_page_or_looking_at_someone() -> None:
    assert "npc-anselm-condition-blinded" in _conditions(
        "Brother Anselm unrolls the deed and runs his eyes down the witnesses' names."
    )
    assert "npc-anselm-condition-blinded" in _conditions(
        "Brother Anselm looks up, very slowly, at the abbot's empty chair."
    )


def test_blind_eyes_turned_toward_a_sound_are_no_sight() -> None:
    for text in (
        "Brother Anselm sits by the brazier, his clouded eyes turned toward the sound of the bell.",
        "Brother Anselm runs his blind eyes over the room and sees nothing of it.",
        "Brother Anselm feels his way along the cloister wall, counting pillars by touch.",
    ):
        assert _conditions(text) == set(), text


def test_a_message_in_capitals_is_not_the_narrator_telling_what_someone_does() -> None:
    text = (
        "Ysolde kneels by Hob Lark, who lies senseless on the straw, and scratches on the floor for the "
        "infirmarian: HE SPOKE AT MATINS. ASKED FOR WATER."
    )
    assert _conditions(text) == set()


def test_the_incapacitated_shown_as_such_stay_clean() -> None:
    text = (
        "Tomas Reeve watches Ysolde's lips and taps his answer on the table. Hob Lark lies out cold on his "
        "pallet, breath rattling. Corin Vell strains against the chain round his ankle, rattling it."
    )
    assert _conditions(text) == set()


def test_a_restrained_man_going_the_length_of_a_room() -> None:
    for text in (
        "Corin Vell cannot keep still. He strides up and down the chapter house, flinging his arms about.",
        "Corin Vell paces the length of the chapter house, waving his arms as he talks.",
        "Corin Vell crosses the cloister to the well and draws a bucket.",
    ):
        assert "npc-corin-condition-restrained" in _conditions(text), text


def test_a_restrained_man_rocking_or_straining_in_place_is_clean() -> None:
    for text in (
        "Corin Vell rocks back and forth on his bench, muttering.",
        "Corin Vell strains against the chain, then glances across the cloister at the abbot.",
    ):
        assert _conditions(text) == set(), text


def test_a_blinded_man_judging_by_eye() -> None:
    text = "Brother Anselm holds the seal to the lamp and judges the wax by eye."
    assert "npc-anselm-condition-blinded" in _conditions(text)


def test_a_deafened_man_hearing_a_whisper_and_answering_it() -> None:
    text = (
        "Ysolde bends to Tomas Reeve and whispers the password behind her hand. He hears her out, nods, "
        'and whispers back, "Not tonight."'
    )
    assert "npc-tomas-condition-deafened" in _conditions(text)


def test_what_a_body_did_before_the_scene_is_not_told_now() -> None:
    for text in (
        "Hob Lark murmured in his sleep an hour ago, the infirmarian says, but now he lies still.",
        "Sister Orla's voice was the finest in the choir, before the charm.",
        "Ysolde sits with Tomas Reeve. He heard the bells from the valley, years ago, before the fever.",
    ):
        assert _conditions(text) == set(), text


def test_the_present_perfect_is_now() -> None:
    text = "Ysolde says nothing aloud. Tomas Reeve looks up all the same: he's heard every word of it."
    assert "npc-tomas-condition-deafened" in _conditions(text)


def test_a_line_attributed_to_a_silenced_woman_by_any_verb_of_voice() -> None:
    assert "npc-orla-condition-silenced" in _conditions('Sister Orla leans close. "Not here," she breathes.')
    assert _conditions('Sister Orla leans close. "Not here," she mouths.') == set()
