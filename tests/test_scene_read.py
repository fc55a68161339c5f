"""The scene read in ONE statement (``ledger.store.scene_read``, issue 14) is the scene the five separate
reads gave: the PCs and everyone where they stand with their state, every place, what the creatures and
places hold and those items, the death-save, stability and exits facts. Real ledger (SQLite file or
PostgreSQL), the harbour scenario, before and after changes that move people, hand items over, kill and
tally death saves."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.scene import Scene, load_scene
from ledger import service
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.reads import entities_around, held_items, places
from ledger.store.scene_read import scene_rows
from ledger.store.visibility import Viewer

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"
PCS = ("pc-greyrock", "pc-mira", "pc-tamsin", "pc-orrin")
GM = Viewer.gm()


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


async def _five_reads(s: Any, cid: int, pc_ids: Sequence[str]) -> Scene:
    """The scene as the five statements read it before (the reference; no start-of-campaign fallback)."""
    around = await entities_around(s, campaign_id=cid, entity_ids=list(pc_ids), viewer=GM)
    pcs = [e for e in around if e.id in set(pc_ids)]
    where = {p.id: p for p in await places(s, campaign_id=cid, viewer=GM)}
    here = sorted({pc.location for pc in pcs if pc.location})
    creatures = {e.id: e for location in here for e in around if e.location == location}
    for pc in pcs:
        creatures.setdefault(pc.id, pc)
    holdings: dict[str, tuple[Any, ...]] = {h: () for h in [*creatures, *here]}
    rows, items = await held_items(s, campaign_id=cid, holder_ids=list(holdings), viewer=GM)
    for h in rows:
        holdings[h.holder_id] = (*holdings[h.holder_id], h)
    exit_keys = [f"{loc}-exits" for loc in here]
    state_keys = [f"{c}-{name}" for c in creatures for name in ("death-saves", "stable")]
    both = await service.facts(s, campaign_id=cid, viewer=GM, keys=[*exit_keys, *state_keys])
    exits = set(here)
    for fact in (f for f in both if f.key in exit_keys):
        exits.update(x for x in str(fact.value).split(",") if x in where)
    if not any(f.key in exit_keys for f in both):
        exits.update(where)
    return Scene(
        campaign_id=cid,
        locations=tuple(here),
        creatures=creatures,
        holdings=holdings,
        items={i.id: i for i in items},
        places=where,
        exits=tuple(sorted(exits)),
        facts={f.key: f.value for f in both if f.key in set(state_keys)},
    )


async def _both(engine: Any, cid: int, pc_ids: Sequence[str] = PCS) -> tuple[Scene, Scene]:
    async with ledger_session(engine) as s:
        return await load_scene(s, campaign_id=cid, pc_ids=pc_ids), await _five_reads(s, cid, pc_ids)


async def test_the_one_statement_scene_is_the_five_reads_scene(engine: Any) -> None:
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=load_scenario(HARBOR), source="harbor.toml")
    one, five = await _both(engine, cid)
    assert one == five
    assert one.holdings and any(one.holdings.values()) and one.items  # the harbour's scene holds things
    assert len(one.creatures) > len([p for p in PCS if p in one.creatures])  # NPCs stand with the PCs
    pc = next(p for p in PCS if p in one.creatures)
    npc = next(c for c, e in sorted(one.creatures.items()) if e.kind != "pc")
    item = next(i for h in one.holdings.values() for i in (x.item_id for x in h))
    holder = next(k for k, h in one.holdings.items() if any(x.item_id == item for x in h))
    other = next(p for p in one.places if p not in one.locations)
    changes: list[dict[str, Any]] = [
        {"kind": "set_fact", "key": f"{pc}-death-saves", "value": "1/2"},
        {"kind": "set_fact", "key": f"{pc}-stable", "value": True},
        {"kind": "set_fact", "key": f"{one.locations[0]}-exits", "value": other},
        {"kind": "add_condition", "entity": pc, "condition": "prone"},
        {"kind": "set_alive", "entity": npc, "alive": False},
        {"kind": "transfer_item", "item": item, "from_holder": holder, "to_holder": pc, "quantity": 1},
    ]
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s, campaign_id=cid, session_number=9, round_number=1, cause="round-9.1", mutations=changes
        )
    one, five = await _both(engine, cid)
    assert one == five
    assert one.facts[f"{pc}-stable"] is True and one.facts[f"{pc}-death-saves"] == "1/2"
    assert set(one.exits) == {one.locations[0], other} and one.creatures[npc].alive is False
    assert any(h.item_id == item for h in one.holdings[pc])
    # someone moves away: no longer in the scene, nor what they hold
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s, campaign_id=cid, session_number=9, round_number=2, cause="round-9.2",
            mutations=[{"kind": "move_entity", "entity": npc, "location": other}],
        )  # fmt: skip
    one, five = await _both(engine, cid)
    assert one == five and npc not in one.creatures


async def test_the_statement_reads_no_other_campaign_and_no_pc_of_another_place(engine: Any) -> None:
    async with ledger_session(engine) as s:
        first = await load_scenario_into(s, scenario=load_scenario(HARBOR), source="harbor.toml")
        second = await load_scenario_into(s, scenario=load_scenario(HARBOR), source="harbor.toml")
        read = await scene_rows(s, campaign_id=second, pc_ids=list(PCS[:1]))
    assert read.entities and {e.id for e in read.entities} >= {PCS[0]}
    one, five = await _both(engine, first, PCS[:1])
    assert one == five
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s, campaign_id=second, session_number=9, round_number=1, cause="round-9.1",
            mutations=[{"kind": "add_condition", "entity": PCS[0], "condition": "prone"}],
        )  # fmt: skip
    one, five = await _both(engine, first, PCS[:1])
    assert one == five and one.creatures[PCS[0]].conditions == ()  # the other campaign's change is not read
