"""Narration figures: offline narration per round, prompt building, and the pipeline over the fake LLM server.

Run: ``python3 bench/bench_narrator.py [--rounds N]`` from the repository root. Prints figures; asserts
nothing (timings are noisy on shared machines).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.narrator.base import ConflictNote, Draft
from bot.narrator.llm import LLMNarrator
from bot.narrator.offline import OfflineNarrator
from bot.narrator.pipeline import narrate_checked
from bot.narrator.prompt import build_prompt
from tests.fake_llm import FakeLLM, FakeReply
from tests.test_narrator_offline import harbour_round

GOOD = "Mira's silver dagger finds the goblin, which falls still; Greyrock's axe whistles past the second."


def no_conflicts(draft: Draft) -> list[ConflictNote]:
    return []


def per_call_us(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return f"median {statistics.median(ordered) * 1e6:8.1f} us   p95 {p95 * 1e6:8.1f} us"


def bench_offline(rounds: int) -> None:
    narrator = OfflineNarrator()
    base = harbour_round()
    requests = [base.model_copy(update={"variety_seed": seed}) for seed in range(rounds)]
    big = base.model_copy(update={"outcomes": base.outcomes * 6})  # 30 actions, a crowded battle
    samples, big_samples = [], []
    for request in requests:
        start = time.perf_counter()
        narrator.narrate_now(request)
        samples.append(time.perf_counter() - start)
        start = time.perf_counter()
        narrator.narrate_now(big.model_copy(update={"variety_seed": request.variety_seed}))
        big_samples.append(time.perf_counter() - start)
    print(f"offline narration, 5 actions   ({rounds} rounds): {per_call_us(samples)}")
    print(f"offline narration, 30 actions  ({rounds} rounds): {per_call_us(big_samples)}")


def bench_offline_worlds(rounds: int) -> None:
    """A 5-action round on the bundled worlds: NPCs with personas who answer back, records to recall."""
    from tests.narrator_worlds import world_rounds

    narrator = OfflineNarrator()
    built = [w.request for w in world_rounds() if len(w.request.outcomes) >= 5]
    requests = [r.model_copy(update={"outcomes": r.outcomes[:5]}) for r in built]
    samples, lines = [], 0
    for seed in range(rounds):
        request = requests[seed % len(requests)].model_copy(update={"variety_seed": seed})
        start = time.perf_counter()
        draft = narrator.narrate_now(request)
        samples.append(time.perf_counter() - start)
        lines += len(draft.voices)
    verdict = "ok" if statistics.median(samples) <= 1e-3 else "OVER"
    print(
        f"offline narration, 5-action world round with voices ({rounds} rounds): {per_call_us(samples)}"
        f"   target <= 1000 us: {verdict}; {lines / rounds:.2f} NPC lines a round"
    )


def bench_prompt(rounds: int) -> None:
    request = harbour_round()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        build_prompt(request, context_tokens=8192, reply_tokens=900)
        samples.append(time.perf_counter() - start)
    print(f"prompt build + fit             ({rounds} rounds): {per_call_us(samples)}")


async def bench_pipeline(rounds: int) -> None:
    async with FakeLLM(default=FakeReply.draft(GOOD)) as fake:
        llm = LLMNarrator(base_url=fake.base_url, model="fake", timeout=5, max_retries=0)
        request = harbour_round()
        offline = OfflineNarrator()
        await llm.narrate(request)  # warm the connection pool
        raw, piped = [], []
        for _ in range(rounds):
            start = time.perf_counter()
            await llm.narrate(request)
            raw.append(time.perf_counter() - start)
            start = time.perf_counter()
            await narrate_checked(request, narrator=llm, fallback=offline, check=no_conflicts)
            piped.append(time.perf_counter() - start)
        fake.default = FakeReply.error(500)
        failing = []
        for _ in range(max(1, rounds // 4)):
            start = time.perf_counter()
            await narrate_checked(request, narrator=llm, fallback=offline, check=no_conflicts)
            failing.append(time.perf_counter() - start)
        await llm.aclose()
    print(f"LLM narrator call, fake server ({rounds} rounds): {per_call_us(raw)}")
    print(f"pipeline (draft+check+repeat)  ({rounds} rounds): {per_call_us(piped)}")
    overhead = statistics.median(piped) - statistics.median(raw)
    print(f"pipeline overhead over the call (median):        {overhead * 1e6:8.1f} us")
    print(f"pipeline, 500 -> offline fallback ({len(failing)} rounds): {per_call_us(failing)}")


def main() -> None:
    logging.getLogger("bot.narrator").setLevel(logging.ERROR)  # the fallback rounds log each 500
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=400)
    args = parser.parse_args()
    bench_offline(args.rounds)
    bench_offline_worlds(args.rounds)
    bench_prompt(args.rounds)
    asyncio.run(bench_pipeline(max(20, args.rounds // 4)))


if __name__ == "__main__":
    main()
