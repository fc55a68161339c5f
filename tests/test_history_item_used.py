"""A consumable used in a round reads "used up" in /ledger history and in the narrator's records, not the
vague "used up, sold or destroyed" a player could not tell from a sale; a GM's removal keeps its fate line."""

from __future__ import annotations

from bot.describe import describe_event
from ledger.recall.candidates import _describe

NAMES = {"pc-orrin": "Orrin Vale", "item-healing-potion": "potion of healing"}


def _name(ref: str | None) -> str:
    return NAMES.get(str(ref), str(ref))


def test_a_potion_drunk_in_a_round_is_used_up() -> None:
    drunk = {"item": "item-healing-potion", "from_holder": "pc-orrin", "quantity": 1, "cause": "round-12.8#2"}
    assert describe_event("transfer_item", drunk, _name) == "Orrin Vale used up potion of healing"
    assert _describe({"kind": "transfer_item", **drunk}, NAMES) == "Orrin Vale used up potion of healing"


def test_a_gm_removal_does_not_guess_the_fate() -> None:
    removed = {
        "item": "item-healing-potion",
        "from_holder": "pc-orrin",
        "quantity": 1,
        "cause": "gm-item-remove",
    }
    assert describe_event("transfer_item", removed, _name) == "Orrin Vale no longer has potion of healing"
    assert "used up" not in _describe({"kind": "transfer_item", **removed}, NAMES)
