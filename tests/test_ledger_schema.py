"""The schema is Alembic's: an empty database upgrades to head and then matches the models exactly."""

from __future__ import annotations

import asyncio
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from ledger.store import models
from ledger.store.db import create_engine, init_db


def _head() -> str:
    """The newest migration's revision, read from the migration scripts."""
    from pathlib import Path

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(models.__file__).parent / "migrations"))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def _diff(conn: Connection) -> list[Any]:
    """What autogenerate would still write: empty when migrations and models agree."""
    ctx = MigrationContext.configure(conn, opts={"compare_type": True})
    return list(compare_metadata(ctx, models.metadata))


async def test_ledger_empty_database_upgrades_to_head_without_drift(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await init_db(engine)
        await init_db(engine)  # idempotent: a restart upgrades nothing
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            assert {t.name for t in models.metadata.sorted_tables} <= tables
            assert "alembic_version" in tables
            assert await conn.run_sync(_diff) == []
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
            assert version == _head()
    finally:
        await engine.dispose()


async def test_ledger_sqlite_runs_wal_with_foreign_keys(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    try:
        await init_db(engine)
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
    finally:
        await engine.dispose()


async def test_ledger_processes_starting_at_once_upgrade_once(database_url: str) -> None:
    engines = [create_engine(database_url) for _ in range(3)]
    try:
        await asyncio.gather(*[init_db(e) for e in engines])
        async with engines[0].connect() as conn:
            assert await conn.run_sync(_diff) == []
    finally:
        for e in engines:
            await e.dispose()
