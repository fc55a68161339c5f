"""Figures for the table: the engine's overhead per round, and many campaigns closing rounds at once.

    python3 bench/bench_table.py [--rounds 20] [--campaigns 200] [--backend sqlite|postgresql]

1. A five-player round on the harbour scenario (everything but the narrator: validation, rules, the ledger
   transaction, retrieval, the assertion check, the outbox and delivery to a courier that does nothing),
   with the campaign's history padded to 1k and 100k events. Wall and CPU time (p50/p95), SQL statements and
   transactions per round, and the same per phase of the round (phases are cut at the table's persisted steps,
   :meth:`bot.table.context.TableContext.step`): the lookup before closing, closing and resolving (rules),
   applying the round and narrating it (retrieval, narrator, check), storing the narration and delivering it,
   and marking it posted and opening the next round.
   The full (generation 2) garbage collections that fell in the counted rounds are printed with their CPU
   time: one costs ~100 ms in this process, so it sets the p95. ``--freeze`` moves everything alive after
   the setup out of the collector's reach (``gc.freeze()``), as a long-running bot could after its start.
2. ``--campaigns`` campaigns closing a round at the same moment with a narrator that takes 1 s: the total wall
   time (target: under 2.5 s, so no campaign waits for another's narrator).

``--world N`` grows the campaign's world first (N NPCs in a district the party is not in, N/2 items, N/10
threads), as months of play do: what a round costs in a long campaign, not only a long history.
``--backend postgresql`` runs on a scratch database created on ``--pg`` (dropped afterwards).
Prints figures; asserts nothing. The machine may be shared: CPU time is printed beside wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_support import QuietCourier, scratch_database

from bot.config import parse_settings
from bot.narrator.base import Draft, NarrationRequest
from bot.narrator.offline import OfflineNarrator
from bot.table import Table
from bot.views import Caller, Where

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"
GM = Caller(user_id="100", display_name="GM")
PLAYERS = [
    (Caller(user_id="1001", display_name="alice"), "Greyrock", "look around"),
    (Caller(user_id="1002", display_name="bob"), "Mira Quickfinger", "search the crates"),
    (Caller(user_id="1003", display_name="cara"), "Sister Tamsin", "ask Bessa about the ship"),
    (Caller(user_id="1004", display_name="dan"), "Orrin Vale", "listen at the door"),
]
FIFTH = Caller(user_id="1005", display_name="eve")


class SlowNarrator:
    """An LLM stand-in that takes ``delay`` seconds, then tells the round like the offline narrator."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.offline = OfflineNarrator()

    async def narrate(self, request: NarrationRequest) -> Draft:
        await asyncio.sleep(self.delay)
        draft = await self.offline.narrate(request)
        return draft.model_copy(update={"source": "generated"})


PG_URL = ""  # set by --backend postgresql: the server's admin URL (a scratch database is made per run)


@asynccontextmanager
async def _database(folder: Path) -> AsyncIterator[str]:
    """An empty database URL: "" (SQLite in ``folder``) or a scratch PostgreSQL database, dropped after."""
    if not PG_URL:
        yield ""
        return
    async with scratch_database(PG_URL) as url:
        yield url


async def _table(folder: Path, url: str, **kw: Any) -> Table:
    rng = random.Random(3)
    settings = parse_settings({"storage": {"data_dir": str(folder), "database_url": url}})
    return await Table.create(settings, courier=QuietCourier(), seeds=lambda: rng.randrange(1, 2**53), **kw)


#: Phases of a round, named by the persisted step that ends them (:meth:`TableContext.step`).
PHASES = {
    "close": "lookup (campaign, GM, round)",
    "resolve": "close + resolve (reads, rules)",
    "narrate": "apply round + narrate + check",
    "send": "store narration (+ claim)",
    "posted": "deliver",
    "end": "posted + open next + report",
}


