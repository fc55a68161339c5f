"""Issue 10, after the fresh_t run: item rules about English that carry to unseen narration, with controls.

A thing sold or destroyed told standing somewhere now with an adverb before its verb ("the kettle still
sits on the hob") or owned by the one addressed ("Your kettle stands by the hearth"); a verb form after a
determiner is a noun ("shakes her head at your offer of the salve"), not a hand-over; an elided ordinal ("he
lifts the fifth") reaches back past a verbless fragment that only describes the things just named; "all six of
them" counts every one of the things last named.
"""

from __future__ import annotations

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Holding, ItemFate, Scene, WorldSnapshot


def lockhouse() -> WorldSnapshot:
    """A canal lock-house: Ivo with four darts, Saskia with three candles and a pot of salve, Berta the
    lock-keeper; the copper kettle was sold, the brass bell destroyed."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-ivo", "pc", "Ivo", owner="1", location="loc-lock", pronoun="he"),
            Entity("pc-saskia", "pc", "Saskia", owner="2", location="loc-lock", pronoun="she"),
            Entity("npc-berta", "npc", "Berta Quell", location="loc-lock", pronoun="she"),
            Entity("loc-lock", "location", "the lock-house"),
            Entity("item-darts", "item", "barbed darts", (Alias("darts"), Alias("dart"))),
            Entity("item-candles", "item", "beeswax candles", (Alias("candles"), Alias("candle"))),
            Entity("item-salve", "item", "the pot of salve", (Alias("salve"),)),
            Entity("item-kettle", "item", "the copper kettle", (Alias("copper kettle"), Alias("the kettle"))),
            Entity("item-bell", "item", "the brass bell", (Alias("brass bell"),)),
        ],
        holdings=[
            Holding("item-darts", "pc-ivo", 4),
            Holding("item-candles", "pc-saskia", 3),
            Holding("item-salve", "pc-saskia"),
        ],
        fates=[ItemFate("item-kettle", "sold"), ItemFate("item-bell", "destroyed")],
        scene=Scene("loc-lock", frozenset({"pc-ivo", "pc-saskia", "npc-berta"})),
    )


def named(text: str) -> set[str | None]:
    return {v.refuted_by for v in check(text, lockhouse()).conflicts()}


def test_a_gone_thing_told_there_now_past_an_adverb_or_owned_by_the_one_addressed() -> None:
    assert "item-kettle-holder" in named("The copper kettle still sits on the hob, steam curling from it.")
    assert "item-bell-holder" in named("The brass bell gently sways over the door in the draught.")
    assert "item-kettle-holder" in named("Your copper kettle stands by the hearth where you left it.")
    # a place fronted with no comma: the thing still opens what is told of it
    assert "item-bell-holder" in named("Over the door the brass bell gently sways in the draught.")
    assert "item-kettle-holder" in named("On the hob the copper kettle still sits, dented and warm.")
    # controls: told in the past, or as whose it is now
    assert named("In the tinker's stall the copper kettle hangs among the pans.") == set()
    assert named("The copper kettle still sat on the hob the winter before it was sold.") == set()
    assert named("The copper kettle now belongs to a tinker downriver.") == set()
    # a wreck, a memory, or a place that is someone else's
    assert named("The brass bell still lies in pieces under the gantry.") == set()
    assert named("The brass bell still rings in her memory.") == set()
    assert named("The copper kettle still hangs in a tinker's stall downriver.") == set()


def test_a_verb_form_after_a_determiner_is_a_noun_not_a_hand_over() -> None:
    assert named("Berta shakes her head at your offer of the salve and goes back to her ropes.") == set()
    assert named("Berta grumbles about the pass of the salve from hand to hand.") == set()
    # the verb itself still hands it over
    assert "item-salve-holder" in named("Berta offers Ivo the salve with a grunt.")


def test_an_elided_ordinal_reaches_back_past_a_fragment_describing_the_things() -> None:
    text = "Ivo sets his darts on the sill. Brass flights, needle points, each one filed. He lifts the fifth."
    assert "item-darts-quantity" in named(text)
    text = "Saskia stands her candles in a row. Yellow wax, cotton wicks. She lights the sixth and waits."
    assert "item-candles-quantity" in named(text)
    # controls: an ordinal within the stack; a sentence with a verb of its own in between
    assert named("Ivo sets his darts on the sill. Brass flights, needle points. He lifts the third.") == set()
    assert named("Ivo sets his darts on the sill. The barges knock below. He watches the fifth.") == set()


def test_all_n_of_them_counts_every_one_of_the_things_last_named() -> None:
    assert "item-darts-quantity" in named("Up go the darts, faster and faster, until all six of them spin.")
    assert "item-candles-quantity" in named("Saskia lights the candles: soon all five of them are burning.")
    # controls: the right count, and other things named since
    assert named("Saskia lights the candles: soon all three of them are burning.") == set()
    assert named("Saskia sets down the candles; the bargemen crowd in, all seven of them.") == set()
    assert named("Saskia lights her candles for the drowned sailors, all nine of them.") == set()
    assert named("Saskia lights her candles as the guards watch, all nine of them.") == set()
    # a part of someone is where the things are, not what is counted
    assert "item-candles-quantity" in named("Saskia's candles lie at her feet: all nine of them, unlit.")


def test_an_elided_ordinal_that_ranks_someone_counts_no_thing() -> None:
    assert named("Ivo sets his darts on the sill. He is the fifth to arrive tonight.") == set()
    assert named("Ivo sets his darts on the sill. Saskia comes in, the fifth in an hour.") == set()
    assert "item-darts-quantity" in named("Ivo sets his darts on the sill. He hands the fifth to Berta.")
