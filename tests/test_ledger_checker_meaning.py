"""Meaning-level checks: health words against HP, senses against conditions, kinship terms against the
recorded tie, counts against quantities, attitude shown by behaviour, and thread status in indirect words."""

from __future__ import annotations

from ledger.check.claims import Claim
from ledger.check.extract.valence import vader_lexicon, valence
from ledger.check.judge import check
from ledger.check.judge_meaning import recorded_kinship, verdict
from ledger.check.snapshot import (
    Alias,
    Edge,
    Entity,
    Holding,
    Scene,
    Thread,
    WorldSnapshot,
    snapshot_from_dict,
    thread_roles,
)


def world(
    *,
    sheriff_hp: int = 4,
    conditions: dict[str, frozenset[str]] | None = None,
    edges: tuple[Edge, ...] = (),
    threads: tuple[Thread, ...] = (),
    holdings: tuple[Holding, ...] = (),
    sources: dict[str, tuple[tuple[str, str], ...]] | None = None,
) -> WorldSnapshot:
    """A saloon with a wounded sheriff, a barkeep, a blacksmith, a mine boss and his son, and two PCs."""
    cond = conditions or {}
    src = sources or {}

    def npc(
        eid: str, name: str, pronoun: str, *aliases: str, hp: int | None = None, mx: int | None = None
    ) -> Entity:
        return Entity(
            eid,
            "npc",
            name,
            tuple(Alias(a) for a in aliases),
            location="loc-saloon",
            hp=hp,
            max_hp=mx,
            conditions=cond.get(eid, frozenset()),
            pronoun=pronoun,
            condition_sources=src.get(eid, ()),
        )

    return WorldSnapshot.build(
        entities=[
            Entity(
                "pc-wren", "pc", "Wren", owner="1", location="loc-saloon", hp=20, max_hp=20, pronoun="she"
            ),
            Entity(
                "pc-bogdan", "pc", "Bogdan", owner="2", location="loc-saloon", hp=40, max_hp=40, pronoun="he"
            ),
            npc("npc-hale", "Augusta Hale", "she", "Hale", "the sheriff", hp=sheriff_hp, mx=27),
            npc("npc-ruby", "Ruby Okafor", "she", "Ruby"),
            npc("npc-tomas", "Tomas Reyes", "he", "Tomas"),
            npc("npc-jonah", "Jonah Pike", "he", "Pike", "the mine boss"),
            npc("npc-ezra", "Ezra Pike", "he", "Ezra"),
            Entity("loc-saloon", "location", "the Lucky Strike", (Alias("the saloon"),)),
            Entity("item-vial", "item", "vial of laudanum", (Alias("laudanum"),)),
            Entity("item-candles", "item", "beeswax candles", (Alias("beeswax candle"),)),
        ],
        holdings=holdings,
        edges=edges,
        threads=threads,
        scene=Scene("loc-saloon", frozenset({"pc-wren", "pc-bogdan", "npc-hale", "npc-ruby", "npc-tomas"})),
    )


def flagged(text: str, snap: WorldSnapshot) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap).conflicts()}


# --- health ---------------------------------------------------------------------------------------------


def test_unhurt_words_at_low_hp_are_a_conflict_and_fine_at_full_hp() -> None:
    text = "Hale, not a scratch on her, hooks her thumbs in her gunbelt and tells Wren the news."
    assert "npc-hale-hp" in flagged(text, world(sheriff_hp=4))
    assert "npc-hale-hp" not in flagged(text, world(sheriff_hp=27))


def test_unhurt_words_built_on_an_injury_verb_and_idioms_count() -> None:
    assert "npc-hale-hp" in flagged("Hale strides in, fresh and quite unscathed, and sits down.", world())
    assert "npc-hale-hp" in flagged("Hale is fit as a fiddle tonight.", world())


def test_near_death_words_at_full_hp_are_a_conflict() -> None:
    assert "npc-hale-hp" in flagged("Hale, at death's door, leans on the bar.", world(sheriff_hp=26))
    assert "npc-hale-hp" not in flagged("Hale, at death's door, leans on the bar.", world(sheriff_hp=3))
    assert "pc-bogdan-hp" in flagged("Bogdan, barely standing, leans on the bar.", world())


def test_near_death_words_are_not_judged_when_the_maximum_may_be_unknown() -> None:
    # an NPC whose maximum equals its HP may only have had its HP recorded
    assert check("Hale, at death's door, leans on the bar.", world(sheriff_hp=27)).ok


def test_health_words_in_dialogue_are_not_held_against_hp() -> None:
    assert check('"Not a scratch on me," Hale tells Wren.', world()).ok


