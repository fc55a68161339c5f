"""The live fact check sees what the scenario check sees.

The bot judges a narration against :func:`ledger.check.snapshot_sql.snapshot_from_ledger` (built from the
campaign's database); the corpus and ``tablekeeper check --scenario`` judge it against
:func:`ledger.check.snapshot.snapshot_from_world` (built from the scenario file). A mechanism that reads a
field one builder fills and the other leaves empty works in the tests and is inert in a real game (items
named by their description, counts in the item's unit). Each bundled scenario and a few corpus scenarios are
loaded into a real ledger (SQLite, and PostgreSQL when configured) and both snapshots are compared field by
field, for the GM audience (every record, its visibility kept), the party, the public and one player (a
hidden record is absent from both alike). Ids are the file's on both sides (edges are named
``edge-<source>-<target>-<kind>`` by both), and the scene is given to both, so those compare as they are;
the order of a thread's roles is the one difference (see :func:`_parts`). Neither builder fills a creature's
description, and neither format records a location's parent place (``Entity.location`` of a location):
equal, and empty, on both.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import Entity, Scene, WorldSnapshot, party_location, scene_at, snapshot_from_world
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.scenario.format import Scenario
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario, parse_scenario
from ledger.scenario.replay import final_world
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus" / "narrations" / "scenarios"
FILES = (
    ROOT / "scenarios" / "harbor.toml",
    ROOT / "scenarios" / "crypt.toml",
    CORPUS / "fresh_h_station.toml",  # units (litre, pack, section), item descriptions
    CORPUS / "fresh_h_sect.toml",
    CORPUS / "fresh_i_sahel.toml",  # units (slab, mithqal, shell, nut, skin)
    CORPUS / "fresh_i_bakery.toml",
)
# (the file's viewer, the ledger's audience): each sees only what its scopes allow, so a hidden record is
# absent from both snapshots alike; the GM sees everything with each record's visibility kept.
AUDIENCES = (("gm", Viewer.gm()), ("party", Viewer.party()), ("public", Viewer.public()))

# Every Entity field the checker reads; ``visibility`` is compared too (the GM snapshot keeps each record's).
ENTITY_FIELDS = tuple(f.name for f in dataclasses.fields(Entity))


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


def _scene(scenario: Scenario) -> Scene:
    world = final_world(scenario, "gm")
    return scene_at(world, party_location(world))


async def _load(engine: Any, scenario: Scenario, name: str) -> int:
    async with ledger_session(engine) as s:
        return await load_scenario_into(s, scenario=scenario, source=name)


async def _live(engine: Any, cid: int, audience: Viewer, scene: Scene) -> WorldSnapshot:
    async with ledger_session(engine) as s:
        return await snapshot_from_ledger(
            s, campaign_id=cid, audience=audience, location=scene.location, present=sorted(scene.present)
        )


def _parts(snap: WorldSnapshot) -> dict[str, Any]:
    """What the checker reads of a snapshot, in a form that compares regardless of build order.

    Record ids are the same on both sides (the ledger keeps the file's ids; edges are named
    ``edge-<source>-<target>-<kind>`` by both builders), so nothing is renamed here."""
    return {
        "entities": {k: {f: getattr(e, f) for f in ENTITY_FIELDS} for k, e in snap.entities.items()},
        "holdings": {item: dict(by) for item, by in snap.holdings.items()},
        "fates": dict(snap.fates),
        "edges": sorted(snap.edges, key=lambda e: e.id),
        # The one legitimate difference: a thread's roles are one per party (the file's ``roles`` is a table
        # keyed by party), listed by the file in its own order and by the ledger in its facts' key order.
        # Which role a party has is what the checker reads (Thread.role_of), so they compare sorted.
        "threads": {k: dataclasses.replace(t, roles=tuple(sorted(t.roles))) for k, t in snap.threads.items()},
        "facts": dict(snap.facts),
        "retcons": sorted(snap.retcons, key=lambda r: r.id),
        "scene": snap.scene,
    }


def _scenario(case: str) -> tuple[Scenario, str]:
    """A bundled or corpus scenario file by stem, or ``saltpans``: an invented world with what those files
    lack (item fates, thread roles, condition sources, a removed condition, hidden and per-player records, a
    retcon)."""
    if case == "saltpans":
        return parse_scenario(SALTPANS, source="saltpans.toml"), "saltpans.toml"
    path = next(p for p in FILES if p.stem == case)
    return load_scenario(path), path.name


@pytest.mark.parametrize("case", [*(p.stem for p in FILES), "saltpans"])
async def test_live_snapshot_equals_the_file_snapshot(engine: Any, case: str) -> None:
    scenario, name = _scenario(case)
    cid = await _load(engine, scenario, name)
    scene = _scene(scenario)
    owner = next(pc.owner for pc in scenario.pcs if pc.owner)  # one player's own view (the file's "alice")
    audiences = (*AUDIENCES, (f"player:{owner}", Viewer.player(owner)))
    gm: dict[str, Any] = {}
    for label, audience in audiences:
        want = _parts(snapshot_from_world(final_world(scenario, label), scenario=scenario, scene=scene))
        got = _parts(await _live(engine, cid, audience, scene))
        for part, value in want.items():
            if part == "entities":
                assert got[part].keys() == value.keys(), (label, part)
                for eid, fields in value.items():
                    for name, v in fields.items():
                        assert got[part][eid][name] == v, (label, eid, name)
            else:
                assert got[part] == value, (label, part)
        if label == "gm":
            gm = got
    # the fields this session added are exercised, not equal by being empty on both sides
    units = {i.id for i in scenario.items if i.properties.get("unit")}
    assert {k for k, e in gm["entities"].items() if e["unit"]} == units
    described = {i.id for i in scenario.items if i.description}
    assert {k for k, e in gm["entities"].items() if e["kind"] == "item" and e["description"]} == described
    if case == "saltpans":
        assert gm["fates"]["item-scale"].fate == "sold"
        assert gm["threads"]["debt-0001-01"].roles == (("npc-odo", "owes"), ("pc-wren", "owed"))
        assert gm["entities"]["npc-mabry"]["condition_sources"] == (("charmed", "npc-odo"),)
        assert gm["entities"]["npc-mabry"]["conditions"] == frozenset({"charmed"})
        assert gm["entities"]["npc-odo"]["alive"] is True  # the retcon's value
        assert [r.id for r in gm["retcons"]] == ["h-storm"]
        assert gm["entities"]["npc-gull"]["visibility"] == "gm"


# --- what the live check now sees: a count in the item's unit, an item named by its description -----------

SALTPANS = """
[campaign]
name = "The Saltpans of Orrey"
current_session = 2
starting_location = "loc-saltpan"

