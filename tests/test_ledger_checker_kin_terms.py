"""Relationships told wrong: the specific kin term, strangers who are close, and reproof that is no hostility.

A kin claim carries its term (uncle, sister, daughter) and is judged against the recorded term, read from
the record's sentence or from an edge kind that is a kin term itself ("daughter"); a bare "kin" record with no
term judges no term. A kin phrase presupposes its tie under a question ("asks after Idra's uncle"). Two told
as strangers ("hardly more than a name to her", "has never met him") contradict a close recorded tie, unless
the telling is a pretence, a lie in quotes, a memory of before, or a disguise. Scolding and teasing are
friction inside a bond, and a feeling about a thing ("hates the way she limps") is not aimed at the person.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, Holding, Scene, WorldSnapshot


def vale(
    extra: tuple[Edge, ...] = (), conditions: frozenset[str] = frozenset(), bram_at: str = "loc-quarry"
) -> WorldSnapshot:
    """A mill valley: Idra and her father the Warden, her aunt Tamsin, the lovers Wren and Bram."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-idra", "pc", "Idra Hale", owner="1", location="loc-mill", pronoun="she"),
            Entity("pc-joss", "pc", "Joss", owner="2", location="loc-mill", pronoun="he"),
            Entity(
                "npc-corwin", "npc", "Corwin Hale", (Alias("the Warden"),), location="loc-mill", pronoun="he"
            ),
            Entity("npc-tamsin", "npc", "Tamsin Hale", location="loc-mill", pronoun="she"),
            Entity("npc-wren", "npc", "Wren Cobb", location="loc-mill", pronoun="she", conditions=conditions),
            Entity("npc-bram", "npc", "Bram Tull", location=bram_at, pronoun="he"),
            Entity(
                "npc-pell",
                "npc",
                "Sergeant Pell",
                (Alias("the sergeant"),),
                location="loc-mill",
                pronoun="he",
            ),
            Entity("npc-osk", "npc", "Osk Dunn", location="loc-mill", pronoun="he"),
            Entity("loc-mill", "location", "the mill"),
            Entity("loc-quarry", "location", "the quarry"),
        ],
        edges=[
            # the scenario format's specific kind: the source is the target's daughter
            Edge(
                "edge-idra-corwin", "pc-idra", "npc-corwin", "daughter", 40, "Idra is Corwin Hale's daughter"
            ),
            Edge(
                "edge-tamsin-idra",
                "npc-tamsin",
                "pc-idra",
                "kin",
                80,
                "Tamsin is Idra's aunt, her father's sister",
            ),
            Edge("edge-wren-bram", "npc-wren", "npc-bram", "lover", 85, "Wren and Bram are lovers"),
            Edge("edge-bram-wren", "npc-bram", "npc-wren", "lover", 85, "Wren and Bram are lovers"),
            Edge(
                "edge-osk-pell", "npc-osk", "npc-pell", "sworn-brother", 30, "Osk and Pell swore brotherhood"
            ),
            *extra,
        ],
        scene=Scene(
            "loc-mill",
            frozenset({"pc-idra", "pc-joss", "npc-corwin", "npc-tamsin", "npc-wren", "npc-pell", "npc-osk"}),
        ),
    )


def refuted(text: str, snap: WorldSnapshot | None = None) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap or vale()).conflicts()}


# --- the kin term -------------------------------------------------------------------------------------------


def test_a_kin_term_is_judged_against_the_recorded_term() -> None:
    assert refuted("Corwin is Idra's uncle.") == {"edge-idra-corwin"}
    assert refuted("Tamsin grinds barley by the door. She is Idra's elder sister.") == {"edge-tamsin-idra"}
    # controls: the recorded terms, from either side
    assert refuted("The Warden is Idra's father.") == set()
    assert refuted("Tamsin grinds barley by the door. She is Idra's aunt.") == set()


def test_an_edge_kind_that_is_a_kin_term_is_the_record_when_the_reason_names_none() -> None:
    aunt = Edge("edge-osk-joss", "npc-osk", "pc-joss", "uncle", 50, "Osk's sister married the ferryman")
    assert refuted("Osk is Joss's father.", vale((aunt,))) == {"edge-osk-joss"}
    assert refuted("Osk is Joss's uncle.", vale((aunt,))) == set()
    # a bare "kin" record with no term in its sentence judges no term (never a specific against an unspecific)
    bare = Edge("edge-osk-joss", "npc-osk", "pc-joss", "kin", 50, "Osk raised Joss after the flood")
    assert refuted("Osk is Joss's father.", vale((bare,))) == set()


def test_a_kin_phrase_keeps_its_tie_under_a_question() -> None:
    text = "Granny Moss sits by the door and asks after Idra's uncle the Warden, and whether he still coughs."
    assert refuted(text) == {"edge-idra-corwin"}
    # controls: the recorded term; and a copula's tie is what is asked, so it is not told
    assert refuted("Granny Moss sits by the door and asks after Idra's father the Warden.") == set()
    assert refuted("Granny Moss asks whether the Warden is Idra's uncle.") == set()


