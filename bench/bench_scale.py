"""Many bot processes on one PostgreSQL and one Chroma server: rounds of 1,000 campaigns closing at once.

    python3 bench/bench_scale.py [--processes 4] [--campaigns 1000] [--delay 1.0] [--admin-url URL]

Starts everything the deployment in ``docs/deploy.md`` runs, on this machine only (127.0.0.1):

1. a scratch PostgreSQL database (created here, dropped at the end) through ``--admin-url``;
2. a Chroma server (``chroma run --host 127.0.0.1``) in a temporary folder (stopped at the end);
3. ``--processes`` real OS processes, each with its own config file (``[discord] sharded = true``,
   ``shard_count = N``, ``shard_ids = [i]``, the shared ``[storage] database_url``,
   ``[chroma] mode = "http"``), each running the bot's Table and its deadline loop (``resume`` once, then
   ``tick`` every ``--tick`` seconds) with a narrator that takes ``--delay`` seconds and a courier that
   appends every send to the process's own file instead of calling Discord.

Each process opens its share of ``--campaigns`` campaigns (the guild ids are spread over the shards with
Discord's formula, so each process owns its own), two players act in each, and then every open round's
deadline is set to the same moment. The processes' deadline loops close, resolve, narrate and post the
rounds. Printed: the wall time from that deadline to the last post, each round's latency (deadline to its
post) p50/p95, rounds per second per process, CPU seconds per process, duplicates and losses (both must be
0), and the load average. Campaign setup is timed apart and is not part of the figure.

Stops by itself (``--timeout``), cleans up what it started, and sends traffic only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT_ADMIN_URL = os.environ.get(
    "TABLEKEEPER_TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)
PLAYERS = (("1001", "alice", "Ada Quill", "look around"), ("1002", "bob", "Bram Hollow", "search the crates"))
GM_ID = "100"

#: A small world (one room, two heroes, one keeper, a crate and no history): setting up a thousand campaigns
#: should take seconds, and the figure is about closing rounds, not loading worlds.
SCENARIO = """\
[campaign]
id = "bench-cellar"
name = "The Bench Cellar"
description = "A lamp-lit cellar under a waystation inn."
current_session = 1
starting_location = "loc-cellar"

[[locations]]
id = "loc-cellar"
name = "The Cellar"
description = "Barrels, crates and a stair up to the inn."

[[pcs]]
id = "pc-ada"
name = "Ada Quill"
owner = "player:alice"
class = "rogue"
level = 2
abilities = { str = 10, dex = 16, con = 12, int = 13, wis = 12, cha = 10 }
skills = ["perception", "investigation", "stealth"]
ac = 14
hp = 14
max_hp = 14
weapons = ["rapier"]
location = "loc-cellar"

[[pcs]]
id = "pc-bram"
name = "Bram Hollow"
owner = "player:bob"
class = "fighter"
level = 2
abilities = { str = 16, dex = 12, con = 14, int = 9, wis = 11, cha = 10 }
skills = ["athletics", "perception"]
ac = 16
hp = 20
max_hp = 20
weapons = ["longsword"]
location = "loc-cellar"

[[npcs]]
id = "npc-keeper"
name = "Old Tobin"
description = "The innkeeper, counting barrels."
kind = "npc"
bestiary = "commoner"
location = "loc-cellar"

[[items]]
id = "item-crate"
name = "a crate of salt fish"
holder = "npc-keeper"
"""


# ----------------------------------------------------------------------------------------------------
# A bot process (``--worker``)
# ----------------------------------------------------------------------------------------------------


class FileCourier:
    """Appends every send (with the time it was made) to one file per process, instead of calling Discord."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def _record(self, kind: str, to: str) -> str:
        line = json.dumps({"t": time.time(), "pid": os.getpid(), "kind": kind, "to": to}) + "\n"
        os.write(self.fd, line.encode())
        return f"{os.getpid()}-{kind}"

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        return self._record("public", f"{guild_id}/{channel_id}")

    async def send_dm(self, user_id: str, text: str) -> str:
        return self._record("dm", user_id)

    async def post_results(self, guild_id: str, channel_id: str, report: Any, *, header: str = "") -> str:
        return self._record("results", f"{guild_id}/{channel_id}")


