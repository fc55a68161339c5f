"""Issue 10, after the fresh_e run: relationships and threads told in words the checker did not read.

Kinship: a marriage term through a possessive pronoun whose relative was named a sentence or two back; a kin
phrase that renames the kin phrase before it ("his wife, Tove's mother") says nothing of anyone nearby; a
likeness ("like her own father") is no kinship; terms by marriage, step-, great- and homely words are judged.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Edge, Entity, Scene, Thread, WorldSnapshot


def farm(threads: tuple[Thread, ...] = ()) -> WorldSnapshot:
    """A hill farm: Hild and her brother Osk, Tove and her father Per, and Tove who hates Jun."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-jun", "pc", "Jun", owner="1", location="loc-farm", pronoun="he"),
            Entity("pc-ivo", "pc", "Ivo", owner="2", location="loc-farm", pronoun="he"),
            Entity("npc-hild", "npc", "Hild Brenner", location="loc-farm", pronoun="she"),
            Entity("npc-osk", "npc", "Osk Brenner", location="loc-farm", pronoun="he"),
            Entity("npc-tove", "npc", "Tove Lind", location="loc-farm", pronoun="she"),
            Entity("npc-per", "npc", "Per Lind", location="loc-farm", pronoun="he"),
            Entity("loc-farm", "location", "the farm"),
        ],
        edges=[
            Edge("edge-hild-osk", "npc-hild", "npc-osk", "kin", 70, "Hild is Osk Brenner's sister"),
            Edge("edge-tove-per", "npc-tove", "npc-per", "kin", 80, "Tove is Per Lind's daughter"),
            Edge("edge-tove-jun", "npc-tove", "pc-jun", "enemy", -60, "Jun cheated Tove at dice"),
        ],
        threads=list(threads),
        scene=Scene(
            "loc-farm", frozenset({"pc-jun", "pc-ivo", "npc-hild", "npc-osk", "npc-tove", "npc-per"})
        ),
    )


def refuted(text: str, snap: WorldSnapshot | None = None) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap or farm()).conflicts()}


def test_a_marriage_term_by_pronoun_reaches_a_relative_named_two_sentences_back() -> None:
    text = (
        "Osk splits kindling by the byre. The goats scatter. Hild sets the pail down at her husband's feet."
    )
    assert refuted(text) == {"edge-hild-osk"}
    text = "Per mends a net by the door. Rain drums on the thatch. Tove brings her grandfather his pipe."
    assert refuted(text) == {"edge-tove-per"}
    # controls: the recorded term; and no recorded kin of hers named nearby
    assert (
        refuted("Osk splits kindling. The goats scatter. Hild sets the pail down at her brother's feet.")
        == set()
    )
    assert (
        refuted("Jun splits kindling. The goats scatter. Hild sets the pail down at her husband's feet.")
        == set()
    )


def test_a_kin_phrase_renaming_the_one_before_it_is_not_the_named_relative() -> None:
    assert refuted("Per dozes by the stove. He lost his wife, Tove's mother, to the fever.") == set()
    assert refuted("Hild raised the boy since his mother, her only sister, drowned.") == set()
    # a later term in the same sentence is still read
    text = "Per dozes; his wife, her mother, is long dead, and Tove is all he has, his granddaughter."
    assert refuted(text) == {"edge-tove-per"}


def test_a_likeness_is_no_kinship() -> None:
    assert refuted("Per dozes by the stove. Tove tends him like her own grandfather.") == set()
    assert refuted("Osk whittles. Hild mothers him as her own son.") == set()


def test_terms_by_marriage_step_and_great_are_judged() -> None:
    assert refuted("Hild is Osk's sister-in-law.") == {"edge-hild-osk"}
    assert refuted("Tove, Per's stepdaughter, sweeps the yard.") == {"edge-tove-per"}
    assert refuted("Per dozes by the stove; Tove, his great-granddaughter, sweeps.") == {"edge-tove-per"}
    assert refuted("Osk Brenner, Hild's betrothed, stacks the peat.") == {"edge-hild-osk"}
    # controls: the recorded ties in homely or half- words
    assert refuted("Tove brings her dad his pipe while Per dozes.") == set()
    assert refuted("Hild is Osk's half-sister.") == set()


