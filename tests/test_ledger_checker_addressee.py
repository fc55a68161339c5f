"""Second-person narration: which player character a narrative "you" / "your" means, and what it then claims.

A game master writes to the players ("the lamp at your hip, Oriel", "She is your elder sister"). The
addressee is the PC called by name in the same sentence, else the one called last earlier in the narration,
else the only PC in the scene; a plural "you", a "you" in quotes, a sentence that calls someone else, or two
PCs in the scene with no call mean nobody. Once resolved, "your" works as a PC's name does for holdings and
counts ("your seven brass tokens", "the compass at your throat", "at your hip: the seven ..."), kinship ("she
is your elder sister", "you are Haska's daughter", "your brother" for the recorded brother) and health; never
for acts ("you see", "you feel" are the GM's register). The world is invented here: a canal lock in a rain
city, two PCs (Oriel, Dace), Oriel's aunt Haska, Dace's dead brother Bren.
"""

from __future__ import annotations

from ledger.check.extract import extract
from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, Holding, ItemFate, Scene, WorldSnapshot

BOTH = ("pc-oriel", "pc-dace", "npc-haska")
ORIEL_ONLY = ("pc-oriel", "npc-haska")


def lock(present: tuple[str, ...] = BOTH, oriel: frozenset[str] = frozenset()) -> WorldSnapshot:
    """The Ninth Lock: Oriel holds four brass tokens (Haska ten more), Dace the storm lamp, Haska a signet
    ring; the jade compass was lost in the flood. Haska is Oriel's aunt; Bren, Dace's younger brother, is
    dead."""
    return WorldSnapshot.build(
        entities=[
            Entity(
                "pc-oriel", "pc", "Oriel", owner="1", location="loc-lock", pronoun="she", conditions=oriel
            ),
            Entity("pc-dace", "pc", "Dace", owner="2", location="loc-lock", pronoun="he"),
            Entity("npc-haska", "npc", "Haska Venn", (Alias("Haska"),), location="loc-lock", pronoun="she"),
            Entity(
                "npc-bren",
                "npc",
                "Bren Tollis",
                (Alias("Bren"),),
                alive=False,
                location="loc-weir",
                pronoun="he",
            ),
            Entity("loc-lock", "location", "the Ninth Lock"),
            Entity("loc-weir", "location", "the weir"),
            Entity("item-tokens", "item", "brass tokens", (Alias("tokens"), Alias("token"))),
            Entity("item-compass", "item", "jade compass", (Alias("compass"),)),
            Entity("item-lamp", "item", "storm lamp", (Alias("lamp"),)),
            Entity("item-ring", "item", "signet ring", (Alias("ring"),)),
        ],
        holdings=[
            Holding("item-tokens", "pc-oriel", 4),
            Holding("item-tokens", "npc-haska", 10),
            Holding("item-lamp", "pc-dace"),
            Holding("item-ring", "npc-haska"),
        ],
        fates=[ItemFate("item-compass", "lost")],
        edges=[
            Edge(
                "edge-haska-oriel",
                "npc-haska",
                "pc-oriel",
                "kin",
                70,
                "Haska is Oriel's aunt, her mother's sister",
            ),
            Edge("edge-bren-dace", "npc-bren", "pc-dace", "kin", 80, "Bren was Dace's younger brother"),
        ],
        scene=Scene("loc-lock", frozenset(present)),
    )


def flagged(
    text: str, present: tuple[str, ...] = BOTH, oriel: frozenset[str] = frozenset()
) -> set[str | None]:
    return {v.refuted_by for v in check(text, lock(present, oriel)).conflicts()}


def test_a_vocative_in_the_sentence_names_whose_thing_it_is() -> None:
    # the lamp is Dace's: told at Oriel's hip it is in the wrong hands; at Dace's it is right
    assert "item-lamp-holder" in flagged("The storm lamp hangs at your hip, Oriel.")
    assert flagged("The storm lamp hangs at your hip, Dace.") == set()
    assert "item-lamp-holder" in flagged("Oriel, the storm lamp at your hip gutters in the rain.")
    assert "item-lamp-holder" in flagged("You carry the storm lamp, Oriel, wrapped in oilcloth.")
    # controls: two PCs here and nobody called; two PCs called in one sentence
    assert flagged("The storm lamp hangs at your hip.") == set()
    assert (
        flagged("Dace, the rain soaks your collar, and Oriel, the storm lamp gutters at your hip.") == set()
    )


def test_having_told_to_you_and_its_controls() -> None:
    # the compass was lost in the flood: told in Oriel's pack or hands, it is back from nowhere
    assert "item-compass-holder" in flagged("The jade compass is in your pack, Oriel, wrapped in oilcloth.")
    assert "item-compass-holder" in flagged("You still have the jade compass, Oriel.")
    # controls: denied, asked, wished, supposed
    assert flagged("Oriel, you have no jade compass now.") == set()
    assert flagged("Oriel, do you still have the jade compass?") == set()
    assert flagged("Oriel, you wish you still had the jade compass.") == set()
    assert flagged("If you had the jade compass, Oriel, the fog would not matter.") == set()


def test_a_thing_you_carry() -> None:
    assert "item-lamp-holder" in flagged("The storm lamp you carry gutters in the rain, Oriel.")
    assert flagged("Dace, the storm lamp you carry gutters.") == set()
    # controls: carried no longer, once, or not at all
    assert flagged("The storm lamp you no longer carry hangs at Dace's belt, Oriel.") == set()
    assert flagged("The storm lamp you once carried hangs at Dace's belt, Oriel.") == set()
    assert flagged("Oriel, the storm lamp you don't carry gutters.") == set()


