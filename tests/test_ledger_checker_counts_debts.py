"""Issue 10, counts and debts: a count told as all there is, and a thread's status told in indirect words.

A count closes on the words around it as well as before it: an ordinal told as the last one ("the eighth, her
very last", "his sixth and final flare") is all there are, and so is a count set off by a phrase of totality
("two flares, and that's the whole stock", "four of them, all he has", "four flares, and not a fifth to his
name"). An elided ordinal ("draws out the seventh") counts a stack, not a single thing named since.

A debt's status may be told in the passive ("her account with Brother Caul was squared a week ago", "the
slate was wiped clean"), by destroying the paper it is written on ("tore up Ines's note"), by what it was for
("the mule money is paid"), or by owing told in one clause of a longer sentence, with the debtor named by a
pronoun carried from two sentences back. Sentences invented for worlds and genres of their own (a lighthouse,
a mountain inn), with clean controls: the right count, partitives, "the last time", "at last", other counts in
the same sentence, a settled matter told as settled, a debt someone hopes to clear, a rumour, a quoted lie,
a slate never wiped.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, Scene, Thread, WorldSnapshot


def lighthouse() -> WorldSnapshot:
    """A storm lighthouse: the keeper Anselm with six signal flares, Nadia with ten iron pitons, Marta with
    three tallow candles and a single brass lantern."""
    return WorldSnapshot.build(
        entities=[
            Entity("npc-anselm", "npc", "Anselm Roe", location="loc-light", pronoun="he"),
            Entity("pc-nadia", "pc", "Nadia", owner="1", location="loc-light", pronoun="she"),
            Entity("pc-marta", "pc", "Marta", owner="2", location="loc-light", pronoun="she"),
            Entity("loc-light", "location", "the Skerry Light"),
            Entity("item-flares", "item", "signal flares", (Alias("flares"), Alias("flare"))),
            Entity("item-pitons", "item", "iron pitons", (Alias("pitons"), Alias("piton"))),
            Entity("item-candles", "item", "tallow candles", (Alias("candles"), Alias("candle"))),
            Entity("item-lantern", "item", "the brass lantern", (Alias("lantern"),)),
        ],
        holdings=[
            Holding("item-flares", "npc-anselm", 6),
            Holding("item-pitons", "pc-nadia", 10),
            Holding("item-candles", "pc-marta", 3),
            Holding("item-lantern", "pc-marta"),
        ],
        scene=Scene("loc-light", frozenset({"npc-anselm", "pc-nadia", "pc-marta"})),
    )


def counted(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, lighthouse()).conflicts()}


def test_an_ordinal_told_as_the_last_one_is_all_there_are() -> None:
    text = "Nadia drives her pitons into the ice one by one: the seventh, then the eighth, her very last."
    assert "item-pitons-quantity" in counted(text)
    assert "item-pitons-quantity" in counted("Nadia hammers home her ninth and final piton.")
    assert "item-flares-quantity" in counted(
        "Anselm fires his flares one after another: the fourth, his last."
    )
    # controls: the last one is the right one; an ordinal not told as the last is only "at least"
    assert counted("Marta lights her candles: the second, then the third and last.") == set()
    assert counted("Anselm fires his sixth and final flare over the reef.") == set()
    assert counted("Nadia drives her pitons into the ice: the seventh, then the eighth.") == set()
    # no owner: the last of a task, not of what he has
    assert counted("Anselm fires the fourth and last flare of the night.") == set()
    # "the last time" is no count of the pitons
    assert counted("Nadia sets her pitons down; the eighth, the last time she climbs, is long past.") == set()


def test_a_count_set_off_by_a_phrase_of_totality_is_exact() -> None:
    assert "item-flares-quantity" in counted("Anselm digs out two signal flares, and that's the whole stock.")
    assert "item-flares-quantity" in counted("Anselm unpacks his flares, four of them, all he has left.")
    assert "item-flares-quantity" in counted(
        "Anselm lays four flares on the sill, and not a fifth to his name."
    )
    text = "Three iron pitons clink onto the table, each one bent at the eye, and that's the lot."
    assert "item-pitons-quantity" in counted(text)
    assert "item-flares-quantity" in counted("Anselm pulls out his flares, two of them, the last he owns.")
    assert "item-flares-quantity" in counted("Anselm lays out three flares, all that's left of the stock.")
    assert "item-flares-quantity" in counted("Anselm turns out four flares, and nothing more.")
    assert "item-flares-quantity" in counted("Anselm fires the last of his four flares over the reef.")
    assert counted("Marta lights the last of her three candles and sets it in the window.") == set()
    # controls: the right count; "that's all" of something else; other counts after it; a partitive
    assert counted("Marta lights three tallow candles, and that's all she has.") == set()
    assert counted("Anselm fires two flares, and that's all he'll say about the wreck.") == set()
    # a bare "that's all" after a deed counts the deed, not the stock
    assert counted("Anselm fires two flares, and that's all.") == set()
    assert counted("Anselm fires four flares over the reef, and not a fifth.") == set()
    assert "item-flares-quantity" in counted("Anselm comes up with two flares, and that's all.")
    assert counted("Nadia racks four pitons while Anselm checks nine knots, and that's the lot.") == set()
    assert counted("Anselm hands Nadia one of his six flares.") == set()
    assert counted("Marta lights the last of the three tallow candles.") == set()
    assert counted("Anselm pulls out two of his flares, and that's the first thing he does.") == set()

    # "last" as a time word
    assert counted("At last Nadia drives two pitons into the rock.") == set()
    assert counted("Last night Anselm fired two flares over the reef.") == set()
    assert counted("It is the last time Anselm fires two flares for a fishing smack.") == set()
    assert counted("The gale lasts two nights; Nadia's pitons hold.") == set()


def test_an_elided_last_n_with_an_owner_is_all_that_is_left() -> None:
    assert "item-pitons-quantity" in counted("Nadia tips out her pitons. She counts out her last three.")
    text = "Nadia tips out her pitons. She hammers in the last three she has."
    assert "item-pitons-quantity" in counted(text)
    assert "item-flares-quantity" in counted("Anselm checks his flares. He fires his last two over the reef.")
    # controls: the right count; no owner (a task's last three); a noun after it; a clause of seeing
    assert counted("Anselm checks his flares. He fires his last six over the reef.") == set()
    assert counted("Nadia tips out her pitons. She hammers in the last three and climbs on.") == set()
    assert counted("Nadia tips out her pitons. Her last two winters were hard.") == set()
    assert counted("Nadia tips out her pitons. She hammers in the last three she has seen.") == set()


def test_a_stack_told_by_another_word_and_closed_as_all_there_is() -> None:
    text = "Nadia upends the sack she keeps her pitons in. Four iron spikes clatter out, and that's the lot."
    assert "item-pitons-quantity" in counted(text)
    # controls: the right count; two things named before; no phrase of totality; someone named
    text = (
        "Nadia upends the sack she keeps her pitons in. Ten bent iron spikes clatter out, and that's the lot."
    )
    assert counted(text) == set()
    text = "Nadia upends her sack of pitons and flares. Four bent spikes clatter out, and that's the lot."
    assert counted(text) == set()
    text = "Nadia upends the sack she keeps her pitons in. Four bent iron spikes clatter out onto the rock."
    assert counted(text) == set()
    text = "Nadia upends the sack she keeps her pitons in. Four gulls wheel past Anselm, and that's the lot."
    assert counted(text) == set()


def test_an_elided_ordinal_counts_the_stack_not_a_single_thing_named_since() -> None:
    text = "Marta sets out her candles beside the brass lantern. She lights the fifth."
    assert "item-candles-quantity" in counted(text)
    text = "Marta sets out her candles beside the brass lantern. She lights the third."
    assert counted(text) == set()


def inn() -> WorldSnapshot:
    """A mountain inn: Ines owes Brother Caul twenty silver for the mule (open); Tobin owed Ines a favour for
    the ferry and repaid it (settled)."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-ines", "pc", "Ines Varga", owner="1", location="loc-inn", pronoun="she"),
            Entity("npc-caul", "npc", "Brother Caul", location="loc-inn", pronoun="he"),
            Entity("npc-tobin", "npc", "Tobin Marsh", location="loc-inn", pronoun="he"),
            Entity("npc-hild", "npc", "Hild", location="loc-inn", pronoun="she"),
            Entity("loc-inn", "location", "the Saddle Inn"),
        ],
        threads=[
            Thread(
                "debt-mule",
                "debt",
                "open",
                ("pc-ines", "npc-caul"),
                "Ines owes Brother Caul twenty silver for the grey mule",
                aliases=("Ines's note",),
            ),
            Thread(
                "favour-ferry",
                "favour",
                "settled",
                ("npc-tobin", "pc-ines"),
                "Tobin owed Ines for the ferry crossing; he repaid it by hiding her from the toll-men",
            ),
        ],
        scene=Scene("loc-inn", frozenset({"pc-ines", "npc-caul", "npc-tobin", "npc-hild"})),
    )