def test_fresh_as_a_word_of_something_else_is_no_health_claim() -> None:
    assert check("Ruby sets a fresh glass in front of Hale.", world()).ok


# --- senses -----------------------------------------------------------------------------------------------


def test_a_blinded_creature_reading_is_a_conflict() -> None:
    snap = world(conditions={"npc-tomas": frozenset({"blinded"})})
    text = "Tomas holds the poster out at arm's length and reads the description aloud."
    assert "npc-tomas-condition-blinded" in flagged(text, snap)


def test_a_blinded_creature_who_cannot_read_is_fine() -> None:
    snap = world(conditions={"npc-tomas": frozenset({"blinded"})})
    assert check("Tomas cannot read the poster, so Ruby reads it to him.", snap).ok


def test_a_deafened_creature_answering_a_whisper_is_a_conflict() -> None:
    snap = world(conditions={"npc-tomas": frozenset({"deafened"})})
    text = "Ruby whispers something to Tomas. Tomas answers her just as softly."
    assert "npc-tomas-condition-deafened" in flagged(text, snap)


def test_a_deafened_creature_who_hears_nothing_is_fine() -> None:
    snap = world(conditions={"npc-tomas": frozenset({"deafened"})})
    assert check("Tomas hears nothing of it and goes on shoeing the mule.", snap).ok


def test_a_silenced_creature_speaking_is_a_conflict_and_writing_is_not() -> None:
    snap = world(conditions={"npc-tomas": frozenset({"silenced"})})
    assert "npc-tomas-condition-silenced" in flagged("Tomas proclaims the news to the whole saloon.", snap)
    assert check("Tomas scratches a note on his slate and holds it up.", snap).ok


def test_a_cured_ailment_is_a_conflict_while_it_is_recorded() -> None:
    snap = world(conditions={"npc-ruby": frozenset({"diseased"})})
    text = "Wren looks Ruby over. The fever broke in the night, and she is clean of the sickness."
    assert "npc-ruby-condition-diseased" in flagged(text, snap)


# --- kinship ----------------------------------------------------------------------------------------------

SON = Edge("edge-ezra-jonah", "npc-ezra", "npc-jonah", "kin", 30, "Ezra is Jonah Pike's son")


def test_the_kinship_term_is_read_from_the_edge_reason() -> None:
    assert recorded_kinship(world(edges=(SON,)))[("npc-ezra", "npc-jonah")][0] == "son"


def test_a_wrong_kinship_term_is_a_conflict_and_the_right_one_is_not() -> None:
    snap = world(edges=(SON,))
    assert "edge-ezra-jonah" in flagged("Wren kneels by Ezra Pike, the mine boss's nephew.", snap)
    assert "edge-ezra-jonah" in flagged("Ezra is Jonah Pike's brother, and he drinks.", snap)
    assert check("Wren kneels by Ezra Pike, the mine boss's son.", snap).ok


def test_the_inverse_tie_is_judged_from_the_other_side() -> None:
    snap = world(edges=(SON,))
    assert "edge-ezra-jonah" in flagged("Jonah Pike, Ezra's uncle, stamps in.", snap)
    assert check("Jonah Pike, Ezra's father, stamps in.", snap).ok


# --- counts -----------------------------------------------------------------------------------------------


def test_an_ordinal_beyond_the_quantity_is_a_conflict() -> None:
    snap = world(holdings=(Holding("item-vial", "npc-ruby", 1),))
    assert "item-vial-quantity" in flagged("Ruby uncorks her second vial of laudanum.", snap)
    assert "item-vial-quantity" in flagged("Ruby holds out both vials of laudanum.", snap)


def test_only_and_number_words_against_a_stack() -> None:
    snap = world(holdings=(Holding("item-candles", "npc-ruby", 9),))
    assert "item-candles-quantity" in flagged("Ruby lights her only beeswax candle.", snap)
    assert "item-candles-quantity" not in flagged("Ruby lights two beeswax candles.", snap)
    assert "item-candles-quantity" in flagged("Ruby lights twelve beeswax candles.", snap)


# --- attitude ---------------------------------------------------------------------------------------------

ENEMY = Edge("edge-hale-jonah", "npc-hale", "npc-jonah", "enemy", -60, "Pike's men ran off her deputy")
LOYAL = Edge("edge-tomas-jonah", "npc-tomas", "npc-jonah", "employer", 80, "Tomas is loyal to Pike")


def test_the_lexicon_is_read_from_the_package_file() -> None:
    assert len(vader_lexicon()) > 5000
    assert valence("betrays") < 0 < valence("embraces")


