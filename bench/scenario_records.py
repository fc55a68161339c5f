"""List the record ids a fact check may name for a scenario file, so a writer of labelled narrations can
label ``refuted_by`` without reading the checker.

Run: ``python3 bench/scenario_records.py scenarios/crypt.toml [--location ID]``. Prints one id per line with
what it says; asserts nothing. Ids follow the ledger's fact keys (see ``ledger/check/snapshot.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli.check import _snapshot  # noqa: E402


def main() -> None:
    """Print the scene and every record id of the scenario's final world."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("scenario")
    parser.add_argument("--location", default=None)
    args = parser.parse_args()
    snap = _snapshot(args.scenario, args.location)
    print(f"scene: {snap.scene.location}; present: {', '.join(sorted(snap.scene.present))}")
    for e in snap.entities.values():
        if e.kind in ("pc", "npc", "monster"):
            print(f"{e.id}-alive\t{e.name} alive={e.alive}")
            print(f"{e.id}-location\t{e.name} at {e.location}")
            if e.hp is not None:
                print(f"{e.id}-hp\t{e.name} hp {e.hp}/{e.max_hp}")
            for c in sorted(e.conditions):
                print(f"{e.id}-condition-{c}\t{e.name} is {c}")
    for item, holders in snap.holdings.items():
        for h in holders.values():
            print(f"{item}-holder\t{h.holder} holds {h.quantity}")
            if h.quantity >= 1:
                print(f"{item}-quantity\t{h.holder} holds exactly {h.quantity} (a count told wrong)")
    for f in snap.fates.values():
        print(f"{f.item}-holder\tgone ({f})")
    for ed in snap.edges:
        print(f"{ed.id}\t{ed.source} -[{ed.kind} {ed.attitude}]-> {ed.target}")
    for t in snap.threads.values():
        print(f"{t.id}\t{t.kind} {t.status}: {t.terms[:70]}")
    for k, f in snap.facts.items():
        print(f"{k}\t{str(f.value)[:70]} ({f.visibility})")


if __name__ == "__main__":
    main()
