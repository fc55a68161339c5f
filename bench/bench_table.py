"""Figures for the table: the engine's overhead per round, and many campaigns closing rounds at once.

    python3 bench/bench_table.py [--rounds 20] [--campaigns 200]

1. A five-player round on the harbour scenario (everything but the narrator: validation, rules, the ledger
   transaction, retrieval, the assertion check, the outbox and delivery to a courier that does nothing),
   with the campaign's history padded to 1k and 100k events.
2. ``--campaigns`` campaigns closing a round at the same moment with a narrator that takes 1 s: the total wall
   time (target: under 2 s, so no campaign waits for another's narrator).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


class QuietCourier:
    """Delivers into the void (Discord's latency is not the engine's)."""

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        return "1"

    async def send_dm(self, user_id: str, text: str) -> str:
        return "1"


class SlowNarrator:
    """An LLM stand-in that takes ``delay`` seconds, then tells the round like the offline narrator."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.offline = OfflineNarrator()

    async def narrate(self, request: NarrationRequest) -> Draft:
        await asyncio.sleep(self.delay)
        draft = await self.offline.narrate(request)
        return draft.model_copy(update={"source": "generated"})


DATABASE_URL = ""  # set by --url: "" = SQLite in a temporary folder


async def _table(folder: Path, **kw: Any) -> Table:
    rng = random.Random(3)
    settings = parse_settings({"storage": {"data_dir": str(folder), "database_url": DATABASE_URL}})
    return await Table.create(settings, courier=QuietCourier(), seeds=lambda: rng.randrange(1, 2**53), **kw)


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


async def round_overhead(events: int, rounds: int) -> list[float]:
    """Seconds per five-player round at ``events`` events of history."""
    with tempfile.TemporaryDirectory() as tmp:
        table = await _table(Path(tmp))
        where = Where(guild_id="1", channel_id=str(events))
        try:
            view = await table.start_campaign_from_file(where, GM, path=HARBOR)
            for caller, pc, _ in PLAYERS:
                await table.join(where, caller, claim=pc)
            await table.join(where, FIFTH, name="Eve Lark", scores="15,14,13,12,10,8", weapon="rapier")
            await _pad_history(table, view.id, events)
            times = []
            for n in range(rounds):
                for caller, _, text in PLAYERS:
                    await table.submit(where, caller, key=f"{events}-{n}-{caller.user_id}", text=text)
                await table.submit(where, FIFTH, key=f"{events}-{n}-eve", text="look around")
                start = time.perf_counter()
                await table.close_round(where, GM)
                times.append(time.perf_counter() - start)
            return times
        finally:
            await table.aclose()


async def many_campaigns(count: int, delay: float) -> tuple[float, float]:
    """(setup s, wall s for ``count`` campaigns closing a round together, narrator ``delay`` s)."""
    with tempfile.TemporaryDirectory() as tmp:
        table = await _table(Path(tmp), narrator=SlowNarrator(delay))
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
            start = time.perf_counter()
            await asyncio.gather(*(table.close_round(w, GM) for w in wheres))
            return setup, time.perf_counter() - start
        finally:
            await table.aclose()


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(values) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--campaigns", type=int, default=200)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--url", default="", help="a PostgreSQL URL (an empty database) instead of SQLite")
    parser.add_argument("--sizes", default="1000,100000", help="history sizes for the round overhead")
    args = parser.parse_args()
    global DATABASE_URL
    DATABASE_URL = args.url
    backend = "PostgreSQL" if args.url else "SQLite"
    print(f"Tablekeeper table bench ({backend}, offline narrator, courier that does nothing)")
    for events in [int(x) for x in args.sizes.split(",") if x]:
        times = await round_overhead(events, args.rounds)
        print(f"five-player round at {events:>7,} events: {_ms(times)} over {len(times)} rounds")
    setup, wall = await many_campaigns(args.campaigns, args.delay)
    print(
        f"{args.campaigns} campaigns closing a round at once, narrator {args.delay:.1f} s each: "
        f"{wall:.2f} s wall (setup {setup:.1f} s)"
    )


if __name__ == "__main__":
    asyncio.run(main())
