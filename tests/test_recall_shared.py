"""Scenes read side by side (``ledger.recall.shared``, issue 14) are the scenes read alone, statement for
statement fewer: the GM's and a player's asks of one scene and the party's first step in three statements,
each with its own viewer's records only; a party scene prepared before a round's changes and ended after
them is the scene read after them, in two statements (its first step is not read again). A record only the
GM or one player may see, read for their ask, never reaches the party's context. On the small campaign of
:mod:`tests.test_recall_graph`, with secrets added."""

from __future__ import annotations

from typing import Any

import pytest

from ledger import service
from ledger.recall.retrieval import SceneContext, scene_context
from ledger.recall.shared import prepared_context, read_scenes
from ledger.recall.steps import SceneAsk
from ledger.store.db import ledger_session
from ledger.store.visibility import Viewer
from tests.test_recall_graph import NOW, PCS, cid, engine  # noqa: F401  (the campaign fixtures)
from tests.test_recall_statements import _reads

SCENES = [
    (["npc-marta", *PCS], "loc-mill"),  # a dead sister one hop away
    (["npc-ilse", "npc-marta"], "loc-mill"),  # a dead woman named present
    (["npc-bo", *PCS], "loc-quay"),  # a settled debt told by its settlement
    (["npc-cal", "npc-dee", *PCS], "loc-quay"),
]
ALICE = Viewer.player("alice")


def _ask(campaign: int, present: list[str], location: str, viewer: Viewer) -> SceneAsk:
    return SceneAsk(campaign, location, tuple(present), (), viewer, NOW)


async def _alone(eng: Any, ask: SceneAsk) -> SceneContext:
    async with ledger_session(eng) as s:
        return await scene_context(
            s, campaign_id=ask.campaign_id, location=ask.location, present=ask.present, viewer=ask.viewer,
            current_session=ask.current_session,
        )  # fmt: skip


async def _apply(eng: Any, campaign: int, changes: list[dict[str, Any]], session_number: int = NOW) -> None:
    async with ledger_session(eng) as s:
        await service.apply_changes(
            s, campaign_id=campaign, session_number=session_number, round_number=1, cause="round-41.1",
            mutations=changes,
        )  # fmt: skip


async def _secrets(eng: Any, campaign: int) -> None:
    """A GM-only fact, stance and person, and a fact only alice's PC knows, about the people of the quay."""
    await _apply(
        eng,
        campaign,
        [
            {
                "kind": "create_entity",
                "id": "npc-shade",
                "entity_kind": "npc",
                "name": "The Grey Shade",
                "location": "loc-mill",
                "visibility": "gm",
            },
            {
                "kind": "set_fact",
                "key": "npc-bo-secret",
                "value": "Bo smuggles untaxed dye",
                "visibility": "gm",
            },
            {
                "kind": "set_edge",
                "source": "npc-bo",
                "target": "npc-shade",
                "edge_kind": "employer",
                "attitude": 60,
                "reason": "Bo works for the Shade",
                "visibility": "gm",
            },
            {
                "kind": "set_edge",
                "source": "npc-cal",
                "target": "npc-shade",
                "edge_kind": "rival",
                "attitude": -40,
                "reason": "a grudge",
            },
            {
                "kind": "set_fact",
                "key": "npc-cal-debts",
                "value": "Cal owes the Shade",
                "visibility": "player:alice",
            },
        ],
        session_number=NOW - 1,
    )


@pytest.mark.parametrize(("present", "location"), SCENES)
async def test_asks_read_side_by_side_are_the_asks_read_alone(
    engine: Any,  # noqa: F811
    cid: int,  # noqa: F811
    present: list[str],
    location: str,
) -> None:
    await _secrets(engine, cid)
    gm, alice, party = (_ask(cid, present, location, v) for v in (Viewer.gm(), ALICE, Viewer.party()))
    with _reads(engine) as seen:
        async with ledger_session(engine) as s:
            contexts, (prepared,) = await read_scenes(s, [gm, alice], prepare=[party])
    assert len(seen) <= 3, seen  # people, world (and again, when a death was mispredicted), events
    assert contexts == [await _alone(engine, gm), await _alone(engine, alice)]
    with _reads(engine) as seen:
        async with ledger_session(engine) as s:
            ended = await prepared_context(s, prepared)
    assert ended == await _alone(engine, party)
    assert len(seen) <= 3 and not any("scene_edges" in sql for sql in seen), seen  # step 1 is not read again


