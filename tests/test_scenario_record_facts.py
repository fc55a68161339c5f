"""What a checker needs from a scenario file (issue 10): why an item is gone (``fate``), who owes whom on a
thread (``roles``), who caused a condition (``condition_sources``) and conditions beyond the 5e list.

The file says them once; the loader keeps them as facts of those records, and both snapshots (the replayed
file and the SQL ledger, on SQLite and PostgreSQL) read them the same way, so the check judges a live
campaign as it judges its file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import Scene, WorldSnapshot, snapshot_from_world
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.scenario.format import ScenarioError
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import parse_scenario
from ledger.scenario.replay import final_world
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.reads import get_entity
from ledger.store.visibility import Viewer

GM = Viewer.gm()
SCENE = Scene(location="loc-mill", present=frozenset({"pc-ilse", "npc-oda", "npc-brenn"}))

WORLD = """
[campaign]
name = "Millbrook"
current_session = 3
starting_location = "loc-mill"

[[locations]]
id = "loc-mill"
name = "The Old Mill"

[[pcs]]
id = "pc-ilse"
name = "Ilse"
owner = "player:ilse"
hp = 12

[[npcs]]
id = "npc-oda"
name = "Oda Varga"
location = "loc-mill"
conditions = ["charmed", "silenced"]
condition_sources = { charmed = "npc-vesna" }

[[npcs]]
id = "npc-brenn"
name = "Brenn"
location = "loc-mill"
conditions = ["diseased"]

[[npcs]]
id = "npc-vesna"
name = "Vesna the Hedge-Witch"
location = "loc-mill"

[[items]]
id = "item-brass-lantern"
name = "brass lantern"
fate = "sold"

[[items]]
id = "item-mill-key"
name = "mill key"
holder = "npc-oda"

[[threads]]
id = "debt-0002-01"
thread_kind = "debt"
terms = "the matter of the flour money between Oda and Brenn"
parties = ["npc-oda", "npc-brenn"]
roles = { npc-brenn = "owes", npc-oda = "owed" }
"""


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


def _from_file() -> WorldSnapshot:
    scenario = parse_scenario(WORLD, source="millbrook.toml")
    return snapshot_from_world(final_world(scenario, "gm"), scenario=scenario, scene=SCENE)


async def _from_ledger(engine: Any) -> WorldSnapshot:
    scenario = parse_scenario(WORLD, source="millbrook.toml")
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=scenario, source="millbrook.toml")
    async with ledger_session(engine) as s:
        return await snapshot_from_ledger(
            s, campaign_id=cid, audience=GM, location=SCENE.location, present=sorted(SCENE.present)
        )


def _told(snap: WorldSnapshot) -> dict[str, Any]:
    return {
        "fate": snap.fates["item-brass-lantern"].fate,
        "roles": snap.threads["debt-0002-01"].roles,
        "oda": (sorted(snap.entities["npc-oda"].conditions), snap.entities["npc-oda"].condition_sources),
        "brenn": sorted(snap.entities["npc-brenn"].conditions),
        "facts": sorted(snap.facts),
    }


def test_the_file_says_why_an_item_is_gone_who_owes_and_who_charmed() -> None:
    told = _told(_from_file())
    assert told["fate"] == "sold"
    # the terms alone name no debtor; the roles do
    assert told["roles"] == (("npc-brenn", "owes"), ("npc-oda", "owed"))
    assert told["oda"] == (["charmed", "silenced"], (("charmed", "npc-vesna"),))
    assert told["brenn"] == ["diseased"]
    # kept as facts of those records, not as plain facts of the world (no fact "sold" to leak or contradict)
    assert not any(k.endswith("-fate") or "-role-" in k or "-condition-" in k for k in told["facts"])


async def test_the_ledger_reads_them_as_the_file_does(engine: Any) -> None:
    assert _told(await _from_ledger(engine)) == _told(_from_file())


async def test_a_condition_with_a_source_is_still_the_condition_in_the_ledger(engine: Any) -> None:
    scenario = parse_scenario(WORLD, source="millbrook.toml")
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=scenario, source="millbrook.toml")
    async with ledger_session(engine) as s:
        oda = await get_entity(s, campaign_id=cid, entity_id="npc-oda", viewer=GM)
    assert oda.conditions == ("charmed", "silenced")


def test_the_check_names_the_fate_of_a_gone_item() -> None:
    report = check("Ilse lifts the brass lantern from its hook and lights it.", _from_file())
    assert report.verdict == "conflict"
    reasons = [v.reason for v in report.conflicts() if v.refuted_by == "item-brass-lantern-holder"]
    assert reasons and "sold" in reasons[0], reasons


def test_a_held_item_told_as_held_is_clean() -> None:
    assert check("Oda turns the mill key over in her fingers.", _from_file()).verdict == "clean"


def _problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source="t.toml")
    return [f"{p.path}: {p.message}" for p in info.value.problems]


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            'roles = { npc-brenn = "owes"',
            'roles = { pc-ilse = "owes"',
            "'pc-ilse', who is not among the parties",
        ),
        ('npc-oda = "owed" }', 'npc-oda = "lender" }', "owes"),
        ('name = "brass lantern"\nfate = "sold"', 'name = "brass lantern"\nfate = "pawned"', "sold"),
        ('holder = "npc-oda"', 'holder = "npc-oda"\nfate = "lost"', "an item someone holds has no fate"),
        (
            'charmed = "npc-vesna"',
            'frightened = "npc-vesna"',
            "'frightened', which is not among its conditions",
        ),
        ('conditions = ["diseased"]', 'conditions = ["cursed"]', "unknown condition 'cursed'"),
    ],
)
def test_a_bad_record_fact_is_named_and_nothing_loads(old: str, new: str, words: str) -> None:
    assert old in WORLD
    problems = _problems(WORLD.replace(old, new, 1))
    assert any(words in p for p in problems), problems


def test_the_check_knows_every_role_the_format_allows() -> None:
    from ledger.check.snapshot import THREAD_ROLES
    from ledger.scenario.values import THREAD_ROLE_NAMES

    assert THREAD_ROLES == THREAD_ROLE_NAMES


HURT = """
[campaign]
name = "Millbrook"
current_session = 1
starting_location = "loc-mill"

