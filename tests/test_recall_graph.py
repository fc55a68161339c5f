"""Scene retrieval over the relationship graph and the narrative history, on a small campaign written through
the store: a dead party's matter through their sister, a settlement that stays, the last notable thing
between two people under newer small talk, a PC's own matters kept to a few, private records to their owner.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from ledger import service
from ledger.recall.retrieval import SceneContext, scene_context
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

PCS = ["pc-ash", "pc-bly"]
NOW = 41


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


def _npc(eid: str, name: str, where: str) -> dict[str, Any]:
    return {"kind": "create_entity", "id": eid, "entity_kind": "npc", "name": name, "location": where}


def _event(kind: str, who: list[str], place: str, summary: str, **more: Any) -> dict[str, Any]:
    change = {"kind": "record_event", "event_kind": kind, "participants": who, "place": place}
    return {**change, "summary": summary, **more}


@pytest.fixture
async def cid(engine: Any) -> int:
    async with ledger_session(engine) as s:
        camp = m.Campaign(name="graph")
        s.add(camp)
        await s.commit()
        assert camp.id is not None
        campaign = camp.id

    async def apply(session_number: int, changes: list[dict[str, Any]]) -> None:
        async with ledger_session(engine) as s:
            await service.apply_changes(
                s, campaign_id=campaign, session_number=session_number, round_number=None, cause="test",
                mutations=changes,
            )  # fmt: skip

    await apply(
        1,
        [
            {"kind": "create_location", "id": "loc-quay", "name": "The Quay"},
            {"kind": "create_location", "id": "loc-mill", "name": "The Mill"},
            *(
                {
                    "kind": "create_entity",
                    "id": pc,
                    "entity_kind": "pc",
                    "name": pc[3:].title(),
                    "owner": owner,
                    "location": "loc-quay",
                }
                for pc, owner in zip(PCS, ("alice", "bob"), strict=True)
            ),
            _npc("npc-marta", "Marta Corran", "loc-mill"),
            _npc("npc-ilse", "Ilse Corran", "loc-mill"),
            _npc("npc-bo", "Bo Hale", "loc-quay"),
            _npc("npc-cal", "Cal Pike", "loc-quay"),
            _npc("npc-dee", "Dee Wren", "loc-quay"),
            _npc("npc-far", "Far Away", "loc-mill"),
            {
                "kind": "set_edge",
                "source": "npc-marta",
                "target": "npc-ilse",
                "edge_kind": "sister",
                "attitude": 70,
                "reason": "Marta is Ilse's sister",
            },
            {
                "kind": "set_edge",
                "source": "npc-ilse",
                "target": "npc-marta",
                "edge_kind": "sister",
                "attitude": 70,
                "reason": "Ilse is Marta's sister",
            },
        ],
    )
    await apply(
        2,
        [
            {
                "kind": "open_thread",
                "id": "favor-0002-01",
                "thread_kind": "favour",
                "parties": ["npc-ilse", "pc-ash"],
                "terms": "Ilse hid Ash from the watch; Ash owes her a favour",
            },
            {
                "kind": "open_thread",
                "id": "debt-0002-02",
                "thread_kind": "debt",
                "parties": ["npc-bo", "pc-bly"],
                "terms": "Bly owes Bo 40 gp for a boat share",
            },
            *(
                {
                    "kind": "open_thread",
                    "id": f"oath-0002-{i:02d}",
                    "thread_kind": "oath",
                    "parties": ["npc-far", pc],
                    "terms": f"{pc} swore oath {i} to Far",
                }
                for i, pc in enumerate(PCS * 5, start=10)
            ),
        ],
    )
    await apply(
        3,
        [
            {
                "kind": "open_thread",
                "id": "oath-0003-01",
                "thread_kind": "oath",
                "parties": ["npc-dee", "pc-ash"],
                "terms": "Ash swore to Dee never to tell of the cellar",
                "visibility": "player:alice",
            },
            _event(
                "confession",
                ["npc-dee", "pc-ash"],
                "loc-quay",
                "Dee tells Ash about the cellar",
                thread="oath-0003-01",
                visibility="player:alice",
            ),
        ],
    )
    await apply(
        4,
        [
            {
                "kind": "open_thread",
                "id": "bounty-0004-01",
                "thread_kind": "bounty",
                "parties": ["npc-far"],
                "terms": "Far offers 50 gp for whoever fired the mill",
                "place": "loc-mill",
            }
        ],
    )
    await apply(5, [_event("bargain", ["npc-cal", "npc-dee"], "loc-quay", "Cal sells Dee a boat share")])
    await apply(
        10,
        [
            {
                "kind": "thread_transition",
                "thread": "debt-0002-02",
                "status": "settled",
                "reason": "paid in full",
            },
            _event("apology", ["npc-bo", "pc-bly"], "loc-quay", "Bo apologises for the harsh words"),
        ],
    )
    await apply(12, [{"kind": "set_alive", "entity": "npc-ilse", "alive": False}])
    for session_number in range(20, 40):  # newer small talk between Cal and Dee, and a busy quay
        await apply(
            session_number,
            [
                _event("talk", ["npc-cal", "npc-dee"], "loc-quay", "Cal and Dee talk about the weather"),
                _event("sighting", ["npc-cal"], "loc-quay", "Cal is seen mending a net"),
                _event("talk", ["npc-dee", "pc-bly"], "loc-quay", "Dee and Bly talk of herring"),
            ],
        )
    return campaign


async def _scene(engine: Any, cid: int, present: list[str], *, viewer: Viewer | None = None,
                 location: str = "loc-quay", now: int = NOW) -> SceneContext:  # fmt: skip
    async with ledger_session(engine) as s:
        return await scene_context(
            s, campaign_id=cid, location=location, present=present, viewer=viewer or Viewer.party(),
            current_session=now,
        )  # fmt: skip


@pytest.mark.parametrize("with_pcs", [False, True])
async def test_a_dead_sisters_open_favour_surfaces_with_her_death(
    engine: Any, cid: int, with_pcs: bool
) -> None:
    ctx = await _scene(engine, cid, ["npc-marta", *(PCS if with_pcs else [])], location="loc-mill")
    refs = ctx.refs()
    assert "favor-0002-01" in refs and "npc-ilse-alive" in refs
    favour = next(r for r in ctx.records if r.ref == "favor-0002-01")
    assert "Ilse Corran (dead)" in favour.why and "Marta Corran (present)" in favour.why
    assert refs.index("favor-0002-01") < refs.index("npc-ilse-alive")
    assert "involving" not in favour.why  # Marta is not a party to it: the narrator must not think she is
    # Without her sister in the scene, nothing brings Ilse's favour in (no PC present to own it either).
    alone = await _scene(engine, cid, ["npc-bo"], location="loc-mill")
    assert "favor-0002-01" not in alone.refs()


@pytest.mark.parametrize("with_pcs", [False, True])
async def test_a_settled_debt_is_told_by_its_settlement_and_never_ages_out(
    engine: Any, cid: int, with_pcs: bool
) -> None:
    present = ["npc-bo", *(PCS if with_pcs else [])]
    for now in (NOW, NOW + 300):
        ctx = await _scene(engine, cid, present, now=now)
        settlement = [r for r in ctx.records if "debt-0002-02 became settled" in r.text]
        assert len(settlement) == 1, ctx.refs()
        record = settlement[0]
        assert record.kind == "event" and "Bly owes Bo 40 gp" in record.text and "paid in full" in record.text
        assert "settled debt involving Bo Hale" in record.why
        assert "debt-0002-02" not in ctx.refs()  # the old demand is not shown beside it
        assert all(r.score < 50 for r in ctx.records if "talk" in r.text)
        assert record.score > max(
            r.score for r in ctx.records if r.ref != record.ref and "apolog" not in r.text
        )


@pytest.mark.parametrize("with_pcs", [False, True])
async def test_the_last_bargain_between_them_beats_newer_small_talk(
    engine: Any, cid: int, with_pcs: bool
) -> None:
    ctx = await _scene(engine, cid, ["npc-cal", "npc-dee", *(PCS if with_pcs else [])])
    bargain = [r for r in ctx.records if "Cal sells Dee a boat share" in r.text]
    assert bargain, [r.text for r in ctx.records]
    assert "notable bargain involving Cal Pike, Dee Wren (present)" in bargain[0].why
    talk = [r for r in ctx.records if "talk about the weather" in r.text]
    assert all(t.score < bargain[0].score for t in talk)


async def test_a_pcs_own_matters_come_in_by_quota_oldest_first(engine: Any, cid: int) -> None:
    ctx = await _scene(engine, cid, ["npc-bo", *PCS])
    own = [r for r in ctx.records if r.ref.startswith("oath-0002-")]
    assert 0 < len(own) <= 3 and all("oldest open matters" in r.why for r in own)
    assert [r.ref for r in own] == sorted(r.ref for r in own)  # same session: by id, the oldest first
    # With no NPC in the scene the party's own matters have more room.
    alone = await _scene(engine, cid, PCS, location="loc-mill")
    assert len([r for r in alone.records if r.ref.startswith("oath-0002-")]) > len(own)


async def test_private_records_only_to_their_owner(engine: Any, cid: int) -> None:
    present = ["npc-dee", *PCS]
    alice = await _scene(engine, cid, present, viewer=Viewer.player("alice"))
    assert "oath-0003-01" in alice.refs()
    assert any("about the cellar" in r.text for r in alice.records)
    for viewer in (Viewer.player("bob"), Viewer.party(), Viewer.public()):
        other = await _scene(engine, cid, present, viewer=viewer)
        allowed = viewer.visible()
        assert allowed is not None and all(r.visibility in allowed for r in other.records)
        assert not any("cellar" in r.text for r in other.records)


async def test_a_matter_of_the_place_comes_with_the_place(engine: Any, cid: int) -> None:
    at_mill = await _scene(engine, cid, ["npc-marta", *PCS], location="loc-mill")
    bounty = [r for r in at_mill.records if r.ref == "bounty-0004-01"]
    assert bounty and bounty[0].why == "open bounty at The Mill"
    at_quay = await _scene(engine, cid, ["npc-bo", *PCS])
    assert "bounty-0004-01" not in at_quay.refs()
