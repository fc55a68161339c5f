"""SQLite through aiosqlite in one trip to its thread per statement (instead of four).

SQLAlchemy's aiosqlite adapter makes four round trips to aiosqlite's worker thread for every statement (open a
cursor, execute, fetch every row, close the cursor), each a queue put, a thread wake-up and an event-loop
wake-up through its self-pipe. On a busy two-core machine one trip costs ~0.1 ms of CPU across both threads,
and a round's ~60 statements (and ~13 ``BEGIN``s, themselves statements) paid for ~250 of them. The cursor
here runs the whole statement (cursor, execute, description, rows, row count, last row id, close) as one
function in that thread: one trip. Everything else (transactions, errors, the pool) is SQLAlchemy's own
aiosqlite dialect, unchanged; :func:`ledger.store.db.create_engine` hands it this DBAPI module
(``create_async_engine(..., module=...)``). Server-side (streaming) cursors keep SQLAlchemy's cursor.
"""

from __future__ import annotations

import collections
import sqlite3
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import EMPTY_DICT
from sqlalchemy.util.concurrency import await_


def _run(conn: sqlite3.Connection, operation: str, parameters: Any, many: bool) -> tuple[Any, ...]:
    """In aiosqlite's thread: the statement's description, rows, row count and last row id."""
    cur = conn.cursor()
    try:
        if many:
            cur.executemany(operation, parameters)
        elif parameters is None:
            cur.execute(operation)
        else:
            cur.execute(operation, parameters)
        description = cur.description
        rows = cur.fetchall() if description else ()
        return description, rows, cur.rowcount, cur.lastrowid
    finally:
        cur.close()


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """A buffered cursor whose ``execute`` is one call into aiosqlite's thread (no aiosqlite cursor kept)."""

    __slots__ = ("_description", "_lastrowid", "_rowcount")

    def __init__(self, adapt_connection: Any) -> None:
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> int:
        return self._lastrowid  # type: ignore[return-value]

    @property
    def arraysize(self) -> int:
        return 1

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        pass

    async def _async_soft_close(self) -> None:
        return  # nothing is open in the thread: the rows are already here

    def close(self) -> None:
        self._rows.clear()

    def setinputsizes(self, *inputsizes: Any) -> None:
        return None

    def nextset(self) -> None:
        return None

    async def _call(self, operation: Any, parameters: Any, many: bool) -> None:
        async with self._adapt_connection._execute_mutex:
            conn = self._connection
            description, rows, rowcount, lastrowid = await conn._execute(
                _run, conn._conn, operation, parameters, many
            )
        self._description, self._rowcount, self._lastrowid = description, rowcount, lastrowid
        self._rows = collections.deque(rows)

    async def _execute_async(self, operation: Any, parameters: Any) -> Any:
        await self._call(operation, parameters, False)
        return self

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> Any:
        await self._call(operation, seq_of_parameters, True)
        return self


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ()

    _cursor_cls = OneTripCursor


class OneTripDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """SQLAlchemy's aiosqlite DBAPI shim, whose connections make :class:`OneTripCursor` cursors."""

    def connect(self, *arg: Any, **kw: Any) -> AsyncAdapt_aiosqlite_connection:
        creator_fn = kw.pop("async_creator_fn", None)
        connection = creator_fn(*arg, **kw) if creator_fn else self.aiosqlite.connect(*arg, **kw)
        if not creator_fn:
            connection._thread.daemon = True  # as SQLAlchemy's shim does (aiosqlite >= 0.22)
        return OneTripConnection(self, await_(connection))


def dbapi() -> OneTripDBAPI:
    """The DBAPI module to give ``create_async_engine(..., module=...)`` for a ``sqlite+aiosqlite`` URL."""
    return OneTripDBAPI(aiosqlite, sqlite3)


__all__ = ["OneTripCursor", "dbapi"]
