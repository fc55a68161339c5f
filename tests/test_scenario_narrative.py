"""The scenario format's narrative history and the records of issue 11 (section 5): ``event`` entries kept as
``record_event`` s, unlabelled entries kept as talk, an entry's place, a thread's place, feuds, factions, an
NPC's home; every bad key named in the message."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import select

from ledger import service
from ledger.scenario.format import ScenarioError
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario, parse_scenario
from ledger.scenario.replay import final_world
from ledger.scenario.timeline import timeline
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

ROOT = Path(__file__).resolve().parents[1]
GM = Viewer.gm()

WORLD = """
[campaign]
name = "Saltmere"
current_session = 4
starting_location = "loc-docks"

[[locations]]
id = "loc-docks"
name = "The Docks"

[[locations]]
id = "loc-gull"
name = "The Salty Gull"

[[pcs]]
id = "pc-mira"
name = "Mira"
owner = "player:bob"
hp = 10

[[npcs]]
id = "npc-wei"
name = "Old Wei"
location = "loc-docks"
home = "loc-gull"

[[npcs]]
id = "npc-bessa"
name = "Bessa"
location = "loc-gull"

[[npcs]]
id = "npc-tam"
name = "Tam"
alive = false

[[threads]]
id = "debt-0001-01"
thread_kind = "debt"
terms = "Mira owes Wei ten silver"
parties = ["pc-mira", "npc-wei"]
place = "loc-docks"

[[threads]]
id = "feud-0001-02"
thread_kind = "feud"
terms = "Bessa and Wei have not spoken since the fire"
parties = ["npc-bessa", "npc-wei"]

[[threads]]
id = "oath-0001-03"
thread_kind = "oath"
terms = "Mira swore to find Tam's killer"
parties = ["pc-mira"]
visibility = "player:bob"

[[factions]]
id = "faction-net-menders"
name = "The Net-Menders"
leader = "npc-wei"
members = ["npc-wei", "npc-bessa"]
"""

HISTORY = """
[[history]]
id = "h-bargain"
session = 2
summary = "Wei agrees to wait for the silver if Mira watches the smugglers."
event = "bargain"
participants = ["npc-wei", "pc-mira"]
place = "loc-docks"
thread = "debt-0001-01"
witnesses = ["npc-bessa"]

[[history]]
id = "h-note"
session = 2
summary = "Bessa grumbles about the price of fish."
witnesses = ["npc-bessa"]

[[history]]
id = "h-move"
session = 3
summary = "Wei walks up to the Gull."
place = "loc-gull"
changes = [{ kind = "move_entity", entity = "npc-wei", location = "loc-gull" }]

[[history]]
id = "h-settle"
session = 3
summary = "Mira pays Wei in full and he spits on the deal."
event = "insult"
participants = ["npc-wei", "pc-mira"]
thread = "debt-0001-01"
changes = [{ kind = "thread_transition", thread = "debt-0001-01", status = "settled", reason = "paid" }]