def test_your_count_is_the_addressed_pcs_count() -> None:
    text = "The wind tugs at your hood, Oriel: your three brass tokens clink in your coat pocket."
    assert "item-tokens-quantity" in flagged(text)
    assert flagged(text.replace("three", "four")) == set()


def test_a_place_carried_then_a_colon_names_what_is_carried() -> None:
    # seven are more than Oriel has (though fewer than the fourteen there are)
    text = "You feel the weight at your hip, Oriel: the seven brass tokens, cold through the cloth."
    assert "item-tokens-quantity" in flagged(text)
    assert flagged(text.replace("seven", "three")) == set()
    # fronted: "In your pack, Oriel, rests ..."; some lamp of her own is not the one recorded
    assert "item-lamp-holder" in flagged("In your pack, Oriel, rests the storm lamp.")
    assert flagged("In your pack, Dace, rests the storm lamp.") == set()
    assert flagged("In your pack, Oriel, is a storm lamp of your own.") == set()
    # the lamp is Dace's, and Oriel's pack holds it
    assert "item-lamp-holder" in flagged("Your pack drags at your shoulders, Oriel: the storm lamp, unlit.")


def test_the_pc_called_earlier_in_the_paragraph_is_still_you() -> None:
    text = (
        "Oriel, the lock-keeper's dog noses at your boots. Rain drums on the roof. "
        "The storm lamp swings at your belt."
    )
    assert "item-lamp-holder" in flagged(text)
    # a new paragraph goes on talking to her (no other PC called since)
    text = (
        "Oriel, the dog noses at your boots.\n\nRain drums on the roof. The storm lamp swings at your belt."
    )
    assert "item-lamp-holder" in flagged(text)
    # the later call wins: Dace holds the lamp
    text = "Oriel, the dog noses at your boots. Dace, rain runs off your hood. The lamp swings at your hip."
    assert flagged(text) == set()


def test_the_only_pc_in_the_scene_is_you() -> None:
    text = "You stand at the lock gate; the storm lamp hangs at your hip."
    assert "item-lamp-holder" in flagged(text, ORIEL_ONLY)
    assert flagged(text) == set()  # two PCs here, nobody called
    # someone else called by name: "you" is Haska
    assert flagged("Haska, the storm lamp at your hip is dim.", ORIEL_ONLY) == set()


def test_plural_you_is_nobody() -> None:
    assert (
        flagged("The two of you stand at the lock gate; the storm lamp hangs at your hip.", ORIEL_ONLY)
        == set()
    )
    assert flagged("You both stand at the gate, the storm lamp at your hip.", ORIEL_ONLY) == set()
    assert flagged("Each of you has a storm lamp at your hip.", ORIEL_ONLY) == set()


def test_you_in_a_quote_is_the_speakers_addressee() -> None:
    text = 'Haska grins. "The storm lamp at your hip is a fine one," she says.'
    assert flagged(text, ORIEL_ONLY) == set()


def test_memory_is_no_claim_on_now() -> None:
    assert flagged("Oriel, you remember your father's signet ring glinting in the lamplight.") == set()
    assert flagged("Oriel, you remember the storm lamp at your hip that night years ago.") == set()
    text = "Oriel, you reach for the jade compass at your throat before you remember the flood took it."
    assert flagged(text) == set()
    # supposed, or handed over in the text itself
    assert flagged("The storm lamp at your hip would help, Oriel, if Dace lent it to you.") == set()
    assert (
        flagged("Oriel, Haska eyes the storm lamp at your hip, the one Dace lent you this morning.") == set()
    )
    # "your storm lamp" in someone else's hands is whose it is, not who holds it
    claims = extract("Haska polishes your storm lamp on her knees, Oriel.", lock()).claims
    assert not any(c.kind == "holds" and c.args[0] == "pc-oriel" for c in claims)


def test_kinship_told_to_you() -> None:
    text = "Haska is sitting by the stove. She is your elder sister, Oriel, and she never lets you forget it."
    assert "edge-haska-oriel" in flagged(text)
    assert flagged(text.replace("elder sister", "aunt")) == set()
    assert "edge-haska-oriel" in flagged("You are Haska's daughter, Oriel, and you have her eyes.")
    assert "edge-haska-oriel" in flagged("Haska, your sister, sets down her ladle, Oriel.")
    assert flagged("Haska, your aunt, sets down her ladle, Oriel.") == set()
    assert flagged("You are Haska's niece, Oriel, and you have her eyes.") == set()
    # two PCs here and nobody called: whose sister is not told
    assert flagged("Haska is sitting by the stove. She is your elder sister.") == set()


def test_your_kin_names_the_recorded_relative() -> None:
    assert "npc-bren-alive" in flagged("Dace, your brother waves from the towpath.")
    assert flagged("Dace, you remember your brother waving from the towpath.") == set()
    assert flagged("Oriel, your brother waves from the towpath.") == set()  # no brother of Oriel's recorded


def test_you_never_acts() -> None:
    # Oriel lies unconscious: what "you" sees and feels is the GM's register, not Oriel acting
    text = "Rain drums on the roof. You see the lamp gutter and feel the cold, Oriel."
    snap = lock(oriel=frozenset({"unconscious"}))
    claims = extract(text, snap).claims
    assert not any(c.kind in ("acts", "pc_choice", "present") and "pc-oriel" in c.args for c in claims)
    assert flagged(text, oriel=frozenset({"unconscious"})) == set()


def test_health_told_of_you() -> None:
    poisoned = frozenset({"poisoned"})
    text = "You are hale and whole again, the fever sweated out of you."
    assert "pc-oriel-condition-poisoned" in flagged(text, ORIEL_ONLY, poisoned)
    assert flagged(text, ORIEL_ONLY) == set()  # nothing recorded ails her
    assert flagged(text, BOTH, poisoned) == set()  # two PCs here, nobody called
