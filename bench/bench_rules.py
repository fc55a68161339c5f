"""Rules engine figures: six-combatant round resolutions per second, and the worst hostile dice expression.

Run: ``python3 bench/bench_rules.py``. Prints figures; asserts nothing (timing is noisy on shared machines).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import srd
from rules.creatures import AbilityScores
from rules.dice import roll
from rules.errors import DiceError
from rules.intents import Intent, IntentKind
from rules.round import resolve_round
from rules.state import Combatant, Holding, RoundState, SceneItem

HOSTILE = [
    "(" * 500 + "1" + ")" * 500,
    "9" * 4400,
    "1000d6" + "kh1" * 30,
    "100d6" + "kh1" * 20,
    "100d6" + "kh1" * 6,
    "100d6rr1ro2kh50kl25e6mi2",
    "(" * 10 + "100d100" + ")" * 10,
    "1d1e1",
    "1d1rr1",
    "100d1ra1",
    "99d999999kh50kl25*999999",
    "1d20+" * 16 + "1",
    "((((((((((1d20))))))))))" * 4,
    "x" * 100,
    "1d6" * 33,
]


def _scene() -> tuple[RoundState, list[Intent]]:
    def pc(name: str, scores: list[int], weapons: list[str], features: list[str]) -> Combatant:
        stats = srd.build_pc(
            {
                "name": name,
                "level": 3,
                "abilities": AbilityScores.of(scores).model_dump(),
                "skills": ["athletics", "perception"],
                "weapons": weapons,
                "armor_ac": 15,
                "features": features,
            }
        )
        cid = f"pc-{name.lower()}"
        return Combatant(id=cid, name=name, stats=stats, hp=stats.max_hp, location="loc-hall")

    def mob(cid: str, kind: str) -> Combatant:
        block = srd.creature(kind).stat_block()
        return Combatant(id=cid, name=block.name, stats=block, hp=block.max_hp, location="loc-hall")

    mira = pc("Mira", [10, 16, 14, 10, 12, 8], ["rapier"], []).model_copy(
        update={"holdings": (Holding(item="item-potion-of-healing", quantity=2),)}
    )
    bram = pc("Bram", [16, 10, 14, 8, 16, 12], ["longsword"], ["sacred-flame", "cure-wounds"])
    state = RoundState(
        combatants=(
            mira,
            bram,
            pc("Tova", [8, 14, 12, 16, 10, 12], ["dagger"], ["fire-bolt"]),
            mob("monster-goblin-1", "goblin"),
            mob("monster-orc", "orc"),
            mob("monster-bugbear", "bugbear"),
        ),
        items=(SceneItem(id="item-red-gem", holder="loc-hall"),),
        locations=("loc-hall", "loc-yard"),
    )
    intents = [
        Intent(kind=IntentKind.ATTACK, actor="pc-mira", target="monster-goblin-1"),
        Intent(kind=IntentKind.ABILITY, actor="pc-bram", target="monster-orc", ability_name="sacred-flame"),
        Intent(kind=IntentKind.TAKE, actor="pc-tova", item="item-red-gem"),
        Intent(kind=IntentKind.TAKE, actor="monster-goblin-1", item="item-red-gem"),
        Intent(kind=IntentKind.ATTACK, actor="monster-orc", target="pc-bram"),
        Intent(kind=IntentKind.ATTACK, actor="monster-bugbear", target="pc-mira"),
    ]
    return state, intents


def bench_rounds(seconds: float = 2.0) -> float:
    """Resolutions per second of a six-combatant round (a fresh seed each time)."""
    state, intents = _scene()
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        resolve_round(seed=count, intents=intents, state=state)
        count += 1
    return count / (time.perf_counter() - start)


def bench_round_with_json(n: int = 500) -> float:
    """Resolutions per second including ``model_dump_json`` (what the ledger stores)."""
    state, intents = _scene()
    start = time.perf_counter()
    for seed in range(n):
        resolve_round(seed=seed, intents=intents, state=state).model_dump_json()
    return n / (time.perf_counter() - start)


def bench_hostile() -> list[tuple[str, float, str]]:
    """(expression head, worst ms over 5 tries, outcome) for each hostile expression."""
    rows = []
    for expr in HOSTILE:
        worst = 0.0
        outcome = ""
        for attempt in range(5):
            start = time.perf_counter()
            try:
                outcome = f"rolled {roll(expr, random.Random(attempt)).total}"
            except DiceError as exc:
                outcome = f"refused: {exc}"
            worst = max(worst, (time.perf_counter() - start) * 1000)
        rows.append((expr[:28] + ("..." if len(expr) > 28 else ""), worst, outcome[:70]))
    return rows


def main() -> None:
    roll("1d20", random.Random(0))  # warm d20's grammar once; the first parse builds the LALR tables
    print(f"six-combatant round: {bench_rounds():,.0f} resolutions/s")
    print(f"six-combatant round + model_dump_json: {bench_round_with_json():,.0f} resolutions/s")
    rows = bench_hostile()
    for head, ms, outcome in rows:
        print(f"  {ms:8.3f} ms  {head:<32} {outcome}")
    print(f"worst hostile dice expression: {max(ms for _, ms, _ in rows):.3f} ms")


if __name__ == "__main__":
    main()
