"""The database engine of a store URL: SQLite with the pragmas that keep every move, or PostgreSQL.

One place decides which databases the store runs on and how their connections are set
up; a URL of any other kind is refused with a message that says what is accepted.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import ArgumentError

from hraj.store.errors import StoreError


def _sqlite_pragmas(synchronous: str) -> Callable[[DBAPIConnection, object], None]:
    def on_connect(dbapi_connection: DBAPIConnection, _record: object) -> None:
        cursor = dbapi_connection.cursor()
        # WAL lets readers go on while the writer commits. FULL syncs the log at every
        # commit, so an acknowledged move survives even a power cut; NORMAL survives a
        # crash of the process (what the recovery test does) but not of the machine.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()

    return on_connect


SYNCHRONOUS = ("FULL", "NORMAL")


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    """An engine for a SQLite or PostgreSQL URL; raises StoreError for anything else."""
    try:
        parsed = sa.make_url(url)
    except ArgumentError:
        raise StoreError("The database URL {url} is not a valid URL.", url=repr(url)) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            folder = Path(database).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
                # The file holds the live seeds of every room: readable by its owner only.
                # SQLite gives its -wal and -shm files the same permissions.
                os.close(os.open(Path(database).expanduser(), os.O_WRONLY | os.O_CREAT, 0o600))
            except OSError as error:
                raise StoreError(
                    "Cannot create the folder {folder} for the database: {why}.", folder=str(folder), why=error.strerror
                ) from None
        if synchronous not in SYNCHRONOUS:
            raise StoreError(
                "SQLite synchronous must be one of {known}, not {given}.",
                known=", ".join(SYNCHRONOUS),
                given=repr(synchronous),
            )
        engine = sa.create_engine(parsed)
        sa.event.listen(engine, "connect", _sqlite_pragmas(synchronous))
        return engine
    if backend == "postgresql":
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        return sa.create_engine(parsed, pool_pre_ping=True)
    raise StoreError("The database URL must be sqlite:/// or postgresql://, not {driver}://.", driver=parsed.drivername)