class Meter:
    """Counts SQL statements and transactions, and wall/CPU time, per phase of the round being measured."""

    def __init__(self, table: Table) -> None:
        from sqlalchemy import event

        self.on = False
        self.phase = "close"
        self.statements: dict[str, int] = defaultdict(int)
        self.begins: dict[str, int] = defaultdict(int)
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self.kinds: dict[str, int] = defaultdict(int)
        self._mark = (0.0, 0.0)
        engine = table.context.engine.sync_engine

        def _stmt(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if self.on:
                self.statements[self.phase] += 1
                self.kinds[f"{self.phase:<8} " + " ".join(statement.split()[:6])[:90]] += 1

        def _begin(conn: Any) -> None:
            if self.on:
                self.begins[self.phase] += 1

        event.listen(engine, "before_cursor_execute", _stmt)
        event.listen(engine, "begin", _begin)
        table.before_step = self.step

    def start(self) -> None:
        self.on, self.phase = True, "close"
        self._mark = (time.perf_counter(), time.process_time())

    def _cut(self, next_phase: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        self.wall[self.phase] += wall - self._mark[0]
        self.cpu[self.phase] += cpu - self._mark[1]
        self._mark, self.phase = (wall, cpu), next_phase

    async def step(self, name: str) -> None:
        if not self.on:
            return
        following = {"close": "resolve", "resolve": "narrate", "narrate": "send", "posted": "end"}
        if name in following:
            self._cut(following[name])
        elif name.startswith("send-") and self.phase == "send":
            self._cut("posted")

    def stop(self) -> None:
        self._cut("end")
        self.on = False


class RoundFigures:
    """Per-round wall and CPU seconds, and the meter's per-phase totals over the measured rounds."""

    def __init__(self, wall: list[float], cpu: list[float], statements: list[int], meter: Meter) -> None:
        self.wall, self.cpu, self.statements, self.meter = wall, cpu, statements, meter
        self.full_gcs: list[float] = []  # CPU seconds of each full collection in the counted rounds


class FullCollections:
    """Records the CPU seconds of every generation-2 garbage collection while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.seconds: list[float] = []
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.process_time()
        elif self.on and info.get("generation") == 2:
            self.seconds.append(time.process_time() - self._start)

    def close(self) -> None:
        gc.callbacks.remove(self._callback)


async def _pad_history(table: Table, campaign_id: int, total: int) -> None:
    """Append synthetic trivia events (tavern gossip about filler folk) until the campaign holds ``total``."""
    from sqlalchemy import insert, select, update

    from ledger.store import models as m

    async with table.context.session() as s:
        conn = await s.connection()
        seq = (
            await conn.execute(select(m.Campaign.event_seq).where(m.Campaign.id == campaign_id))
        ).scalar_one()
        rng = random.Random(1)
        need = total - seq
        batch = 5000
        while need > 0:
            n = min(batch, need)
            rows = []
            for _i in range(n):
                seq += 1
                rows.append(
                    {
                        "campaign_id": campaign_id,
                        "seq": seq,
                        "ref": f"ev-{seq:06d}",
                        "kind": "set_fact",
                        "payload": {
                            "kind": "set_fact",
                            "key": f"npc-extra-{seq % 500}-mood",
                            "value": "bored",
                        },
                        "cause": "bench",
                        "session_number": 1 + seq % 11,
                        "visibility": "public",
                        "importance": rng.randint(0, 3),
                        "permanent": False,
                    }
                )
            await conn.execute(insert(m.Event), rows)
            ids = (
                await conn.execute(
                    select(m.Event.id, m.Event.seq).where(
                        m.Event.campaign_id == campaign_id, m.Event.seq > seq - n
                    )
                )
            ).all()
            await conn.execute(
                insert(m.EventEntity),
                [
                    {"event_id": eid, "entity_id": f"npc-extra-{sq % 500}", "campaign_id": campaign_id}
                    for eid, sq in ids
                ],
            )
            need -= n
        await conn.execute(update(m.Campaign).where(m.Campaign.id == campaign_id).values(event_seq=seq))
        await s.commit()


WORLD = 0  # set by --world: NPCs added elsewhere (with half as many items and a tenth as many threads)


async def _grow_world(table: Table, campaign_id: int, npcs: int) -> None:
    """A long campaign's world: ``npcs`` named NPCs in a district the party is not in, each second one
    holding an item of their own, and an open thread for each tenth, written through the ledger."""
    from ledger import service

    rng = random.Random(5)
    syllables = (
        "al bor cas dun el fen gar hol isk jor kel lun mar nor os pel quin ros sil tor ul ven wes yor zan"
    )
    syllables = syllables.split()
    used: set[str] = set()

    def name() -> str:
        while True:
            first = "".join(rng.choice(syllables) for _ in range(2)).title()
            last = "".join(rng.choice(syllables) for _ in range(3)).title()
            if f"{first} {last}" not in used:
                used.add(f"{first} {last}")
                return f"{first} {last}"

    changes: list[dict[str, Any]] = [
        {"kind": "create_location", "id": "loc-bench-district", "name": "The Far District"}
    ]
    for n in range(npcs):
        npc = f"npc-bench-{n}"
        changes.append({"kind": "create_entity", "id": npc, "entity_kind": "npc", "name": name(),
                        "location": "loc-bench-district"})  # fmt: skip
        if n % 2 == 0:
            changes.append({"kind": "create_item", "id": f"item-bench-{n}", "name": f"{name()}'s ledger",
                            "holder": npc, "quantity": 1})  # fmt: skip
        if n % 10 == 0:
            changes.append({"kind": "open_thread", "id": f"debt-bench-{n}", "thread_kind": "debt",
                            "terms": f"{name()} owes the guild forty crowns", "parties": [npc]})  # fmt: skip
    async with table.context.session() as s:
        await service.apply_changes(
            s, campaign_id=campaign_id, session_number=1, round_number=None, cause="bench", mutations=changes
        )


FREEZE = False  # set by --freeze: gc.freeze() once the campaign is set up
PROFILE = ""  # set by --profile: cProfile the counted rounds' close_round only, stats written here


async def round_overhead(events: int, rounds: int) -> RoundFigures:
    """Wall/CPU seconds and statements per five-player round at ``events`` events of history."""
    with tempfile.TemporaryDirectory() as tmp:
        async with _database(Path(tmp)) as url:
            table = await _table(Path(tmp), url)
            try:
                return await _rounds(table, events, rounds)
            finally:
                await table.aclose()


async def _rounds(table: Table, events: int, rounds: int) -> RoundFigures:
    where = Where(guild_id="1", channel_id=str(events))
    view = await table.start_campaign_from_file(where, GM, path=HARBOR)
    for caller, pc, _ in PLAYERS:
        await table.join(where, caller, claim=pc)
    await table.join(where, FIFTH, name="Eve Lark", scores="15,14,13,12,10,8", weapon="rapier")
    if WORLD:
        await _grow_world(table, view.id, WORLD)
    await _pad_history(table, view.id, events)
    if FREEZE:
        gc.collect()
        gc.freeze()
    meter = Meter(table)
    collections = FullCollections()
    profiler = None
    if PROFILE:
        import cProfile

        profiler = cProfile.Profile()
    wall, cpu, statements = [], [], []
    for n in range(rounds + 1):
        for caller, _, text in PLAYERS:
            await table.submit(where, caller, key=f"{events}-{n}-{caller.user_id}", text=text)
        await table.submit(where, FIFTH, key=f"{events}-{n}-eve", text="look around")
        before = sum(meter.statements.values())
        if n > 0:  # the first round warms the caches and is not counted
            meter.start()
        collections.on = n > 0
        start, start_cpu = time.perf_counter(), time.process_time()
        if profiler is not None and n > 0:
            profiler.enable()
        await table.close_round(where, GM)
        if profiler is not None and n > 0:
            profiler.disable()
        collections.on = False
        if n > 0:
            meter.stop()
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            statements.append(sum(meter.statements.values()) - before)
    collections.close()
    if profiler is not None:
        profiler.dump_stats(PROFILE)
    if FREEZE:
        gc.unfreeze()
    figures = RoundFigures(wall, cpu, statements, meter)
    figures.full_gcs = collections.seconds
    return figures


async def many_campaigns(count: int, delay: float) -> tuple[float, float, float]:
    """(setup s, wall s and CPU s for ``count`` campaigns closing a round together, narrator ``delay`` s)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with _database(Path(tmp)) as url:
            table = await _table(Path(tmp), url, narrator=SlowNarrator(delay))
            try:
                started = time.perf_counter()
                wheres = [Where(guild_id="2", channel_id=str(n)) for n in range(count)]
                for where in wheres:
                    await table.start_campaign_from_file(where, GM, path=HARBOR)
                    for caller, pc, text in PLAYERS[:2]:
                        await table.join(where, caller, claim=pc)
                        await table.submit(
                            where, caller, key=f"many-{where.channel_id}-{caller.user_id}", text=text
                        )
                setup = time.perf_counter() - started
                start, cpu = time.perf_counter(), time.process_time()
                await asyncio.gather(*(table.close_round(w, GM) for w in wheres))
                return setup, time.perf_counter() - start, time.process_time() - cpu
            finally:
                await table.aclose()


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(values) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"


def _report(events: int, figures: RoundFigures, verbose: bool) -> None:
    n = len(figures.wall)
    meter = figures.meter
    print(
        f"five-player round at {events:>7,} events over {n} rounds: wall {_ms(figures.wall)}; "
        f"CPU {_ms(figures.cpu)}; {statistics.median(figures.statements):.0f} SQL statements, "
        f"{sum(meter.begins.values()) / n:.1f} transactions per round"
    )
    gcs = figures.full_gcs
    print(
        f"    full garbage collections in those rounds: {len(gcs)}"
        + (f", {statistics.median(gcs) * 1000:.1f} ms CPU each (median)" if gcs else "")
    )
    for key, label in PHASES.items():
        print(
            f"    {label:<32} {meter.statements[key] / n:6.1f} statements {meter.begins[key] / n:5.1f} tx "
            f"{meter.wall[key] / n * 1000:7.1f} ms wall {meter.cpu[key] / n * 1000:7.1f} ms CPU"
        )
    if verbose:
        order = {key: i for i, key in enumerate(PHASES)}  # by phase, then the most frequent first
        for kind, count in sorted(
            meter.kinds.items(), key=lambda kv: (order.get(kv[0].split()[0], 9), -kv[1])
        ):
            print(f"        {count / n:6.1f}  {kind}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--campaigns", type=int, default=200)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--pg",
        default="postgresql+asyncpg://postgres@127.0.0.1:5432/test",
        help="PostgreSQL server (any database on it: the bench creates and drops its own scratch database)",
    )
    parser.add_argument("--sizes", default="1000,100000", help="history sizes for the round overhead")
    parser.add_argument("--verbose", action="store_true", help="also print each phase's statements")
    parser.add_argument(
        "--world", type=int, default=0, help="grow the world by this many NPCs elsewhere (a long campaign)"
    )
    parser.add_argument(
        "--freeze", action="store_true", help="gc.freeze() after the setup (full collections skip it)"
    )
    parser.add_argument(
        "--profile", default="", help="write cProfile stats of the counted rounds (close_round only) here"
    )
    args = parser.parse_args()
    global PG_URL, FREEZE, PROFILE, WORLD
    FREEZE = args.freeze
    WORLD = args.world
    PROFILE = args.profile
    PG_URL = args.pg if args.backend == "postgresql" else ""
    backend = "PostgreSQL" if PG_URL else "SQLite"
    print(f"Tablekeeper table bench ({backend}, offline narrator, courier that does nothing)")
    if WORLD:
        print(f"world grown by {WORLD:,} NPCs elsewhere, {WORLD // 2:,} items and {WORLD // 10:,} threads")
    for events in [int(x) for x in args.sizes.split(",") if x]:
        _report(events, await round_overhead(events, args.rounds), args.verbose)
    if args.campaigns <= 0:
        return
    setup, wall, cpu = await many_campaigns(args.campaigns, args.delay)
    print(
        f"{args.campaigns} campaigns closing a round at once, narrator {args.delay:.1f} s each: "
        f"{wall:.2f} s wall, {cpu:.2f} s CPU (setup {setup:.1f} s)"
    )


if __name__ == "__main__":
    asyncio.run(main())
