"""Core reads for the ORM session's hot lookups (the campaign of a channel, its members, its open round).

Run through ``session.execute`` with an ORM entity, a lookup costs ~0.5-0.8 ms more CPU than the same SELECT
as a prebuilt Core statement on the session's connection: the ORM compiles its state, builds an instance and
files it in the identity map, all to be copied into a view at once. :func:`core_rows` keeps what the ORM
query did that matters to a caller: the session's pending changes are flushed first (autoflush), so a row
the caller added or changed in this session is read as it left it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


async def core_rows(session: Any, stmt: Any, params: Mapping[str, Any]) -> list[Any]:
    """The rows (attribute access by column name) of the Core ``stmt`` with ``params``, on the connection of
    ``session`` (an async ORM session), after flushing its pending changes as an ORM query would."""
    sync = getattr(session, "sync_session", session)
    if sync.autoflush and (sync.new or sync.dirty or sync.deleted):
        await session.flush()
    conn = await session.connection()
    return list((await conn.execute(stmt, dict(params))).all())


__all__ = ["core_rows"]
