"""Threads by their sides: who owes whom, which thread a kind's word means, and a payment told in the scene.

A verb of owing between two creatures names both sides of an owing thread: told the wrong way round by the
thread's recorded roles it is false even when the status is right ("Odile owes Brannock a favour" of
Brannock's favour to Odile); a creditor said to owe the debtor nothing is true and tells nothing. A thread
named by its kind's word is chosen by its parties and by what it is for as well as by its kind ("the debt
for the kiln flue" is the favour owed for mending the flue), and no claim is made when two fit alike. A
status under an approximation ("as good as paid") is not reached; a payment told whole in the scene ("she
pays him the last coin") settles the debt for the sentences after it. Invented worlds (a glassblowers'
street, a river toll-house), each behaviour with a clean control.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, Thread, WorldSnapshot


def glass_street(*, roles: bool = True) -> WorldSnapshot:
    """Brannock the glassmaster owes Odile a favour for mending his kiln flue (open); Yusra the ferrywoman
    owes Brannock one for carrying her lamps unbroken (open); Odile owes Yusra three crowns for a lamp
    (open); Teo owed Yusra eight crowns for ferrying his crates (settled)."""

    def r(owes: str, owed: str) -> tuple[tuple[str, str], ...]:
        return ((owes, "owes"), (owed, "owed")) if roles else ()

    return WorldSnapshot.build(
        entities=[
            Entity("pc-odile", "pc", "Odile", owner="1", location="loc-street", pronoun="she"),
            Entity("pc-teo", "pc", "Teo", owner="2", location="loc-street", pronoun="he"),
            Entity("npc-brannock", "npc", "Brannock", location="loc-street", pronoun="he"),
            Entity("npc-yusra", "npc", "Yusra", location="loc-street", pronoun="she"),
            Entity("loc-street", "location", "Cullet Street"),
        ],
        threads=[
            Thread(
                "favour-flue",
                "favour",
                "open",
                ("npc-brannock", "pc-odile"),
                "Brannock is in debt to Odile for mending his kiln flue",
                roles=r("npc-brannock", "pc-odile"),
            ),
            Thread(
                "favour-lamps",
                "favour",
                "open",
                ("npc-yusra", "npc-brannock"),
                "Yusra is beholden to Brannock for carrying her lamps unbroken",
                roles=r("npc-yusra", "npc-brannock"),
            ),
            Thread(
                "debt-lamp",
                "debt",
                "open",
                ("pc-odile", "npc-yusra"),
                "Odile has three crowns to give Yusra for a ship's lamp",
                roles=r("pc-odile", "npc-yusra"),
            ),
            Thread(
                "debt-crates",
                "debt",
                "settled",
                ("pc-teo", "npc-yusra"),
                "Teo had eight crowns to give Yusra for ferrying his crates",
                aliases=("the crate money",),
                roles=r("pc-teo", "npc-yusra"),
            ),
        ],
        scene=Scene("loc-street", frozenset({"pc-odile", "pc-teo", "npc-brannock", "npc-yusra"})),
    )


def refuted(text: str, snap: WorldSnapshot | None = None) -> set[str | None]:
    return {v.refuted_by for v in check(text, snap or glass_street()).conflicts()}


def thread_claims(text: str, snap: WorldSnapshot | None = None) -> list[str]:
    report = check(text, snap or glass_street())
    return [v.claim.label() for v in report.claims if v.claim.kind == "thread_status"]


# --- who owes whom ------------------------------------------------------------------------------------------


def test_an_owing_told_the_wrong_way_round_is_false() -> None:
    assert refuted("Odile owes Brannock a favour, and everyone on the street knows it.") == {"favour-flue"}
    assert "favour-flue" in refuted(
        "Odile sets her tongs down beside Brannock at the glory hole. She still owes him a good turn."
    )
    assert "favour-flue" in refuted("Brannock is owed a favour by Odile, and he has not let her forget it.")
    # controls: the right way round is true, by name, by pronoun and in the passive
    assert refuted("Brannock owes Odile a favour, and everyone on the street knows it.") == set()
    assert (
        refuted("Brannock sets his tongs down beside Odile at the glory hole. He still owes her a good turn.")
        == set()
    )
    assert refuted("Odile is owed a favour by Brannock, and she has not let him forget it.") == set()


def test_the_sides_in_a_relative_clause_and_under_a_modal() -> None:
    assert "favour-flue" in refuted("Odile, who owes Brannock a favour, nods to him across the bench.")
    assert refuted("Brannock, who owes Odile a favour, nods to her across the bench.") == set()
    # a debt to come is no status now: neither the settled crate debt nor the favour's sides are told
    assert refuted("Teo will owe Yusra eight crowns again before the thaw.") == set()
    assert refuted("Odile would owe Brannock a favour, if he asked it.") == set()


def test_an_owing_that_names_the_thread_leaves_its_status_to_the_sentence() -> None:
    # "the crowns Teo owes Yusra ...": the owing names the debt; the sentence's own verb tells its status
    assert refuted("The eight crowns Teo owes Yusra were paid off at the spring fair.") == set()
    assert "favour-flue" in refuted("The favour that Brannock owes Odile was repaid in full last week.")
    # controls: the named debt told still weighing; the open favour told still hanging
    assert "debt-crates" in refuted("The eight crowns Teo owes Yusra weigh on him like a stone.")
    assert refuted("The favour Brannock owes Odile still hangs over him.") == set()


def test_repaying_tells_the_sides_and_the_status() -> None:
    # the creditor told repaying, or yet to repay, has the sides the wrong way round
    assert "debt-crates" in refuted("Yusra repaid Teo at the spring fair.")
    assert "favour-lamps" in refuted("Brannock has yet to repay Yusra for the lamps.")
    # an open favour told repaid; a settled debt told not yet repaid
    assert "favour-flue" in refuted("Brannock repaid Odile last winter.")
    assert "debt-crates" in refuted("Teo has yet to repay Yusra for the crates.")
    # controls: the right sides and status; a plan; a rumour
    assert refuted("Teo repaid Yusra at the spring fair.") == set()
    assert refuted("Yusra has yet to repay Brannock for the lamps.") == set()
    assert refuted("Brannock will repay Odile when the kiln is paid for.") == set()
    assert refuted("Teo never repaid Yusra, they say.") == set()


def test_the_direction_is_judged_only_of_the_thread_told() -> None:
    # owed for something the favour's terms do not name: perhaps another debt, so the sides are not judged
    assert refuted("Odile owes Brannock for a crate of cullet glass.") == set()
    # control: owed for what the favour is for, the wrong way round
    assert "favour-flue" in refuted("Odile owes Brannock for the kiln flue.")


def test_the_direction_needs_the_recorded_roles() -> None:
    # no roles recorded: the sides cannot be judged, and the status (open) is right
    assert refuted("Odile owes Brannock a favour.", glass_street(roles=False)) == set()


def test_a_creditor_who_owes_nothing_tells_nothing() -> None:
    # true of Brannock's favour to Odile whatever its status
    assert refuted("Odile owes Brannock nothing, and she tells him so.") == set()
    assert thread_claims("Odile owes Brannock nothing, and she tells him so.") == []
    # the debtor owing nothing is a settled favour: the record has it open
    assert "favour-flue" in refuted("Brannock owes Odile nothing now, and he tells her so.")


def test_a_settled_debt_told_still_owed_with_its_debtor_by_pronoun() -> None:
    text = "Teo sits by the oven, counting coins: he still owes Yusra eight crowns for the crossing."
    assert refuted(text) == {"debt-crates"}
    # controls: told settled; a past owing; a rumour; a wondering
    assert refuted("Teo sits by the annealing oven, counting coins: he owes Yusra nothing now.") == set()
    assert refuted("Teo once owed Yusra eight crowns for the crossing.") == set()
    assert refuted("Word on the quay is that Teo still owes Yusra eight crowns.") == set()
    assert refuted("Odile wonders whether Teo owes Yusra anything at all.") == set()


def test_a_quoted_lie_or_a_boast_of_owing_is_no_status() -> None:
    assert refuted('Yusra leans on the rail. "Odile owes me nothing," she lies, smiling.') == set()
    assert refuted("Yusra insists that Teo owes her eight crowns still.") == set()
    # a belief is no state: neither the status nor the sides are told
    assert refuted("Brannock is owed a favour by Odile, or so he likes to think.") == set()
    assert refuted("Teo believes he still owes Yusra eight crowns.") == set()


# --- which thread a kind's word means --------------------------------------------------------------------


def test_a_debt_named_by_what_it_is_for_is_that_thread() -> None:
    text = "The debt for the kiln flue was paid in full a month ago, and the furnace roars for it."
    assert refuted(text) == {"favour-flue"}
    # control: the same thread told still standing
    assert refuted("The debt for the kiln flue still stands between the two of them.") == set()


def test_a_kind_word_chosen_by_the_parties_named() -> None:
    # "favour" with only Yusra named: the one favour she is party to, not Brannock's to Odile
    assert thread_claims("Yusra's favour was repaid at the spring fair.") == [
        "thread_status(favour-lamps, settled)"
    ]


def test_two_threads_that_fit_alike_make_no_claim() -> None:
    # Brannock is party to both favours: which one is meant, the sentence does not say
    assert thread_claims("Brannock's favour was repaid at the spring fair.") == []
    assert refuted("Brannock's favour was repaid at the spring fair.") == set()


# --- status words under an approximation, and an attributive "broken" ----------------------------------


def test_as_good_as_paid_is_not_paid() -> None:
    assert refuted('"Odile has as good as paid me already," Yusra tells the street.') == set()
    # control: the creditor saying she was paid tells it settled (the record has it open)
    assert "debt-lamp" in refuted('"Odile paid me every coin last week," Yusra tells the street.')


def test_a_broken_thing_is_no_broken_thread() -> None:
    text = "Teo sits on a broken crate: he still owes Yusra eight crowns for the crossing."
    assert refuted(text) == {"debt-crates"}
    # control: the open favour, with a broken thing beside it, is still open
    assert refuted("Yusra sweeps up a broken lamp; she still owes Brannock for the lamps.") == set()
    assert refuted("Brannock's favour to Odile still stands, for all the broken glass on the floor.") == set()
    # but the favour itself told broken is a broken thread
    assert "favour-flue" in refuted("Brannock's favour to Odile is broken, for all his fine words.")


# --- a payment told in the scene, replayed for the sentences after it -----------------------------------


def test_a_whole_payment_told_now_settles_the_debt_for_later_sentences() -> None:
    paid = "Odile counts out three crowns. She pays Yusra the last coin. She owes Yusra nothing now."
    assert refuted(paid) == set()
    # controls: without the payment the settlement is false; a payment of part of it settles nothing
    assert "debt-lamp" in refuted("Odile counts out three crowns on the bench. She owes Yusra nothing now.")
    part = "Odile counts out the crowns on the bench. She pays Yusra one crown. She owes Yusra nothing now."
    assert "debt-lamp" in refuted(part)
    # the creditor paying the debtor is no payment of the debt
    wrong = "Yusra pays Odile the last coin of her wages. Odile owes Yusra nothing now."
    assert "debt-lamp" in refuted(wrong)


def test_owing_as_a_participle_takes_its_clauses_subject() -> None:
    text = "Yusra poled the ferry all winter, and Teo went back to the quay still owing her eight crowns."
    assert refuted(text) == {"debt-crates"}
    # controls: owing nothing; two subjects, so no one debtor
    assert refuted("Yusra poled the ferry all winter, and Teo went back owing her nothing.") == set()
    two = "Yusra poled the ferry all winter, and Teo and Brannock went back to the quay still owing her."
    assert thread_claims(two) == []


def test_a_pcs_report_of_an_owing_tells_no_status() -> None:
    # what a PC is told saying is the player's claim, not the ledger's
    assert refuted("Teo tells Brannock that he still owes Yusra eight crowns.") == set()
    # control: the creditor, an NPC, telling it still owed (the record has it settled)
    assert "debt-crates" in refuted("Yusra tells Brannock that Teo still owes her eight crowns.")


def test_a_whole_payment_with_a_shared_subject() -> None:
    text = "Odile counts out three crowns and pays Yusra the last of them. She owes Yusra nothing now."
    assert refuted(text) == set()
    # control: the other one paying, in the same shape, is no payment of Odile's debt
    other = "Odile counts out three crowns and Yusra pays her the last of them. She owes Yusra nothing now."
    assert "debt-lamp" in refuted(other)


def test_a_whole_payment_by_pronouns() -> None:
    text = "Odile counts out three crowns for Yusra. She pays her the last coin, and the debt is settled."
    assert refuted(text) == set()
    # control: the debt told settled with no payment before it
    assert "debt-lamp" in refuted("Odile counts out three crowns for Yusra, and the debt is settled.")


def test_a_frame_after_the_alias_does_not_frame_it() -> None:
    text = "Yusra is still waiting on the crate money, and a man with a leaking boat could use it."
    assert refuted(text) == {"debt-crates"}
    # control: the frame before the alias
    assert refuted("Yusra could still be waiting on the crate money, for all anyone knows.") == set()
