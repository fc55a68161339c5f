"""Bench the summary index: add N short summaries to a local Chroma folder, then query it.

Prints adds per second (in batches, as a loader re-indexing a campaign would, and one by one), and query
latency p50/p95 in milliseconds (CPU time beside wall: the process's, Chroma's threads included), plain, with
a visibility + scene-entity metadata filter (a campaign's first query in a process) and by id through the
index's scope map (every later query), hashing embedding.

    python3 bench/bench_chroma.py [--count 10000] [--queries 200] [--batch 500]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger.recall.embeddings import HashingEmbedding
from ledger.recall.summaries import SummaryIndex

NAMES = [
    "Old Wei",
    "Greyrock",
    "Mira",
    "Tamsin",
    "Orrin",
    "Bessa",
    "Mother Brine",
    "Maren Holt",
    "Harlan Voss",
]
PLACES = ["the harbour", "the Salty Gull", "the customs house", "the fish market", "warehouse row"]
DEEDS = [
    "argues about a debt with",
    "shares a drink with",
    "follows",
    "trades rumours with",
    "threatens",
    "pays off",
    "hides a crate for",
    "asks a favour of",
]
ENTITY_IDS = [f"npc-{n.lower().replace(' ', '-')}" for n in NAMES]
SCOPES = ["public", "party", "player:alice", "player:bob", "gm"]


def _summary(rng: random.Random, i: int) -> tuple[str, list[str]]:
    a, b = rng.sample(range(len(NAMES)), 2)
    text = (
        f"Session {i // 40 + 1}: {NAMES[a]} {rng.choice(DEEDS)} {NAMES[b]} at {rng.choice(PLACES)}; "
        f"the tide is {rng.choice(['high', 'low', 'turning'])} and {rng.randint(2, 40)} gulls watch."
    )
    return text, [ENTITY_IDS[a], ENTITY_IDS[b]]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--single", type=int, default=300, help="summaries added one call each")
    args = parser.parse_args()
    rng = random.Random(7)

    with tempfile.TemporaryDirectory() as folder:
        embedding = HashingEmbedding()
        index = SummaryIndex.local(Path(folder) / "chroma", embedding=embedding)
        collection = index._collection("bench")  # batch path: what a loader re-indexing a campaign does
        docs = [_summary(rng, i) for i in range(args.count)]
        start = time.perf_counter()
        for lo in range(0, args.count, args.batch):
            chunk = docs[lo : lo + args.batch]
            collection.upsert(
                ids=[f"sum-{lo + k:06d}" for k in range(len(chunk))],
                documents=[text for text, _ in chunk],
                embeddings=embedding([text for text, _ in chunk]),  # the index gives Chroma the vectors
                metadatas=[
                    {
                        "campaign": "bench",
                        "session": (lo + k) // 40 + 1,
                        "scope": "scene",
                        "visibility": SCOPES[(lo + k) % len(SCOPES)],
                        "event_ids": "[]",
                        "entities": "[]",
                        "hard_facts": "[]",
                        **{f"e:{e}": True for e in ents},
                    }
                    for k, (_, ents) in enumerate(chunk)
                ],
            )
        batch_seconds = time.perf_counter() - start

        start = time.perf_counter()
        for i in range(args.single):
            text, ents = _summary(rng, i)
            index.add_now(
                summary_id=f"one-{i:05d}",
                campaign="bench",
                session=i,
                scope="scene",
                text=text,
                entities=ents,
            )
        single_seconds = time.perf_counter() - start

        filtered = SummaryIndex.local(Path(folder) / "chroma", embedding=embedding, scope_after=None)
        timed: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in ("plain", "filter", "ids")}
        index.query_now(campaign="bench", text="warm up", n=5)  # the scope map is read on the 2nd query
        for _ in range(args.queries):
            question, ents = _summary(rng, 0)
            for key, which, scene in (
                ("plain", filtered, {"visibilities": None}),
                ("filter", filtered, {"visibilities": ("public", "party"), "entities": ents}),
                ("ids", index, {"visibilities": ("public", "party"), "entities": ents}),
            ):
                t0, c0 = time.perf_counter(), time.process_time()
                which.query_now(campaign="bench", text=question, n=5, **scene)  # type: ignore[arg-type]
                timed[key][0].append((time.perf_counter() - t0) * 1000)
                timed[key][1].append((time.process_time() - c0) * 1000)

        total = index.count_now("bench")
    rows = [
        ("summaries stored", f"{total}"),
        (
            "batched adds",
            f"{args.count / batch_seconds:.0f} adds/s ({batch_seconds:.2f} s, batch {args.batch})",
        ),
        ("single adds", f"{args.single / single_seconds:.0f} adds/s ({single_seconds:.2f} s)"),
    ]
    for label, key in (
        ("query (no filter)", "plain"),
        ("query (vis + scene)", "filter"),
        ("query (by id, map)", "ids"),
    ):
        wall, cpu = timed[key]
        rows.append(
            (
                label,
                f"p50 {statistics.median(wall):.2f} ms, p95 {_percentile(wall, 0.95):.2f} ms | CPU p50 "
                f"{statistics.median(cpu):.2f} ms, p95 {_percentile(cpu, 0.95):.2f} ms",
            )
        )
    for label, value in rows:
        print(f"{label:<22}{value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