[[locations]]
id = "loc-mill"
name = "The Old Mill"

[[npcs]]
id = "npc-kell"
name = "Bursar Kell"
location = "loc-mill"
hp = 5
max_hp = 18

[[npcs]]
id = "npc-guard"
name = "Mill Guard"
location = "loc-mill"
bestiary = "thug"
hp = 3
"""


def test_an_npcs_full_health_is_known_so_unhurt_at_low_hp_is_caught() -> None:
    scenario = parse_scenario(HURT, source="hurt.toml")
    snap = snapshot_from_world(final_world(scenario, "gm"), scenario=scenario)
    kell, guard = snap.entities["npc-kell"], snap.entities["npc-guard"]
    assert (kell.hp, kell.max_hp) == (5, 18)
    assert guard.hp == 3 and guard.max_hp is not None and guard.max_hp > 3  # the bestiary's full health
    report = check("Bursar Kell strolls in, hale and unhurt, humming a tune.", snap)
    assert "npc-kell-hp" in {v.refuted_by for v in report.conflicts()}, report


def test_an_npcs_hp_above_its_full_health_is_refused() -> None:
    assert any("above max_hp 18" in p for p in _problems(HURT.replace("hp = 5", "hp = 25")))


def test_a_threads_aliases_name_it_in_a_narration() -> None:
    world = WORLD.replace(
        'roles = { npc-brenn = "owes", npc-oda = "owed" }',
        'roles = { npc-brenn = "owes", npc-oda = "owed" }\naliases = ["the flour money"]',
    )
    scenario = parse_scenario(world, source="millbrook.toml")
    snap = snapshot_from_world(final_world(scenario, "gm"), scenario=scenario, scene=SCENE)
    assert "the flour money" in snap.threads["debt-0002-01"].aliases
    report = check("The flour money is settled now, and Oda has struck it from her book.", snap)
    assert "debt-0002-01" in {v.refuted_by for v in report.conflicts()}, report
