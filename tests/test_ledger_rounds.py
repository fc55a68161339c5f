"""Round storage for the table: one unfinished round, idempotent submissions, outbox, disputes, conflicts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from ledger import service
from ledger.errors import InvalidChange, NotEnoughHeld, RoundStateError, UnknownRecord
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

GM = Viewer.gm()


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await init_db(eng)
    yield eng
    await eng.dispose()


async def _campaign(eng: AsyncEngine, name: str = "Table") -> int:
    async with ledger_session(eng) as s:
        c = await service.create_campaign(s, name=name, guild_id=10, channel_id=20)
        await service.apply_changes(
            s,
            campaign_id=c.id,
            session_number=1,
            round_number=None,
            cause="scenario",
            mutations=[
                {"kind": "create_location", "id": "loc-inn", "name": "Inn"},
                {
                    "kind": "create_entity",
                    "id": "pc-mira",
                    "entity_kind": "pc",
                    "name": "Mira",
                    "location": "loc-inn",
                },
                {
                    "kind": "create_entity",
                    "id": "pc-bram",
                    "entity_kind": "pc",
                    "name": "Bram",
                    "location": "loc-inn",
                },
                {"kind": "create_item", "id": "item-key", "name": "iron key", "holder": "loc-inn"},
            ],
        )
        return c.id


async def test_ledger_round_lifecycle_and_one_unfinished_round(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        r1 = await service.open_round(s, campaign_id=cid, session_number=1, number=1, seed_commitment="abc")
        with pytest.raises(RoundStateError, match="still open"):
            await service.open_round(s, campaign_id=cid, session_number=1, number=2, seed_commitment="def")
        assert (await service.current_round(s, campaign_id=cid)) == r1
        await service.set_round_state(s, round_id=r1.id, state="closed")
        with pytest.raises(RoundStateError, match="cannot go back"):
            await service.set_round_state(s, round_id=r1.id, state="open")
        refs = await service.apply_round(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=1,
            resolution={"results": [1]},
            mutations=[
                {
                    "kind": "transfer_item",
                    "item": "item-key",
                    "from_holder": "loc-inn",
                    "to_holder": "pc-mira",
                    "cause": "round-1#1",
                }
            ],
        )
        r = await service.get_round(s, round_id=r1.id)
        assert (r.state, r.resolution) == ("resolved", {"results": [1]})
        rec = await service.record(s, campaign_id=cid, ref=refs[0], viewer=GM)
        assert rec.root_cause == "round-1#1"
        # A refused round leaves its state untouched too.
        with pytest.raises(NotEnoughHeld):
            await service.apply_round(
                s,
                campaign_id=cid,
                session_number=1,
                round_number=1,
                resolution={},
                round_state="narrated",
                mutations=[{"kind": "transfer_item", "item": "item-key", "from_holder": "loc-inn"}],
            )
        assert (await service.get_round(s, round_id=r1.id)).state == "resolved"
        await service.set_round_state(s, round_id=r1.id, state="posted", revealed_seed="42")
        assert await service.current_round(s, campaign_id=cid) is None
        r2 = await service.open_round(s, campaign_id=cid, session_number=1, number=2, seed_commitment="def")
        assert (await service.last_round(s, campaign_id=cid)) == r2
        with pytest.raises(RoundStateError, match="already exists"):
            await service.set_round_state(s, round_id=r2.id, state="posted")
            await service.open_round(s, campaign_id=cid, session_number=1, number=2, seed_commitment="x")


async def test_ledger_submission_is_idempotent_by_key(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        r = await service.open_round(s, campaign_id=cid, session_number=1, number=1, seed_commitment="h")
        first = await service.submit(
            s, round_id=r.id, player_user_id=111, idempotency_key="i-1", text="I grab it"
        )
        again = await service.submit(
            s, round_id=r.id, player_user_id=111, idempotency_key="i-1", text="I grab the key", ready=True
        )
        assert first.created and not again.created and again.id == first.id
        subs = await service.list_submissions(s, round_id=r.id)
        assert [(x.text, x.ready) for x in subs] == [("I grab the key", True)]
        with pytest.raises(InvalidChange, match="another round or player"):
            await service.submit(s, round_id=r.id, player_user_id=222, idempotency_key="i-1", text="mine")
        await service.set_round_state(s, round_id=r.id, state="closed")
        with pytest.raises(RoundStateError, match="no more actions"):
            await service.submit(s, round_id=r.id, player_user_id=222, idempotency_key="i-2", text="late")
        held = await service.submit(
            s,
            round_id=r.id,
            player_user_id=222,
            idempotency_key="default-222",
            text="holds position",
            origin="default",
        )
        assert held.origin == "default"
        assert len(await service.list_submissions(s, round_id=r.id)) == 2


async def test_ledger_concurrent_submissions_and_campaigns_are_safe(engine: AsyncEngine) -> None:
    cids = [await _campaign(engine, f"table-{n}") for n in range(4)]
    rounds: dict[int, int] = {}
    for cid in cids:
        async with ledger_session(engine) as s:
            rounds[cid] = (
                await service.open_round(s, campaign_id=cid, session_number=1, number=1, seed_commitment="h")
            ).id

    async def act(cid: int, player: int, key: str) -> None:
        async with ledger_session(engine) as s:
            await service.submit(
                s, round_id=rounds[cid], player_user_id=player, idempotency_key=key, text=key
            )

    async def grab(cid: int, who: str) -> str:
        async with ledger_session(engine) as s:
            try:
                await service.apply_changes(
                    s,
                    campaign_id=cid,
                    session_number=1,
                    round_number=1,
                    cause=f"grab-{who}",
                    mutations=[
                        {
                            "kind": "transfer_item",
                            "item": "item-key",
                            "from_holder": "loc-inn",
                            "to_holder": who,
                        }
                    ],
                )
                return who
            except NotEnoughHeld:
                return ""

    jobs = [act(cid, p, f"{cid}-{p}-{k}") for cid in cids for p in range(5) for k in range(2)]
    jobs += [act(cid, p, f"{cid}-{p}-0") for cid in cids for p in range(5)]  # retries of the same keys
    await asyncio.gather(*jobs)
    winners = await asyncio.gather(*[grab(cid, who) for cid in cids for who in ("pc-mira", "pc-bram")])
    async with ledger_session(engine) as s:
        for cid in cids:
            subs = await service.list_submissions(s, round_id=rounds[cid])
            # One submission per player per round, whichever of the player's two keys came first.
            assert sorted(x.player_user_id for x in subs) == [str(p) for p in range(5)]
            assert all(x.text in (f"{cid}-{x.player_user_id}-0", f"{cid}-{x.player_user_id}-1") for x in subs)
            holders = await service.holders_of(s, campaign_id=cid, item_id="item-key", viewer=GM)
            assert [(h.quantity) for h in holders] == [1] and holders[0].holder_id in ("pc-mira", "pc-bram")
            assert await service.rebuild_state(s, campaign_id=cid) == await service.projected_state(
                s, campaign_id=cid
            )
    assert sum(1 for w in winners if w) == len(cids)


async def test_ledger_outbox_survives_a_restart(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        r = await service.open_round(s, campaign_id=cid, session_number=1, number=1, seed_commitment="h")
        post = await service.add_outbox(
            s, campaign_id=cid, round_id=r.id, kind="public", content={"text": "Hi"}
        )
        dm = await service.add_outbox(
            s,
            campaign_id=cid,
            round_id=r.id,
            kind="dm",
            recipient_user_id=111,
            content={"text": "psst"},
            source="fallback",
        )
        again = await service.add_outbox(
            s, campaign_id=cid, round_id=r.id, kind="public", content={"text": "Hi!"}
        )
        assert again.id == post.id and again.content == {"text": "Hi"}
        redone = await service.add_outbox(
            s,
            campaign_id=cid,
            round_id=r.id,
            kind="public",
            content={"text": "Hello"},
            source="regenerated",
            replace=True,
        )
        assert (redone.id, redone.content, redone.source) == (post.id, {"text": "Hello"}, "regenerated")
        await service.mark_outbox(s, outbox_id=post.id, status="sent", external_id=987654321)
        with pytest.raises(InvalidChange):
            await service.add_outbox(s, campaign_id=cid, round_id=r.id, kind="dm", content={})
    async with ledger_session(engine) as s:  # "after a restart"
        pending = await service.pending_outbox(s, campaign_id=cid)
        assert [(p.id, p.kind, p.recipient_user_id, p.source) for p in pending] == [
            (dm.id, "dm", "111", "fallback")
        ]
        await service.mark_outbox(s, outbox_id=dm.id, status="dm_closed")
        assert await service.pending_outbox(s) == []
        late = await service.add_outbox(
            s, campaign_id=cid, round_id=r.id, kind="public", content={"text": "again"}, replace=True
        )
        assert late.status == "sent" and late.content == {"text": "Hello"}  # what was posted stays posted
        sent = await service.list_outbox(s, round_id=r.id)
        assert [(o.status, o.external_id) for o in sent] == [("sent", "987654321"), ("dm_closed", None)]


async def test_ledger_dispute_ruling_writes_a_correction(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        (taken,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=1,
            cause="round-1#2",
            mutations=[
                {
                    "kind": "transfer_item",
                    "item": "item-key",
                    "from_holder": "loc-inn",
                    "to_holder": "pc-bram",
                }
            ],
        )
        d = await service.open_dispute(
            s,
            campaign_id=cid,
            record_ref=taken,
            user_id=111,
            reason="Mira had the key first",
            session_number=1,
        )
        assert [x.id for x in await service.list_disputes(s, campaign_id=cid)] == [d.id]
        with pytest.raises(NotEnoughHeld):  # a bad correction changes nothing, the dispute stays open
            await service.rule_dispute(
                s,
                dispute_id=d.id,
                accept=True,
                changes=[
                    {
                        "kind": "transfer_item",
                        "item": "item-key",
                        "from_holder": "pc-mira",
                        "to_holder": "pc-bram",
                    }
                ],
            )
        assert (await service.list_disputes(s, campaign_id=cid))[0].status == "open"
        ruled = await service.rule_dispute(
            s,
            dispute_id=d.id,
            accept=True,
            note="Mira was first",
            changes=[
                {
                    "kind": "transfer_item",
                    "item": "item-key",
                    "from_holder": "pc-bram",
                    "to_holder": "pc-mira",
                }
            ],
        )
        assert ruled.status == "accepted" and ruled.ruling_event is not None
        (holder,) = await service.holders_of(s, campaign_id=cid, item_id="item-key", viewer=GM)
        assert holder.holder_id == "pc-mira"
        events = await service.history(s, campaign_id=cid, viewer=GM, limit=2)
        assert [e.ref for e in events] == [ruled.ruling_event, taken]
        assert events[0].supersedes == taken and events[0].kind == "correction"
        assert events[0].cause == f"dispute-{d.id}"
        with pytest.raises(InvalidChange, match="already accepted"):
            await service.rule_dispute(s, dispute_id=d.id, accept=False)
        d2 = await service.open_dispute(s, campaign_id=cid, record_ref="pc-bram", user_id=222, reason="nope")
        assert (await service.rule_dispute(s, dispute_id=d2.id, accept=False, note="no")).ruling_event is None
        with pytest.raises(UnknownRecord):
            await service.rule_dispute(s, dispute_id=9999, accept=True)


async def test_ledger_conflict_queue_dismiss_and_retcon(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        (died,) = await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=1,
            round_number=1,
            cause="round-1#1",
            mutations=[{"kind": "set_alive", "entity": "pc-bram", "alive": False}],
        )
        c1 = await service.add_conflict(
            s, campaign_id=cid, round_id=None, claim_text="Bram laughs", refuting_ref="pc-bram-alive"
        )
        c2 = await service.add_conflict(s, campaign_id=cid, round_id=None, claim_text="The inn burns")
        assert [c.id for c in await service.list_conflicts(s, campaign_id=cid)] == [c1.id, c2.id]
        await service.dismiss_conflict(s, conflict_id=c2.id, note="scenery")
        done = await service.retcon_conflict(
            s,
            conflict_id=c1.id,
            target=died,
            reason="Bram only fainted",
            session_number=1,
            changes=[{"kind": "set_alive", "entity": "pc-bram", "alive": True}],
        )
        assert done.status == "retconned" and done.retcon_event
        assert (await service.get_entity(s, campaign_id=cid, entity_id="pc-bram", viewer=GM)).alive is True
        assert await service.list_conflicts(s, campaign_id=cid) == []
        with pytest.raises(InvalidChange):
            await service.dismiss_conflict(s, conflict_id=c1.id)


async def test_ledger_members(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        await service.set_member(s, campaign_id=cid, user_id=111, character_id="pc-mira")
        await service.set_member(s, campaign_id=cid, user_id=222, character_id="pc-bram", active=False)
        await service.set_member(s, campaign_id=cid, user_id=999, is_gm=True)
        await service.set_member(s, campaign_id=cid, user_id=111, character_id="pc-mira", is_gm=False)
        active = await service.list_members(s, campaign_id=cid, active_only=True)
        assert [(m.user_id, m.character_id, m.is_gm) for m in active] == [
            ("111", "pc-mira", False),
            ("999", None, True),
        ]
        found = await service.find_campaign(s, guild_id=10, channel_id=20)
        assert found is not None and found.id == cid


async def test_ledger_racing_round_openers_get_one_round(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)

    async def open_one(n: int) -> str:
        async with ledger_session(engine) as s:
            try:
                await service.open_round(s, campaign_id=cid, session_number=1, number=n, seed_commitment="h")
                return "opened"
            except RoundStateError:
                return "refused"

    results = await asyncio.gather(*[open_one(n) for n in range(1, 7)])
    assert sorted(results) == ["opened"] + ["refused"] * 5


async def test_ledger_an_idle_reader_does_not_block_a_round(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as reader:
        await service.get_entity(
            reader, campaign_id=cid, entity_id="pc-mira", viewer=GM
        )  # transaction left open
        async with ledger_session(engine) as writer:
            await asyncio.wait_for(
                service.apply_changes(
                    writer,
                    campaign_id=cid,
                    session_number=1,
                    round_number=None,
                    cause="x",
                    mutations=[
                        {"kind": "create_location", "id": "loc-cellar", "name": "Cellar"},
                        {"kind": "move_entity", "entity": "pc-mira", "location": "loc-cellar"},
                    ],
                ),
                timeout=30,  # bounds a deadlock, not a speed: the write is meant to finish at once
            )
    async with ledger_session(engine) as s:
        mira = await service.get_entity(s, campaign_id=cid, entity_id="pc-mira", viewer=GM)
    assert mira.location == "loc-cellar"  # the round's change was written, not lost behind the reader


async def test_ledger_game_sessions_are_numbered(engine: AsyncEngine) -> None:
    cid = await _campaign(engine)
    async with ledger_session(engine) as s:
        assert await service.current_session_number(s, campaign_id=cid) == 1
        assert await service.start_session(s, campaign_id=cid) == 2
        assert await service.current_session_number(s, campaign_id=cid) == 2


async def test_ledger_restart_finds_rounds_past_their_deadline(engine: AsyncEngine) -> None:
    first, second = await _campaign(engine, "a"), await _campaign(engine, "b")
    soon = datetime(2030, 1, 1, 20, 0, tzinfo=UTC)
    async with ledger_session(engine) as s:
        r1 = await service.open_round(
            s, campaign_id=first, session_number=1, number=1, seed_commitment="h", deadline=soon
        )
        r2 = await service.open_round(
            s,
            campaign_id=second,
            session_number=1,
            number=1,
            seed_commitment="h",
            deadline=soon + timedelta(hours=1),
        )
        assert r1.deadline == soon  # UTC-aware on both backends
        assert [r.id for r in await service.unfinished_rounds(s)] == [r1.id, r2.id]
        due = await service.unfinished_rounds(s, due_by=soon + timedelta(minutes=5))
        assert [r.id for r in due] == [r1.id]
        await service.set_round_state(s, round_id=r1.id, state="closed")
        assert await service.unfinished_rounds(s, due_by=soon + timedelta(minutes=5)) == []
        assert [r.id for r in await service.unfinished_rounds(s, campaign_id=first)] == [r1.id]
