"""What applying the narrator's proposals adds to a round (issue 12: at most 5 ms).

Plays rounds of the harbour campaign through the whole table with the model narrator over the fake LLM
server (the real openai SDK over HTTP); each reply carries three proposals (a new NPC, an item with an NPC,
an event). Timed: deciding them (the fact and leak checks on each, names, ids: ``Narration._proposals``) and
writing them inside the narration's transaction (the ``stage`` it returns). Everything else in the round is
the same with or without proposals.

Run: ``python3 bench/bench_proposals.py [--rounds N] [--show-sql]`` from the repository root. Prints median
and p95 wall milliseconds (and the write's CPU milliseconds: the machine may be shared), the SQL statements
the write adds per round and, with ``--show-sql``, those statements by shape. Asserts nothing (timings are
noisy on shared machines).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event, text

from bot.config import parse_settings
from bot.intent_parser import OfflineIntentParser
from bot.narrator.llm import LLMNarrator
from bot.table import Table
from tests.fake_llm import FakeLLM, FakeReply
from tests.table_helpers import ALICE, BOB, GM, WHERE, RecordingCourier, seat_everyone

NAMES = [
    "Tam",
    "Pell",
    "Orla",
    "Brisk",
    "Juno",
    "Hale",
    "Wren",
    "Cobb",
    "Nessa",
    "Rook",
    "Lark",
    "Fenn",
    "Ivo",
    "Sable",
    "Tova",
    "Merrit",
    "Dace",
    "Quill",
]
SIGHTS = [
    "gull",
    "fiddler",
    "cart",
    "lantern",
    "kettle",
    "rope",
    "anchor",
    "net",
    "barrel",
    "shutter",
    "candle",
    "bell",
    "mast",
    "oar",
    "sail",
    "tar",
]


TEXTS = (
    "Rain drums on the shutters and the hearth spits sparks across the floorboards.",
    "A gull shrieks outside; a cart rattles over the cobbles toward the quay.",
    "Fog presses at the windows while a fiddler tunes one stubborn string.",
    "The tide bell tolls, and wet boots leave dark prints from door to bar.",
    "Someone laughs too loudly at a joke about herring and nobody joins in.",
    "Smoke curls under the low beams; a dog sleeps against the warm bricks.",
    "A sailor counts coppers twice, frowns, and counts them a third time.",
    "Wind worries the sign outside until its chain sings a thin note.",
)


def _reply(n: int) -> FakeReply:
    rng = random.Random(n)
    words = rng.sample(SIGHTS, 2)
    text = TEXTS[n % len(TEXTS)]
    name = f"{NAMES[n % len(NAMES)]} {NAMES[(n * 7 + 3) % len(NAMES)]}"
    proposals = [
        {
            "kind": "npc",
            "name": name,
            "role": "dockhand",
            "place": "",
            "description": "Coils rope by the hearth.",
        },
        {
            "kind": "item",
            "name": f"{words[0]} token {n}",
            "description": "A worn token.",
            "place": "",
            "holder": "Bessa Marlow",
        },
        {
            "kind": "event",
            "event_kind": "warning",
            "summary": f"Bessa Marlow warns the room about the {words[1]}.",
            "participants": ["Bessa Marlow"],
            "witnesses": ["Bessa Marlow"],
        },
    ]
    return FakeReply(content=json.dumps({"public_text": text, "private_notes": [], "proposals": proposals}))


async def bench(rounds: int, show_sql: bool = False) -> None:
    logging.disable(logging.WARNING)
    decide: list[float] = []
    write: list[float] = []
    write_cpu: list[float] = []
    whole: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeLLM() as fake:
            settings = parse_settings(
                {
                    "storage": {"data_dir": str(Path(tmp) / "data")},
                    "llm": {
                        "enabled": True,
                        "base_url": fake.base_url,
                        "model": "fake",
                        "max_retries": 0,
                        "extract_claims": False,
                    },
                }
            )
            rng = random.Random(4)
            table = await Table.create(
                settings,
                courier=RecordingCourier(),
                narrator=LLMNarrator.from_settings(settings.llm, api_key="k"),
                intent_parser=OfflineIntentParser(),
                seeds=lambda: rng.randrange(1, 2**53),
            )
            narration = table.narration
            original = narration._proposals

            def timed(*args: Any, **kwargs: Any) -> Any:
                start = time.perf_counter()
                stage = original(*args, **kwargs)
                decide.append(time.perf_counter() - start)
                if stage is None:
                    return None

                async def timed_stage(session: Any) -> None:
                    begun, cpu = time.perf_counter(), time.process_time()
                    counting[0] = True
                    try:
                        await stage(session)
                    finally:
                        counting[0] = False
                    write.append(time.perf_counter() - begun)
                    write_cpu.append(time.process_time() - cpu)

                return timed_stage

            narration._proposals = timed  # type: ignore[method-assign]
            counting, statements = [False], [0]
            shapes: Counter[str] = Counter()

            def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
                if counting[0]:
                    statements[0] += 1
                    shapes[" ".join(statement.split())[:90]] += 1

            event.listen(table.context.engine.sync_engine, "before_cursor_execute", count)
            try:
                await seat_everyone(table, (ALICE, BOB))
                for n in range(rounds):
                    fake.script(_reply(n))
                    await table.submit(WHERE, ALICE, key=f"a{n}", text="wait by the door")
                    await table.submit(WHERE, BOB, key=f"b{n}", text="wait by the door")
                    start = time.perf_counter()
                    await table.close_round(WHERE, GM)
                    whole.append(time.perf_counter() - start)
                from ledger.store.proposals import list_proposals

                async with table.context.session() as s:
                    listed = await list_proposals(s, campaign_id=1, limit=10_000)
                landed = [p for p in listed if p.status == "accepted"]
                async with table.context.session() as s:
                    await s.exec(text("SELECT 1"))
                    trips = []
                    for _ in range(200):
                        begun = time.perf_counter()
                        await s.exec(text("SELECT 1"))
                        trips.append(time.perf_counter() - begun)
            finally:
                await table.aclose()
    added = [d + w for d, w in zip(decide, write, strict=False)]
    print(
        f"rounds: {rounds}, proposals landed: {len(landed)} of {3 * rounds}, "
        f"rounds narrated by the model: {len(write)}"
    )
    print(f"deciding 3 proposals (checks, names, ids):  {_ms(decide)}")
    print(f"writing them in the narration transaction: {_ms(write)}")
    print(f"  (CPU time of that write)                 {_ms(write_cpu)}")
    print(f"added to the round:                        {_ms(added)}")
    print(f"the whole round (resolve, narrate, post):  {_ms(whole)}")
    per = statistics.median(trips)
    each = statements[0] / max(1, len(write))
    print(
        f"SQL statements the write adds per round: {each:.0f}; one database round trip here: "
        f"{per * 1e3:.2f} ms median, so the write is about {each * per * 1e3:.1f} ms of round trips"
    )
    if show_sql:
        for shape, n in shapes.most_common():
            print(f"  {n / max(1, len(write)):5.1f} x  {shape}")


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered) * 1e3:7.2f} ms   p95 {p95 * 1e3:7.2f} ms   "
        f"min {ordered[0] * 1e3:7.2f} ms   max {ordered[-1] * 1e3:7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--show-sql", action="store_true", help="list the write's statements by shape")
    args = parser.parse_args()
    asyncio.run(bench(args.rounds, args.show_sql))


if __name__ == "__main__":
    main()
