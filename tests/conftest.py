"""Shared fixtures: a fresh database for each test on SQLite, and on PostgreSQL when one is configured.

Set ``TABLEKEEPER_TEST_DATABASE_URL`` (``.ci/run`` does when ``pg_isready`` answers) to run every test that
takes ``database_url`` against PostgreSQL too. Each PostgreSQL test gets its own freshly created database,
dropped afterwards, so tests never see each other's rows. Without it a developer's run skips the PostgreSQL
variants with the reason; on CI (``CI=true``) they fail instead, so CI never passes without PostgreSQL.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests.fake_llm import fake_llm  # noqa: F401  (the local OpenAI-compatible server fixture)

PG_ENV = "TABLEKEEPER_TEST_DATABASE_URL"

# Property tests check behaviour, not speed: Hypothesis's default 200 ms deadline per example fails them on a
# loaded machine, so no test in this suite has one unless it sets its own.
hypothesis_settings.register_profile("tablekeeper", deadline=None)
hypothesis_settings.load_profile("tablekeeper")


def on_ci() -> bool:
    """Whether this run is CI's (``CI=true``, as CI services set it; ``1`` and ``yes`` count too)."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def _pg_admin_dsn() -> str | None:
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        return None
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database URL: a SQLite file in ``tmp_path``, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'ledger.store.db'}"
        return
    dsn = _pg_admin_dsn()
    if dsn is None:
        if on_ci():
            pytest.fail(f"CI=true but {PG_ENV} is not set: CI must run the PostgreSQL variant (use .ci/run)")
        pytest.skip(f"PostgreSQL not configured: set {PG_ENV} to run this test against a server")
    import asyncpg

    name = f"tk_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base, _, _ = os.environ[PG_ENV].rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        admin = await asyncpg.connect(dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite database URL in ``tmp_path`` (for tests that need only the embedded backend)."""
    return f"sqlite+aiosqlite:///{tmp_path / 'ledger.store.db'}"
