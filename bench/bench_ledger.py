"""Ledger timings on SQLite: committing a five-player round, and current-state reads at 1k/10k/100k events.

Run: ``python3 bench/bench_ledger.py [--sizes 1000,10000,100000] [--rounds 20] [--url URL]``.
Prints figures; asserts nothing (these machines are noisy). Big ledgers are built with Core bulk inserts.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, text, update

from ledger import service
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

N_ENTITIES = 300
N_LOCATIONS = 30
N_ITEMS = 200
PLAYERS = [f"pc-p{i}" for i in range(5)]
VIS = ["public", "public", "public", "party", "player:1", "gm"]


def _meta(rng: random.Random, session_number: int = 1) -> dict[str, Any]:
    return {
        "session_number": session_number,
        "round_number": None,
        "cause": "bench",
        "visibility": rng.choice(VIS),
    }


async def build(url: str, n_events: int) -> int:
    """A campaign with ``n_events`` events and matching-sized projections, bulk-inserted."""
    rng = random.Random(n_events)
    engine = create_engine(url)
    await init_db(engine)
    async with engine.begin() as conn:
        cid = (
            await conn.execute(
                insert(m.Campaign).returning(m.Campaign.id),
                [
                    {
                        "name": f"bench-{n_events}",
                        "guild_id": "",
                        "channel_id": "",
                        "owner_user_id": "",
                        "settings": {},
                        "status": "active",
                        "event_seq": n_events,
                        "created_at": m.utcnow(),
                    }
                ],
            )
        ).scalar_one()
        locs = [f"loc-{i}" for i in range(N_LOCATIONS)]
        ents = PLAYERS + [f"npc-{i}" for i in range(N_ENTITIES - len(PLAYERS))]
        items = [f"item-{i}" for i in range(N_ITEMS)]
        pub = {"session_number": 1, "round_number": None, "cause": "bench", "visibility": "public"}
        await conn.execute(
            insert(m.Location),
            [{"campaign_id": cid, "id": x, "name": x, "aliases": [], "description": "", **pub} for x in locs],
        )
        await conn.execute(
            insert(m.Entity),
            [
                {
                    "campaign_id": cid,
                    "id": x,
                    "kind": "pc" if x in PLAYERS else "npc",
                    "name": x,
                    "aliases": [],
                    "owner_user_id": None,
                    "sheet": None,
                    "description": "",
                    **pub,
                }
                for x in ents
            ],
        )
        await conn.execute(
            insert(m.Item),
            [
                {
                    "campaign_id": cid,
                    "id": x,
                    "name": x,
                    "aliases": [],
                    "description": "",
                    "properties": {},
                    **pub,
                }
                for x in items
            ],
        )
        facts = []
        for e in ents:
            loc = "loc-0" if e in PLAYERS or rng.random() < 0.03 else rng.choice(locs)
            for field, value in (("alive", True), ("location", loc), ("hp", 20)):
                facts.append(
                    {
                        "campaign_id": cid,
                        "key": f"{e}-{field}",
                        "subject": e,
                        "field": field,
                        "value": value,
                        "value_text": str(value).lower() if field == "alive" else str(value),
                        **pub,
                    }
                )
        await conn.execute(insert(m.Fact), facts)
        holdings = {(i, h) for h in ents for i in rng.sample(items, 5)}
        await conn.execute(
            insert(m.Holding),
            [
                {"campaign_id": cid, "item_id": i, "holder_id": h, "quantity": 50, **_meta(rng)}
                for i, h in holdings
            ],
        )
        n_threads = max(10, n_events // 50)
        threads = [
            {
                "campaign_id": cid,
                "id": f"quest-{i}",
                "kind": "quest",
                "status": rng.choice(["open", "open", "settled", "expired"]),
                "terms": "",
                "tags": [],
                "parties": rng.sample(ents, 2),
                "expires_session": None,
                "opened_session": 1,
                **_meta(rng),
            }
            for i in range(n_threads)
        ]
        await conn.execute(insert(m.Thread), threads)
        await conn.execute(
            insert(m.ThreadParty),
            [
                {"campaign_id": cid, "thread_id": t["id"], "entity_id": e}
                for t in threads
                for e in t["parties"]
            ],
        )
        chunk = 20_000
        for start in range(0, n_events, chunk):
            rows = [
                {
                    "campaign_id": cid,
                    "seq": s,
                    "ref": f"ev-{s:06d}",
                    "kind": "set_hp",
                    "payload": {"kind": "set_hp", "entity": rng.choice(ents), "hp": 3},
                    "cause": f"round-{s}#1",
                    "session_number": 1 + s // 1000,
                    "round_number": s // 10,
                    "visibility": rng.choice(VIS),
                    "importance": rng.randint(0, 10),
                    "permanent": False,
                    "supersedes": None,
                    "created_at": m.utcnow(),
                }
                for s in range(start + 1, min(n_events, start + chunk) + 1)
            ]
            ids = (
                (
                    await conn.execute(
                        insert(m.Event).returning(m.Event.id, sort_by_parameter_order=True), rows
                    )
                )
                .scalars()
                .all()
            )
            await conn.execute(
                insert(m.EventEntity),
                [
                    {"event_id": i, "entity_id": e, "campaign_id": cid}
                    for i in ids
                    for e in set(rng.sample(ents, 2))
                ],
            )
            await conn.execute(
                insert(m.EventWitness),
                [{"event_id": i, "entity_id": rng.choice(ents), "campaign_id": cid} for i in ids],
            )
        await conn.execute(update(m.Campaign).where(m.Campaign.id == cid).values(event_seq=n_events))
    if engine.dialect.name == "postgresql":
        # A live database is analysed by autovacuum as it grows; a bulk-built one must be told.
        async with engine.connect() as conn:
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text("ANALYZE"))
    await engine.dispose()
    return cid


def _round_changes(n: int) -> list[dict[str, Any]]:
    """About 15 changes: what five players' actions do in a busy round."""
    out: list[dict[str, Any]] = []
    for i, pc in enumerate(PLAYERS):
        npc = f"npc-{(n * 5 + i) % 50}"
        out.append({"kind": "set_hp", "entity": npc, "hp": (n + i) % 20, "cause": f"round-{n}#{i}"})
        out.append(
            {
                "kind": "transfer_item",
                "item": "item-gold",
                "from_holder": pc,
                "to_holder": PLAYERS[(i + 1) % 5],
                "cause": f"round-{n}#{i}",
            }
        )
        out.append(
            {
                "kind": "set_edge",
                "source": npc,
                "target": pc,
                "edge_kind": "wary",
                "attitude": -(n % 50),
                "reason": "bench",
                "cause": f"round-{n}#{i}",
            }
        )
    return out


