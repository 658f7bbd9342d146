"""The claim of the one server process that writes a database.

Rooms live in the memory of the process that serves them, so two processes on one
database would each write the same rooms. The claim is an exclusive lock held for as
long as the process lives (a lock file beside a SQLite database, a session advisory
lock on PostgreSQL); the operating system or PostgreSQL frees it when the process
dies, even by SIGKILL.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from hraj.store.errors import StoreError

#: PostgreSQL advisory lock key of the serving process ("hraj" in ASCII).
WRITER_LOCK_KEY = 0x6872616A


class WriterClaim:
    """The claim of one engine's database by this process (`Store.claim_writer`)."""

    def __init__(self, engine: Engine, safe_url: str) -> None:
        self.engine = engine
        self.safe_url = safe_url
        self._writer: bool | int | sa.Connection | None = None
        """What holds the claim: True (a database in memory), the lock file's descriptor, or
        the PostgreSQL session that holds the advisory lock."""

    def claim(self, wait_s: float) -> None:
        """Become the one server process that writes the database, or raise StoreError;
        a restarting server waits up to `wait_s` seconds for the previous one to finish stopping."""
        deadline = time.monotonic() + wait_s
        while not self._try_claim():
            if time.monotonic() >= deadline:
                raise StoreError(
                    "Another hraj server is serving the database {url}; only one process may serve it.",
                    url=self.safe_url,
                )
            time.sleep(0.2)

    def _try_claim(self) -> bool:
        if self.engine.dialect.name == "sqlite":
            database = self.engine.url.database
            if not database or database == ":memory:":
                self._writer = True
                return True
            path = Path(database).expanduser()
            path = path.with_name(path.name + ".lock")
            try:
                descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as error:
                raise StoreError("Cannot lock {path}: {why}.", path=str(path), why=error.strerror) from None
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(descriptor)
                return False
            self._writer = descriptor
            return True
        try:
            connection = self.engine.connect()
        except SQLAlchemyError as error:
            raise StoreError("Cannot open the database {url}: {why}", url=self.safe_url, why=str(error)) from None
        try:
            got = connection.execute(sa.text("SELECT pg_try_advisory_lock(:key)"), {"key": WRITER_LOCK_KEY}).scalar()
            connection.commit()
        except SQLAlchemyError as error:
            connection.close()
            raise StoreError("Cannot open the database {url}: {why}", url=self.safe_url, why=str(error)) from None
        if not got:
            connection.close()
            return False
        self._writer = connection
        return True

    def release(self) -> None:
        writer, self._writer = self._writer, None
        if isinstance(writer, int) and not isinstance(writer, bool):
            os.close(writer)  # closing the file frees its lock
        elif isinstance(writer, sa.Connection):
            with contextlib.suppress(SQLAlchemyError):
                writer.close()  # the session ends and PostgreSQL frees its advisory lock