def test_an_edge_kind_that_is_a_kin_term_is_kin_and_a_sworn_brother_is_not() -> None:
    # "Idra's father, the Warden" was read as kin against a record of kind "daughter": "not kin"
    assert refuted("Idra's father, the Warden, coughs in the mill yard.") == set()
    assert refuted("Idra's uncle, the Warden, coughs in the mill yard.") == {"edge-idra-corwin"}
    assert refuted("Osk is no kin to Pell, whatever the oath says.") == set()
    assert refuted("Osk's brother, Sergeant Pell, stands at the gate.") == set()  # sworn, and called so
    assert refuted("Tamsin is no kin to Idra.") == {"edge-tamsin-idra"}


def test_a_kin_phrase_renaming_a_name_is_owned_by_someone_else() -> None:
    # "Tamsin, her aunt": Tamsin is the aunt, "her" is Idra (not Tamsin, the nearest "she")
    assert refuted("Idra runs to Tamsin, her aunt, and hides her face.") == set()
    assert refuted("Idra runs to Tamsin, her mother, and hides her face.") == {"edge-tamsin-idra"}
    assert refuted("Idra sits with the Warden, her uncle, by the fire.") == {"edge-idra-corwin"}


def test_as_a_child_names_no_child() -> None:
    assert refuted("Tamsin sits by Idra. She is Idra's aunt, the one who carried her as a child.") == set()
    assert refuted("Tamsin sits by Idra. She is Idra's aunt, and she raised her as a daughter.") == set()
    # control: a child of hers, told so, is still read
    assert refuted("Tamsin sits by Idra. Idra is Tamsin's only daughter.") == {"edge-tamsin-idra"}


def test_words_of_address_and_likeness_are_no_kin_claim() -> None:
    assert refuted('"Auntie," Idra says, and Tamsin hands her the ladle.') == set()
    assert refuted("Idra calls Tamsin auntie and takes the ladle.") == set()
    cousin = Edge("edge-wren-idra", "npc-wren", "pc-idra", "kin", 70, "Wren is Idra's cousin")
    assert refuted("Wren has been like a sister to Idra since the flood.", vale((cousin,))) == set()
    # control: the cousin told as her sister
    assert refuted("Wren is Idra's sister.", vale((cousin,))) == {"edge-wren-idra"}


# --- strangers ------------------------------------------------------------------------------------------


def test_lovers_told_as_strangers() -> None:
    text = (
        "Wren reads the card and laughs. Bram Tull is hardly more than a name to her: the surly quarryman, "
        "a man she has nodded to at the mill maybe twice."
    )
    # the man spoken of is placed nowhere by the relative clause's place
    assert refuted(text) == {"edge-wren-bram"}
    assert refuted("Wren barely knows Bram.") == {"edge-wren-bram"}
    assert refuted("Wren looks up from the sacks. She has never met Bram.") == {"edge-wren-bram"}
    assert refuted("Wren and Bram have never met.") == {"edge-wren-bram"}
    assert refuted("Bram is a complete stranger to Wren.") == {"edge-wren-bram"}
    assert refuted("Wren knows Bram only by sight.") == {"edge-wren-bram"}
    # kin held dear
    assert refuted("Idra barely knows Tamsin.") == {"edge-tamsin-idra"}


def test_strangers_by_pretence_lie_memory_or_disguise_are_no_claim() -> None:
    assert refuted("Wren pretends not to know Bram in front of the sergeant.") == set()
    assert refuted('"I have never met Bram," Wren tells the sergeant.') == set()
    assert refuted("Wren tells the sergeant she has never met Bram.") == set()
    assert refuted("Wren had never met Bram until the harvest fair.") == set()
    here = vale(bram_at="loc-mill")
    assert refuted("Bram stands by the sacks, hooded and masked. Wren does not know him.", here) == set()
    # control: no disguise told
    assert refuted("Bram stands by the sacks. Wren does not know him.", here) == {"edge-wren-bram"}
    assert refuted("Wren barely knows Bram.", vale(conditions=frozenset({"amnesia"}))) == set()
    assert refuted("Bram is no stranger to Wren.") == set()
    # knowing a fact, not a person; a tie too weak to say they know each other
    assert refuted("Wren does not know Bram is at the quarry.") == set()
    assert refuted("Wren barely knows Joss.") == set()


def test_a_man_spoken_of_is_not_placed_by_a_relative_clause() -> None:
    assert "npc-bram-location" not in refuted("Bram is only a name to Joss: a man he once saw at the mill.")
    # control: a copula with the place right after it still places him
    assert refuted("Bram is at the mill, stacking sacks.") == {"npc-bram-location"}


# --- attitude -----------------------------------------------------------------------------------------------


def test_reproof_between_kin_is_no_hostility() -> None:
    assert refuted("Tamsin scolds Idra sharply for walking on the wound.") == set()
    assert refuted("Tamsin mocks Idra's clumsy stitching and hands her the needle.") == set()
    assert refuted("Tamsin teases Idra about the boy at the well.") == set()
    # control: hostility is still hostility
    assert refuted("Wren betrays Bram to the sergeant.") == {"edge-wren-bram"}


