"""Private discoveries are told as prose in the DM: never a record, an id, an arrow or an attitude number."""

from __future__ import annotations

import re

from bot.narrator.base import MAX_PRIVATE_CHARS
from bot.narrator.discoveries import discovery_text

RAW = re.compile(r"->|\battitude\b|\bsession \d|\b[a-z]+-\d{3,}|\b(?:npc|pc|loc|item|ev)-|[\[\](){}<>=]")
FEAR = (
    "Old Wei: fear = Old Wei fears the harbourmaster has found the bond-room ledger that names him "
    "(session 11)"
)
FAVOUR = (
    "Greyrock -> Old Wei: owes-favour (attitude +40, since session 3): Wei hid the shipment in session 3 "
    "(favor-0003-01)"
)


def test_a_secret_is_told_as_what_the_character_sees_not_as_a_fact_record() -> None:
    for seed in range(6):
        text = discovery_text(actor="Sister Tamsin", target="Old Wei", secret=FEAR, seed=seed)
        assert "Old Wei fears the harbourmaster has found the bond-room ledger that names him." in text
        assert not RAW.search(text) and ":" not in text, text
    place = discovery_text(actor="Mira", target=None, secret="The cellar hides barrels of untaxed dye")
    assert place.endswith("The cellar hides barrels of untaxed dye.") and not RAW.search(place)


def test_a_stance_reads_as_a_look_with_no_arrow_number_or_ref() -> None:
    text = discovery_text(actor="Sister Tamsin", target="Old Wei", stance=FAVOUR)
    assert "Greyrock" in text and "favour" in text and not RAW.search(text), text
    own = discovery_text(actor="Greyrock", target="Old Wei", stance=FAVOUR, seed=1)
    assert "you owe" in own and "Greyrock" not in own, own
    cold = discovery_text(
        actor="Mira", target="Sergeant Okafor", stance="Sergeant Okafor -> Greyrock: suspects (attitude -30)"
    )
    assert "Sergeant Okafor" in cold and "Greyrock" in cold and not RAW.search(cold), cold


def test_nothing_new_says_what_the_character_notices_instead() -> None:
    text = discovery_text(actor="Sister Tamsin", target="Bessa Marlow", shape="badly hurt")
    assert "badly" in text and "Bessa Marlow" in text and "you" in text.lower() and not RAW.search(text)
    calm = discovery_text(actor="Sister Tamsin", target="Bessa Marlow", shape="unhurt", seed=2)
    assert "Bessa Marlow" in calm and "nothing" not in calm.lower().split(".")[-1]
    nowhere = discovery_text(actor="Sister Tamsin", target=None)
    assert nowhere and not RAW.search(nowhere)


def test_a_record_that_cannot_be_told_cleanly_falls_back_and_every_note_fits_a_dm() -> None:
    # a secret whose words are an id, and a stance that is not a relationship line: the read falls back
    text = discovery_text(actor="Lin", target="Old Wei", secret="npc-old-wei-fear = ev-000123", shape="hurt")
    assert "Old Wei" in text and not RAW.search(text), text
    long = discovery_text(actor="Lin", target="Old Wei", secret="Old Wei hides " + "a very long thing " * 60)
    assert len(long) <= MAX_PRIVATE_CHARS
    assert discovery_text(actor="Lin", target="Old Wei", secret=FEAR, seed=4) == discovery_text(
        actor="Lin", target="Old Wei", secret=FEAR, seed=4
    )


def test_a_raw_stance_the_table_files_today_reaches_the_dm_as_prose() -> None:
    from bot.narrator.base import Reveal, reveal_note
    from bot.narrator.offline import OfflineNarrator
    from tests.test_narrator_offline import LIN_PLAYER, harbour_round

    raw = Reveal(player_id=LIN_PLAYER, character_name="Lin", text=f"You read Old Wei well: {FAVOUR}")
    note = reveal_note(raw)
    assert note.startswith("Lin, you alone learn this: ") and not RAW.search(note), note
    draft = OfflineNarrator().narrate_now(harbour_round(reveals=(raw,)))
    assert [player for player, _ in draft.private_notes] == [LIN_PLAYER]
    assert not RAW.search(draft.private_notes[0][1]) and "Greyrock" in draft.private_notes[0][1]
