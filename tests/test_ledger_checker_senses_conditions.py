"""Conditions against what a body does: sight, hearing, speech and acting, read by word class.

- An indirect question ("asks him, low, whether it will hold") frames only itself: the main clause after
  its comma is told as fact, so a deafened keeper who "catches the question and answers" is judged.
- The verb behind an auxiliary joined to a bare "has" ("has a primer on her knee and is reading it aloud").
- Sight told without a verb of seeing: a finger run down a column of print, colours told apart, someone
  known by how they look, a gaze that falls on a thing; hearing: turning toward a sound, words caught or
  answered that were given voice ("the whispered question"), a start when a voice or a bell sounds, and an
  answer "without turning" (the "without" denies its own phrase, not the answer).
- What the blind and the deaf really do stays clean: raised letters felt, a voice or a scent known, lips
  read, a note read, someone reading to them, memory, negation.
- A condition the narration itself lifts (a bandage unwound, a gag pulled out, hearing coming back, a
  healer's cure, coming to) is no claim against the record for what follows; waking does not cure blindness.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot

HERE = "loc-saltworks"


def saltworks() -> WorldSnapshot:
    """A saltworks on a grey coast: Oriel blinded, Tam deafened, Wenna silenced, Pell unconscious, Brisk
    paralysed, Juno petrified, Lark charmed by Master Quell, Moss restrained; Nell is hale."""

    def npc(eid: str, name: str, pronoun: str, *conds: str, src: tuple[tuple[str, str], ...] = ()) -> Entity:
        return Entity(
            eid,
            "npc",
            name,
            location=HERE,
            pronoun=pronoun,
            conditions=frozenset(conds),
            condition_sources=src,
        )

    cast = [
        Entity("pc-sable", "pc", "Sable", owner="1", location=HERE, pronoun="she"),
        Entity("pc-gideon", "pc", "Gideon", owner="2", location=HERE, pronoun="he"),
        npc("npc-oriel", "Oriel Stannard", "she", "blinded"),
        npc("npc-tam", "Tam Wicklow", "he", "deafened"),
        npc("npc-wenna", "Wenna Marsh", "she", "silenced"),
        npc("npc-pell", "Pell Harrow", "he", "unconscious"),
        npc("npc-brisk", "Brisk Fallow", "he", "paralyzed"),
        npc("npc-juno", "Juno Reed", "she", "petrified"),
        npc("npc-lark", "Lark Penhale", "she", "charmed", src=(("charmed", "npc-quell"),)),
        npc("npc-quell", "Master Quell", "he"),
        npc("npc-nell", "Nell Trow", "she"),
        npc("npc-moss", "Moss Carrow", "he", "restrained"),
    ]
    return WorldSnapshot.build(
        entities=[*cast, Entity(HERE, "location", "the saltworks")],
        scene=Scene(HERE, frozenset(e.id for e in cast)),
    )


def refuted(text: str) -> set[str]:
    """The records the check contradicts ``text`` with."""
    report = check(text, saltworks())
    return {v.refuted_by for v in report.claims if v.verdict == "contradicted" and v.refuted_by}


def clean(text: str) -> bool:
    return check(text, saltworks()).verdict == "clean"


BLIND = "npc-oriel-condition-blinded"
DEAF = "npc-tam-condition-deafened"


# --- an indirect question frames only itself --------------------------------------------------------------


def test_a_question_asked_low_then_caught_and_answered_is_hearing() -> None:
    text = (
        "When you ask Tam, low, under the clatter of the pans, whether the sluice will hold, he catches the "
        "question at once and answers in the same murmur."
    )
    assert DEAF in refuted(text)
    assert DEAF in refuted("When Sable asks him whether the pans would crack, Tam answers at once.")


def test_a_condition_and_what_is_asked_still_frame_their_clauses() -> None:
    assert clean("If Sable asks him, Tam answers at once.")
    assert clean("Sable asks whether Tam heard the bell.")
    # a name set off by commas inside the question is still inside it
    assert clean("Sable asks whether the boilerman, Tam Wicklow, hears the bell.")


def test_words_given_voice_are_heard() -> None:
    assert DEAF in refuted("Tam catches the murmured words.")
    assert DEAF in refuted("Tam answers the whispered question without looking up.")
    assert DEAF in refuted("Tam obeys the shouted order at once.")
    assert DEAF in refuted("Sable murmurs a question behind him; Tam answers without turning.")


def test_words_given_without_voice_are_not_heard() -> None:
    assert clean("Tam answers the written question.")
    assert clean("Tam answers the whispered question on his slate.")
    assert clean("Tam watches Sable's lips and answers the whispered question.")
    assert clean("Oriel answers the whispered question.")  # the blind hear


def test_a_start_when_a_voice_or_a_bell_sounds_is_hearing() -> None:
    assert DEAF in refuted("Tam turns when Sable calls his name.")
    assert DEAF in refuted("Tam turns when she calls his name.")
    assert clean("Tam looks up when Sable speaks.")  # lips seen moving
    assert DEAF in refuted("Tam jumps when the bell rings.")
    assert clean("Tam jumps when the door slams behind him.")  # a slam is felt through the boards
    assert clean("Tam stops when he speaks.")  # his own words


# --- the verb behind an auxiliary joined to a bare "has" --------------------------------------------------


def test_has_a_primer_and_is_reading_it_aloud() -> None:
    assert BLIND in refuted("Oriel has a tide primer propped on her knee and is reading the tables aloud.")
    assert BLIND in refuted("Oriel has a tide primer propped on her knee and reads it aloud.")


def test_not_reading_or_read_to_is_clean() -> None:
    assert clean("Oriel has a tide primer propped on her knee and is not reading it.")
    assert clean("Oriel has a tide primer on her knee, and Gideon is reading it to her.")
    assert clean("Gideon reads the tide tables to Oriel.")


# --- sight told without a verb of seeing -------------------------------------------------------------------


def test_a_finger_down_a_column_of_print_is_reading() -> None:
    text = 'Oriel has the brine log across her knees. She runs a finger down the column and stops. "There."'
    assert BLIND in refuted(text)
    assert BLIND in refuted("Oriel traces the figures with her thumb.")


def test_a_finger_over_what_can_be_felt_is_clean() -> None:
    assert clean("Oriel runs her fingers over the raised letters of the plaque.")
    assert clean("Oriel runs a finger along the braille column.")
    assert clean("Oriel runs her fingers down the page, feeling for the pinpricks.")
    assert clean("Oriel runs a finger down the scar on her cheek.")
    assert clean("Oriel runs a thumb down the spine of the book.")


def test_poring_over_print_is_sight_unless_by_another_sense() -> None:
    assert BLIND in refuted("Oriel pores over the brine chart.")
    assert clean("Oriel deciphers the code by ear, tapping along.")
    assert clean("Oriel studies the carving by touch.")


def test_colours_told_apart_are_seen() -> None:
    assert BLIND in refuted("Oriel picks out the blue thread from the red.")
    assert BLIND in refuted("Oriel sorts the red beads from the green.")


def test_colours_in_the_narrators_words_or_told_by_another_sense_are_clean() -> None:
    assert clean("Oriel picks up the blue cup.")
    assert clean("Oriel tells the red from the white by the smell alone.")
    assert clean("Oriel picks out Gideon's voice from the crowd.")
    assert clean("Oriel tells the red-haired boy to wait.")


def test_known_by_how_one_looks_is_sight_and_by_voice_or_scent_is_not() -> None:
    assert BLIND in refuted("Oriel recognises Sable at once by her red coat.")
    assert BLIND in refuted("Oriel knows Gideon by his silhouette in the door.")
    assert clean("Oriel recognises Sable at once by her voice.")
    assert clean("Oriel recognises Sable by the scent of her coat.")
    assert clean("Oriel knows Gideon by his step.")


def test_what_only_the_eye_knows() -> None:
    assert BLIND in refuted("Oriel recognises the handwriting at once.")
    assert clean("Oriel knows the face.")  # knowledge, perhaps from long ago
    assert clean("Oriel recognises the hand on her shoulder.")


def test_a_start_at_a_thing_that_sounds() -> None:
    assert DEAF in refuted("Tam cocks his head at the knock.")
    assert DEAF in refuted("Tam jumps at the bell.")
    assert DEAF in refuted("Tam turns at his name, frowning.")
    assert clean("Tam stares at the bell.")
    assert clean("Tam turns to the bell tower.")
    assert clean("Tam points at his name on the list.")
    assert clean("Oriel jumps at the bell.")


def test_a_gaze_that_falls_on_a_thing_sees_it() -> None:
    assert BLIND in refuted("Oriel's gaze falls on the letter.")
    assert clean("Oriel turns her blind eyes toward the window.")


def test_turning_toward_a_sound_is_hearing() -> None:
    assert DEAF in refuted("Tam turns toward the sound of the door.")
    assert clean("Oriel turns toward the sound of the door.")  # the blind hear
    assert clean("Tam turns at the tap on his shoulder.")  # the deaf feel


# --- what the deaf and the blind really do -----------------------------------------------------------------


def test_lips_and_written_questions_are_not_heard() -> None:
    assert clean("Tam reads the question on Sable's lips and answers.")
    assert clean("Sable writes the question on the slate and Tam answers.")
    assert clean("Sable signs the question; Tam answers with a nod.")


def test_memory_negation_and_hypothesis_are_clean() -> None:
    assert clean("Oriel used to read the tide tables every morning.")
    assert clean("Oriel cannot read it.")
    assert clean("Oriel would read the letter if she could.")
    assert clean("Tam cannot hear the bell.")
    assert clean("Tam remembers the sound of the bell.")


def test_listening_for_nothing_is_still_hearing() -> None:
    assert DEAF in refuted("Tam listens at the door, but hears nothing.")
    assert clean("Oriel listens at the door.")


# --- speech and acting -------------------------------------------------------------------------------------


def test_the_silenced_speak_only_without_a_voice() -> None:
    assert "npc-wenna-condition-silenced" in refuted("Wenna answers Sable in a whisper.")
    assert "npc-wenna-condition-silenced" in refuted("Wenna screams.")
    assert clean("Wenna tries to scream.")
    assert clean("Wenna opens her mouth to scream, but no sound comes.")
    assert clean("Oriel screams.")
    assert clean("Wenna mouths the answer.")
    assert clean("Wenna writes her answer on the slate.")


def test_the_helpless_do_not_act() -> None:
    assert "npc-brisk-condition-paralyzed" in refuted("Brisk reaches for his sword.")
    assert "npc-juno-condition-petrified" in refuted("Juno turns her head and smiles.")
    assert clean("Pell lies still, breathing shallowly.")


def test_hostility_toward_the_charmer() -> None:
    assert "npc-lark-condition-charmed" in refuted("Lark spits at Master Quell's feet.")
    assert clean("Lark smiles at Master Quell.")


# --- a condition the narration lifts ------------------------------------------------------------------------


def test_a_bandage_unwound_a_gag_pulled_hearing_back() -> None:
    assert clean("Oriel unwinds the bandage, blinks at the light, and reads the note.")
    assert clean("Nell pulls the gag from Wenna's mouth. Wenna answers at once.")
    assert clean("Tam's hearing comes back in a rush. He hears the bell.")
    assert clean("Nell lays her hands on Oriel's eyes and the blindness lifts. Oriel reads the note.")
    assert clean("Nell heals Oriel. Oriel reads the note.")
    assert clean("Nell restores Oriel's sight. Oriel reads the note.")
    assert clean("Nell cuts the bandage away. Oriel reads the note.")


def test_a_lift_not_told_lifts_nothing() -> None:
    assert BLIND in refuted("Oriel cannot unwind the bandage. She reads the note.")
    assert BLIND in refuted("Nell changes the bandage on Oriel's eyes. Oriel reads the note.")
    # waking ends a swoon, not blindness
    assert BLIND in refuted("Oriel wakes with a start and reads the note.")
    # an attempt, a plan, or the word as a noun
    assert BLIND in refuted("Nell will heal Oriel tomorrow. Oriel reads the note.")
    assert BLIND in refuted("Nell cuts a fresh strip of bandage. Oriel reads the note.")
    assert "npc-pell-condition-unconscious" in refuted(
        "Nell tries to wake Pell. He mumbles and asks for water."
    )


def test_coming_to_lifts_the_swoon() -> None:
    assert clean("Pell comes to with a groan and asks for water.")
    assert clean("Pell comes to. He asks for water.")
    assert "npc-pell-condition-unconscious" in refuted("Nell comes round with the tray. Pell asks for water.")
    # waking is no cure for paralysis
    assert "npc-brisk-condition-paralyzed" in refuted("Brisk wakes and reaches for his sword.")


def test_a_freeing_ends_being_held() -> None:
    held = "npc-moss-condition-restrained"
    assert held in refuted("Moss paces the length of the salt shed.")
    assert clean("Nell cuts Moss free. Moss paces the length of the salt shed.")
    assert clean("Nell unties the ropes binding Moss. He paces the length of the salt shed.")
    assert held in refuted("Nell tries to free Moss. Moss paces the length of the salt shed.")
    assert held in refuted("Nell checks the ropes binding Moss. He paces the length of the salt shed.")
    assert held in refuted("Nell sets the gull free. Moss paces the length of the salt shed.")
