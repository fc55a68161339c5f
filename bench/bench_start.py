"""Figures for starting campaigns (issue 14): start time per bundled world, a 2,000-event load, idle memory.

    python3 bench/bench_start.py [--starts 20] [--campaigns 200] [--sessions 50] [--backend postgresql]
                                 [--memory local,server] [--resident 64]

1. ``Table.start_campaign_from_file`` from every bundled world (``scenarios/*.toml``), ``--starts`` times
   each in one table (each in its own channel, as a bot process starts them): p50/p95 wall and CPU
   milliseconds and the SQL statements per start (target: p50 <= 100 ms).
2. A 2,000-event campaign file (``bench/gen_campaign.py``, ``--sessions`` sessions of about 39 history
   entries) read, checked and loaded into a fresh ledger (target: <= 2 s).
3. Memory per idle campaign: ``--campaigns`` harbour campaigns started in one table (after ten to warm it),
   then the process's resident memory growth per campaign after ``gc.collect()`` (target: <= 200 KB), the
   Python heap's growth per campaign (tracemalloc, on a smaller sample) and which of the table's containers
   grew with the campaigns. ``local`` runs the summary index in the process (Chroma's embedded client, the
   default configuration); ``server`` runs it in a ``chroma run`` on 127.0.0.1 started by this bench (the
   deployment of many campaigns per process, ``[chroma] mode = "http"``); ``none`` runs without one.
   The in-process Chroma keeps a collection's HNSW index resident (about 2.6 MB each, in its Rust core:
   dropping the Python collection objects frees none of it) for at most ``--resident`` campaigns (``[chroma]
   resident_collections``; the least recently used beyond it is evicted and loaded again on its next use), so
   the growth is also printed over the run's second half, once that many are resident: what one more idle
   campaign costs. A process holding hundreds of campaigns may still run the index as a server; the bot
   itself then grows by well under 200 KB per idle campaign.

CPU times are printed beside wall times: the machine may be shared, and CPU time is what the engine costs.
Prints figures; asserts nothing. SQLite in a temporary folder, or with ``--backend postgresql`` a scratch
database created on ``--pg`` for the run and dropped after it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import urllib.request
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_support import QuietCourier, scratch_database  # noqa: E402
from sqlalchemy import event  # noqa: E402

from bot.config import parse_settings  # noqa: E402
from bot.table import Table  # noqa: E402
from bot.views import Caller, Where  # noqa: E402

SCENARIOS = ROOT / "scenarios"
HARBOR = SCENARIOS / "harbor.toml"
GM = Caller(user_id="100", display_name="GM")
DATABASE_URL = ""  # "" = SQLite in a temporary folder; else the run's scratch PostgreSQL database
RUN = str(time.time_ns())  # guild ids of this run: a shared database may hold an earlier run's campaigns


class Statements:
    """Counts the SQL statements an engine sends (``before_cursor_execute``)."""

    def __init__(self, sync_engine: Any) -> None:
        self.count = 0
        event.listen(sync_engine, "before_cursor_execute", self._one)

    def _one(self, *args: Any, **kwargs: Any) -> None:
        self.count += 1


def _url(folder: Path) -> str:
    return DATABASE_URL or f"sqlite+aiosqlite:///{folder / 'ledger.db'}"


async def _table(folder: Path, config: dict[str, Any] | None = None, **kw: Any) -> Table:
    rng = random.Random(3)
    data = {"storage": {"data_dir": str(folder), "database_url": _url(folder)}, **(config or {})}
    return await Table.create(
        parse_settings(data), courier=QuietCourier(), seeds=lambda: rng.randrange(1, 2**53), **kw
    )


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _rss(pid: int | str = "self") -> int:
    """A process's resident memory in bytes (Linux ``/proc/<pid>/statm``; default this one)."""
    with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} on {os.cpu_count()} cores"


# ------------------------------------------------------------------------------------------------ starts
async def bench_starts(starts: int) -> None:
    """Start each bundled world ``starts`` times (after two to warm the process) in one table."""
    print(f"\n== campaign start from each bundled world ({starts} starts each; {_load()})")
    with tempfile.TemporaryDirectory() as tmp:
        table = await _table(Path(tmp))
        counter = Statements(table.context.engine.sync_engine)
        try:
            for world in sorted(SCENARIOS.glob("*.toml")):
                walls: list[float] = []
                cpus: list[float] = []
                stmts: list[int] = []
                for n in range(starts + 2):
                    where = Where(guild_id=RUN, channel_id=f"{world.stem}-{n}")
                    before, wall, cpu = counter.count, time.perf_counter(), time.process_time()
                    await table.start_campaign_from_file(where, GM, path=world)
                    if n >= 2:  # the first two warm the process (imports, the file's first check)
                        walls.append(1000 * (time.perf_counter() - wall))
                        cpus.append(1000 * (time.process_time() - cpu))
                        stmts.append(counter.count - before)
                print(
                    f"{world.name:14s} wall p50 {statistics.median(walls):6.1f} ms"
                    f"  p95 {_pct(walls, 0.95):6.1f} ms"
                    f" | cpu p50 {statistics.median(cpus):6.1f} ms  p95 {_pct(cpus, 0.95):6.1f} ms"
                    f" | {statistics.median(stmts):.0f} SQL statements per start  (target: p50 <= 100 ms)"
                )
        finally:
            await table.aclose()


