"""Backups an operator can restore: `hraj backup` and `hraj restore` of a SQLite database.

A backup is a copy of the database made with SQLite's online backup (the server may
run meanwhile) that also holds the server secret, in a table of its own
(`hraj_backup`): the stored token hashes are HMACs under that secret, so a copy
without it would answer 401 to every seat. The secret is the one the server uses: the
one given (`--secret`, `HRAJ_SECRET`), else the file beside the database; a backup
that cannot find it says so loudly.

`restore` brings a backup back as a new database, puts the secret beside it (where the
server finds it when none is given), brings its schema up to date, and replays every
room from its seed: a backup whose records do not verify is not restored at all.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

import hraj
from hraj.core.errors import HrajError, InvalidRecord
from hraj.server.fairness import replay_with_seed, room_commitment
from hraj.server.settings import secret_file
from hraj.store import RoomData, Store, StoreError
from hraj.store.db import OVER

#: The table of a backup that holds the server secret (dropped again by a restore).
BACKUP_TABLE = "hraj_backup"


class Missing(StoreError):
    """The database or backup named does not exist (a mistyped path: nothing was done)."""


@dataclass(frozen=True, slots=True)
class Restored:
    rooms: int
    finished: int
    secret: Path | None
    """Where the secret was put; None when the backup held none."""


def sqlite_path(database_url: str) -> Path:
    """The file of a SQLite URL; StoreError for PostgreSQL (its own tools back it up)."""
    url = sa.make_url(database_url)
    if url.get_backend_name() != "sqlite":
        raise StoreError("Back up a PostgreSQL database with pg_dump (see docs/deploy.md).")
    if not url.database or url.database == ":memory:":
        raise StoreError("A database in memory has nothing to back up or restore.")
    return Path(url.database).expanduser().resolve()


def known_secret(database_url: str, given: str | None) -> str | None:
    """The secret a server on this database uses: the one given, else the file beside it."""
    if given:
        return given
    path = secret_file(database_url)
    if path is None or not path.is_file():
        return None
    return path.read_text(encoding="ascii").strip() or None


def _is_hraj(path: Path) -> bool:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
            names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return False
    return {"rooms", "events", "seats"} <= names


def backup(database_url: str, target: Path, secret: str | None) -> None:
    """Copy the database to `target` (a new file, 0600) with `secret` inside."""
    source = sqlite_path(database_url)
    if not source.is_file():
        raise Missing("There is no database at {path}; nothing was backed up.", path=str(source))
    if not _is_hraj(source):
        raise StoreError("{path} is not a hraj database.", path=str(source))
    store = Store(database_url)
    try:
        store.backup(target)
    finally:
        store.close()
    try:
        with contextlib.closing(sqlite3.connect(target)) as copy, copy:
            copy.execute(f"CREATE TABLE {BACKUP_TABLE} (secret TEXT, made_at TEXT NOT NULL)")
            copy.execute(f"INSERT INTO {BACKUP_TABLE} VALUES (?, ?)", (secret, dt.datetime.now(dt.UTC).isoformat()))
    except sqlite3.Error as error:
        target.unlink(missing_ok=True)
        raise StoreError("Cannot write the backup {path}: {why}.", path=str(target), why=str(error)) from None


def restore(source: Path, database_url: str) -> Restored:
    """Bring the backup `source` back as the new database of `database_url`; see the module."""
    if not source.is_file():
        raise Missing("There is no backup at {path}.", path=str(source))
    if not _is_hraj(source):
        raise StoreError("{path} is not a backup of a hraj database.", path=str(source))
    target = sqlite_path(database_url)
    if target.exists():
        raise StoreError(
            "{path} exists already; stop the server and move it away, or restore into a new file.", path=str(target)
        )
    kept = secret_file(database_url)
    target.parent.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        made.append(target)
        with (
            contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as backup_copy,
            contextlib.closing(sqlite3.connect(target)) as restored,
        ):
            backup_copy.backup(restored)
            secret = _take_secret(restored)
        if secret is not None and kept is not None:
            if kept.exists():
                if kept.read_text(encoding="ascii").strip() != secret:
                    raise StoreError("{path} holds another secret than the backup; move it away first.", path=str(kept))
            else:
                descriptor = os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                made.append(kept)
                with os.fdopen(descriptor, "w", encoding="ascii") as file:
                    file.write(secret + "\n")
        rooms, finished = _check(database_url)
    except BaseException as error:
        for path in reversed(made):
            path.unlink(missing_ok=True)
        if isinstance(error, (sqlite3.Error, OSError)):
            why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise StoreError("Cannot restore {path}: {why}.", path=str(source), why=why) from None
        raise
    return Restored(rooms, finished, kept if secret is not None else None)


def _take_secret(connection: sqlite3.Connection) -> str | None:
    """The secret a backup holds (None: made without one), and its table dropped."""
    with connection:
        try:
            row = connection.execute(f"SELECT secret FROM {BACKUP_TABLE}").fetchone()
        except sqlite3.OperationalError:  # a plain copy of a database: no secret inside
            return None
        connection.execute(f"DROP TABLE {BACKUP_TABLE}")
    return None if row is None or not row[0] else str(row[0])


def _check(database_url: str) -> tuple[int, int]:
    """Migrate the restored database and replay every room from its seed (as `hraj verify`
    does, and for the rooms in play too); the rooms and the finished ones."""
    store = Store(database_url)
    try:
        store.migrate()
        ids = store.room_ids()
        finished = 0
        for room_id in ids:
            data = store.load_room(room_id)
            if data is None:  # pragma: no cover - the id was just read
                continue
            try:
                _verify(data)
            except HrajError as error:
                raise StoreError("Room {room} of the backup does not verify: {why}", room=room_id, why=error) from None
            finished += data.status == OVER
        return len(ids), finished
    finally:
        store.close()


def _verify(data: RoomData) -> None:
    """Raise InvalidRecord unless the stored room is what its seed and rules make it."""
    if room_commitment(data.seed, data.id, data.dice) != data.commitment:
        raise InvalidRecord(
            "The revealed seed does not match the commitment {commitment} of room {room}.",
            commitment=data.commitment,
            room=data.id,
        )
    options = {name: value for name, value in data.options.items() if not name.startswith("_")}
    state, _ = replay_with_seed(hraj.game(data.game, **options), data.events, data.seed, data.dice)
    if data.status == OVER and not state.is_over:
        raise InvalidRecord(
            "The record is unfinished: the game is not over after its {count} events.", count=len(data.events)
        )