def test_a_marriage_told_by_verb_or_a_pair_of_terms_is_a_spouse_tie() -> None:
    assert refuted("Hild married Osk the spring the river flooded.") == {"edge-hild-osk"}
    assert refuted("Osk and Hild were wed at midsummer.") == {"edge-hild-osk"}
    assert refuted("Hild is married to Osk.") == {"edge-hild-osk"}
    assert refuted("Osk and Hild, husband and wife these twenty years, share the bench.") == {"edge-hild-osk"}
    assert refuted("Per and Tove are uncle and niece.") == {"edge-tove-per"}
    # controls: the recorded tie in either order of names; a marriage asked for, planned, denied or to another
    assert refuted("Hild and Osk, brother and sister, share the bench.") == set()
    assert refuted("Tove and Per, father and daughter, share the bench.") == set()
    assert refuted("Osk asks Jun to marry Tove.") == set()
    assert refuted("Hild will marry Jun at midsummer.") == set()
    assert refuted("Hild never married Osk.") == set()
    assert refuted("Per married Tove's mother in the spring.") == set()
    assert refuted("Hild and Osk, like husband and wife, bicker over the bread.") == set()


# --- warmth shown by behaviour: a tender touch, an endearment said to someone -------------------------------


def test_a_tender_touch_on_the_others_body_is_warmth() -> None:
    assert refuted("Jun limps into the yard. Tove hurries over and strokes his hair.") == {"edge-tove-jun"}
    assert refuted("Tove kneels and wipes the mud from Jun's cheek with her sleeve.") == {"edge-tove-jun"}
    # controls: a hand pushed away, a wrist gripped, a brush past someone
    assert refuted("Tove brushes Jun's hand away.") == set()
    assert refuted("Tove grips Jun's wrist and drags him to the gate.") == set()
    assert refuted("Tove brushes past Jun's shoulder without a word.") == set()


def test_an_endearment_said_to_someone_is_warmth() -> None:
    assert refuted('Tove sets a bowl before Jun. "Eat up, pet. You look half-starved."') == {"edge-tove-jun"}
    assert refuted('"Come in out of the rain, my dear boy," Tove tells Jun.') == {"edge-tove-jun"}
    # controls: menace or contempt in the quote or the manner; another speaker; "dear me" is no address
    assert refuted('"Sit down, dear," Tove sneers at Jun.') == set()
    assert refuted('"I hope you die slowly, darling," Tove tells Jun.') == set()
    assert refuted('Tove watches Jun. "Off with you, love," her father says.') == set()
    assert refuted('Tove glares at Jun. "Dear me, look who crawled back."') == set()
    # an unattributed line of thanks after a gift may be the receiver's
    assert refuted('Tove hands Jun the bowl. "Thanks, love."') == set()


def test_joy_at_the_sight_of_someone_is_warmth() -> None:
    assert refuted("Tove's face lights up when she sees Jun.") == {"edge-tove-jun"}
    text = (
        "Tove looks up from the churn, and her face lights with real pleasure as Jun comes through the gate."
    )
    assert refuted(text) == {"edge-tove-jun"}
    assert refuted("Tove's eyes brighten at the sight of Jun.") == {"edge-tove-jun"}
    # controls: joy at a thing he carries, at news, tears, a lantern lighting a face, a hand to a knife
    assert refuted("Tove's face lights up when she sees the silver Jun carries.") == set()
    assert refuted("Tove's face lights up at the news; Jun frowns.") == set()
    assert refuted("Tove's eyes shine with tears as Jun reads the letter.") == set()
    assert refuted("The lantern lights up Tove's face as Jun comes in.") == set()
    text = "Tove's face lights up when she sees Jun, and her hand goes to the knife at her belt."
    assert refuted(text) == set()


def test_warmth_told_as_performed_or_undercut_is_no_warmth() -> None:
    # pretence, a show for others, a predator's likeness, a hurting grip, or the hatred told right after
    assert refuted("Tove pretends to greet Jun warmly, all the while plotting his ruin.") == set()
    assert refuted("Tove embraces Jun for the crowd's benefit, her smile as false as a tin crown.") == set()
    assert refuted("Tove kisses Jun on the cheek, the kiss of a viper.") == set()
    assert refuted("Tove squeezes Jun's hand until the knuckles crack.") == set()
    assert refuted("Tove greets Jun warmly. She has hated him since the dice game.") == set()
    assert refuted('"Jun, my dear," Tove says with false sweetness.') == set()
    # the same gestures told plainly are warmth
    assert refuted("Tove embraces Jun and thanks him for the help.") == {"edge-tove-jun"}
    assert refuted("Tove greets Jun fondly. The rain has stopped.") == {"edge-tove-jun"}