class SlowNarrator:
    """An LLM stand-in that takes ``delay`` seconds, then tells the round like the offline narrator."""

    def __init__(self, delay: float) -> None:
        from bot.narrator.offline import OfflineNarrator

        self.delay = delay
        self.offline = OfflineNarrator()

    async def narrate(self, request: Any) -> Any:
        await asyncio.sleep(self.delay)
        draft = await self.offline.narrate(request)
        return draft.model_copy(update={"source": "generated"})


def guild_ids(index: int, processes: int, count: int) -> list[int]:
    """``count`` guild ids on shard ``index`` of ``processes`` (Discord's ``(guild_id >> 22) % shards``)."""
    return [((k * processes + index) << 22) + 7 for k in range(count)]


async def _tick_loop(table: Any, every: float, stopping: asyncio.Event) -> None:
    """The bot's deadline loop (``bot.discord_client``): resume once, then tick every ``every`` seconds."""
    await table.resume()
    while not stopping.is_set():
        await table.tick()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), timeout=every)


async def worker(args: argparse.Namespace) -> None:
    """One bot process: set up its campaigns, say ``ready``, run the deadline loop until told ``stop``."""
    import random

    from bot.config import load_settings
    from bot.discord_client import own_guilds
    from bot.table import Table
    from bot.views import Caller, Where

    settings = load_settings(args.worker)
    rng = random.Random(args.index)
    courier = FileCourier(Path(args.out) / f"sends-{args.index}.jsonl")
    table = await Table.create(
        settings, courier=courier, narrator=SlowNarrator(args.delay), seeds=lambda: rng.randrange(1, 2**53)
    )
    own_guilds(table, settings)  # exactly as the bot does: tick only this process's shards
    scenario = Path(args.out) / "scenario.toml"
    gm = Caller(user_id=GM_ID, display_name="GM")
    started = time.perf_counter()
    gate = asyncio.Semaphore(4)

    async def open_one(guild: int) -> None:
        where = Where(guild_id=str(guild), channel_id=str(guild + 1))
        async with gate:
            await table.start_campaign_from_file(where, gm, path=scenario)
            for user_id, name, pc, action in PLAYERS:
                who = Caller(user_id=user_id, display_name=name)
                await table.join(where, who, claim=pc)
                await table.submit(where, who, key=f"{guild}-{user_id}", text=action)

    await asyncio.gather(*(open_one(g) for g in guild_ids(args.index, args.processes, args.count)))
    setup = time.perf_counter() - started
    stopping = asyncio.Event()
    loop = asyncio.create_task(_tick_loop(table, args.tick, stopping))
    print(f"ready {setup:.3f} {time.process_time():.3f}", flush=True)
    await asyncio.to_thread(sys.stdin.readline)  # "stop" (or the parent went away)
    stopping.set()
    await loop  # finish the tick in hand: stopping mid-round is a crash, not the end of a bench
    print(f"cpu {time.process_time():.3f}", flush=True)
    await table.aclose()


# ----------------------------------------------------------------------------------------------------
# The bench (the parent)
# ----------------------------------------------------------------------------------------------------