# ---------------------------------------------------------------------------------------------- big load
async def bench_big_load(sessions: int) -> None:
    """Generate a long campaign file and time reading, checking and loading it into a fresh ledger."""
    import gen_campaign as gen

    from ledger.scenario.load import load_scenario_into
    from ledger.scenario.reading import load_scenario
    from ledger.store.db import create_engine, init_db, ledger_session

    print(f"\n== loading a long campaign file ({_load()})")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path, _probes = gen.write(gen.generate(1, sessions), folder)
        size = path.stat().st_size
        engine = create_engine(_url(folder))
        await init_db(engine)
        counter = Statements(engine.sync_engine)
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            scenario = load_scenario(path)
            read = (time.perf_counter() - wall, time.process_time() - cpu)
            wall2, cpu2 = time.perf_counter(), time.process_time()
            async with ledger_session(engine) as s:
                cid = await load_scenario_into(s, scenario=scenario, source=path.name)
            write = (time.perf_counter() - wall2, time.process_time() - cpu2)
            async with ledger_session(engine) as s:
                from ledger.store.sessions import count_events

                events = await count_events(s, campaign_id=cid)
        finally:
            await engine.dispose()
    total = (read[0] + write[0], read[1] + write[1])
    print(f"{path.name}: {len(scenario.history)} history entries, {events} events, {size:,} bytes")
    print(f"  read and check  wall {read[0]:.2f} s  cpu {read[1]:.2f} s")
    print(f"  load (one txn)  wall {write[0]:.2f} s  cpu {write[1]:.2f} s  {counter.count} SQL statements")
    print(f"  total           wall {total[0]:.2f} s  cpu {total[1]:.2f} s  (target: <= 2 s)")


