"""Engines, sessions and schema upgrades for the ledger (SQLite file or PostgreSQL, same code).

SQLite: WAL, foreign keys ON, a busy timeout; writers (see :func:`begin_write`) open their transaction with
``BEGIN IMMEDIATE`` so two writers queue instead of failing with "database is locked" when one upgrades a read
lock, while readers use a plain deferred ``BEGIN`` and never hold up a writer.
PostgreSQL: asyncpg; writers serialise per campaign on the campaign row (see ``ledger.service``).
The schema is owned by Alembic (``ledger/store/migrations``); :func:`init_db` upgrades to head.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
#: Connection execution option that makes a SQLite transaction start with BEGIN IMMEDIATE (a writer).
WRITE_OPTION = "tablekeeper_write"
#: Connection execution option for ONE writing statement that is its own transaction: on SQLite no ``BEGIN``
#: is sent, so the statement commits by itself (SQLite's autocommit takes the write lock and queues on the
#: busy timeout exactly as ``BEGIN IMMEDIATE`` does); one statement and one thread trip fewer per write.
ALONE_OPTION = "tablekeeper_alone"
_UPGRADE_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)
_MIGRATION_LOCK_KEY = 0x7461626C  # "tabl": the advisory lock schema upgrades take on PostgreSQL


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (``sqlite+aiosqlite:///path`` or ``postgresql+asyncpg://...``).

    Plain ``sqlite:///`` and ``postgresql://`` URLs are upgraded to their async drivers.
    """
    if url.startswith("sqlite:"):
        url = "sqlite+aiosqlite:" + url[len("sqlite:") :]
    elif url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
    if url.startswith("sqlite"):
        from ledger.store.sqlite_driver import dbapi

        connect_args = {"timeout": 60.0, **kwargs.pop("connect_args", {})}
        if url.startswith("sqlite+aiosqlite:"):
            kwargs.setdefault("module", dbapi())  # one trip to aiosqlite's thread per statement
        engine = create_async_engine(url, connect_args=connect_args, **kwargs)
        _tune_sqlite(engine)
        return engine
    kwargs.setdefault("pool_pre_ping", False)
    return create_async_engine(url, **kwargs)


def _tune_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from the driver so BEGIN IMMEDIATE below is the only BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA cache_size=-32000")  # 32 MB: a 100k-event ledger's hot indexes stay in memory
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # Writers take the write lock up front (and queue on the busy timeout); readers never block anyone.
        options = conn.get_execution_options()
        if options.get(ALONE_OPTION):
            return  # one statement, committed by SQLite on its own (see ALONE_OPTION)
        immediate = options.get(WRITE_OPTION)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _alembic_config(connection: Connection | None = None) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _upgrade(connection: Connection, revision: str) -> None:
    from alembic import command

    command.upgrade(_alembic_config(connection), revision)


async def init_db(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database schema to ``revision`` (default: the newest) with Alembic.

    Idempotent, and safe when several processes start at once (they queue on a lock; the first upgrades).
    """
    # Alembic keeps its migration context in module globals: two upgrades interleaved on one event loop would
    # trample each other, so upgrades in one process take turns (other processes wait on the database lock).
    loop = asyncio.get_running_loop()
    lock = _UPGRADE_LOCKS.setdefault(loop, asyncio.Lock())
    async with lock, engine.connect() as conn:
        conn = await conn.execution_options(**{WRITE_OPTION: True})
        await conn.begin()
        if conn.dialect.name == "postgresql":
            # Several bot processes (shards) may start at once: one upgrades, the others wait and find head.
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY})
        await conn.run_sync(_upgrade, revision)
        await conn.commit()


async def begin_write(session: AsyncSession) -> None:
    """Start a writing transaction on ``session`` (ending any read-only one it had open).

    Work already pending in the session is committed first. Every ledger write function calls this before
    its first statement; on SQLite it takes the write lock up front (BEGIN IMMEDIATE).
    """
    if session.in_transaction():
        await session.commit()
    await session.connection(execution_options={WRITE_OPTION: True})


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """A factory of sqlmodel ``AsyncSession``s bound to ``engine`` (rows stay usable after commit)."""
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


@asynccontextmanager
async def ledger_session(engine: AsyncEngine) -> AsyncIterator[AsyncSession]:
    """``async with ledger_session(engine) as s:`` a session that is rolled back if left uncommitted."""
    async with session_factory(engine)() as session:
        yield session
