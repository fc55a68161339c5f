"""Potions and class spells through the real table on SQLite: what the players saw in the evening run.

Sister Tamsin drinks one of her three potions of healing: her hit points go up by 2d4+2 (not above her
maximum) and ``/ledger inventory`` shows one fewer. Orrin Vale, a level-5 wizard whose sheet only says
``class = "wizard"``, may cast Fire Bolt; "light" is refused with the spells he can cast.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import InvalidAction
from ledger import service
from ledger.store.visibility import Viewer
from tests.table_helpers import ALICE, BOB, CARA, DAN, GM, WHERE, RecordingCourier, make_table, seat_everyone


async def _hp(table, campaign_id: int, entity: str) -> int:  # type: ignore[no-untyped-def]
    async with table.context.session() as s:
        view = await service.get_entity(s, campaign_id=campaign_id, entity_id=entity, viewer=Viewer.gm())
    assert view.hp is not None
    return view.hp


async def test_drinking_a_potion_heals_tamsin_and_uses_one_up(sqlite_url: str, tmp_path: Path) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table)
        campaign = await table.campaign_status(WHERE, GM)
        async with table.context.session() as s:
            await service.apply_changes(
                s,
                campaign_id=campaign.id,
                session_number=12,
                round_number=None,
                cause="test",
                mutations=[{"kind": "set_hp", "entity": "pc-tamsin", "hp": 5}],
            )
        before = await table.inventory(WHERE, CARA)
        (held,) = [h.quantity for h in before.items if h.item_id == "item-healing-potion"]
        await table.submit(
            WHERE, CARA, key="c1", text="drink a potion of healing", item="item-healing-potion"
        )
        await table.submit(WHERE, ALICE, key="a1", text="look around the tavern")
        await table.submit(WHERE, BOB, key="b1", text="look around the tavern")
        for player in (ALICE, BOB, CARA):
            receipt = await table.ready(WHERE, player)
        assert receipt.report is not None
        healed = await _hp(table, campaign.id, "pc-tamsin")
        assert 5 + 4 <= healed <= 5 + 10
        (drink,) = [a for a in receipt.report.actions if a.actor == "Sister Tamsin"]
        assert "hit points restored" in drink.summary
        inventory = await table.inventory(WHERE, CARA)
        potions = [h for h in inventory.items if h.item_id == "item-healing-potion"]
        assert [h.quantity for h in potions] == [held - 1]
    finally:
        await table.aclose()


async def test_orrin_the_wizard_may_cast_fire_bolt_but_not_light(sqlite_url: str, tmp_path: Path) -> None:
    table = await make_table(sqlite_url, tmp_path)
    try:
        await seat_everyone(table, (ALICE, BOB, CARA, DAN))
        receipt = await table.submit(
            WHERE, DAN, key="d1", text="cast fire bolt at Bessa Marlow", target="npc-bessa"
        )
        assert "Fire Bolt" in receipt.intent_summary or "fire" in receipt.intent_summary.lower()
        with pytest.raises(InvalidAction) as err:
            await table.submit(WHERE, DAN, key="d2", text="cast light on my staff")
        assert "Fire Bolt" in str(err.value)
    finally:
        await table.aclose()


async def test_orrins_last_potion_is_used_up_and_told_by_its_name(sqlite_url: str, tmp_path: Path) -> None:
    courier = RecordingCourier()
    table = await make_table(sqlite_url, tmp_path, courier=courier)
    try:
        await seat_everyone(table, (ALICE, BOB, CARA, DAN))
        campaign = await table.campaign_status(WHERE, GM)
        # Tamsin hands Orrin one potion and has drunk the rest: his is the last one anywhere.
        (held,) = [
            h.quantity
            for h in (await table.inventory(WHERE, CARA)).items
            if h.item_id == "item-healing-potion"
        ]
        async with table.context.session() as s:
            await service.apply_changes(
                s,
                campaign_id=campaign.id,
                session_number=12,
                round_number=None,
                cause="test",
                mutations=[
                    {
                        "kind": "transfer_item",
                        "item": "item-healing-potion",
                        "from_holder": "pc-tamsin",
                        "to_holder": None,
                        "quantity": held - 1,
                    },
                    {
                        "kind": "transfer_item",
                        "item": "item-healing-potion",
                        "from_holder": "pc-tamsin",
                        "to_holder": "pc-orrin",
                        "quantity": 1,
                    },
                    {"kind": "set_hp", "entity": "pc-orrin", "hp": 3},
                ],
            )
        await table.submit(
            WHERE, DAN, key="d1", text="drink the potion of healing", item="item-healing-potion"
        )
        for player, key in ((ALICE, "a1"), (BOB, "b1"), (CARA, "c1")):
            await table.submit(WHERE, player, key=key, text="look around")
        for player in (ALICE, BOB, CARA, DAN):
            receipt = await table.ready(WHERE, player)
        assert receipt.report is not None
        assert 3 + 4 <= await _hp(table, campaign.id, "pc-orrin") <= 3 + 10
        inventory = await table.inventory(WHERE, DAN)
        assert not [h for h in inventory.items if h.item_id == "item-healing-potion"]
        post = courier.public[-1][2]
        assert "item-healing-potion" not in post and "potion" in post
    finally:
        await table.aclose()
