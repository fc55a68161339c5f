"""Verbs read from a lexicon, and changes the narration itself tells replayed before later sentences.

A dead man acting with a verb no hand list holds is still acting; a corpse lying, hanging or resting is not; a
rumour or a report covers the clause it reports; and a party that goes somewhere in the text, or in what its
players submitted, meets the people who are there, an item handed over is then held by its new holder, and a
debt paid off in this round's doing is settled for the sentences after it.
"""

from __future__ import annotations

from ledger.check.extract.verbs import can_be_past, is_past, lemma, verb_class
from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, RoundFacts, Scene, Thread, WorldSnapshot


def abbey(*, round: RoundFacts | None = None) -> WorldSnapshot:
    """An abbey: the party in the cloister, the abbot in the chapel, a dead smuggler, a key and a debt."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-mira", "pc", "Mira", owner="1", location="loc-cloister", pronoun="she"),
            Entity("pc-oren", "pc", "Oren", owner="2", location="loc-cloister", pronoun="he"),
            Entity(
                "npc-abbot", "npc", "Abbot Hale", (Alias("the abbot"),), location="loc-chapel", pronoun="he"
            ),
            Entity(
                "npc-voss",
                "npc",
                "Harlan Voss",
                (Alias("Voss"),),
                alive=False,
                location="loc-crypt",
                pronoun="he",
            ),
            Entity("npc-tam", "npc", "Tam", location="loc-cloister", pronoun="he"),
            Entity("loc-abbey", "location", "the abbey"),
            Entity("loc-cloister", "location", "the cloister", location="loc-abbey"),
            Entity("loc-chapel", "location", "the chapel", location="loc-abbey"),
            Entity("loc-crypt", "location", "the crypt", location="loc-abbey"),
            Entity("loc-docks", "location", "the docks"),
            Entity("item-key", "item", "iron key"),
        ],
        holdings=[Holding("item-key", "npc-tam")],
        threads=[Thread("debt-0001-01", "debt", "open", ("pc-mira", "npc-tam"), "Mira owes Tam ten silver")],
        scene=Scene("loc-cloister", frozenset({"pc-mira", "pc-oren", "npc-tam"})),
        round=round,
    )


def refuted(text: str, world: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, world).conflicts()}


def test_the_lexicon_reads_verbs_no_hand_list_holds() -> None:
    assert lemma("pirouettes") == "pirouette"
    assert lemma("shoulders") == "shoulder"
    assert lemma("pirouetted") == "pirouette" and lemma("strode") == "stride"
    assert lemma("would") is None and lemma("stairs") is None
    assert is_past("shouldered", "shoulder") and not is_past("reads", "read") and not is_past("read", "read")
    assert can_be_past("fell") and not can_be_past("walks")
    assert verb_class("lie") == "posture" and verb_class("whisper") == "speech"
    assert verb_class("shoulder") == "act" and verb_class("owe") == "state"


def test_a_dead_man_acting_with_an_unlisted_verb_is_refuted_by_his_death() -> None:
    assert "npc-voss-alive" in refuted("Voss shoulders through the crowd of pilgrims.", abbey())
    assert "npc-voss-alive" in refuted("Harlan Voss drums his fingers on the lectern.", abbey())


def test_a_corpse_lying_or_hanging_is_not_acting() -> None:
    assert refuted("In the crypt, Harlan Voss lies under a linen shroud.", abbey()) == set()
    assert refuted("Voss hangs from the bell rope, stiff and cold.", abbey()) == set()


def test_a_rumour_or_a_report_covers_the_clause_it_reports() -> None:
    assert refuted("They say Voss walks the docks at night.", abbey()) == set()
    assert refuted("The novices swear that Voss still prowls the cloister.", abbey()) == set()
    assert refuted("Tam tells Mira where Voss hides his coin.", abbey()) == set()


def test_a_party_going_somewhere_in_the_text_meets_the_people_there() -> None:
    text = "Mira and Oren climb the worn stair to the chapel. The abbot looks up from his prayers and nods."
    assert refuted(text, abbey()) == set()
    text = "You take the back stairs down into the chapel. The abbot looks up from his prayers."
    assert refuted(text, abbey()) == set()


def test_without_the_journey_the_abbot_is_elsewhere() -> None:
    assert refuted("The abbot looks up from his prayers and nods to Mira.", abbey()) == {"npc-abbot-location"}


def test_a_move_the_players_submitted_applies_to_the_narration() -> None:
    rnd = RoundFacts(
        number=2,
        submissions={"pc-mira": "I walk over to the chapel to find the abbot.", "pc-oren": "I go with Mira."},
        acted=frozenset({"pc-mira", "pc-oren"}),
    )
    assert refuted("The abbot looks up from his prayers and greets Mira.", abbey(round=rnd)) == set()
    # a PC who went with the other may be told leaving
    assert refuted("Oren leaves the cloister behind them.", abbey(round=rnd)) == set()


def test_a_hand_over_told_in_the_text_is_replayed() -> None:
    assert (
        refuted("Tam hands the iron key to Mira. Mira turns the iron key over in her hands.", abbey())
        == set()
    )
    assert refuted("Mira turns the iron key over in her hands.", abbey()) == {"item-key-holder"}


def test_a_journey_elsewhere_by_an_npc_is_not_the_party_moving() -> None:
    text = "Tam hurries off to the chapel. The abbot looks up from his prayers."
    assert refuted(text, abbey()) == {"npc-abbot-location"}


def test_a_debt_paid_off_in_this_rounds_doing_is_settled_for_later_sentences() -> None:
    rnd = RoundFacts(
        number=3, submissions={"pc-mira": "I pay Tam the ten silver I owe him."}, acted=frozenset({"pc-mira"})
    )
    text = "Mira counts ten silver into Tam's palm, and the debt is paid in full. She owes him nothing now."
    assert refuted(text, abbey(round=rnd)) == set()
    # told settled with no one paying it this round, the open debt refutes it
    assert refuted("Mira's debt to Tam is paid in full.", abbey()) == {"debt-0001-01"}


def test_a_hand_over_to_someone_unnamed_leaves_the_holder_open() -> None:
    text = "Tam passes the iron key across the counter. Mira turns the iron key over in her hands."
    assert refuted(text, abbey()) == set()


def test_taking_out_ones_own_thing_is_no_acquisition() -> None:
    assert refuted("Tam takes out the iron key and turns it over.", abbey()) == set()
    assert refuted("Mira takes out the iron key and unlocks the gate.", abbey()) == {"item-key-holder"}


def test_the_party_going_somewhere_by_a_party_noun_moves_the_narration() -> None:
    text = "The party climbs the worn stair to the chapel. The abbot looks up from his prayers."
    assert refuted(text, abbey()) == set()


def test_someone_where_a_named_place_is_is_there_not_here() -> None:
    assert refuted("Tam points to the chapel, where the abbot is lighting candles.", abbey()) == set()
    assert refuted("Tam points to the cloister, where the abbot is lighting candles.", abbey()) == {
        "npc-abbot-location"
    }


def test_a_pc_who_submitted_nothing_may_idle_but_not_leave() -> None:
    rnd = RoundFacts(
        number=4, submissions={"pc-mira": "I ask Tam about the key."}, acted=frozenset({"pc-mira"})
    )
    assert refuted("Oren yawns and fidgets on his barrel.", abbey(round=rnd)) == set()
    assert refuted("Oren storms off to the chapel without a word.", abbey(round=rnd)) == {
        "round:submission-pc-oren"
    }


def test_an_item_a_player_submitted_putting_down_may_be_handled_by_others() -> None:
    world = abbey()
    mira_has_it = WorldSnapshot.build(
        entities=world.entities.values(),
        holdings=[Holding("item-key", "pc-mira")],
        threads=world.threads.values(),
        scene=world.scene,
        round=RoundFacts(
            number=5,
            submissions={"pc-mira": "I lay the iron key on the table and ask Tam what it opens."},
            acted=frozenset({"pc-mira"}),
        ),
    )
    assert refuted("Tam turns the iron key over in his hands.", mira_has_it) == set()
    assert refuted("Tam turns the iron key over in his hands.", mira_has_it.with_round(RoundFacts())) == {
        "item-key-holder"
    }


def test_a_life_remembered_or_a_tale_told_is_not_the_dead_acting() -> None:
    assert refuted("When Voss was alive, he haggled over every copper.", abbey()) == set()
    assert refuted("According to Tam, Voss still prowls the cloister after dark.", abbey()) == set()
    assert refuted("In Tam's story, Voss strides out of the fog with a lantern.", abbey()) == set()
    assert refuted("Tam tells the novices that Voss walks the cloister at night.", abbey()) == set()
    assert refuted("Voss strides out of the fog with a lantern.", abbey()) == {"npc-voss-alive"}


def test_someone_presented_as_here_is_here() -> None:
    assert refuted("There is Harlan Voss, leaning on the font as if nothing had happened.", abbey()) == {
        "npc-voss-alive"
    }
    assert refuted("The abbot is there too, lighting candles.", abbey()) == {"npc-abbot-location"}
    assert "npc-voss-alive" in refuted("Voss, it seems, has come back from the grave.", abbey())


def test_they_after_naming_only_pcs_is_the_party() -> None:
    text = "Mira and Oren finish their bread. They climb the worn stair to the chapel. The abbot looks up."
    assert refuted(text, abbey()) == set()
    text = "Mira and Tam finish their bread. They climb the worn stair to the chapel. The abbot looks up."
    assert refuted(text, abbey()) == {"npc-abbot-location"}


def test_setting_out_for_a_place_goes_there() -> None:
    text = "Mira and Oren set off for the chapel. The abbot looks up from his prayers."
    assert refuted(text, abbey()) == set()
    assert refuted("Tam heads for the chapel. The abbot looks up from his prayers.", abbey()) == {
        "npc-abbot-location"
    }