# -------------------------------------------------------------------------------------------------- memory
@contextmanager
def _chroma_server(folder: Path) -> Iterator[tuple[int, int] | None]:
    """A ``chroma run`` on a free 127.0.0.1 port until the block ends: yields (port, pid), None without the
    CLI."""
    beside = Path(sys.executable).parent / "chroma"
    exe = str(beside) if beside.is_file() else shutil.which("chroma")
    if exe is None:
        yield None
        return
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    log = (folder / "chroma-server.log").open("wb")
    server = subprocess.Popen(
        [exe, "run", "--path", str(folder / "server-data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("chroma run did not start")
            time.sleep(0.2)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


def _containers(table: Table) -> dict[str, int]:
    """Sizes of the dicts, sets and lists the table and its parts (two levels down) hold, by path."""
    sizes: dict[str, int] = {}
    seen: set[int] = set()

    def walk(obj: Any, path: str, depth: int) -> None:
        if id(obj) in seen or depth > 2:
            return
        seen.add(id(obj))
        for name, value in getattr(obj, "__dict__", {}).items():
            if isinstance(value, dict | set | list):
                sizes[f"{path}.{name}"] = len(value)
            elif hasattr(value, "__dict__") and not isinstance(value, type):
                walk(value, f"{path}.{name}", depth + 1)

    walk(table, "table", 0)
    return sizes


async def _start_many(table: Table, prefix: str, n: int) -> None:
    for i in range(n):
        await table.start_campaign_from_file(Where(guild_id=RUN, channel_id=f"{prefix}-{i}"), GM, path=HARBOR)


async def bench_memory(mode: str, campaigns: int, resident: int | None = None) -> None:
    """Resident memory and Python heap per idle harbour campaign, with the summary index in ``mode``
    (``local``: at most ``resident`` campaigns' indexes in memory; None = the configured default)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with _chroma_server(folder) if mode == "server" else _nothing() as server:
            if mode == "server" and server is None:
                print(f"\n== memory ({mode}): skipped, the chroma CLI is not installed")
                return
            config: dict[str, Any] = (
                {"chroma": {"mode": "http", "host": "127.0.0.1", "port": server[0]}} if server else {}
            )
            if mode == "local" and resident is not None:
                config["chroma"] = {"resident_collections": resident}
            extra: dict[str, Any] = {"summaries": None} if mode == "none" else {}
            table = await _table(folder, config, **extra)
            try:
                await _start_many(table, f"{mode}-warm", 10)
                gc.collect()
                rss0, sizes0 = _rss(), _containers(table)
                chroma0 = _rss(server[1]) if server else 0
                wall, cpu = time.perf_counter(), time.process_time()
                half = campaigns // 2
                await _start_many(table, f"{mode}-idle", half)
                gc.collect()
                rss_half = _rss()
                await _start_many(table, f"{mode}-idle2", campaigns - half)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                gc.collect()
                rss1, sizes1 = _rss(), _containers(table)
                bound = _resident_bound(table) if mode == "local" else None
                chroma1 = _rss(server[1]) if server else 0
                sample = max(10, campaigns // 10)
                tracemalloc.start()
                heap0 = tracemalloc.get_traced_memory()[0]
                await _start_many(table, f"{mode}-traced", sample)
                gc.collect()
                heap1 = tracemalloc.get_traced_memory()[0]
                tracemalloc.stop()
            finally:
                await table.aclose()
    where = {"local": "in this process", "server": "in a chroma server process", "none": "none"}[mode]
    print(f"\n== memory per idle campaign, summary index {where} ({campaigns} harbour campaigns; {_load()})")
    print(f"  started in wall {wall:.1f} s, cpu {cpu:.1f} s ({1000 * wall / campaigns:.0f} ms each)")
    rss, heap = (rss1 - rss0) / campaigns / 1024, (heap1 - heap0) / sample / 1024
    print(f"  resident memory growth {rss:8.1f} KB per campaign  (target: <= 200 KB)")
    second = (rss1 - rss_half) / (campaigns - half) / 1024
    print(f"    over the second half {second:8.1f} KB per campaign  (one more idle campaign)")
    if bound is not None:
        print(f"  Chroma keeps at most {bound} campaigns' indexes in memory ([chroma] resident_collections)")
    print(f"  Python heap growth     {heap:8.1f} KB per campaign  (tracemalloc, {sample} campaigns)")
    if mode == "server":
        chroma = (chroma1 - chroma0) / campaigns / 1024
        print(
            f"  chroma server growth   {chroma:8.1f} KB per campaign  (its own process, shared by all bots)"
        )
    grown = {
        k: sizes1[k] - sizes0.get(k, 0) for k in sizes1 if sizes1[k] - sizes0.get(k, 0) >= campaigns // 2
    }
    kept = ", ".join(f"{k} (+{v})" for k, v in sorted(grown.items())) or "nothing"
    print(f"  the table keeps per campaign: {kept}")


def _resident_bound(table: Table) -> int | None:
    """How many campaigns' indexes the table's in-process Chroma keeps in memory at most (None: unknown)."""
    from ledger.recall.chroma_local import resident_indexes

    client = getattr(table.summaries, "_client", None)
    return resident_indexes(client) if client is not None else None


@contextmanager
def _nothing() -> Iterator[tuple[int, int] | None]:
    yield None


@asynccontextmanager
async def _sqlite() -> AsyncIterator[str]:
    yield ""  # each part makes its SQLite file in its own temporary folder


async def main() -> None:
    global DATABASE_URL
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=20, help="starts per bundled world")
    parser.add_argument("--campaigns", type=int, default=200, help="idle campaigns for the memory figure")
    parser.add_argument("--sessions", type=int, default=50, help="sessions of the long campaign (50: ~2,000)")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--pg",
        default="postgresql+asyncpg://postgres@127.0.0.1:5432/test",
        help="PostgreSQL server (any database on it: the bench creates and drops its own scratch database)",
    )
    parser.add_argument("--memory", default="local,server", help="summary index modes: local, server, none")
    parser.add_argument("--skip", default="", help="parts to skip: starts, load, memory")
    parser.add_argument(
        "--resident", type=int, default=None, help="local: [chroma] resident_collections (default: config's)"
    )
    args = parser.parse_args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    async with scratch_database(args.pg, "bench_start") if args.backend == "postgresql" else _sqlite() as url:
        DATABASE_URL = url
        print(f"bench_start: {args.backend}; {_load()}")
        if "starts" not in skip:
            await bench_starts(args.starts)
        if "load" not in skip:
            await bench_big_load(args.sessions)
        if "memory" not in skip:
            for mode in [m.strip() for m in args.memory.split(",") if m.strip()]:
                await bench_memory(mode, args.campaigns, args.resident)


if __name__ == "__main__":
    asyncio.run(main())
