"""``tablekeeper scenario``: check a scenario file, or print the JSON Schema of the format.

``scenario validate FILE`` prints ``ok: <counts>`` and exits 0, prints every problem (one per line) and exits
1 when the file is TOML but not a valid scenario, and exits 2 when the file cannot be read at all.
``scenario schema`` prints the JSON Schema (for editors and other tools).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Register ``scenario validate`` and ``scenario schema``."""
    parser = subparsers.add_parser("scenario", help="validate a scenario file or print its JSON Schema")
    actions = parser.add_subparsers(dest="scenario_command", metavar="ACTION")
    actions.required = True
    validate = actions.add_parser("validate", help="check a scenario TOML file and replay its history")
    validate.add_argument("file", metavar="FILE", help="the scenario .toml file")
    actions.add_parser("schema", help="print the JSON Schema of the scenario format")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; return the exit code (0 ok, 1 invalid scenario, 2 unreadable file)."""
    from ledger.scenario.format import ScenarioError, ScenarioUnreadable, scenario_json_schema
    from ledger.scenario.reading import load_scenario

    if args.scenario_command == "schema":
        print(json.dumps(scenario_json_schema(), indent=2, sort_keys=True))
        return 0
    try:
        scenario = load_scenario(args.file)
    except ScenarioUnreadable as exc:
        print(f"tablekeeper: {exc}", file=sys.stderr)
        return 2
    except ScenarioError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    counts = ", ".join(f"{n} {name}" for name, n in scenario.counts().items())
    print(
        f"ok: {scenario.campaign.name!r} at session {scenario.campaign.current_session}: {counts}",
    )
    return 0
