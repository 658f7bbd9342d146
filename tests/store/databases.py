"""The databases that store and server tests run against: SQLite files and PostgreSQL.

PostgreSQL comes from `HRAJ_TEST_POSTGRES_URL` (`make test` starts a server through
scripts/postgres.sh). Without it the PostgreSQL variants skip on a developer's
machine but FAIL in CI (`CI=true`), so a broken set-up can never pass unnoticed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

POSTGRES_ENV = "HRAJ_TEST_POSTGRES_URL"
BACKENDS = ["sqlite", "postgres"]


def postgres_url_or_fail() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        message = f"{POSTGRES_ENV} is not set: run `make test`, which starts PostgreSQL via scripts/postgres.sh"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    return url


def _worker_database(url: str) -> str:
    """A database of its own for each pytest-xdist worker, created on first use."""
    worker = re.sub(r"\W", "", os.environ.get("PYTEST_XDIST_WORKER", "main"))
    parsed = sa.make_url(url).set(drivername="postgresql+psycopg")
    name = f"{parsed.database}_{worker}"
    admin = sa.create_engine(parsed, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        exists = connection.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first()
        if exists is None:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return parsed.set(database=name).render_as_string(hide_password=False)


def _empty_postgres(url: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP SCHEMA public CASCADE"))
        connection.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()


def database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """An empty database of `backend` for one test."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'hraj.db'}"
        return
    url = _worker_database(postgres_url_or_fail())
    _empty_postgres(url)
    yield url