def test_an_enemy_embracing_warmly_is_a_conflict() -> None:
    snap = world(edges=(ENEMY,))
    assert "edge-hale-jonah" in flagged("Hale embraces Jonah Pike warmly and thanks him.", snap)


def test_an_enemy_smiling_or_speaking_sweetly_is_no_conflict() -> None:
    snap = world(edges=(ENEMY,))
    assert check("Hale smiles at Jonah Pike.", snap).ok
    assert check('"No hard feelings," Hale says sweetly to Jonah Pike.', snap).ok


def test_a_devoted_servant_betraying_is_a_conflict() -> None:
    snap = world(edges=(LOYAL,))
    assert "edge-tomas-jonah" in flagged("Tomas betrays Jonah Pike to the sheriff for a whiskey.", snap)
    assert "edge-tomas-jonah" in flagged("Tomas sells Jonah Pike out for a whiskey.", snap)


def test_hostility_toward_the_charmer_is_a_conflict() -> None:
    snap = world(
        conditions={"npc-tomas": frozenset({"charmed"})}, sources={"npc-tomas": (("charmed", "npc-ruby"),)}
    )
    assert "npc-tomas-condition-charmed" in flagged("Tomas curses Ruby bitterly.", snap)


# --- threads ----------------------------------------------------------------------------------------------

DEBT = Thread("debt-1", "debt", "open", ("pc-bogdan", "npc-ruby"), "Bogdan owes Ruby Okafor thirty dollars")
FAVOUR = Thread("favor-1", "favour", "settled", ("npc-ruby", "pc-bogdan"), "Ruby owed Bogdan; repaid")


def test_a_debt_told_settled_in_indirect_words_is_a_conflict() -> None:
    snap = world(threads=(DEBT,))
    assert "debt-1" in flagged("Ruby nods at Bogdan. Whatever he owed her is squared now.", snap)
    assert "debt-1" in flagged("Bogdan made good on what he owed Ruby at the last new moon.", snap)


def test_a_settled_favour_told_open_by_pronouns_is_a_conflict() -> None:
    snap = world(threads=(FAVOUR,))
    assert "favor-1" in flagged("Ruby watches Bogdan. She still owes him for the mule.", snap)
    assert check("Ruby watches Bogdan. She owed him once, and paid it back in full.", snap).ok


# --- the snapshot ---------------------------------------------------------------------------------------


def test_thread_roles_are_read_off_the_terms() -> None:
    ents = {e.id: e for e in world().entities.values()}
    roles = thread_roles(("npc-ruby", "pc-bogdan"), "Bogdan owes Ruby Okafor thirty dollars", ents, "debt")
    assert dict(roles) == {"pc-bogdan": "owes", "npc-ruby": "owed"}


def test_a_world_file_gives_condition_sources_and_thread_roles() -> None:
    snap = snapshot_from_dict(
        {
            "entities": [
                {
                    "id": "npc-a",
                    "kind": "npc",
                    "name": "Ada",
                    "conditions": [{"condition": "charmed", "by": "npc-b"}],
                },
                {"id": "npc-b", "kind": "npc", "name": "Bel"},
            ],
            "threads": [
                {
                    "id": "t",
                    "kind": "debt",
                    "parties": ["npc-a", "npc-b"],
                    "roles": {"npc-b": "owes", "npc-a": "owed"},
                }
            ],
        }
    )
    assert snap.entities["npc-a"].conditions == frozenset({"charmed"})
    assert snap.entities["npc-a"].source_of("charmed") == "npc-b"
    assert snap.threads["t"].role_of("npc-b") == "owes"


def test_verdict_leaves_other_claim_kinds_to_the_judge() -> None:
    assert verdict(Claim("alive", ("npc-hale",), "Hale lives.", (0, 10)), world()) is None


# --- near misses: no claim, or no conflict ----------------------------------------------------------------


def test_near_misses_are_clean() -> None:
    blind = world(conditions={"npc-tomas": frozenset({"blinded"})})
    deaf = world(conditions={"npc-tomas": frozenset({"deafened"})})
    candles = world(holdings=(Holding("item-candles", "npc-ruby", 9),))
    cases = [
        (blind, "Tomas, who lost his sight in the forge fire, listens to the rain."),
        (blind, "Tomas turns at the sound of Wren's boots and asks who is there."),
        (deaf, "Tomas watches Ruby's lips and reads the words off them."),
        (world(), "Hale looks fresh out of patience."),
        (world(), "Wren, unharmed, helps Hale to a chair."),
        (world(edges=(ENEMY,)), "Hale nods to Jonah Pike, polite as a knife."),
        (world(edges=(ENEMY,)), "Hale remembers when she used to embrace Jonah Pike warmly at the dances."),
        (world(edges=(LOYAL,)), "Tomas curses the cold and follows Jonah Pike out."),
        (world(edges=(LOYAL,)), "Tomas would never betray Jonah Pike."),
        (world(threads=(DEBT,)), "Ruby asks Bogdan if he means to make good on the debt."),
        (candles, "Ruby lights one of her nine beeswax candles, then a second."),
        (candles, "The last beeswax candles gutter in the wind."),
    ]
    for snap, text in cases:
        report = check(text, snap)
        assert report.ok, (text, [(v.claim.label(), v.reason) for v in report.conflicts()])


