"""Several bot processes on one database: real OS processes race to close the same rounds.

Each process is a real :class:`bot.table.Table` on the shared database (a PostgreSQL database or one SQLite
file) running the bot's own deadline tick, with a courier that appends every send to the process's own file.
The schedule is forced to the worst case: both processes read the round as open and close it, both work out
its resolution, and only then does either write it. Exactly one may resolve, tell and post each round; the
other is refused by the ledger. A process ticks only the guilds its shards own, so two processes with
disjoint shard ranges split the campaigns between them.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bot.config import guild_shard, parse_settings
from bot.table import Table
from bot.views import Where
from ledger.store import models as m
from tests.table_helpers import (
    ALICE,
    BOB,
    CLAIMS,
    GM,
    HARBOR,
    WHERE,
    Clock,
    RecordingCourier,
    make_table,
    seat_everyone,
)

#: Long enough for a slow, loaded machine to bring a second process up; only waited out when one dies.
BARRIER_SECONDS = 120.0
#: After every deadline the tests set.
LATER = datetime(2031, 1, 1, tzinfo=UTC)


class FileCourier:
    """Appends one JSON line per send to ``path`` (one file per process), flushed before returning."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _record(self, kind: str, where: str, text: str) -> str:
        line = json.dumps({"pid": os.getpid(), "kind": kind, "to": where, "text": text[:120]}) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
        return f"{os.getpid()}-{kind}"

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        return self._record("public", f"{guild_id}/{channel_id}", text)

    async def send_dm(self, user_id: str, text: str) -> str:
        return self._record("dm", user_id, text)

    async def post_results(self, guild_id: str, channel_id: str, report: Any, *, header: str = "") -> str:
        return self._record("results", f"{guild_id}/{channel_id}", header)


def _settings(url: str, data_dir: Path, shards: tuple[int, ...] | None, count: int) -> Any:
    discord: dict[str, Any] = {}
    if shards is not None:
        discord = {"sharded": True, "shard_count": count, "shard_ids": list(shards)}
    return parse_settings({"storage": {"database_url": url, "data_dir": str(data_dir)}, "discord": discord})


def _ticker(
    url: str,
    data_dir: str,
    sends: str,
    shards: tuple[int, ...] | None,
    shard_count: int,
    steps: tuple[str, ...],
    barrier: Any,
) -> None:
    """One bot process: a table on ``url`` that ticks once at ``LATER``, as the bot's deadline loop does.

    Before each persisted step in ``steps`` it waits for the other process to reach the same step, so both
    are inside the round at once.
    """

    async def main() -> None:
        settings = _settings(url, Path(data_dir), shards, shard_count)
        rng = random.Random(os.getpid())
        table = await Table.create(
            settings,
            courier=FileCourier(Path(sends)),
            seeds=lambda: rng.randrange(1, 2**53),
            clock=lambda: LATER,
        )
        table.context.owns_guild = settings.discord.owns_guild

        async def meet(step: str) -> None:
            if step in steps:
                await asyncio.to_thread(barrier.wait, BARRIER_SECONDS)

        table.context.before_step = meet
        try:
            await asyncio.to_thread(barrier.wait, BARRIER_SECONDS)  # both are up: tick together
            await table.tick()
        finally:
            await table.aclose()

    asyncio.run(main())


def _run_processes(args: list[tuple[Any, ...]], barrier: Any) -> None:
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_ticker, args=(*a, barrier)) for a in args]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=600)
    for p in procs:
        if p.is_alive():
            p.kill()
            p.join()
    assert [p.exitcode for p in procs] == [0] * len(procs), "a bot process failed"