[[history]]
id = "h-secret"
session = 4
summary = "Mira learns who killed Tam."
event = "discovery"
participants = ["pc-mira"]
thread = "oath-0001-03"
visibility = "player:bob"
"""


def _problems(text: str) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source="t.toml")
    return [(p.path, p.message) for p in info.value.problems]


def test_every_entry_is_in_the_timeline_and_narrative_ones_as_record_events() -> None:
    scenario = parse_scenario(WORLD + HISTORY)
    entries = {e.history_id: e for e in timeline(scenario) if e.history_id}
    assert set(entries) == {"h-bargain", "h-note", "h-move", "h-settle", "h-secret"}
    (bargain,) = entries["h-bargain"].changes
    assert bargain.kind == "record_event" and bargain.event_kind == "bargain"
    assert (bargain.place, bargain.thread) == ("loc-docks", "debt-0001-01")
    assert set(bargain.witnesses) == {"npc-bessa", "npc-wei", "pc-mira"}
    # An entry with neither event nor changes is kept as talk among its witnesses.
    (note,) = entries["h-note"].changes
    assert (note.kind, note.event_kind, note.participants) == ("record_event", "talk", ("npc-bessa",))
    # Changes and no event: the changes, and the place joins what they involve.
    assert [c.kind for c in entries["h-move"].changes] == ["move_entity"]
    assert entries["h-move"].involved == ("loc-gull",)
    # Changes and an event: the changes first, then the event.
    assert [c.kind for c in entries["h-settle"].changes] == ["thread_transition", "record_event"]
    world = final_world(scenario)
    assert world.threads["feud-0001-02"].thread_kind == "feud"
    assert world.facts["npc-wei-home"].value == "loc-gull"
    assert world.entities["npc-wei"].location == "loc-gull"
    assert {(e.source, e.target, e.edge_kind) for e in world.edges} == {("npc-bessa", "npc-wei", "member")}
    assert world.facts["faction-net-menders-name"].value == "The Net-Menders"


@pytest.mark.parametrize(
    ("old", "new", "path", "words"),
    [
        ('participants = ["npc-wei", "pc-mira"]\nplace', 'participants = ["npc-nobody"]\nplace',
         "history[0].participants[0]", "unknown entity 'npc-nobody'"),
        ('place = "loc-docks"\nthread', 'place = "loc-nowhere"\nthread', "history[0].place",
         "unknown location 'loc-nowhere'"),
        ('event = "bargain"', 'event = "haggle"', "history[0].event", "bargain"),
        ('thread = "debt-0001-01"\nwitnesses', 'thread = "debt-0001-09"\nwitnesses', "history[0].thread",
         "unknown thread 'debt-0001-09'"),
        ('place = "loc-gull"\nchanges', 'place = "loc-attic"\nchanges', "history[2].place",
         "unknown location 'loc-attic'"),
        ('id = "h-move"', 'id = "h-move"\nthread = "debt-0001-01"', "history[2]", "thread needs 'event'"),
        # A public event may not name one player's private thread.
        ('thread = "oath-0001-03"\nvisibility = "player:bob"\n', 'thread = "oath-0001-03"\n',
         "history[4].thread", "player:bob"),
        ('home = "loc-gull"', 'home = "loc-moon"', "npcs[0].home", "unknown location 'loc-moon'"),
        ('leader = "npc-wei"', 'leader = "npc-ghost"', "factions[0].leader", "npc-ghost"),
        ('members = ["npc-wei", "npc-bessa"]', 'members = ["npc-wei", "npc-bess"]', "factions[0].members[1]",
         "npc-bess"),
        ('place = "loc-docks"\n\n[[threads]]', 'place = "loc-pier"\n\n[[threads]]', "threads[0].place",
         "unknown location 'loc-pier'"),
    ],
)  # fmt: skip
def test_a_bad_narrative_key_is_named(old: str, new: str, path: str, words: str) -> None:
    text = WORLD + HISTORY
    assert text.count(old) == 1, old
    problems = _problems(text.replace(old, new))
    assert any(p == path and words in message for p, message in problems), problems


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


async def test_the_loaded_ledger_keeps_every_entry_and_what_it_involves(engine: AsyncEngine) -> None:
    scenario = parse_scenario(WORLD + HISTORY)
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=scenario, source="t.toml")
    async with ledger_session(engine) as s:
        refs = (await s.exec(select(m.Campaign).where(m.Campaign.id == cid))).one().settings["history_events"]
        assert set(refs) == {"h-bargain", "h-note", "h-move", "h-settle", "h-secret"}
        (bargain,) = await service.history(s, campaign_id=cid, viewer=GM, involving=["debt-0001-01"], limit=1)
        assert bargain.kind == "record_event" and bargain.payload["event_kind"] == "insult"
        at_gull = await service.history(s, campaign_id=cid, viewer=GM, involving=["loc-gull"], limit=50)
        assert any(e.kind == "move_entity" and e.payload["entity"] == "npc-wei" for e in at_gull)
        party = await service.history(
            s, campaign_id=cid, viewer=Viewer.party(), involving=["pc-mira"], limit=50
        )
        assert all(e.payload.get("event_kind") != "discovery" for e in party)
        summaries = (await s.exec(select(m.Summary).where(m.Summary.campaign_id == cid))).all()
        assert len(summaries) == 5
        assert await service.rebuild_state(s, campaign_id=cid) == await service.projected_state(
            s, campaign_id=cid
        )


def test_the_generated_long_campaign_is_accepted_with_its_narrative_keys(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import gen_campaign

    campaign = gen_campaign.generate(101, 10)
    path, _probes = gen_campaign.write(campaign, tmp_path)
    scenario = load_scenario(path)
    narrative: list[Any] = [h for h in scenario.history if h.event is not None]
    assert narrative and len(narrative) == sum(1 for h in campaign.scenario["history"] if "event" in h)
