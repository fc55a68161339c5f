"""Scene retrieval: the decisive record first, permanent matters over trivia, nothing hidden leaks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from ledger.recall.retrieval import SceneContext, scene_context
from ledger.scenario.format import Scenario
from ledger.scenario.load import load_scenario_into
from ledger.scenario.reading import load_scenario
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"
WEI_SCENE = {"location": "loc-harbor", "present": ["npc-old-wei", "pc-greyrock"]}


@pytest.fixture(scope="module")
def harbor() -> Scenario:
    return load_scenario(HARBOR)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


@pytest.fixture
async def harbor_id(engine: Any, harbor: Scenario) -> int:
    async with ledger_session(engine) as s:
        return await load_scenario_into(s, scenario=harbor, source="harbor.toml")


async def _scene(engine: Any, cid: int, viewer: Viewer, **kw: Any) -> SceneContext:
    kw.setdefault("current_session", 12)
    async with ledger_session(engine) as s:
        return await scene_context(s, campaign_id=cid, viewer=viewer, **kw)


async def test_old_wei_favour_comes_first(engine: Any, harbor_id: int) -> None:
    ctx = await _scene(engine, harbor_id, Viewer.party(), **WEI_SCENE)
    assert 0 < len(ctx.records) <= 10
    first = ctx.records[0]
    assert first.ref == "favor-0003-01"
    assert first.kind == "thread"
    assert "favor-0003-01 (favour, open, since session 3)" in first.text
    assert "no-questions-asked favour" in first.text
    assert "Old Wei" in first.why and "(present)" in first.why and "permanent" in first.why
    # Every permanent matter binding someone present outranks every piece of trivia.
    permanent = [r for r in ctx.records if r.permanent and "(present)" in r.why]
    trivia = [r for r in ctx.records if not r.permanent and r.score < 50]
    assert permanent and all(p.score > t.score for p in permanent for t in trivia)
    assert [r.score for r in ctx.records] == sorted((r.score for r in ctx.records), reverse=True)
    # Every record names something the ledger holds.
    async with ledger_session(engine) as s:
        threads = set((await s.exec(select(m.Thread.id).where(m.Thread.campaign_id == harbor_id))).all())
        events = set((await s.exec(select(m.Event.ref).where(m.Event.campaign_id == harbor_id))).all())
    assert all(r.ref in threads for r in ctx.records if r.kind == "thread")
    assert all(r.ref in events for r in ctx.records if r.kind == "event")


async def test_the_dead_merchant_is_never_present(engine: Any, harbor_id: int) -> None:
    ctx = await _scene(engine, harbor_id, Viewer.party(), **WEI_SCENE)
    assert "npc-harlan-voss" not in ctx.present
    for r in ctx.records:
        if "Harlan Voss" in r.text:
            assert "Harlan Voss (present)" not in r.why and "Harlan Voss," not in r.why
    # Named present by mistake, he is reported dead and not treated as present.
    ctx = await _scene(
        engine, harbor_id, Viewer.party(), location="loc-harbor", present=["npc-old-wei", "npc-harlan-voss"]
    )
    assert ctx.present == ("npc-old-wei",)
    assert ctx.dead == ("npc-harlan-voss",)
    dead = ctx.records[0]
    assert dead.ref == "npc-harlan-voss-alive" and "dead (since session 7)" in dead.text
    assert all("Harlan Voss (present)" not in r.why for r in ctx.records)


async def test_a_player_never_sees_another_players_secret(engine: Any, harbor_id: int) -> None:
    scene = {"location": "loc-salty-gull", "present": ["pc-mira", "pc-greyrock", "npc-maren-holt"]}
    for viewer in (Viewer.player("alice"), Viewer.party(), Viewer.public()):
        ctx = await _scene(engine, harbor_id, viewer, **scene, max_records=10)
        allowed = viewer.visible()
        assert allowed is not None
        assert all(r.visibility in allowed for r in ctx.records), viewer
        assert all("smuggler boss" not in r.text and "knows-secret" not in r.text for r in ctx.records)
        assert all("black pearl" not in r.text for r in ctx.records)
    bob = await _scene(engine, harbor_id, Viewer.player("bob"), **scene)
    assert any("smuggler boss" in r.text for r in bob.records)
    gm = await _scene(engine, harbor_id, Viewer.gm(), **scene)
    assert any("smuggler boss" in r.text for r in gm.records)


async def test_asked_threads_and_the_record_cap(engine: Any, harbor_id: int) -> None:
    ctx = await _scene(
        engine,
        harbor_id,
        Viewer.party(),
        location="loc-lighthouse",
        present=["pc-tamsin"],
        threads=["quest-0001-01"],
    )
    assert ctx.records[0].ref == "quest-0001-01"
    assert "active quest" in ctx.records[0].why
    small = await _scene(engine, harbor_id, Viewer.party(), **WEI_SCENE, max_records=3)
    full = await _scene(engine, harbor_id, Viewer.party(), **WEI_SCENE)
    assert small.refs() == full.refs()[:3]
    huge = await _scene(engine, harbor_id, Viewer.gm(), **WEI_SCENE, max_records=50)
    assert len(huge.records) <= 10
    # Unknown ids simply match nothing.
    ctx = await _scene(engine, harbor_id, Viewer.gm(), location="loc-nowhere", present=["npc-nobody"])
    assert ctx.records == () and ctx.present == ("npc-nobody",)


async def test_retrieval_is_deterministic(engine: Any, harbor: Scenario, harbor_id: int) -> None:
    a = await _scene(engine, harbor_id, Viewer.party(), **WEI_SCENE)
    b = await _scene(engine, harbor_id, Viewer.party(), **WEI_SCENE)
    assert a == b
    async with ledger_session(engine) as s:
        other = await load_scenario_into(s, scenario=harbor, source="harbor.toml")
    c = await _scene(engine, other, Viewer.party(), **WEI_SCENE)
    assert [(r.ref, r.text, r.score, r.why) for r in c.records] == [
        (r.ref, r.text, r.score, r.why) for r in a.records
    ]
    # The order of the present list does not matter.
    d = await _scene(
        engine, harbor_id, Viewer.party(), location="loc-harbor", present=["pc-greyrock", "npc-old-wei"]
    )
    assert d.refs() == a.refs()


async def _index_summaries(engine: Any, cid: int, collection: str) -> Any:
    """A real SummaryIndex (in-memory Chroma, offline hashing embedding) with the loaded history summaries."""
    import chromadb
    from chromadb.config import Settings

    from ledger.recall.summaries import SummaryIndex

    index = SummaryIndex(chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False)))
    async with ledger_session(engine) as s:
        rows = (await s.exec(select(m.Summary).where(m.Summary.campaign_id == cid))).all()
        ents = await s.exec(
            select(m.EventEntity.entity_id, m.Event.ref).join(m.Event).where(m.Event.campaign_id == cid)
        )
        involved: dict[str, set[str]] = {}
        for entity, ref in ents.all():
            involved.setdefault(ref, set()).add(entity)
    for row in rows:
        index.add_now(
            summary_id=f"summary-{row.id}",
            campaign=collection,
            session=row.session_number,
            scope=row.scope,
            text=row.text,
            event_ids=row.event_ids,
            visibility=row.visibility,
            entities=sorted(set().union(*(involved.get(r, set()) for r in row.event_ids))),
        )
    return index


async def test_summaries_come_from_the_index_at_most_five(engine: Any, harbor_id: int) -> None:
    import uuid

    collection = f"c{uuid.uuid4().hex[:12]}"
    index = await _index_summaries(engine, harbor_id, collection)
    ctx = await _scene(
        engine, harbor_id, Viewer.party(), **WEI_SCENE, summaries=index, summary_campaign=collection
    )
    assert 0 < len(ctx.summaries) <= 5
    assert all(h.visibility in ("public", "party") for h in ctx.summaries)
    assert any("Old Wei" in h.text for h in ctx.summaries)
    assert not any("cipher" in h.text for h in ctx.summaries)  # Mira's secret summary is player:bob
    bob = await _scene(
        engine, harbor_id, Viewer.player("bob"), location="loc-salty-gull", present=["pc-mira"],
        summaries=index, summary_campaign=collection,
    )  # fmt: skip
    assert any("cipher" in h.text for h in bob.summaries)
    assert (await _scene(engine, harbor_id, Viewer.party(), **WEI_SCENE)).summaries == ()


# --- decay, on a small hand-made campaign ------------------------------------------------------------------


async def _tiny_campaign(engine: Any) -> int:
    from ledger import service

    async with ledger_session(engine) as s:
        camp = m.Campaign(name="tiny")
        s.add(camp)
        await s.commit()
        cid = camp.id
    assert cid is not None

    async def apply(session_number: int, changes: list[dict[str, Any]], **kw: Any) -> None:
        async with ledger_session(engine) as s:
            await service.apply_changes(
                s, campaign_id=cid, session_number=session_number, round_number=None, cause="test",
                mutations=changes, **kw,
            )  # fmt: skip

    await apply(
        1,
        [
            {"kind": "create_location", "id": "loc-road", "name": "The Road"},
            {
                "kind": "create_entity",
                "id": "pc-ash",
                "entity_kind": "pc",
                "name": "Ash",
                "location": "loc-road",
            },
            {
                "kind": "create_entity",
                "id": "npc-bo",
                "entity_kind": "npc",
                "name": "Bo",
                "location": "loc-road",
            },
            *(
                {"kind": "create_item", "id": f"item-pebble-{i}", "name": f"pebble {i}", "holder": "loc-road"}
                for i in range(4)
            ),
        ],
    )
    # Session 1: a small oath, barely important but permanent.
    await apply(
        1,
        [{"kind": "open_thread", "id": "oath-0001-01", "thread_kind": "oath", "terms": "Ash guards Bo's mill",
          "parties": ["pc-ash", "npc-bo"]}],
        importance=1, permanent=True,
    )  # fmt: skip
    # Trivia of equal importance in sessions 2, 6 and 10, and one very important bit of trivia in session 10.
    for i, session_number in enumerate((2, 6, 10)):
        await apply(
            session_number,
            [
                {
                    "kind": "transfer_item",
                    "item": f"item-pebble-{i}",
                    "from_holder": "loc-road",
                    "to_holder": "pc-ash",
                }
            ],
            importance=4,
        )
    await apply(
        10,
        [
            {
                "kind": "transfer_item",
                "item": "item-pebble-3",
                "from_holder": "loc-road",
                "to_holder": "npc-bo",
            }
        ],
        importance=10,
    )
    return cid


async def test_trivia_decays_with_age_but_permanent_matters_do_not(engine: Any) -> None:
    cid = await _tiny_campaign(engine)
    ctx = await _scene(
        engine, cid, Viewer.party(), location="loc-road", present=["pc-ash", "npc-bo"], current_session=11
    )
    refs = ctx.refs()
    assert refs[0] == "oath-0001-01"  # importance 1, ten sessions old, still first: it is an oath
    events = {
        r.session: r for r in ctx.records if r.kind == "event" and "pebble" in r.text and "Ash" in r.text
    }
    assert set(events) >= {6, 10}
    assert events[10].score > events[6].score
    if 2 in events:
        assert events[6].score > events[2].score
    assert all(r.score < ctx.records[0].score for r in ctx.records[1:])
    # Much later, the same trivia has faded further; the oath has not (an older obligation ranks, if
    # anything, a little higher: the oldest unpaid first).
    later = await _scene(
        engine, cid, Viewer.party(), location="loc-road", present=["pc-ash", "npc-bo"], current_session=30
    )
    assert later.records[0].ref == "oath-0001-01" and later.records[0].score >= ctx.records[0].score
    old = {r.ref: r.score for r in later.records}
    for r in ctx.records:
        if r.kind == "event" and r.ref in old:
            assert old[r.ref] < r.score


# --- tablekeeper recall ----------------------------------------------------------------------------------


def test_recall_cli_prints_the_favour_first_with_why(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    code = main(
        ["recall", "--scenario", str(HARBOR), "--at", "The Harbour", "--present", "old wei, GREYROCK"]
    )
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("The Saltmere Ledger, session 12: Saltmere Harbour with Old Wei, Greyrock")
    assert lines[1].startswith(" 1. [thread] favor-0003-01 (favour, open, since session 3)")
    assert lines[2].strip().startswith("why: permanent favour involving Old Wei, Greyrock (present)")
    assert "summaries:" in out


def test_recall_cli_json_and_viewer(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bot.cli import main

    code = main(
        ["recall", "--scenario", str(HARBOR), "--at", "loc-salty-gull", "--present", "Mira,the harbourmaster",
         "--viewer", "player:bob", "--json"]
    )  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["viewer"] == "player:bob"
    assert [p["id"] for p in data["present"]] == ["pc-mira", "npc-maren-holt"]
    assert any("smuggler boss" in r["text"] for r in data["records"])
    assert [r["rank"] for r in data["records"]] == list(range(1, len(data["records"]) + 1))
    assert len(data["summaries"]) <= 5
    code = main(
        ["recall", "--scenario", str(HARBOR), "--at", "loc-salty-gull", "--present", "Mira", "--json"]
    )
    party = json.loads(capsys.readouterr().out)
    assert code == 0 and not any("smuggler boss" in r["text"] for r in party["records"])


def test_recall_cli_unknown_name_exits_2_with_close_names(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    code = main(["recall", "--scenario", str(HARBOR), "--at", "harbour", "--present", "Old Way"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "unknown name 'Old Way'" in err[0] and "Old Wei" in err[0]
    assert main(["recall", "--scenario", str(HARBOR), "--at", "harbour", "--viewer", "everyone"]) == 2
    assert main(["recall", "--scenario", "no-such-file.toml", "--at", "harbour"]) == 2