async def test_a_gm_or_player_record_read_for_their_ask_never_reaches_the_party(
    engine: Any,  # noqa: F811
    cid: int,  # noqa: F811
) -> None:
    await _secrets(engine, cid)
    present, location = ["npc-bo", "npc-cal", *PCS], "loc-quay"
    asks = [_ask(cid, present, location, v) for v in (Viewer.gm(), ALICE)]
    async with ledger_session(engine) as s:
        (gm, alice), (prepared,) = await read_scenes(
            s, asks, prepare=[_ask(cid, present, location, Viewer.party())]
        )
        party = await prepared_context(s, prepared)
    told = lambda ctx: " ".join(r.text for r in ctx.records)  # noqa: E731
    # the secrets were read, for their viewers: the test could see a leak
    assert "untaxed dye" in told(gm) and "Grey Shade" in told(gm)
    assert "Cal owes the Shade" in told(alice) and "untaxed dye" not in told(alice)
    assert {r.visibility for r in gm.records} & {"gm"}
    # ... and none of them reaches the party, nor the hidden person's name (a visible stance names nobody)
    assert "untaxed dye" not in told(party) and "Cal owes the Shade" not in told(party)
    assert "Grey Shade" not in told(party) and "someone unknown" in told(party)
    allowed = Viewer.party().visible()
    assert allowed is not None and all(r.visibility in allowed for r in party.records)
    assert party == await _alone(engine, _ask(cid, present, location, Viewer.party()))


async def test_a_scene_prepared_before_changes_and_ended_after_them_is_the_scene_read_after_them(
    engine: Any,  # noqa: F811
    cid: int,  # noqa: F811
) -> None:
    present, location = ["npc-bo", "npc-cal", "npc-dee", *PCS], "loc-quay"
    party = _ask(cid, present, location, Viewer.party())
    async with ledger_session(engine) as s:
        _none, (prepared,) = await read_scenes(
            s, [_ask(cid, present, location, Viewer.gm())], prepare=[party]
        )
    before = await _alone(engine, party)
    # a round's changes that leave step 1 (edges, deaths, who is present) as it was
    await _apply(
        engine,
        cid,
        [
            {"kind": "set_fact", "key": "pc-ash-said-41-1", "value": "Ash to Bo: where is the ship?"},
            {"kind": "set_hp", "entity": "npc-bo", "hp": 3},
            {"kind": "add_condition", "entity": "pc-bly", "condition": "prone"},
            {"kind": "set_fact", "key": "pc-bly-learned-x", "value": "a secret", "visibility": "player:bob"},
        ],
    )
    with _reads(engine) as seen:
        async with ledger_session(engine) as s:
            ended = await prepared_context(s, prepared)
    after = await _alone(engine, party)
    assert ended == after and after != before
    assert len(seen) == 2, seen  # the scene's facts, threads and holdings, then its events
    # changes that alter what step 3 asks for (a matter of the scene closes; a notable event)
    await _apply(
        engine,
        cid,
        [
            {
                "kind": "open_thread",
                "id": "debt-0041-01",
                "thread_kind": "debt",
                "parties": ["npc-cal", "pc-ash"],
                "terms": "Ash owes Cal a net",
            },
            {"kind": "thread_transition", "thread": "debt-0041-01", "status": "settled", "reason": "paid"},
            {
                "kind": "record_event",
                "event_kind": "insult",
                "participants": ["npc-cal", "pc-ash"],
                "place": "loc-quay",
                "summary": "Cal calls Ash a liar",
            },
        ],
    )
    with _reads(engine) as seen:
        async with ledger_session(engine) as s:
            ended = await prepared_context(s, prepared)
    assert ended == await _alone(engine, party)
    assert "debt-0041-01" in ended.refs() or any("Ash owes Cal a net" in r.text for r in ended.records)
    assert len(seen) == 2, seen