def owed(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, inn()).conflicts()}


def test_an_open_debt_told_settled_in_the_passive_or_by_its_paper_torn() -> None:
    assert "debt-mule" in owed("Ines's account with Brother Caul was squared a week ago.")
    assert "debt-mule" in owed("Ines's slate with Brother Caul was wiped clean at Candlemas.")
    assert "debt-mule" in owed("Last winter Brother Caul tore up Ines's note in front of witnesses.")
    assert "debt-mule" in owed("The grey-mule money is paid, every coin of it.")
    assert "debt-mule" in owed("Brother Caul crossed Ines's debt off his books at Michaelmas.")
    assert "debt-mule" in owed("Brother Caul forgave Ines the mule money last spring.")
    assert "debt-mule" in owed("Brother Caul forgave Ines what she owed him, long ago.")
    assert "debt-mule" in owed("Ines's slate with Brother Caul is long since clean.")
    # controls: never wiped; hoped for; a rumour; remembered; a quoted lie; some other paper torn
    assert owed("Ines's slate with Brother Caul has never been wiped clean.") == set()
    assert owed("Ines's slate with Brother Caul is not clean, and he reminds her of it.") == set()
    assert owed("Ines couldn't pay Brother Caul back before the snows.") == set()
    assert owed("Brother Caul can't forgive Ines the mule money.") == set()
    assert owed("Ines hopes her slate with Brother Caul will be wiped clean by spring.") == set()
    assert owed("Ines means to wipe the slate clean with Brother Caul before the thaw.") == set()
    assert owed("Rumour in the taproom has it that Ines's slate with Brother Caul was wiped clean.") == set()
    assert owed("They say Ines's account with Brother Caul was squared at Candlemas.") == set()
    assert owed("Ines remembers a night her slate with Brother Caul was wiped clean, in a dream.") == set()
    text = '"My slate with Brother Caul was wiped clean at Candlemas," Ines lies, smiling.'
    assert owed(text) == set()
    assert owed("Brother Caul tears up the abbot's letter and feeds it to the stove.") == set()
    # the wiping told apart from the parties; a name cleared is a reputation, not an account
    text = "The slate over the bar was wiped clean, and Brother Caul chalked up a new tab for Ines."
    assert owed(text) == set()
    assert owed("Ines's name was cleared by Brother Caul before the magistrate.") == set()
    assert owed("Brother Caul cleared Ines's name before the magistrate.") == set()