def _sends(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def _open_rounds(url: str, tmp_path: Path, wheres: Sequence[Where]) -> None:
    """Start the harbour campaign in each of ``wheres``, seat two players, act, and let the deadline pass.

    The action changes the world (an item changes hands), so a round resolved twice would show in the ledger.
    """
    table = await make_table(url, tmp_path / "setup")
    try:
        for where in wheres:
            await table.start_campaign_from_file(where, GM, path=HARBOR)
            for player in (ALICE, BOB):
                await table.join(where, player, claim=CLAIMS[player])
            await table.submit(where, ALICE, key=f"a-{where.guild_id}", text="take the silver key")
            await table.gm_deadline(where, GM, minutes=1)  # LATER is long past it
    finally:
        await table.aclose()


async def _ledger(url: str, tmp_path: Path) -> tuple[dict[int, str], dict[int, tuple[int, int]]]:
    """Each campaign's round 1 state, and (events round 1 wrote, events its resolution accounts for)."""
    table = await make_table(url, tmp_path / "check")
    try:
        async with table.context.session() as s:
            first = select(m.Round.campaign_id, m.Round.session_number, m.Round.state, m.Round.resolution)
            rounds = (await s.exec(first.where(m.Round.number == 1))).all()
            written = {}
            for cid, session_number, _, _ in rounds:
                count = select(func.count()).where(
                    m.Event.campaign_id == cid,
                    m.Event.session_number == session_number,
                    m.Event.round_number == 1,
                )
                written[cid] = (await s.exec(count)).one()[0]
        states = {cid: state for cid, _, state, _ in rounds}
        events = {}
        for cid, _, _, resolution in rounds:
            record = resolution or {}
            told = len(record.get("mutations", ())) + sum(
                1 for r in record.get("reveals", ()) if r["mutation"]
            )
            events[cid] = (written[cid], told)
        return states, events
    finally:
        await table.aclose()


async def test_two_processes_racing_to_close_a_round_resolve_and_post_it_once(
    database_url: str, tmp_path: Path
) -> None:
    wheres = [Where(guild_id=str(1000 + n), channel_id=str(2000 + n)) for n in range(3)]
    await _open_rounds(database_url, tmp_path, wheres)
    files = [tmp_path / "sends-a.jsonl", tmp_path / "sends-b.jsonl"]
    barrier = multiprocessing.get_context("spawn").Barrier(2)
    # Both processes own every guild (a misconfiguration, or a shard moving between processes): the ledger
    # alone must keep each round to one resolution and one post.
    _run_processes(
        [
            (database_url, str(tmp_path / f"data-{n}"), str(f), None, 1, ("close", "resolve"))
            for n, f in enumerate(files)
        ],
        barrier,
    )
    sends = [_sends(f) for f in files]
    states, events = await _ledger(database_url, tmp_path)
    assert set(states.values()) == {"posted"}, states
    for where in wheres:
        channel = f"{where.guild_id}/{where.channel_id}"
        posts = [[x for x in per if x["kind"] == "public" and x["to"] == channel] for per in sends]
        assert sorted(len(p) for p in posts) == [0, 1], f"{channel}: {posts}"
        results = [x for per in sends for x in per if x["kind"] == "results" and x["to"] == channel]
        assert len(results) == 1, f"{channel}: the dice were posted {len(results)} times"
    # Round 1 was applied once: a second resolution would have written its events again.
    assert all(written == told for written, told in events.values()), events
    assert all(told > 0 for _, told in events.values()), f"the rounds changed nothing: {events}"


async def test_each_process_ticks_only_the_guilds_of_its_own_shards(
    database_url: str, tmp_path: Path
) -> None:
    count = 4
    wheres = [Where(guild_id=str((n << 22) + 7), channel_id=str(3000 + n)) for n in range(8)]
    assert sorted(guild_shard(w.guild_id, count) for w in wheres) == [0, 0, 1, 1, 2, 2, 3, 3]
    await _open_rounds(database_url, tmp_path, wheres)
    files = [tmp_path / "sends-low.jsonl", tmp_path / "sends-high.jsonl"]
    ranges = [(0, 1), (2, 3)]
    barrier = multiprocessing.get_context("spawn").Barrier(2)
    _run_processes(
        [
            (database_url, str(tmp_path / f"data-{n}"), str(f), r, count, ())
            for n, (f, r) in enumerate(zip(files, ranges, strict=True))
        ],
        barrier,
    )
    for f, owned in zip(files, ranges, strict=True):
        posted = sorted(x["to"] for x in _sends(f) if x["kind"] == "public")
        mine = sorted(
            f"{w.guild_id}/{w.channel_id}" for w in wheres if guild_shard(w.guild_id, count) in owned
        )
        assert posted == mine, f"shards {owned} posted {posted}"
    states, _ = await _ledger(database_url, tmp_path)
    assert set(states.values()) == {"posted"}, states


async def test_a_process_without_the_guild_leaves_its_round_alone(sqlite_url: str, tmp_path: Path) -> None:
    where = Where(guild_id=str(1 << 22), channel_id="5")  # shard 1 of 2
    await _open_rounds(sqlite_url, tmp_path, [where])
    courier_file = tmp_path / "sends.jsonl"
    settings = _settings(sqlite_url, tmp_path / "data", (0,), 2)
    table = await Table.create(settings, courier=FileCourier(courier_file), clock=lambda: LATER)
    try:
        table.context.owns_guild = settings.discord.owns_guild
        await table.resume()
        await table.tick()
        assert _sends(courier_file) == []
        assert (await table.round_status(where, GM)).state in ("open", "collecting")
        table.context.owns_guild = lambda guild_id: True
        await table.tick()
        assert [x["kind"] for x in _sends(courier_file)].count("public") == 1
    finally:
        await table.aclose()


def test_the_shard_of_a_guild_follows_discords_formula() -> None:
    assert guild_shard("81384788765712384", 1) == 0
    assert guild_shard(str((5 << 22) | 0x3FFFFF), 4) == 1
    assert guild_shard("local", 4) == 0


async def test_a_round_a_failed_step_left_half_way_is_finished_by_the_next_tick(
    database_url: str, tmp_path: Path
) -> None:
    clock = Clock()
    courier = RecordingCourier()
    table = await make_table(database_url, tmp_path, courier=courier, clock=clock)
    failing = ["narrate"]

    async def fail_once(step: str) -> None:
        if step in failing:
            failing.remove(step)
            raise TimeoutError("QueuePool limit reached")  # what a starved database pool raises

    try:
        await seat_everyone(table)
        await table.submit(WHERE, ALICE, key="a", text="look around")
        clock.advance(11)
        table.context.before_step = fail_once
        await table.tick()
        assert courier.public == [] and failing == [], "the round stopped half-way"
        await table.tick()
        await table.tick()
        told = [text for _, _, text in courier.public if text.startswith("**Round 1**")]
        assert len(told) == 1, courier.public
        assert (await table.round_status(WHERE, GM)).round_number == 2
    finally:
        await table.aclose()
