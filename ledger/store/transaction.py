"""One write of the table's paperwork: take the write lock, commit on success, roll back on failure.

``async with WriteTransaction(session):`` wraps every paperwork write (:mod:`.campaigns`, :mod:`.rounds`,
:mod:`.outbox`, :mod:`.disputes`); a database integrity error becomes :class:`~ledger.errors.InvalidChange`
with a one-line message, any other LedgerError passes through after the rollback.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import InvalidChange
from ledger.store.db import begin_write


async def _commit(session: AsyncSession, what: str) -> None:
    try:
        await session.commit()
    except IntegrityError as err:
        await session.rollback()
        raise InvalidChange(f"the ledger refused the {what}: {str(err.orig).splitlines()[0]}") from None


class WriteTransaction:
    """``async with WriteTransaction(session):`` commit on success, roll back and re-raise on failure.

    ``what`` names the write in the refusal's one line: ``the ledger refused the <what>: <reason>``.
    """

    def __init__(self, session: AsyncSession, what: str = "change") -> None:
        self.session = session
        self.what = what

    async def __aenter__(self) -> AsyncSession:
        await begin_write(self.session)
        return self.session

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            await _commit(self.session, self.what)
            return
        await self.session.rollback()
        if isinstance(exc, IntegrityError):
            raise InvalidChange(
                f"the ledger refused the {self.what}: {str(exc.orig).splitlines()[0]}"
            ) from None


__all__ = [
    "WriteTransaction",
]