def test_a_feeling_about_a_thing_is_not_aimed_at_the_person() -> None:
    assert refuted("Tamsin hates the way Idra limps.") == set()
    assert refuted("Tamsin hates seeing Idra in pain.") == set()
    assert refuted("Tamsin's feud with the miller worries Idra.") == set()
    # controls: the person as the feeling's object
    assert refuted("Wren despises Bram.") == {"edge-wren-bram"}
    assert refuted("Tamsin has a bitter feud with Idra.") == {"edge-tamsin-idra"}


def test_ones_own_mood_is_no_hostility() -> None:
    assert refuted("Wren sobs against Bram's chest.") == set()
    assert refuted("Tamsin mourns with Idra.") == set()
    assert refuted("Tamsin eyes Idra worriedly.") == set()
    assert refuted("Tamsin grieves for Idra's lost leg.") == set()
    # controls: harm done to the other is still hostile, a curse still a curse
    assert refuted("Wren hurts Bram.") == {"edge-wren-bram"}
    assert refuted("Wren curses Bram bitterly.") == {"edge-wren-bram"}


def test_knowing_someone_well_is_no_warmth() -> None:
    feud = Edge("edge-osk-wren", "npc-osk", "npc-wren", "enemy", -70, "Wren burned Osk's barn")
    assert refuted("Osk knows Wren better than anyone in the valley.", vale((feud,))) == set()
    # control: warmth shown is still warmth
    assert refuted("Osk embraces Wren warmly.", vale((feud,))) == {"edge-osk-wren"}


def test_more_ways_of_telling_strangers() -> None:
    assert refuted("Wren does not even know Bram's name.") == {"edge-wren-bram"}
    assert refuted("Wren has never once spoken to Bram.") == {"edge-wren-bram"}
    assert refuted("Wren thinks of Bram, a man she barely knows.") == {"edge-wren-bram"}
    assert refuted("Wren knows nothing of Bram.") == {"edge-wren-bram"}
    assert refuted("Bram Tull? Wren has never heard of him.") == {"edge-wren-bram"}
    assert refuted("To Wren, Bram is just another face at the quarry.") == {"edge-wren-bram"}
    # controls: knowing of a thing of his or a fact; a habit of discretion, a meeting of the day, a likeness,
    # a relative of his
    assert refuted("Wren knows nothing of Bram's debts.") == set()
    assert refuted("Wren knows nothing of Bram being at the quarry.") == set()
    assert refuted("Wren never speaks to Bram in public.") == set()
    assert refuted("Wren has not met Bram today.") == set()
    assert refuted("Wren is as cold as a stranger to Bram.") == set()
    assert refuted("Wren has never met Bram's mother.") == set()
    assert refuted("Wren does not recognise Bram at first.") == set()


def test_a_kin_word_after_a_possessive_is_a_person_not_a_thing_named_so() -> None:
    base = vale()
    crock = Entity("item-crock", "item", "the old starter crock", (Alias("the Mother"),))
    snap = WorldSnapshot.build(
        entities=[*base.entities.values(), crock],
        holdings=[Holding("item-crock", "npc-bram")],
        edges=base.edges,
        scene=base.scene,
    )
    assert refuted("Idra frets about how her mother feels about the mill.", snap) == set()
    # control: the thing by its name, handed over here while Bram holds it at the quarry
    assert refuted("Tamsin hands Idra the Mother.", snap) == {"item-crock-holder"}


def test_dislike_by_idiom() -> None:
    assert refuted("Wren has never cared for Bram.") == {"edge-wren-bram"}
    assert refuted("Wren can't abide Bram.") == {"edge-wren-bram"}
    assert refuted("Wren has no love for Bram.") == {"edge-wren-bram"}
    # controls: narrowed to one matter, a thing of hers, told as past, said in quotes, supposed
    assert refuted("Tamsin can't stand Idra when she sulks.") == set()
    assert refuted("Tamsin has never liked Idra's cooking.") == set()
    assert refuted("Wren once distrusted Bram.") == set()
    assert refuted('"I have never cared for Bram," Wren tells the sergeant.') == set()
    assert refuted("Wren would never distrust Bram.") == set()


def test_a_possessive_that_fits_both_kin_tells_no_kinship() -> None:
    # "her" may be Tamsin or Idra, and which decides who is whose aunt
    assert refuted("Tamsin pushes a bowl to Idra. Her aunt's hands are red from the stream.") == set()
    assert refuted("Idra runs to Tamsin and hugs her aunt.") == set()
    # controls: the owner is the sentence's own subject and the relative named after it; a man's term
    assert refuted("Idra kneels at her mother's side while Tamsin grinds barley.") == {"edge-tamsin-idra"}
    assert refuted("Idra sits by the fire while her uncle, the Warden, dozes.") == {"edge-idra-corwin"}


def test_longing_and_degree_words_are_no_hostility() -> None:
    assert refuted("Wren misses Bram terribly when he is at the quarry.") == set()
    # control: a curse is a curse however it is said
    assert refuted("Wren curses Bram bitterly.") == {"edge-wren-bram"}