def test_who_owes_whom_the_creditor_owing_nothing_tells_no_status() -> None:
    # Ines owes Caul: that Caul owes her nothing is true whatever the debt's status
    assert owed("Brother Caul owes Ines nothing now.") == set()
    assert owed("Brother Caul no longer owes Ines anything.") == set()
    assert owed("Brother Caul doesn't owe Ines a penny any more.") == set()
    # the debtor owing nothing is the debt settled
    assert "debt-mule" in owed("Ines owes Brother Caul nothing now.")
    assert "debt-mule" in owed("Ines no longer owes Brother Caul anything.")
    # the debt named by its kind's word, and Tobin (who owed Ines) owing nothing is the favour settled: true
    assert owed("Brother Caul owes Ines nothing on the debt.") == set()
    assert owed("Tobin Marsh owes Ines nothing for the ferry now.") == set()


def test_tearing_up_the_note_in_the_narration_is_a_deed_told_now() -> None:
    # present tense, told happening: replayed as settled from here on, so the debt told paid after it is true
    text = "Brother Caul tears up Ines's note and drops the pieces into the fire. Ines's debt is paid now."
    assert owed(text) == set()
    assert "debt-mule" in owed("Ines's debt is paid now.")


def test_a_settled_favour_told_still_owed_in_one_clause_of_a_longer_sentence() -> None:
    text = (
        "Tobin Marsh looks grey tonight. Still, when Ines sits down across from him, he manages a smile. "
        "He still owes Ines for the ferry; he has found no way to pay it back, and it sits between them "
        "like an unpaid tab."
    )
    assert "favour-ferry" in owed(text)
    # controls: told settled; owing of someone else; a debt he hopes to clear
    assert owed("Tobin Marsh repaid Ines long ago; the favour is settled.") == set()
    text = (
        "Tobin Marsh looks grey tonight. Still, when Hild sits down across from him, he manages a smile. "
        "He still owes Hild for a bed; it sits between them like an unpaid tab."
    )
    assert owed(text) == set()
    assert owed("Ines still owes Brother Caul for the grey mule and hopes to clear it by spring.") == set()