[[locations]]
id = "loc-saltpan"
name = "the saltpans"

[[pcs]]
id = "pc-wren"
name = "Wren Callow"
owner = "player:wren"
hp = 11
location = "loc-saltpan"
pronoun = "she"

[[npcs]]
id = "npc-odo"
name = "Odo the Raker"
location = "loc-saltpan"
pronoun = "he"

[[items]]
id = "item-salt"
name = "grey salt"
aliases = ["salt"]
description = "Coarse grey sea salt pressed into fist-sized cakes."
properties = { stackable = true, unit = "cake" }
holdings = [{ holder = "pc-wren", quantity = 5 }]

[[items]]
id = "item-eye"
name = "the Ferryman's Eye"
description = "A brass astrolabe with a cracked rete."
fate = "destroyed"

[[items]]
id = "item-rake"
name = "Odo's rake"
description = "A long ash-handled salt rake with a cedar blade."
holder = "npc-odo"

[[npcs]]
id = "npc-mabry"
name = "Mabry Voss"
aliases = ["the tally-wife"]
description = "The saltworks' tally-keeper; her ledgers are never wrong."
location = "loc-saltpan"
conditions = ["charmed", "deafened"]
condition_sources = { charmed = "npc-odo" }

[[npcs]]
id = "npc-gull"
name = "the Gull"
description = "A smuggler who buys salt off the books."
location = "loc-saltpan"
visibility = "gm"

[[items]]
id = "item-scale"
name = "tally scale"
description = "A brass beam scale with lead weights."
fate = "sold"

[[items]]
id = "item-letter"
name = "sealed letter"
description = "A letter sealed in green wax, for Wren alone."
holder = "pc-wren"
visibility = "player:wren"

[[relationships]]
source = "npc-mabry"
target = "npc-odo"
edge_kind = "ally"
attitude = 30
reason = "they rake the same pans"

[[threads]]
id = "debt-0001-01"
thread_kind = "debt"
terms = "the matter of the spoiled pans"
parties = ["npc-odo", "pc-wren"]
roles = { pc-wren = "owed", npc-odo = "owes" }
tags = ["pans"]

[[history]]
id = "h-storm"
session = 1
summary = "A storm floods the pans; Odo is struck down, and Mabry is deafened by the thunder."
changes = [
  { kind = "set_alive", entity = "npc-odo", alive = false },
  { kind = "remove_condition", entity = "npc-mabry", condition = "deafened" },
]

[[history]]
id = "h-ruling"
session = 2
summary = "The GM rules Odo only stunned."
changes = [
  { kind = "retcon", target = "h-storm", reason = "Odo was only stunned", changes = [
    { kind = "set_alive", entity = "npc-odo", alive = true },
  ] },
]
"""


async def test_the_live_check_reads_units_and_descriptions(engine: Any) -> None:
    """Wren carries five cakes of grey salt (the record counts in cakes); the Ferryman's Eye, a brass
    astrolabe by its description, was destroyed. Judged on the snapshot built from the ledger."""
    scenario = parse_scenario(SALTPANS, source="saltpans.toml")
    cid = await _load(engine, scenario, "saltpans.toml")
    snap = await _live(engine, cid, Viewer.party(), _scene(scenario))
    assert snap.entities["item-salt"].unit == "cake"
    assert snap.entities["item-eye"].description.startswith("A brass astrolabe")

    def flagged(text: str) -> set[str | None]:
        return {v.refuted_by for v in check(text, snap).conflicts()}

    # a count in the record's unit, held to Wren's five
    assert "item-salt-quantity" in flagged("Wren has nine cakes of grey salt in her satchel.")
    assert "item-salt-quantity" in flagged("Wren has nine cakes of salt.")
    # the destroyed astrolabe, never called by its name, told lying here now
    assert "item-eye-holder" in flagged("On the sill, beside the salt jar, lies the brass astrolabe.")
    assert "item-eye-holder" in flagged("The brass astrolabe sits on the desk.")
    # controls: the right count; the astrolabe remembered; another thing of brass
    assert flagged("Wren has five cakes of grey salt in her satchel.") == set()
    assert flagged("Wren remembers the brass astrolabe on the sill.") == set()
    assert flagged("A brass lamp sits on the desk.") == set()
