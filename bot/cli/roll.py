"""``tablekeeper roll EXPR [--seed N] [--json]``: roll dice with the rules engine's seeded roller.

Without ``--seed`` a random seed is drawn and printed, so any roll can be replayed exactly.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli import CliError


def add_parser(subparsers: Any) -> None:
    """Register ``roll`` and its arguments."""
    parser = subparsers.add_parser(
        "roll",
        help="roll dice (d20 syntax: 1d20+5, 4d6kh3, 2d20kl1)",
        description="Roll a dice expression. Prints the total and the breakdown, and the seed to replay it.",
    )
    parser.add_argument("expression", metavar="EXPR", help="dice expression, e.g. 1d20+5 or 4d6kh3")
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible roll")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Roll ``args.expression``; print the result; raise CliError for a bad expression."""
    import random

    from rules.dice import roll
    from rules.errors import DiceError
    from rules.fairness import new_seed

    seed = args.seed if args.seed is not None else new_seed()
    try:
        result = roll(args.expression, random.Random(seed))
    except DiceError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        payload = {
            "expression": result.expression,
            "total": result.total,
            "breakdown": result.breakdown,
            "dice": [die.model_dump(mode="json") for die in result.dice],
            "seed": seed,
        }
        print(json.dumps(payload, separators=(",", ":")))
    else:
        print(f"{result.total}  ({result.breakdown})")
        print(f"seed {seed}: replay with tablekeeper roll '{result.expression}' --seed {seed}")
    return 0