def test_a_tie_told_as_over_is_no_claim_about_now() -> None:
    assert refuted("Tove was once Jun's friend, before the dice game.") == set()
    assert refuted("Tove and Jun were friends until the dice game.") == set()
    assert refuted("Tove greeted Jun warmly, once, in better days.") == set()
    # controls: told of now
    assert refuted("Tove is Jun's friend.") == {"edge-tove-jun"}
    assert refuted("Hild is Osk's bitter enemy.") == {"edge-hild-osk"}


# --- a thread's status said by one of its parties ---------------------------------------------------------


def dock(pact: str = "broken", loan: str = "settled") -> WorldSnapshot:
    """A river dock: the ferryman Cobb swore a pact with the guild-mistress Wren (now broken); Wren lent Jun
    money (now repaid)."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-jun", "pc", "Jun", owner="1", location="loc-dock", pronoun="he"),
            Entity("npc-cobb", "npc", "Cobb Harrow", location="loc-dock", pronoun="he"),
            Entity("npc-wren", "npc", "Wren Alder", location="loc-dock", pronoun="she"),
            Entity("npc-lis", "npc", "Lis", location="loc-dock", pronoun="she"),
            Entity("loc-dock", "location", "the dock"),
        ],
        threads=[
            Thread("oath-01", "oath", pact, ("npc-cobb", "npc-wren"), "Cobb swore to carry only guild cargo"),
            Thread("debt-02", "debt", loan, ("pc-jun", "npc-wren"), "Jun owed Wren thirty marks"),
        ],
        scene=Scene("loc-dock", frozenset({"pc-jun", "npc-cobb", "npc-wren", "npc-lis"})),
    )


def at_dock(text: str, pact: str = "broken", loan: str = "settled") -> set[str | None]:
    return {v.refuted_by for v in check(text, dock(pact, loan)).conflicts()}


def test_a_party_saying_a_broken_pact_was_kept_is_flagged() -> None:
    text = 'Wren leans on the rail. "Cobb gave me his pact in spring, and he has never once broken it."'
    assert at_dock(text) == {"oath-01"}
    text = 'Wren watches the barges. "Cobb? He swore me a pact and he keeps his word, that one."'
    assert at_dock(text) == {"oath-01"}
    # controls: the same line for a pact that stands; a lie marked as one; a plan; a question; hearsay
    assert at_dock(text, pact="open") == set()
    assert at_dock('Wren lies smoothly to Lis. "Cobb? He swore me a pact and he keeps his word."') == set()
    assert at_dock('Wren spits. "Cobb swore me a pact, and I will see that he keeps his word."') == set()
    assert at_dock('Wren frowns. "Has Cobb kept his pact with me, do you think?"') == set()
    assert at_dock('Wren shrugs. "They say Cobb has kept his pact with me."') == set()
    # a party's line with the speech attributed after it, and "never broke"; controls: kept once, a memory
    text = '"Cobb swore the pact before the guild," Wren tells Lis, "and he has honoured it to the letter."'
    assert at_dock(text) == {"oath-01"}
    assert at_dock('Wren sighs. "Cobb never broke his pact with me."') == {"oath-01"}
    assert at_dock('Wren sighs. "Cobb kept his pact with me, back then."') == set()
    assert at_dock('Wren remembers the spring. "He has kept his pact with me," Cobb said then.') == set()


def test_a_party_saying_a_repaid_debt_is_still_owed_is_flagged() -> None:
    assert at_dock('Jun nods to Wren. "I owe you thirty marks yet, and I have not forgotten."') == {"debt-02"}
    assert at_dock('Wren catches Jun at the gangway. "You still owe me, boy."') == {"debt-02"}
    # controls: a past debt told paid; a debt that is open; owing promised to be paid
    assert at_dock('Jun nods to Wren. "I owed you thirty marks, and I paid every one."') == set()
    assert at_dock('Jun nods to Wren. "I owe you thirty marks yet."', loan="open") == set()
    assert at_dock('Jun nods to Wren. "You will be paid, I swear it."') == set()


def test_a_pact_told_kept_in_narration_is_unbroken() -> None:
    # a pact, truce or pledge is an oath; "never broken", "held to", "kept faith" say it stands unbroken
    assert at_dock("Cobb has never broken his pact with Wren.") == {"oath-01"}
    assert at_dock("Cobb has held to the pact with Wren like a limpet.") == {"oath-01"}
    assert at_dock("Cobb's pact with Wren still stands.") == {"oath-01"}
    # controls: an oath kept is true of one standing or fulfilled; kept and then released is done with
    assert at_dock("Cobb has kept faith with Wren all season.", pact="open") == set()
    assert at_dock("Cobb has honoured his oath to Wren to the letter.", pact="open") == set()
    # but kept to its end in the past is fulfilled: told of a pact that stands it is still a conflict
    assert at_dock("Cobb kept his oath to Wren to the end.", pact="open") == {"oath-01"}
    assert at_dock("Cobb has never broken his pact with Wren.", pact="settled") == set()
    text = "Cobb kept his oath to Wren for years, and she released him from it at midsummer."
    assert at_dock(text, pact="settled") == set()


def test_never_repaid_between_the_parties_is_still_owed() -> None:
    assert at_dock("Jun never repaid Wren.") == {"debt-02"}
    assert at_dock("Jun never paid Wren any mind.") == set()
    assert at_dock("Jun never repaid Wren.", loan="open") == set()


def test_owing_what_is_no_debt_is_no_thread_status() -> None:
    # an apology, an explanation, one's life or the truth owed is no debt, in narration or in a party's line
    assert at_dock("Jun owes Wren an apology for the dice.") == set()
    assert at_dock('Jun nods to Wren. "I owe you my life."') == set()
    assert at_dock('Wren tells Jun, "You owe me the truth."') == set()
    # control: money still owed
    assert at_dock("Jun still owes Wren thirty marks.") == {"debt-02"}


def test_the_one_bound_claiming_it_kept_faith_or_paid_may_be_lying() -> None:
    # the oath-breaker's or debtor's own denial is a plausible lie; the wronged party's word is not
    assert at_dock('Cobb spreads his hands. "I never broke our pact, Wren. Never."') == set()
    assert at_dock('Jun spreads his hands. "I paid you back every mark, Wren."', loan="open") == set()
    assert at_dock('Wren folds her arms. "Jun paid me back every mark."', loan="open") == {"debt-02"}
    # against the speaker's own interest it is told
    assert at_dock('Jun hangs his head. "I still owe you, Wren."') == {"debt-02"}
    # paying for something else; a rumour in narration
    assert at_dock('Wren grins. "Jun paid for the drinks."', loan="open") == set()
    assert at_dock("Cobb is said to have broken his pact with Wren.", pact="open") == set()


def yard(loan: str) -> WorldSnapshot:
    """A boatyard: Jun owes Cobb for a steering oar."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-jun", "pc", "Jun", owner="1", location="loc-yard", pronoun="he"),
            Entity("npc-cobb", "npc", "Cobb Harrow", location="loc-yard", pronoun="he"),
            Entity("loc-yard", "location", "the boatyard"),
        ],
        threads=[
            Thread(
                "debt-03",
                "debt",
                loan,
                ("pc-jun", "npc-cobb"),
                "Jun owes Cobb twelve marks for the new steering oar",
            )
        ],
        scene=Scene("loc-yard", frozenset({"pc-jun", "npc-cobb"})),
    )


def test_a_debt_named_by_what_it_is_for_takes_a_status() -> None:
    def at_yard(text: str, loan: str) -> set[str | None]:
        return {v.refuted_by for v in check(text, yard(loan)).conflicts()}

    assert at_yard("The steering oar is paid for at last.", "open") == {"debt-03"}
    assert at_yard("Jun still owes for the steering oar.", "settled") == {"debt-03"}
    # controls: the recorded status; a plan; the thing without a word of paying; another oar paid for
    assert at_yard("The steering oar is paid for at last.", "settled") == set()
    assert at_yard("Jun will pay for the steering oar at midsummer.", "open") == set()
    assert at_yard("The steering oar creaks in its lock.", "settled") == set()
    assert at_yard("Cobb paid for a new oar of his own.", "open") == set()