def test_a_kinship_term_after_a_possessive_pronoun_is_judged_when_the_record_ties_them() -> None:
    snap = world(edges=(SON,))
    assert "edge-ezra-jonah" in flagged("Jonah Pike stamps in, and his nephew Ezra trails after him.", snap)
    assert check("Jonah Pike stamps in, and his son Ezra trails after him.", snap).ok
    assert check("Hale stamps in, and her nephew Ezra trails after her.", snap).ok  # no tie: not judged


def test_more_forms_of_the_same_meanings() -> None:
    blind = world(conditions={"npc-tomas": frozenset({"blinded"})})
    ill = world(conditions={"npc-ruby": frozenset({"diseased"})})
    assert "npc-tomas-condition-blinded" in flagged("Tomas's eyes follow Wren across the saloon.", blind)
    assert "npc-tomas-condition-blinded" in flagged("Tomas catches sight of Wren and waves.", blind)
    assert "npc-hale-hp" in flagged("Hale, her wounds long healed, deals the cards.", world())
    assert "npc-hale-hp" in flagged("Hale has never felt better.", world())
    assert "npc-ruby-condition-diseased" in flagged("Ruby has recovered and pours the whiskey.", ill)
    assert check("Ruby coughs and pours the whiskey.", ill).ok


def test_a_gesture_made_coldly_or_aimed_at_oneself_is_no_warmth() -> None:
    snap = world(edges=(ENEMY,))
    assert check("Hale thanks Jonah Pike coldly and turns her back.", snap).ok
    assert check("Hale helps herself to a drink while Jonah Pike talks.", snap).ok


def test_a_rumoured_settlement_is_not_held_against_the_thread() -> None:
    snap = world(threads=(DEBT,))
    assert check("Word is Bogdan has paid Ruby back every cent.", snap).ok
    assert check("Ruby says that Bogdan has paid her back in full.", snap).ok


def test_answers_without_a_voice_or_read_off_the_lips_are_fine() -> None:
    deaf = world(conditions={"npc-tomas": frozenset({"deafened"})})
    mute = world(conditions={"npc-tomas": frozenset({"silenced"})})
    assert check("Ruby asks Tomas about the mule. Tomas reads her lips and answers.", deaf).ok
    assert check("Ruby asks Tomas about the mule. Tomas answers with a nod.", mute).ok


def test_two_creatures_told_brothers_are_held_to_the_recorded_tie() -> None:
    snap = world(edges=(SON,))
    assert "edge-ezra-jonah" in flagged("Ezra and Jonah Pike are brothers, and they drink together.", snap)
    assert check("Wren and Bogdan are friends.", snap).ok


def test_the_last_of_a_task_is_no_count_but_her_last_is() -> None:
    snap = world(holdings=(Holding("item-candles", "npc-ruby", 9),))
    assert check("Ruby lights the last beeswax candle on the shelf and steps back.", snap).ok
    assert "item-candles-quantity" in flagged("Ruby lights her last beeswax candle.", snap)


def test_reading_by_touch_or_seeing_to_a_task_is_no_sight() -> None:
    blind = world(conditions={"npc-tomas": frozenset({"blinded"})})
    assert check("Tomas reads the raised letters with his fingertips.", blind).ok
    assert check("Tomas sees to the mules before the snow comes.", blind).ok


def test_working_together_or_ones_own_breath_is_no_warmth() -> None:
    snap = world(edges=(ENEMY,))
    assert check("Hale helps Jonah Pike drag the cart out of the snow.", snap).ok
    assert check("Hale saves her breath and lets Jonah Pike talk.", snap).ok


def test_selling_a_person_is_betraying_them_but_selling_their_things_is_not() -> None:
    snap = world(edges=(LOYAL,))
    text = "Within the hour Tomas is at the jail, trading the hour Jonah Pike sleeps for a silver dollar."
    assert "edge-tomas-jonah" in flagged(text, snap)
    assert check("Tomas sells Jonah Pike's old saddle for a silver dollar.", snap).ok
