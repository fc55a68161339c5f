"""The ``tablekeeper`` command line.

Every subcommand lives in its own module under ``bot.cli`` with two functions:
``add_parser(subparsers)`` registers its arguments and ``run(args) -> int`` does the work.
The modules are imported lazily by name, so ``tablekeeper roll`` never pays for chromadb or discord.
Bad input ends with one line on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import NoReturn

from rules.errors import DataError, InternalError

# Subcommand name -> module under bot.cli. Order is the order shown in --help.
SUBCOMMANDS: dict[str, str] = {
    "demo": "bot.cli.demo",
    "play": "bot.cli.play",
    "run": "bot.cli.run",
    "roll": "bot.cli.roll",
    "check": "bot.cli.check",
    "recall": "bot.cli.recall",
    "scenario": "bot.cli.scenario",
    "export": "bot.cli.export",
}


class CliError(Exception):
    """A user-facing failure: its message is printed as one line and the exit code is 2."""


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="tablekeeper",
        description="A game master bot that never forgets: rules, ledger, checked narration.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug output to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module_name in SUBCOMMANDS.values():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # not built yet
        module.add_parser(sub)
    return parser


#: Seconds a Ctrl-C leaves the process to close its table before it exits regardless.
INTERRUPT_GRACE_SECONDS = 10.0


def run() -> NoReturn:
    """The process entry (the ``tablekeeper`` script and ``python -m bot``): :func:`main`, then exit.

    A Ctrl-C stops the command (a KeyboardInterrupt: the running table is closed on the way out) and the
    process then ends at once with 130. If closing does not finish within :data:`INTERRUPT_GRACE_SECONDS`,
    the process ends anyway: under load, a tick cancelled in the middle of a database call could leave the
    close waiting, and aiosqlite's worker threads are not daemon threads, so the first Ctrl-C did not end
    ``tablekeeper play`` in two full-suite runs. Every write is transactional, so nothing is lost."""
    finished = threading.Event()

    def give_up() -> None:
        if not finished.is_set():
            print("tablekeeper: interrupted", file=sys.stderr, flush=True)
            os._exit(130)

    def on_interrupt(signum: int, frame: object) -> None:
        timer = threading.Timer(INTERRUPT_GRACE_SECONDS, give_up)
        timer.daemon = True
        timer.start()
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C: at once
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    code = main()
    finished.set()
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    raise SystemExit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen subcommand; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.run(args) or 0)
    except CliError as exc:
        print(f"tablekeeper: {exc}", file=sys.stderr)
        return 2
    except DataError as exc:  # the bundled or a user's rules data is broken: name the file, never skip it
        print(f"tablekeeper: rules data is invalid: {exc}", file=sys.stderr)
        return 2
    except InternalError as exc:  # a bug of ours: the traceback is in the log under the error id
        print(f"tablekeeper: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tablekeeper: interrupted", file=sys.stderr)
        return 130
