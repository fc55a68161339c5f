"""What several benches share: a courier that delivers nothing and a scratch PostgreSQL database per run.

Imported by the bench scripts (``bench/`` is on their path); not part of the product.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager


class QuietCourier:
    """Delivers into the void (Discord's latency is not the engine's)."""

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        return "1"

    async def send_dm(self, user_id: str, text: str) -> str:
        return "1"


@asynccontextmanager
async def scratch_database(admin_url: str, prefix: str = "bench") -> AsyncIterator[str]:
    """A PostgreSQL database made on the server of ``admin_url`` for this run (its URL), dropped after it."""
    import asyncpg

    dsn = admin_url.replace("postgresql+asyncpg://", "postgresql://", 1)
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield f"{admin_url.rpartition('/')[0]}/{name}"
    finally:
        admin = await asyncpg.connect(dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