async def _time(label: str, fn: Callable[[], Awaitable[Any]], repeat: int) -> None:
    await fn()  # warm the caches and the pool
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - t0) * 1000)
    print(
        f"  {label:<44} median {statistics.median(samples):8.2f} ms"
        f"   p90 {sorted(samples)[int(repeat * 0.9) - 1]:8.2f} ms"
    )


async def bench(url: str, n_events: int, rounds: int) -> None:
    t0 = time.perf_counter()
    cid = await build(url, n_events)
    print(f"\n{n_events:,} events (built in {time.perf_counter() - t0:.1f} s)")
    engine = create_engine(url)
    async with ledger_session(engine) as s:
        await service.apply_changes(
            s,
            campaign_id=cid,
            session_number=99,
            round_number=None,
            cause="bench",
            mutations=[
                {"kind": "create_item", "id": "item-gold", "name": "gold", "holder": pc, "quantity": 1000}
                if k == 0
                else {"kind": "transfer_item", "item": "item-gold", "to_holder": pc, "quantity": 1000}
                for k, pc in enumerate(PLAYERS)
            ],
        )
    counter = {"n": 0}

    async def commit_round() -> None:
        counter["n"] += 1
        n = counter["n"]
        async with ledger_session(engine) as s:
            r = await service.open_round(s, campaign_id=cid, session_number=99, number=n, seed_commitment="h")
            await service.apply_round(
                s,
                campaign_id=cid,
                session_number=99,
                round_number=n,
                mutations=_round_changes(n),
                resolution={"n": n},
                round_state="posted",
            )
            assert r.id

    await _time("commit a five-player round (15 changes)", commit_round, rounds)
    party, present = Viewer.party(), [*PLAYERS, "npc-1", "npc-2", "npc-3"]

    async def read(fn: Callable[[Any], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
        async def go() -> None:
            async with ledger_session(engine) as s:
                await fn(s)

        return go

    checks: list[tuple[str, Callable[[Any], Awaitable[Any]]]] = [
        (
            "inventory of a player",
            lambda s: service.inventory(s, campaign_id=cid, holder_id="pc-p0", viewer=party),
        ),
        (
            "entity with state",
            lambda s: service.get_entity(s, campaign_id=cid, entity_id="npc-7", viewer=party),
        ),
        (
            "entities at a location",
            lambda s: service.entities_at(s, campaign_id=cid, location_id="loc-0", viewer=party),
        ),
        (
            "open threads of 8 present entities",
            lambda s: service.threads(s, campaign_id=cid, viewer=party, status="open", parties=present),
        ),
        ("last 20 events", lambda s: service.history(s, campaign_id=cid, viewer=party, limit=20)),
        (
            "20 events involving 8 entities",
            lambda s: service.history(s, campaign_id=cid, viewer=party, involving=present, limit=20),
        ),
        (
            "npc knowledge (last 50)",
            lambda s: service.npc_knowledge(s, campaign_id=cid, npc_id="npc-9", limit=50),
        ),
        (
            "record with cause chain",
            lambda s: service.record(s, campaign_id=cid, ref="npc-1-hp", viewer=Viewer.gm()),
        ),
    ]
    for label, fn in checks:
        await _time(label, await read(fn), max(20, rounds))
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--url", default=None, help="database URL (default: a fresh SQLite file per size)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(x) for x in args.sizes.split(",")):
            url = args.url or f"sqlite+aiosqlite:///{Path(tmp) / f'bench-{size}.db'}"
            asyncio.run(bench(url, size, args.rounds))


if __name__ == "__main__":
    main()
