"""Declared claims: self-consistency over the corpus, and what judging a declaration costs.

Run: ``python3 bench/bench_declared.py`` (``--runs N`` for more latency samples). Prints figures; asserts
nothing. No model is involved: a declaration is built from the deterministic extractor's own asserted
claims, written as a narrator would (names as the prompt gives them, the verb as written), in two forms:

- ``exact``: every asserted claim, as read. Any flag here is a round-trip defect (a name that does not
  resolve back, a verb or value the validation refuses), not a model's mistake. "Dropped" counts claims
  whose verb this script cannot recover from the extractor's detail (a choice read from speech): the
  validation drops an acts or pc_choice claim without its verb, as it would a model's.
- ``vague``: the same, made less specific the way a model often is (a place as mere presence, no count).
  The issue says this is no mismatch: any flag here is a false alarm of the mismatch rules.

Figures: narrations with any flag, per form, over the corpus' clean narrations (a real model's declaration
errors are not measured here: no model on this machine); and the CPU time ``extra_conflicts`` adds for a
declared 300-word narration on the campaign-sized world of ``bench_checker`` (beyond ``check`` itself).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_checker import big_world, narration_300  # noqa: E402
from bot.narrator.base import DECLARABLE_KINDS, DeclaredClaim, DeclaredSentence  # noqa: E402
from bot.narrator.claims_llm import _lemma, extra_conflicts  # noqa: E402
from bot.narrator.declared import read_declarations  # noqa: E402
from ledger.check.claims import Claim  # noqa: E402
from ledger.check.extract import extract  # noqa: E402
from ledger.check.snapshot import WorldSnapshot, load_world  # noqa: E402
from tests.corpus.loader import narrations, world_path  # noqa: E402

_VALUED = {"condition": 1, "relation": 2, "thread_status": 1}


def _declared(c: Claim, snap: WorldSnapshot, sentence: str, *, vague: bool) -> DeclaredClaim | None:
    """``c`` as a narrator would declare it, or None when it is not declarable (a pseudo id, a hand-over)."""
    if c.kind not in DECLARABLE_KINDS:
        return None  # a meaning-level claim: only the extractor makes those
    n = _VALUED.get(c.kind, len(c.args))
    ids, value = c.args[:n], (c.args[n] if len(c.args) > n else None)
    if any(a.startswith("*") or a == "None" for a in ids) or "give" in c.detail or "exists" in c.detail:
        return None
    kind = c.kind
    if vague and kind == "at":
        kind, ids = "present", ids[:1]
    names = [snap.entities[a].name if a in snap.entities else a for a in ids]
    verb = None
    if c.kind in ("acts", "pc_choice", "at"):
        lemma = c.detail.split(":")[1] if c.kind == "pc_choice" and ":" in c.detail else c.detail
        verb = next((w for w in re.findall(r"[A-Za-z']+", sentence) if _lemma(w) == lemma), None)
    qty = None
    if c.kind == "holds" and not vague:
        m = re.search(r"qty=(\d+)", c.detail)
        qty = int(m.group(1)) if m else None
    return DeclaredClaim(kind=kind, args=tuple(names), value=value, verb=verb, quantity=qty)


def declaration(text: str, snap: WorldSnapshot, *, vague: bool) -> tuple[DeclaredSentence, ...]:
    ex = extract(text, snap)
    out = []
    for a, b in ex.sentences:
        sentence = text[a:b]
        claims = [
            d
            for c in ex.claims
            if a <= c.span[0] < b and c.modality.asserted
            if (d := _declared(c, snap, sentence, vague=vague)) is not None
        ]
        if claims:
            out.append(DeclaredSentence(sentence=sentence, claims=tuple(dict.fromkeys(claims))))
    return tuple(out)


async def consistency() -> None:
    clean = [n for n in narrations() if n.expect == "clean"]
    for vague in (False, True):
        flagged: list[str] = []
        declared = dropped = 0
        for n in clean:
            snap = load_world(world_path(n.world), n.round)
            decl = declaration(n.text, snap, vague=vague)
            declared += sum(len(d.claims) for d in decl)
            dropped += len(read_declarations(decl, n.text, snap, extract(n.text, snap)).dropped)
            found = await extra_conflicts(None, n.text, snap, declared=decl)
            flags = [v.reason for v in found if v.refuted_by is None]
            if flags:
                flagged.append(f"{n.id}: {flags[0][:140]}")
        form = "vague" if vague else "exact"
        print(
            f"== {form}: {len(flagged)} of {len(clean)} clean narrations flagged "
            f"({declared} claims declared, {dropped} dropped by the validation)"
        )
        for line in flagged[:8]:
            print("   ", line)


async def latency(runs: int) -> None:
    world = big_world()
    text = narration_300()
    decl = declaration(text, world, vague=False)
    await extra_conflicts(None, text, world, declared=decl)  # warm
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        await extra_conflicts(None, text, world, declared=decl)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    cpu.sort()
    wall.sort()
    c0 = time.process_time()
    for _ in range(runs):
        extract(text, world)
    alone = (time.process_time() - c0) * 1000 / runs
    print(
        f"== judging a declaration: {len(text.split())} words, {sum(len(d.claims) for d in decl)} declared "
        f"claims, {len(world.entities)} entities, {runs} runs"
    )
    print(
        f"CPU median {statistics.median(cpu):.2f} ms, p95 {cpu[int(0.95 * len(cpu)) - 1]:.2f} ms; "
        f"wall median {statistics.median(wall):.2f} ms, p95 {wall[int(0.95 * len(wall)) - 1]:.2f} ms "
        f"(of which the extraction it repeats: {alone:.2f} ms CPU)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(consistency())
    asyncio.run(latency(args.runs))


if __name__ == "__main__":
    main()
