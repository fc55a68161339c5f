"""``tablekeeper export``: write one campaign of a ledger database as a scenario file (history included).

``export --db FILE --campaign ID --out FILE`` reads the campaign through the ledger (as its GM sees it) and
writes scenario TOML that loads back to the same ledger (``ledger.scenario.export``): ``tablekeeper play
--scenario`` or ``/campaign start world:`` start from it. ``--db`` is a SQLite file or a database URL. Exit 0
when the file loads back, 1 when it was written but the scenario reader would refuse it (the problems on
stderr), 2 for bad input (no such database or campaign).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bot.cli import CliError


def add_parser(subparsers: Any) -> None:
    """Register ``export``."""
    parser = subparsers.add_parser("export", help="write a campaign of a ledger as a scenario file")
    parser.add_argument("--db", required=True, help="the ledger: a SQLite file or a database URL")
    parser.add_argument("--campaign", required=True, type=int, help="the campaign's number in the ledger")
    parser.add_argument("--out", required=True, help="the scenario .toml file to write")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Export the campaign; return the exit code."""
    db = str(args.db)
    if "://" not in db:
        if not Path(db).is_file():
            raise CliError(f"no ledger database at {db}")
        db = f"sqlite+aiosqlite:///{Path(db).resolve()}"
    export = asyncio.run(_export(db, int(args.campaign)))
    out = Path(args.out)
    try:
        out.write_text(export.text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}: {export.events} events in {export.entries} history entries")
    if export.problems:
        print("\n".join(export.problems), file=sys.stderr)
        return 1
    return 0


async def _export(url: str, campaign_id: int) -> Any:
    from ledger.errors import CampaignNotFound
    from ledger.scenario.export import ExportError, export_campaign
    from ledger.store.db import create_engine, session_factory

    engine = create_engine(url)
    try:
        async with session_factory(engine)() as session:
            try:
                return await export_campaign(session, campaign_id=campaign_id)
            except CampaignNotFound:
                raise CliError(f"no campaign {campaign_id} in that ledger") from None
            except ExportError as exc:
                raise CliError(f"campaign {campaign_id} cannot be exported: {exc}") from None
    finally:
        await engine.dispose()
