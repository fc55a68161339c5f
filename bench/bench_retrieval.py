"""Benchmark scene retrieval on SQLite ledgers of 1k, 10k and 100k events.

Builds each ledger with Core bulk inserts (schema from the Alembic migration, rows shaped like the models:
events with change payloads, the entities they involve and their witnesses, plus the projections: facts,
holdings, edges, threads and their parties), then times :func:`ledger.recall.retrieval.scene_context` for
scenes of
4-6 present entities (2-3 PCs, who are in most events, and NPCs) at a random location, as the party.

Run: ``python3 bench/bench_retrieval.py [--sizes 1000,10000,100000] [--queries 300]``. Prints wall-clock
p50/p95 in ms per size (and the process CPU time per scene, which a busy machine disturbs less) and the p95
ratio to the smallest size. Target: p95 <= 20 ms at 100k and within 1.5x of 1k.
The build is in a temporary folder, removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert

from ledger.recall.retrieval import scene_context
from ledger.store import models as m
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer

N_LOCATIONS = 30
N_PCS = 5
N_NPCS = 300
N_ITEMS = 400
EVENTS_PER_SESSION = 400
EDGE_KINDS = ("ally", "friend", "enemy", "owes-favour", "suspects", "kin", "employer", "rival")
THREAD_KINDS = ("favour", "debt", "oath", "bounty", "prophecy", "quest")
VISIBILITIES = ("public",) * 12 + ("party",) * 4 + ("gm", "player:alice", "player:bob")
BATCH = 5000


def _world(rng: random.Random, n_events: int) -> dict[str, list[dict[str, Any]]]:
    """Rows for one campaign (id 1) with ``n_events`` events, keyed by table name."""
    cid = 1
    locs = [f"loc-{i}" for i in range(N_LOCATIONS)]
    pcs = [f"pc-{i}" for i in range(N_PCS)]
    npcs = [f"npc-{i}" for i in range(N_NPCS)]
    items = [f"item-{i}" for i in range(N_ITEMS)]
    sessions = max(2, n_events // EVENTS_PER_SESSION)
    rows: dict[str, list[dict[str, Any]]] = {
        k: []
        for k in (
            "location",
            "entity",
            "item",
            "fact",
            "holding",
            "edge",
            "thread",
            "thread_party",
            "event",
            "event_entity",
            "event_witness",
        )
    }

    def prov(session_number: int = 1, visibility: str = "public", cause: str = "bench") -> dict[str, Any]:
        return {
            "session_number": session_number,
            "round_number": None,
            "cause": cause,
            "visibility": visibility,
        }

    for loc in locs:
        rows["location"].append(
            {"campaign_id": cid, "id": loc, "name": loc.title(), "aliases": [], "description": "", **prov()}
        )
    for ent in (*pcs, *npcs):
        kind = "pc" if ent.startswith("pc-") else "npc"
        rows["entity"].append(
            {
                "campaign_id": cid,
                "id": ent,
                "kind": kind,
                "name": ent.title(),
                "aliases": [],
                "owner_user_id": None,
                "sheet": None,
                "description": "",
                **prov(),
            }
        )
        alive = rng.random() > 0.05 or kind == "pc"
        for fld, val in (("alive", alive), ("location", rng.choice(locs)), ("hp", rng.randint(1, 40))):
            text = ("true" if val else "false") if isinstance(val, bool) else str(val)
            rows["fact"].append(
                {
                    "campaign_id": cid,
                    "key": f"{ent}-{fld}",
                    "subject": ent,
                    "field": fld,
                    "value": val,
                    "value_text": text,
                    **prov(rng.randint(1, sessions)),
                }
            )
    for it in items:
        rows["item"].append(
            {
                "campaign_id": cid,
                "id": it,
                "name": it.title(),
                "aliases": [],
                "description": "",
                "properties": {},
                **prov(),
            }
        )
        holder = rng.choice((*pcs, *npcs, *locs))
        rows["holding"].append(
            {
                "campaign_id": cid,
                "item_id": it,
                "holder_id": holder,
                "quantity": rng.randint(1, 3),
                **prov(rng.randint(1, sessions), rng.choice(VISIBILITIES)),
            }
        )
    seen_edges: set[tuple[str, str, str]] = set()
    for ent in (*npcs, *pcs, *pcs, *pcs):
        for _ in range(3):
            key = (ent, rng.choice((*pcs, *npcs)), rng.choice(EDGE_KINDS))
            if key[0] == key[1] or key in seen_edges:
                continue
            seen_edges.add(key)
            rows["edge"].append(
                {
                    "campaign_id": cid,
                    "source_id": key[0],
                    "target_id": key[1],
                    "kind": key[2],
                    "attitude": rng.randint(-100, 100),
                    "reason": "history",
                    "since_session": 1,
                    **prov(rng.randint(1, sessions), rng.choice(VISIBILITIES)),
                }
            )
    for i in range(max(5, n_events // 100)):
        tid = f"{rng.choice(THREAD_KINDS)}-{i:04d}-01"
        parties = sorted(
            {rng.choice(pcs), rng.choice(npcs), *([rng.choice(pcs)] if rng.random() < 0.5 else [])}
        )
        opened = rng.randint(1, sessions)
        status = "open" if rng.random() < 0.3 else rng.choice(("settled", "expired", "broken"))
        rows["thread"].append(
            {
                "campaign_id": cid,
                "id": tid,
                "kind": tid.split("-")[0],
                "status": status,
                "terms": f"terms of {tid}",
                "tags": [],
                "parties": parties,
                "expires_session": None,
                "opened_session": opened,
                **prov(opened, rng.choice(VISIBILITIES)),
            }
        )
        rows["thread_party"] += [{"campaign_id": cid, "thread_id": tid, "entity_id": p} for p in parties]
    for i in range(1, n_events + 1):
        session_number = 1 + (i - 1) * sessions // n_events
        actor = rng.choice(pcs) if rng.random() < 0.6 else rng.choice(npcs)
        other = rng.choice(npcs)
        loc = rng.choice(locs)
        kind = rng.choice(("set_hp", "move_entity", "transfer_item", "add_condition", "set_fact"))
        involved = {actor}
        if kind == "set_hp":
            payload: dict[str, Any] = {"kind": kind, "entity": actor, "hp": rng.randint(0, 40)}
        elif kind == "move_entity":
            payload = {"kind": kind, "entity": actor, "location": loc}
            involved.add(loc)
        elif kind == "transfer_item":
            item = rng.choice(items)
            payload = {"kind": kind, "item": item, "from_holder": actor, "to_holder": other, "quantity": 1}
            involved |= {item, other}
        elif kind == "add_condition":
            payload = {"kind": kind, "entity": other, "condition": "prone"}
            involved = {other}
        else:
            payload = {"kind": kind, "key": f"{loc}-mood", "value": f"mood {i}"}
            involved = {loc}
        payload |= {"visibility": "public", "witnesses": [], "cause": None}
        rows["event"].append(
            {
                "id": i,
                "campaign_id": cid,
                "seq": i,
                "ref": f"ev-{i:06d}",
                "kind": kind,
                "payload": payload,
                "cause": f"round-{i}",
                "session_number": session_number,
                "round_number": i % 20,
                "visibility": rng.choice(VISIBILITIES),
                "importance": rng.randint(1, 10),
                "permanent": rng.random() < 0.03,
                "supersedes": None,
                "created_at": m.utcnow(),
            }
        )
        rows["event_entity"] += [
            {"event_id": i, "entity_id": e, "campaign_id": cid} for e in sorted(involved)
        ]
        if rng.random() < 0.5:
            watchers = sorted(set(rng.sample(pcs, rng.randint(1, 3))) - involved)
            rows["event_witness"] += [{"event_id": i, "entity_id": w, "campaign_id": cid} for w in watchers]
    return rows


async def _build(url: str, n_events: int, seed: int) -> float:
    engine = create_engine(url)
    await init_db(engine)
    rng = random.Random(seed)
    started = time.perf_counter()
    rows = _world(rng, n_events)
    tables = {
        "location": m.Location,
        "entity": m.Entity,
        "item": m.Item,
        "fact": m.Fact,
        "holding": m.Holding,
        "edge": m.Edge,
        "thread": m.Thread,
        "thread_party": m.ThreadParty,
        "event": m.Event,
        "event_entity": m.EventEntity,
        "event_witness": m.EventWitness,
    }
    async with engine.begin() as conn:
        await conn.execute(
            insert(m.Campaign),
            [{"id": 1, "name": "bench", "settings": {}, "event_seq": n_events, "created_at": m.utcnow()}],
        )
        for name, table in tables.items():
            data = rows[name]
            for start in range(0, len(data), BATCH):
                await conn.execute(insert(table), data[start : start + BATCH])
    async with engine.connect() as conn:
        await conn.exec_driver_sql("ANALYZE")
    await engine.dispose()
    return time.perf_counter() - started


async def _time(
    url: str, n_events: int, queries: int, seed: int, cache_mb: int = 0
) -> tuple[list[float], list[float]]:
    engine = create_engine(url)
    if cache_mb:
        from sqlalchemy import event

        @event.listens_for(engine.sync_engine, "connect")
        def _cache(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute(f"PRAGMA cache_size=-{cache_mb * 1024}")

    rng = random.Random(seed + 1)
    sessions = max(2, n_events // EVENTS_PER_SESSION)
    times: list[float] = []
    cpu: list[float] = []
    async with ledger_session(engine) as s:
        for i in range(queries + 20):
            present = [f"pc-{p}" for p in rng.sample(range(N_PCS), rng.randint(2, 3))]
            present += [f"npc-{n}" for n in rng.sample(range(N_NPCS), rng.randint(2, 3))]
            location = f"loc-{rng.randrange(N_LOCATIONS)}"
            t0, c0 = time.perf_counter(), time.process_time()
            ctx = await scene_context(
                s,
                campaign_id=1,
                location=location,
                present=present,
                viewer=Viewer.party(),
                current_session=sessions + 1,
            )
            elapsed = (time.perf_counter() - t0) * 1000
            used = (time.process_time() - c0) * 1000
            await s.rollback()  # end the read transaction (SQLite BEGIN IMMEDIATE) between scenes
            assert len(ctx.records) <= 10
            if i >= 20:  # warm-up
                times.append(elapsed)
                cpu.append(used)
    await engine.dispose()
    return times, cpu


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--cache-mb",
        type=int,
        default=0,
        help="SQLite page cache per connection (0: as ledger.store.db sets it)",
    )
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    results: list[tuple[int, float, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        for n in sizes:
            url = f"sqlite+aiosqlite:///{Path(tmp) / f'ledger-{n}.db'}"
            build = await _build(url, n, args.seed)
            times, cpu = await _time(url, n, args.queries, args.seed, args.cache_mb)
            results.append((n, _pct(times, 0.5), _pct(times, 0.95), build))
            print(
                f"{n:>7} events: p50 {_pct(times, 0.5):6.2f} ms  p95 {_pct(times, 0.95):6.2f} ms  "
                f"mean {statistics.fmean(times):6.2f} ms  | CPU p50 {_pct(cpu, 0.5):6.2f} ms  "
                f"p95 {_pct(cpu, 0.95):6.2f} ms  (build {build:5.1f} s, {len(times)} scenes)",
                flush=True,
            )
    base = results[0][2]
    for n, _p50, p95, _b in results[1:]:
        print(f"p95 at {n} events / p95 at {results[0][0]}: {p95 / base:.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
