"""The online backup of a SQLite database: a consistent copy while the server may be writing it.

PostgreSQL is backed up with its own tools (`pg_dump`); see docs/deploy.md.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import Engine

from hraj.store.errors import StoreError


def backup_sqlite(engine: Engine, target: Path) -> None:
    """Copy the engine's SQLite database to `target`, a new file, with SQLite's online backup."""
    if engine.dialect.name != "sqlite":
        raise StoreError("Back up a PostgreSQL database with pg_dump (see docs/deploy.md).")
    if target.exists():
        raise StoreError("{path} exists already; the backup needs a new file.", path=str(target))
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(descriptor)
        source = engine.raw_connection()
        try:
            driver = source.driver_connection
            if not isinstance(driver, sqlite3.Connection):
                raise sqlite3.NotSupportedError("the SQLite driver is not Python's sqlite3")
            destination = sqlite3.connect(target)
            try:
                driver.backup(destination)
            finally:
                destination.close()
        finally:
            source.close()
    except (OSError, sqlite3.Error) as error:
        with contextlib.suppress(OSError):
            if target.exists() and target.stat().st_size == 0:
                target.unlink()
        raise StoreError("Cannot write the backup {path}: {why}.", path=str(target), why=str(error)) from None