def _loopback_only(url: str) -> None:
    host = urlsplit(url.replace("+asyncpg", "")).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"bench_scale talks only to this machine: {url!r} is not on 127.0.0.1")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _chroma(folder: Path, port: int) -> subprocess.Popen[bytes]:
    """Start ``chroma run`` on 127.0.0.1:``port`` and wait until it answers (at most 90 s)."""
    beside = Path(sys.executable).parent / "chroma"
    exe = str(beside) if beside.is_file() else shutil.which("chroma")
    if exe is None:
        raise SystemExit("the chroma CLI is not installed (it comes with the chromadb package)")
    log = (folder / "chroma.log").open("wb")
    server = subprocess.Popen(
        [exe, "run", "--path", str(folder / "chroma"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2) as reply:
                if reply.status == 200:
                    return server
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise SystemExit(f"chroma run did not start; see {folder / 'chroma.log'}")
        time.sleep(0.2)


def config_text(index: int, processes: int, database_url: str, chroma_port: int, data_dir: Path) -> str:
    """The config file of bot process ``index`` (the same layout ``docs/deploy.md`` shows)."""
    return f"""\
[discord]
sharded = true
shard_count = {processes}
shard_ids = [{index}]

[storage]
database_url = "{database_url}"
data_dir = "{data_dir}"

[chroma]
mode = "http"
host = "127.0.0.1"
port = {chroma_port}

[llm]
enabled = false
"""


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _migrate(url: str) -> None:
    from ledger.store.db import create_engine, init_db

    engine = create_engine(url)
    try:
        await init_db(engine)
    finally:
        await engine.dispose()


async def _set_deadlines(url: str, when: datetime) -> int:
    """Every open round's deadline becomes ``when``; returns how many rounds."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        status = await conn.execute(
            "UPDATE round SET deadline = $1 WHERE state IN ('open', 'collecting')", when
        )
    finally:
        await conn.close()
    return int(status.split()[-1])


async def _posted(url: str) -> Counter[str]:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        rows = await conn.fetch("SELECT state, count(*) AS n FROM round WHERE number = 1 GROUP BY state")
    finally:
        await conn.close()
    return Counter({r["state"]: r["n"] for r in rows})


def _sends(out: Path, processes: int) -> list[list[dict[str, Any]]]:
    per = []
    for i in range(processes):
        path = out / f"sends-{i}.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        per.append([json.loads(line) for line in lines if line.endswith("}")])
    return per


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _read_line(proc: subprocess.Popen[str], prefix: str, timeout: float) -> str:
    """The next line of ``proc`` starting with ``prefix`` (other lines are echoed)."""
    import selectors

    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not sel.select(timeout=max(0.0, end - time.monotonic())):
            break
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith(prefix):
            return line.strip()
        print(f"  [worker] {line.rstrip()}")
    raise SystemExit(f"a bot process did not say {prefix!r} (exit code {proc.poll()}); see its log")


def bench(args: argparse.Namespace) -> int:
    """Run the whole bench; returns the exit code (1 when a round was lost or posted twice)."""
    _loopback_only(args.admin_url)
    load_before = os.getloadavg()
    cpu_start = time.process_time()
    name = f"tk_scale_{uuid.uuid4().hex[:10]}"
    base = args.admin_url.rsplit("/", 1)[0]
    url = f"{base}/{name}"
    tmp = Path(tempfile.mkdtemp(prefix="tk-scale-"))
    procs: list[subprocess.Popen[str]] = []
    logs = []
    chroma: subprocess.Popen[bytes] | None = None
    asyncio.run(_admin(args.admin_url, f'CREATE DATABASE "{name}"'))
    try:
        (tmp / "scenario.toml").write_text(SCENARIO, encoding="utf-8")
        asyncio.run(_migrate(url))  # once, before the processes start (they would queue on a lock anyway)
        port = _free_port()
        chroma = _chroma(tmp, port)
        shares = [
            args.campaigns // args.processes + (i < args.campaigns % args.processes)
            for i in range(args.processes)
        ]
        for i in range(args.processes):
            config = tmp / f"process-{i}.toml"
            config.write_text(config_text(i, args.processes, url, port, tmp / f"data-{i}"), encoding="utf-8")
            log = (tmp / f"process-{i}.log").open("w")
            logs.append(log)
            cmd = [
                sys.executable, str(Path(__file__).resolve()), "--worker", str(config), "--index", str(i),
                "--processes", str(args.processes), "--count", str(shares[i]), "--delay", str(args.delay),
                "--tick", str(args.tick), "--out", str(tmp),
            ]  # fmt: skip
            procs.append(
                subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)
            )
        readies = [_read_line(proc, "ready", args.timeout) for proc in procs]
        setups = [float(line.split()[1]) for line in readies]
        setup_cpus = [float(line.split()[2]) for line in readies]
        print(
            f"Tablekeeper scale bench: {args.campaigns} campaigns over {args.processes} processes, "
            f"PostgreSQL {name}, Chroma on 127.0.0.1:{port}, narrator {args.delay:.1f} s, tick {args.tick} s"
        )
        load_start = os.getloadavg()
        deadline = datetime.now(UTC) + timedelta(seconds=args.lead)
        rounds = asyncio.run(_set_deadlines(url, deadline))
        moment = deadline.timestamp()
        print(f"setup: {max(setups):.1f} s in the slowest process (not counted); {rounds} rounds due at once")
        stop_at = time.monotonic() + args.timeout
        while time.monotonic() < stop_at:
            per = _sends(tmp, args.processes)
            told = {x["to"] for p in per for x in p if x["kind"] == "public"}
            if len(told) >= args.campaigns:
                break
            time.sleep(0.2)
        time.sleep(args.tick + 1.0)  # a duplicate would show up within a tick or two
        load_end = os.getloadavg()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("stop\n")
            proc.stdin.flush()
        cpus = [float(_read_line(p, "cpu", 120).split()[1]) for p in procs]
        per = _sends(tmp, args.processes)
        states = asyncio.run(_posted(url))
    finally:
        for proc in procs:
            if proc.poll() is None:
                try:
                    if proc.stdin is not None and not proc.stdin.closed:
                        proc.stdin.close()  # the worker reads end of input as "stop"
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        for log in logs:
            log.close()
        if chroma is not None:
            chroma.terminate()
            try:
                chroma.wait(timeout=10)
            except subprocess.TimeoutExpired:
                chroma.kill()
        asyncio.run(_admin(args.admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)

    publics = [[x for x in p if x["kind"] == "public"] for p in per]
    counts = Counter(x["to"] for p in publics for x in p)
    expected = {
        f"{g}/{g + 1}" for i in range(args.processes) for g in guild_ids(i, args.processes, shares[i])
    }
    duplicates = sum(n - 1 for n in counts.values() if n > 1)
    losses = len(expected - set(counts))
    strays = sum(
        1
        for i, p in enumerate(publics)
        for x in p
        if (int(x["to"].split("/")[0]) >> 22) % args.processes != i
    )
    latencies = [x["t"] - moment for p in publics for x in p]
    wall = max(latencies) if latencies else float("nan")
    print(f"wall, deadline to last post: {wall:.2f} s (target <= 4 s)")
    if latencies:
        p50, p95 = _pct(latencies, 0.5), _pct(latencies, 0.95)
        print(f"per round, deadline to its post: p50 {p50:.2f} s, p95 {p95:.2f} s")
    for i, p in enumerate(publics):
        last = max((x["t"] - moment for x in p), default=float("nan"))
        print(
            f"process {i} (shard {i}): {len(p)} rounds, {len(p) / last if p else 0:.1f} rounds/s, "
            f"CPU {cpus[i] - setup_cpus[i]:.1f} s after setup"
        )
    spent, cores = sum(cpus) - sum(setup_cpus), os.cpu_count() or 1
    print(
        f"CPU of the bot processes after setup: {spent:.1f} s in all, {1000 * spent / max(1, rounds):.0f} ms "
        f"per round: at least {spent / cores:.1f} s of wall on {cores} idle cores "
        "(PostgreSQL's and Chroma's own CPU not counted)"
    )
    print(f"rounds in the ledger: {dict(states)}")
    print(f"duplicates {duplicates}, losses {losses}, posted by a process not owning the guild {strays}")
    loads = ", ".join(
        f"{when} {'/'.join(f'{x:.2f}' for x in load)}"
        for when, load in (("before", load_before), ("at the deadline", load_start), ("after", load_end))
    )
    print(f"load average (1/5/15 min): {loads}")
    print(f"bench parent CPU {time.process_time() - cpu_start:.1f} s; {os.cpu_count()} cores")
    return 0 if duplicates == 0 and losses == 0 and strays == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--delay", type=float, default=1.0, help="seconds the narrator stand-in takes")
    parser.add_argument("--tick", type=float, default=0.25, help="seconds between deadline ticks")
    parser.add_argument("--lead", type=float, default=2.0, help="seconds from setting the deadline to it")
    parser.add_argument("--timeout", type=float, default=900.0, help="give up after this many seconds")
    parser.add_argument("--admin-url", default=DEFAULT_ADMIN_URL, help="a PostgreSQL on 127.0.0.1")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (configs, logs)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(worker(args))
        return 0
    return bench(args)


if __name__ == "__main__":
    sys.exit(main())
