"""Issue 10, after the fresh_e run: conditions, health words and senses read as rules of English.

- Health told in any form, by meaning: a state noun of bodily condition after "in" with a modifier that rates
  it well ("in the best of health", "in excellent trim"), signs of health that say nothing of wounds (a colour
  in the cheeks, a hearty appetite) against an ailment, and the absence of any mark ("not a bruise on her")
  refuted once a quarter of the HP is gone, where vigour words ("hale") need half.
- "not a mark on him": the marks are placed on the one the pronoun stood for earlier in the sentence (the
  object of "finds him"), not on the finder.
- A clause subject behind a fronted phrase that opens with a conjunction ("But from the door X ...") and a
  pronoun subject after a short adverbial clause with no comma ("as she works she sings").
- Any verb of vocal production (singing, crooning, chattering, arguing) for a silenced creature; starting,
  turning or waking at a noun of sound, or catching words, for a deaf one; "sees" in the sense of foresight
  or understanding ("sees the future", "sees that ...", "sees through the lie") is no sight.
- A senseless creature acting by any verb in a clause the presence pass leaves (behind a fronted phrase, a
  participle after "is sitting up"), while what a senseless body does of itself (twitches, groans) and an
  absolute phrase ("his chest rising and falling") or a state after "is" ("is still frozen") is no act.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot


def barge() -> WorldSnapshot:
    """A river barge: Garrick at 9 of 30 HP, Hesper at 20 of 30, Ulla poisoned, Bertil deaf, Ines silenced."""
    here = "loc-barge"
    return WorldSnapshot.build(
        entities=[
            Entity("pc-wren", "pc", "Wren", owner="1", location=here, pronoun="she"),
            Entity("pc-tobin", "pc", "Tobin", owner="2", location=here, pronoun="he"),
            Entity("npc-garrick", "npc", "Garrick Moss", location=here, pronoun="he", hp=9, max_hp=30),
            Entity("npc-hesper", "npc", "Hesper Quail", location=here, pronoun="she", hp=20, max_hp=30),
            Entity(
                "npc-ulla",
                "npc",
                "Ulla Brisk",
                location=here,
                pronoun="she",
                conditions=frozenset({"poisoned"}),
            ),
            Entity(
                "npc-bertil",
                "npc",
                "Bertil Crane",
                location=here,
                pronoun="he",
                conditions=frozenset({"deafened"}),
            ),
            Entity(
                "npc-ines",
                "npc",
                "Ines Vane",
                location=here,
                pronoun="she",
                conditions=frozenset({"silenced"}),
            ),
            Entity(
                "npc-odo", "npc", "Odo Fenn", location=here, pronoun="he", conditions=frozenset({"blinded"})
            ),
            Entity(
                "npc-hob",
                "npc",
                "Hob Tarrant",
                location=here,
                pronoun="he",
                conditions=frozenset({"unconscious"}),
            ),
            Entity(here, "location", "the barge"),
        ],
        scene=Scene(
            here,
            frozenset(
                {
                    "pc-wren",
                    "pc-tobin",
                    "npc-garrick",
                    "npc-hesper",
                    "npc-ulla",
                    "npc-bertil",
                    "npc-ines",
                    "npc-odo",
                    "npc-hob",
                }
            ),
        ),
    )


def refuted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, barge()).conflicts()}


def test_good_health_after_in_is_read_by_its_modifier() -> None:
    assert refuted("Ulla Brisk sits on the hatch, in the best of health, shelling peas.") == {
        "npc-ulla-condition-poisoned"
    }
    assert refuted("Ulla Brisk, in excellent trim this morning, scrubs the tiller.") == {
        "npc-ulla-condition-poisoned"
    }
    # control: a modifier that rates it badly, or a state noun that is no health
    assert refuted("Ulla Brisk sits on the hatch, in poor health, shelling peas.") == set()
    assert refuted("Ulla Brisk sits on the hatch, in a foul temper, shelling peas.") == set()


def test_signs_of_health_are_false_of_an_ailing_creature_only() -> None:
    assert refuted("Ulla Brisk, rosy-cheeked, hauls on the tow rope.") == {"npc-ulla-condition-poisoned"}
    assert refuted("Ulla Brisk spoons up the eel stew with a hearty appetite.") == {
        "npc-ulla-condition-poisoned"
    }
    # control: the same signs in a wounded creature say nothing of its wounds; no appetite is no health
    assert refuted("Garrick Moss, rosy-cheeked, hauls on the tow rope.") == set()
    assert refuted("Garrick Moss spoons up the eel stew with a hearty appetite.") == set()
    assert refuted("Ulla Brisk pushes the eel stew away with no appetite at all.") == set()


def test_no_mark_at_all_is_false_once_a_quarter_is_lost() -> None:
    assert refuted("Hesper Quail strides the deck, not a bruise on her, coiling rope.") == {"npc-hesper-hp"}
    assert refuted("Hesper Quail strides the deck: unbruised, she coils rope.") == {"npc-hesper-hp"}
    # control: vigour words need half the HP gone; marks say nothing of poison
    assert refuted("Hesper Quail strides the deck, hale and cheerful, coiling rope.") == set()
    assert refuted("Ulla Brisk strides the deck, not a bruise on her, coiling rope.") == set()


def test_the_marks_go_on_the_one_the_pronoun_stood_for() -> None:
    text = "Garrick Moss has gone below. Wren finds him in the hold, not a scratch on him, stacking crates."
    assert refuted(text) == {"npc-garrick-hp"}
    text = "Tobin is asleep in the hold, not a scratch on him, when Garrick Moss finds him there."
    assert refuted(text) == set()  # control: Tobin, whom nothing records hurt
    text = "Tobin has gone below. Garrick Moss finds him in the hold, not a scratch on him, stacking crates."
    assert refuted(text) == set()  # control: not the finder


def test_a_subject_behind_a_fronted_phrase_after_a_conjunction() -> None:
    assert refuted("But from the cabin by the stern Bertil Crane cocks his head, hearing every word.") == {
        "npc-bertil-condition-deafened"
    }
    assert refuted("And under the awning Bertil Crane overhears the pilot's grumbling.") == {
        "npc-bertil-condition-deafened"
    }
    # control: words read off the lips are seen, not heard
    assert refuted("But from the cabin by the stern Bertil Crane watches their lips move.") == set()


def test_a_pronoun_subject_after_a_short_adverbial_clause() -> None:
    assert refuted("Ines Vane mends the sail, and as she works she sings a river song.") == {
        "npc-ines-condition-silenced"
    }
    assert refuted("Ines Vane scrubs the deck. When she finishes she chatters to the cat.") == {
        "npc-ines-condition-silenced"
    }
    # control: what she does with her hands, or answers in signs
    assert refuted("Ines Vane mends the sail, and as she works she hums nothing, smiling.") == set()
    assert refuted("Ines Vane mends the sail, and as she works she signs her answer to Wren.") == set()


def test_any_verb_of_singing_or_chatter_is_speech() -> None:
    assert refuted("Ines Vane croons a lullaby to the ship's cat.") == {"npc-ines-condition-silenced"}
    assert refuted("At the tiller Ines Vane gossips with the pilot about the toll.") == {
        "npc-ines-condition-silenced"
    }
    assert refuted("At the tiller Ines Vane nods along while the pilot gossips.") == set()


def test_starting_at_a_sound_or_catching_words_is_hearing() -> None:
    assert refuted("Bertil Crane flinches at the crack of the tow rope.") == {"npc-bertil-condition-deafened"}
    assert refuted("Bertil Crane wakes to the clang of the lock gates.") == {"npc-bertil-condition-deafened"}
    assert refuted("Bertil Crane catches every word the pilot says.") == {"npc-bertil-condition-deafened"}
    # control: a flash is seen; a thing caught is no word; a participle before a noun is no sound
    assert refuted("Bertil Crane flinches at the flash of the lantern.") == set()
    assert refuted("Bertil Crane catches the mooring line Wren throws.") == set()
    assert refuted("Bertil Crane hands the mug to the singing boy.") == set()


def test_seeing_in_the_sense_of_foresight_is_no_sight() -> None:
    assert refuted("Odo Fenn sees the lock keeper waving from the bank.") == {"npc-odo-condition-blinded"}
    assert refuted("Odo Fenn sees the future in the river's eddies.") == set()
    assert refuted("Odo Fenn sees that the toll will ruin them.") == set()
    assert refuted("Odo Fenn sees through the pilot's excuse at once.") == set()


def test_arguing_is_speech() -> None:
    assert refuted("Ines Vane argues with the lock keeper over the toll.") == {"npc-ines-condition-silenced"}
    assert refuted("Ines Vane bickers with Tobin about the knots.") == {"npc-ines-condition-silenced"}
    assert refuted("Ines Vane shakes her head at the lock keeper over the toll.") == set()


def test_health_in_the_creatures_own_mouth_or_before_now_is_not_asserted() -> None:
    assert refuted("Garrick Moss is unhurt.") == {"npc-garrick-hp"}
    assert refuted("Garrick Moss stands at the rail without so much as a bruise.") == {"npc-garrick-hp"}
    # control: words reported or pretended, a state told as before something, what another hopes
    assert refuted("Garrick Moss swears he is in perfect health, though he limps.") == set()
    assert refuted("Garrick Moss pretends to be unhurt.") == set()
    assert refuted("Garrick Moss was in the best of health before the ambush.") == set()
    assert refuted("Wren tells Tobin that Garrick Moss is unhurt.") == set()


def test_a_past_verb_ahead_of_the_health_words_tells_of_then() -> None:
    text = (
        "Garrick Moss sits on a coil of rope. He tells Tobin the tale again, how he came through the rapids "
        "without a scratch, and Tobin pretends to believe it."
    )
    assert refuted(text) == set()
    text = "Garrick Moss sits on a coil of rope. He looks up at Tobin, without a scratch on him, and grins."
    assert refuted(text) == {"npc-garrick-hp"}


def test_words_read_off_a_watched_mouth_are_not_heard() -> None:
    text = "Bertil Crane watches Wren's mouth closely as she asks. Then he answers in a slow, flat voice."
    assert refuted(text) == set()
    text = "Wren asks the pilot about the toll. Bertil Crane answers before the pilot can."
    assert refuted(text) == {"npc-bertil-condition-deafened"}


def test_a_senseless_creature_acting_by_any_verb() -> None:
    assert refuted("By the stern lantern Hob Tarrant whittles a tent peg.") == {
        "npc-hob-condition-unconscious"
    }
    assert refuted("Hob Tarrant is sitting up on the hatch, sipping tea.") == {
        "npc-hob-condition-unconscious"
    }
    # control: what a senseless body does of itself, an absolute phrase, a state after "is"
    assert refuted("Hob Tarrant twitches in his sleep.") == set()
    assert refuted("Hob Tarrant groans but does not wake.") == set()
    assert refuted("Hob Tarrant lies on the hatch, his chest rising and falling.") == set()
    assert refuted("Hob Tarrant is still stretched out on the hatch where he fell.") == set()


def test_eyes_that_see_nothing_and_percepts_of_other_senses_are_no_sight() -> None:
    assert refuted("Odo Fenn leans on the rail and squints at the lock keeper's sign.") == {
        "npc-odo-condition-blinded"
    }
    assert refuted("Odo Fenn notices the tear in Wren's sleeve.") == {"npc-odo-condition-blinded"}
    # control: eyes told seeing nothing, an absolute phrase, a smell noticed, the mood read
    assert refuted("Odo Fenn stares sightlessly at the far bank.") == set()
    assert refuted("Odo Fenn gazes toward the weir he cannot see.") == set()
    assert refuted("Odo Fenn sits on the hatch, eyes closed, listening to the weir.") == set()
    assert refuted("Odo Fenn notices the smell of tar before anyone else.") == set()
    assert refuted("Odo Fenn reads the mood of the crew by their voices.") == set()


def test_as_hale_as_anything_is_vigour() -> None:
    assert refuted("Garrick Moss poles the barge off the bank, as fresh as the morning.") == {
        "npc-garrick-hp"
    }
    assert refuted("Garrick Moss poles the barge off the bank, as tired as the morning is long.") == set()


def test_a_bare_line_of_speech_after_an_action_is_the_actors() -> None:
    assert refuted('Ines Vane leans over the tiller. "Left at the weir, then straight on."') == {
        "npc-ines-condition-silenced"
    }
    # control: the words on a page, a line another speaks, a senseless creature's neighbour speaking
    assert (
        refuted('Ines Vane unfolds the lock keeper\'s note. "Left at the weir, then straight on."') == set()
    )
    assert refuted('Ines Vane leans over the tiller. "Left at the weir," Wren says.') == set()
    assert refuted('Hob Tarrant lies on the hatch. "He will sleep till noon."') == set()
