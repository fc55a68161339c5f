"""Alembic environment: runs on the connection handed over by ``ledger.store.db.init_db`` (or a CLI URL)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from ledger.store import models

target_metadata = models.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_from_url(url: str) -> None:
    from ledger.store.db import create_engine

    async def go() -> None:
        engine = create_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(_run)
        await engine.dispose()

    asyncio.run(go())


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    # `alembic -c ledger/store/alembic.ini -x url=postgresql+asyncpg://... upgrade head`
    url = context.get_x_argument(as_dictionary=True).get("url") or context.config.get_main_option(
        "sqlalchemy.url"
    )
    _run_from_url(url or "sqlite+aiosqlite:///tablekeeper.db")
