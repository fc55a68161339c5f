"""``tablekeeper check --scenario FILE --narration FILE [--json]``: check a narration against a scenario.

The scenario is replayed (:func:`ledger.scenario.replay.final_world`, GM view, so secrets are known and a
leak can be
told from a contradiction) into a :class:`ledger.check.snapshot.WorldSnapshot`, and the narration is checked
as the
party channel would see it. Exit 0 when the narration is clean, 1 when it contradicts the ledger or leaks a
secret, 2 on bad input (so a script or CI step can gate on it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bot.cli import CliError


def add_parser(subparsers: Any) -> None:
    """Register ``check`` and its arguments."""
    parser = subparsers.add_parser(
        "check",
        help="check a narration against a scenario's ledger",
        description="Split a narration into claims and check each against the world of a scenario file.",
        epilog="exit status: 0 clean, 1 conflict (a contradiction or a leak), 2 bad input",
    )
    parser.add_argument("--scenario", required=True, metavar="FILE", help="scenario file (TOML)")
    parser.add_argument("--narration", required=True, metavar="FILE", help="text file with the narration")
    parser.add_argument(
        "--audience",
        default="party",
        help="who will read it: public, party (the channel, default), player:<id> or gm",
    )
    parser.add_argument(
        "--location",
        metavar="ID",
        default=None,
        help="the scene's location id (default: where most living PCs stand, else the starting location)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument(
        "--explain", action="store_true", help="with --json: add each claim's form, reason and modality"
    )
    parser.set_defaults(run=run)


def _read(path: str, what: str) -> str:
    p = Path(path)
    if not p.is_file():
        raise CliError(f"{what} file not found: {path}")
    try:
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {what} file {path}: {exc}") from None


def _snapshot(path: str, location: str | None = None) -> Any:
    """Load the scenario (TOML) or, for a ``.json`` file, a checker corpus world."""
    from ledger.check.snapshot import SnapshotError, load_world, snapshot_from_world

    _read(path, "scenario")
    if path.endswith(".json"):
        try:
            return load_world(path)
        except SnapshotError as exc:
            raise CliError(f"invalid world {path}: {exc}") from None
    from ledger.scenario.format import ScenarioError
    from ledger.scenario.reading import load_scenario
    from ledger.scenario.replay import final_world

    try:
        scenario = load_scenario(path)
        world = final_world(scenario, "gm")
    except ScenarioError as exc:
        raise CliError(f"invalid scenario {path}: {exc.summary()}") from None
    except (OSError, ValueError) as exc:
        raise CliError(f"invalid scenario {path}: {exc}") from None
    scene = None
    if location is not None:
        from ledger.check.snapshot import scene_at

        if location not in world.locations:
            raise CliError(f"unknown location {location!r} in {path}")
        scene = scene_at(world, location)
    return snapshot_from_world(world, scenario=scenario, scene=scene)


def run(args: argparse.Namespace) -> int:
    """Check the narration; print the report; raise CliError for unreadable or invalid input."""
    from ledger.check.judge import check

    text = _read(args.narration, "narration")
    if args.audience not in ("public", "party", "gm") and not args.audience.startswith("player:"):
        raise CliError(f"unknown audience {args.audience!r}: use public, party, player:<id> or gm")
    snapshot = _snapshot(args.scenario, args.location)
    report = check(text, snapshot, audience=args.audience)
    status = 0 if report.verdict == "clean" else 1
    if args.json:
        print(json.dumps(report.to_dict(explain=args.explain), ensure_ascii=False))
        return status
    print(f"verdict: {report.verdict}")
    for v in report.claims:
        mark = {"supported": "ok ", "contradicted": "XX ", "unknown": " ? "}[v.verdict]
        extra = f"  <- {v.refuted_by}: {v.reason}" if v.verdict == "contradicted" else ""
        print(f"  {mark} {v.claim.label():50s} {v.claim.text[:60]!r}{extra}")
    for lk in report.leaks:
        print(f"  LEAK {lk.record} ({lk.visibility}): {lk.text!r}")
    if report.new_entities:
        print("new names (not in the ledger): " + ", ".join(report.new_entities))
    return status
