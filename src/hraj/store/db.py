"""The store: create rooms, append to their event logs, and read them back.

Every write is one transaction. `append` takes a batch of rooms at once so that the
server can commit the moves of many rooms with a single commit (group commit); each
part checks the room's version, so two writers can never interleave a room's log.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from hraj.core.errors import HrajError
from hraj.core.game import OutcomeJson
from hraj.core.jsondata import GameOptions
from hraj.core.record import Event
from hraj.store.notices import events_notice, notify
from hraj.store.schema import chat, events, people, rooms, seats
from hraj.store.seeks import mark_paired
from hraj.store.timekeeping import WAITING, ClockChange, DueRow, read_deadlines, write_clocks
from hraj.store.times import utc, utc_now

PLAYING = "playing"
OVER = "over"
#: A room nobody played for a long time: kept, never rebuilt at start, opened on demand.
ARCHIVED = "archived"


#: PostgreSQL advisory lock key of the serving process ("hraj" in ASCII).
WRITER_LOCK_KEY = 0x6872616A
#: PostgreSQL advisory lock key held while the schema is migrated ("hrajm").
MIGRATION_LOCK_KEY = 0x6872616A6D


class StoreError(HrajError):
    """The store cannot be opened or a write conflicts with what is stored (a translatable template)."""


class StaleVersion(StoreError):
    """A room's stored version is not the one a batch starts from (nothing was written)."""


class NotOwner(StaleVersion):
    """The room is owned by another server process now (nothing was written)."""


class SeekTaken(HrajError):
    """A seek that a new room would seat was paired meanwhile (the room was not created);
    not a store failure: the pairing simply tries again."""


class CommitInDoubt(StoreError):
    """The database went away while it was committing: the batches may be stored or not.
    Only a read of the store tells (`Store.holds`); every other failure of `append`
    means that nothing was written."""


class _Stale(Exception):
    """Inside `append`: some room is not at its batch's version (rolls the transaction back)."""


@dataclass(frozen=True, slots=True)
class NewSeat:
    kind: str  # "person" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    gender: str | None = None
    person: str | None = None
    """The person who takes the seat (an account's or a guest's id)."""


@dataclass(frozen=True, slots=True)
class NewRoom:
    id: str
    game: str
    options: GameOptions
    seed: str
    commitment: str
    invite_hash: str
    host_hash: str
    seats: Sequence[NewSeat]
    dice: int = 1
    absent_after: int = 120
    owner: str | None = None
    public: bool = False
    rematch_of: str | None = None
    """The finished room this one is the rematch of: it points here from now on."""
    clock: Mapping[str, object] | None = None
    """The room's clock as the clocks part writes it (None: untimed)."""
    host_seat: int | None = None
    """The seat the room's creator took (its presence is shown in the lobby)."""
    pairs: Sequence[tuple[str, int]] = ()
    """The seeks this room seats, as (seek id, seat): marked in the same transaction,
    and the room is not created if any of them was paired meanwhile (`SeekTaken`)."""
    rated: bool = False


@dataclass(slots=True)
class SeatData:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    gender: str | None = None
    person: str | None = None
    """The person who took the seat (an account's or a guest's id), if any."""
    deleted: bool = False
    """The seat's person deleted their account: shown as a deleted player."""


@dataclass(slots=True)
class RoomData:
    """A room as stored: its row, its seats and its whole event log."""

    id: str
    game: str
    options: GameOptions
    """As the room stored them; the game checks them again when the room is rebuilt."""
    seed: str
    commitment: str
    invite_hash: str
    host_hash: str
    status: str
    version: int
    outcome: OutcomeJson | None
    seats: list[SeatData]
    events: list[Event] = field(default_factory=list)
    dice: int = 1
    absent_after: int = 120
    owner: str | None = None
    public: bool = False
    rematch: str | None = None
    chat: list[ChatLine] = field(default_factory=list)
    """The latest messages of the room's chat (at most `CHAT_KEPT`), oldest first."""
    chat_count: int = 0
    """How many messages the room's chat holds in all."""
    created_at: dt.datetime | None = None
    action_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    """The version of each seat's move by the id its client gave it: (seat, id) -> version."""
    clock: Mapping[str, object] | None = None
    """The room's clock as last committed (None: untimed)."""
    deadlines: list[DueRow] = field(default_factory=list)
    """The deadlines of its running turns, as last committed."""
    rematch_votes: Mapping[str, object] | None = None
    host_seat: int | None = None
    rated: bool = False


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One message of a room's chat: its number, the seat and name that wrote it, when."""

    number: int
    seat: int
    name: str | None
    text: str
    at: dt.datetime


@dataclass(frozen=True, slots=True)
class OpenRoom:
    """A public room in play with a free person seat, as the lobby lists it."""

    id: str
    game: str
    options: GameOptions
    created_at: dt.datetime
    seats: list[SeatData]
    host_away_since: dt.datetime | None = None
    """Since when the host has been away (None: here, or no host seat known)."""


#: Chat messages of a room read back with it (the newest ones).
CHAT_KEPT = 100


@dataclass(frozen=True, slots=True)
class AppendBatch:
    """New events of one room: they become versions `after + 1`, `after + 2`, ...

    `action_id` is the id the client gave the move that made them, which is then the
    batch's first event (a batch holds one move at most, and whatever followed it)."""

    room_id: str
    after: int
    events: Sequence[Event]
    status: str = PLAYING
    outcome: OutcomeJson | None = None
    action_id: str | None = None
    clock: ClockChange | None = None
    """The room's clock and deadlines after these events (None: untimed, unchanged)."""
    left: tuple[int, ...] = ()
    """At the end: the person seats a stand-in bot was playing (their players left)."""


_BUMP = (
    rooms.update()
    .where(rooms.c.id == sa.bindparam("room"), rooms.c.version == sa.bindparam("after"))
    .values(
        version=sa.bindparam("version"),
        status=sa.bindparam("status"),
        outcome=sa.bindparam("outcome"),
        updated_at=sa.bindparam("now"),
    )
)
#: The same, fenced: only the room's owner may write it (several processes).
_BUMP_OWNED = _BUMP.where(rooms.c.owner == sa.bindparam("fence"))


def _owned_by(room_id: str, owner: str | None) -> list[sa.ColumnElement[bool]]:
    """The fence of a seat change: none on one process, else the room must be `owner`'s."""
    if owner is None:
        return []
    return [sa.exists().where(rooms.c.id == room_id, rooms.c.owner == owner)]


def change_notice(batch: AppendBatch, owner: str) -> str:
    """The NOTIFY payload of a committed batch: its events and the room's clock after them."""
    clock = None if batch.clock is None else batch.clock.clock
    return events_notice(batch.room_id, batch.after, batch.events, owner, clock=clock)


def _seat_data(row: sa.RowMapping) -> SeatData:
    """A seat as the rooms read it, from its stored row."""
    return SeatData(
        row["seat"],
        row["kind"],
        row["bot"],
        row["name"],
        row["token_hash"],
        row["gender"],
        row["person"],
        bool(row.get("deleted")),
    )


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


#: Called inside the transaction that stores a game's end, with that transaction and the
#: batch: what it writes is stored with the end or not at all (`hraj.players.results`).
EndHook = Callable[[sa.Connection, AppendBatch], None]


class Store:
    """Rooms, seats and event logs in one SQL database."""

    def __init__(self, url: str, *, synchronous: str = "FULL") -> None:
        self.url = url
        self.engine = make_engine(url, synchronous)
        self.end_hooks: list[EndHook] = []

    def close(self) -> None:
        self.release_writer()
        self.engine.dispose()

    # --- one writing server per database ------------------------------------------------

    _writer: bool | int | sa.Connection | None = None
    """What holds the claim: True (a database in memory), the lock file's descriptor, or
    the PostgreSQL session that holds the advisory lock."""

    def claim_writer(self, wait_s: float = 10.0) -> None:
        """Become the one server process that writes this database, or raise StoreError.

        Rooms live in the memory of the process that serves them, so two processes on
        one database would each write the same rooms. The claim is an exclusive lock
        held for as long as the process lives (a lock file beside a SQLite database, a
        session advisory lock on PostgreSQL); the operating system or PostgreSQL frees
        it when the process dies, even by SIGKILL. A restarting server waits up to
        `wait_s` seconds for the previous one to finish stopping.
        """
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

    def release_writer(self) -> None:
        writer, self._writer = self._writer, None
        if isinstance(writer, int) and not isinstance(writer, bool):
            os.close(writer)  # closing the file frees its lock
        elif isinstance(writer, sa.Connection):
            with contextlib.suppress(SQLAlchemyError):
                writer.close()  # the session ends and PostgreSQL frees its advisory lock

    # --- backups -------------------------------------------------------------------------

    def backup(self, target: Path) -> None:
        """Copy a SQLite database to `target` while it may be in use (SQLite's online backup).

        PostgreSQL is backed up with its own tools (`pg_dump`); see docs/protocol.md.
        """
        if self.engine.dialect.name != "sqlite":
            raise StoreError("Back up a PostgreSQL database with pg_dump (see docs/deploy.md).")
        if target.exists():
            raise StoreError("{path} exists already; the backup needs a new file.", path=str(target))
        try:
            descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(descriptor)
            source = self.engine.raw_connection()
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

    # --- schema ---------------------------------------------------------------------

    def migrate(self) -> None:
        """Bring the schema up to the newest migration (a no-op when it is there)."""
        config = Config()
        config.set_main_option("script_location", str(resources.files("hraj.store") / "migrations"))
        try:
            with self.engine.begin() as connection:
                if self.engine.dialect.name == "postgresql":
                    # Processes started together (two units at boot) migrate one after the
                    # other: the second finds the schema made instead of making it again.
                    connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except SQLAlchemyError as error:
            reason = getattr(error, "orig", None) or error
            raise StoreError("Cannot open the database {url}: {why}", url=self.safe_url, why=str(reason)) from None

    @property
    def safe_url(self) -> str:
        """The URL without its password, fit for messages and logs."""
        return sa.make_url(self.url).render_as_string(hide_password=True)

    # --- writes ---------------------------------------------------------------------

    def create_room(self, room: NewRoom) -> RoomData:
        """Store a new room with its seats; returns it as `load_room` would read it back."""
        now = utc_now()
        with self.engine.begin() as connection:
            connection.execute(
                rooms.insert().values(
                    id=room.id,
                    game=room.game,
                    options=room.options,
                    seed=room.seed,
                    commitment=room.commitment,
                    invite_hash=room.invite_hash,
                    host_hash=room.host_hash,
                    status=PLAYING,
                    version=0,
                    outcome=None,
                    created_at=now,
                    updated_at=now,
                    dice=room.dice,
                    absent_after=room.absent_after,
                    owner=room.owner,
                    public=room.public,
                    clock=room.clock,
                    host_seat=room.host_seat,
                    host_away_since=now if room.host_seat is not None else None,
                    rated=room.rated,
                )
            )
            if room.pairs and not mark_paired(connection, room.id, list(room.pairs)):
                raise SeekTaken("Someone waiting for this game was paired meanwhile.")
            if room.rematch_of is not None:
                pointed = connection.execute(
                    rooms.update()
                    .where(rooms.c.id == room.rematch_of, rooms.c.rematch.is_(None))
                    .values(rematch=room.id)
                )
                if pointed.rowcount != 1:
                    raise StoreError("Room {room} has its rematch already.", room=room.rematch_of)
            connection.execute(
                seats.insert(),
                [
                    {
                        "room_id": room.id,
                        "seat": number,
                        "kind": seat.kind,
                        "bot": seat.bot,
                        "name": seat.name,
                        "gender": seat.gender,
                        "token_hash": seat.token_hash,
                        "person": seat.person,
                    }
                    for number, seat in enumerate(room.seats)
                ],
            )
        return RoomData(
            id=room.id,
            game=room.game,
            options=dict(room.options),
            seed=room.seed,
            commitment=room.commitment,
            invite_hash=room.invite_hash,
            host_hash=room.host_hash,
            status=PLAYING,
            version=0,
            outcome=None,
            seats=[
                SeatData(n, s.kind, s.bot, s.name, s.token_hash, s.gender, s.person) for n, s in enumerate(room.seats)
            ],
            dice=room.dice,
            absent_after=room.absent_after,
            owner=room.owner,
            public=room.public,
            created_at=now,
            clock=room.clock,
            host_seat=room.host_seat,
            rated=room.rated,
        )

    def append(self, batches: Iterable[AppendBatch], owner: str | None = None) -> None:
        """Append the events of several rooms in one transaction, all or nothing.

        Raises StaleVersion (and writes nothing) if a room's stored version is not the
        one a batch starts from. With an `owner` (several processes on PostgreSQL) every
        room must also be that process's, else NotOwner, so a process that lost a room
        can never write it (the fence of its lease); and the same transaction notifies
        the other processes of each batch, delivered only if it commits.
        """
        batches = list(batches)
        if not batches:
            return
        now = utc_now()
        rows = [
            {
                "room_id": batch.room_id,
                "version": batch.after + number,
                "kind": kind,
                "seat": seat,
                "text": text,
                "action_id": batch.action_id if number == 1 else None,
            }
            for batch in batches
            for number, (kind, seat, text) in enumerate(batch.events, start=1)
        ]
        bumps = [
            {
                "room": batch.room_id,
                "after": batch.after,
                "version": batch.after + len(batch.events),
                "status": batch.status,
                "outcome": batch.outcome,
                "now": now,
                "fence": owner,
            }
            for batch in batches
        ]
        try:
            with self.engine.connect() as connection:
                transaction = connection.begin()
                try:
                    # One statement for all the rooms; the version check of every room must hold.
                    if connection.execute(_BUMP if owner is None else _BUMP_OWNED, bumps).rowcount != len(bumps):
                        raise _Stale
                    if rows:
                        connection.execute(events.insert(), rows)
                    write_clocks(connection, {b.room_id: b.clock for b in batches if b.clock is not None})
                    for batch in batches:
                        if batch.status == OVER:
                            for hook in self.end_hooks:
                                hook(connection, batch)
                    if owner is not None:
                        notify(connection, [change_notice(b, owner) for b in batches])
                except BaseException:
                    with contextlib.suppress(SQLAlchemyError):
                        transaction.rollback()
                    raise
                try:
                    transaction.commit()
                except SQLAlchemyError as error:
                    # Asked to commit, the database did not say whether it did. The
                    # connection is in no known state: it is closed, never reused.
                    with contextlib.suppress(SQLAlchemyError):
                        connection.invalidate()
                    raise CommitInDoubt(
                        "The database did not confirm the commit: {why}", why=str(getattr(error, "orig", error))
                    ) from error
        except _Stale:
            room, owned_by = self._stale(batches, owner)
            if owned_by != owner:
                raise NotOwner(
                    "Room {room} is served by another process now; nothing was written.", room=room
                ) from None
            raise StaleVersion(
                "Room {room} is not at the version the batch starts from; nothing was written.", room=room
            ) from None

    def holds(self, batch: AppendBatch) -> bool:
        """Whether `batch` is stored: True if its events (and its move's id) are the
        room's versions `after + 1`...; False if the room is still at `after`, so that
        nothing of it was written. Raises StaleVersion if the log went on otherwise.
        What a commit in doubt (`CommitInDoubt`) was is read back this way."""
        with self.engine.connect() as connection:
            version = connection.execute(sa.select(rooms.c.version).where(rooms.c.id == batch.room_id)).scalar()
            if version == batch.after:
                return False
            stored = connection.execute(
                sa.select(events.c.kind, events.c.seat, events.c.text, events.c.action_id)
                .where(
                    events.c.room_id == batch.room_id,
                    events.c.version > batch.after,
                    events.c.version <= batch.after + len(batch.events),
                )
                .order_by(events.c.version)
            ).all()
        expected = [
            (kind, seat, text, batch.action_id if number == 0 else None)
            for number, (kind, seat, text) in enumerate(batch.events)
        ]
        if [tuple(row) for row in stored] == expected:
            return True
        raise StaleVersion(
            "Room {room} is not at the version the batch starts from; nothing was written.", room=batch.room_id
        )

    def _stale(self, batches: Sequence[AppendBatch], owner: str | None) -> tuple[str, str | None]:
        """The first room whose stored version (or owner) is not the batch's, and its owner."""
        with self.engine.connect() as connection:
            stored = {
                room: (version, owned_by)
                for room, version, owned_by in connection.execute(
                    sa.select(rooms.c.id, rooms.c.version, rooms.c.owner).where(
                        rooms.c.id.in_([b.room_id for b in batches])
                    )
                )
            }
        for batch in batches:
            version, owned_by = stored.get(batch.room_id, (None, None))
            if version != batch.after or (owner is not None and owned_by != owner):
                return batch.room_id, owned_by
        return "?", owner

    def update_seat(self, room_id: str, seat: int, owner: str | None = None, **values: str | None) -> None:
        """Change a seat's `bot`, `name`, `gender` or `token_hash` (only as the room's `owner`, if given)."""
        unknown = set(values) - {"bot", "name", "gender", "token_hash"}
        if unknown:
            raise ValueError(f"unknown seat fields: {sorted(unknown)}")
        with self.engine.begin() as connection:
            result = connection.execute(
                seats.update()
                .where(seats.c.room_id == room_id, seats.c.seat == seat, *_owned_by(room_id, owner))
                .values(**values)
            )
            if result.rowcount != 1:
                self._check_owner(connection, room_id, owner)
                raise StoreError("Room {room} has no seat {seat}.", room=room_id, seat=seat)

    def claim_seat(
        self,
        room_id: str,
        seat: int,
        token_hash: str,
        name: str | None,
        gender: str | None = None,
        owner: str | None = None,
    ) -> bool:
        """Give a free person seat its token; False if the seat was taken meanwhile.

        With an `owner` (several processes) the room must be that process's, else
        NotOwner: seats change only where the room's moves are made."""
        with self.engine.begin() as connection:
            result = connection.execute(
                seats.update()
                .where(
                    seats.c.room_id == room_id,
                    seats.c.seat == seat,
                    seats.c.kind == "person",
                    seats.c.token_hash.is_(None),
                    *_owned_by(room_id, owner),
                )
                .values(token_hash=token_hash, name=name, gender=gender)
            )
            if result.rowcount != 1:
                self._check_owner(connection, room_id, owner)
            return result.rowcount == 1

    @staticmethod
    def _check_owner(connection: sa.Connection, room_id: str, owner: str | None) -> None:
        if owner is None:
            return
        if connection.execute(sa.select(rooms.c.owner).where(rooms.c.id == room_id)).scalar() != owner:
            raise NotOwner("Room {room} is served by another process now; nothing was written.", room=room_id)

    # --- reads ----------------------------------------------------------------------

    def load_room(self, room_id: str, *, with_events: bool = True) -> RoomData | None:
        with self.engine.connect() as connection:
            row = connection.execute(sa.select(rooms).where(rooms.c.id == room_id)).mappings().first()
            if row is None:
                return None
            seat_rows = connection.execute(
                sa.select(seats, people.c.deleted_at.is_not(None).label("deleted"))
                .outerjoin(people, people.c.id == seats.c.person)
                .where(seats.c.room_id == room_id)
                .order_by(seats.c.seat)
            ).mappings()
            room = RoomData(
                id=row["id"],
                game=row["game"],
                options=dict(row["options"]),
                seed=row["seed"],
                commitment=row["commitment"],
                invite_hash=row["invite_hash"],
                host_hash=row["host_hash"],
                status=row["status"],
                version=row["version"],
                outcome=row["outcome"],
                dice=row["dice"],
                absent_after=row["absent_after"],
                owner=row["owner"],
                public=bool(row["public"]),
                rematch=row["rematch"],
                created_at=utc(row["created_at"]),
                rated=bool(row["rated"]),
                seats=[_seat_data(s) for s in seat_rows],
                clock=row["clock"],
                rematch_votes=row["rematch_votes"],
                host_seat=row["host_seat"],
            )
            if row["clock"] is not None:
                room.deadlines = read_deadlines(connection, [room_id])
            if with_events:
                rows = connection.execute(
                    sa.select(events.c.kind, events.c.seat, events.c.text, events.c.action_id)
                    .where(events.c.room_id == room_id)
                    .order_by(events.c.version)
                ).all()
                room.events = [(kind, seat, text) for kind, seat, text, _ in rows]
                room.action_ids = {
                    (seat, action_id): version
                    for version, (_, seat, _, action_id) in enumerate(rows, start=1)
                    if action_id is not None and seat is not None
                }
            lines = connection.execute(
                sa.select(chat.c.number, chat.c.seat, chat.c.name, chat.c.text, chat.c.created_at)
                .where(chat.c.room_id == room_id)
                .order_by(chat.c.number.desc())
                .limit(CHAT_KEPT)
            ).all()
            room.chat = [
                ChatLine(number, seat, name, text, utc(at)) for number, seat, name, text, at in reversed(lines)
            ]
            room.chat_count = lines[0][0] if lines else 0
            return room

    def open_rooms(self, limit: int, host_gone_after: dt.timedelta | None = None) -> list[OpenRoom]:
        """The newest `limit` public rooms in play that have a free person seat, without
        those whose host has been away longer than `host_gone_after`."""
        free = sa.exists().where(seats.c.room_id == rooms.c.id, seats.c.kind == "person", seats.c.token_hash.is_(None))
        present: sa.ColumnElement[bool] = sa.true()
        if host_gone_after is not None:
            since = utc_now() - host_gone_after
            present = sa.or_(rooms.c.host_away_since.is_(None), rooms.c.host_away_since > since)
        query = (
            sa.select(rooms.c.id, rooms.c.game, rooms.c.options, rooms.c.created_at, rooms.c.host_away_since)
            .where(rooms.c.public.is_(True), rooms.c.status == PLAYING, free, present)
            .order_by(rooms.c.created_at.desc(), rooms.c.id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            found = connection.execute(query).all()
            by_room: dict[str, list[SeatData]] = {row[0]: [] for row in found}
            if by_room:
                for s in connection.execute(
                    sa.select(seats).where(seats.c.room_id.in_(list(by_room))).order_by(seats.c.seat)
                ).mappings():
                    by_room[s["room_id"]].append(_seat_data(s))
        return [
            OpenRoom(row[0], row[1], dict(row[2]), utc(row[3]), by_room[row[0]], row[4] and utc(row[4]))
            for row in found
        ]

    def note_host(self, room_id: str, away_since: dt.datetime | None) -> None:
        """The host of a room came (None) or left (since when), for the lobby."""
        with self.engine.begin() as connection:
            connection.execute(rooms.update().where(rooms.c.id == room_id).values(host_away_since=away_since))

    def add_chat(self, room_id: str, line: ChatLine) -> None:
        """Store one chat message; its number must follow the room's last one."""
        with self.engine.begin() as connection:
            connection.execute(
                chat.insert().values(
                    room_id=room_id,
                    number=line.number,
                    seat=line.seat,
                    name=line.name,
                    text=line.text,
                    created_at=line.at,
                )
            )

    def room_ids(self, status: str | None = None) -> list[str]:
        """Ids of every room, or of the rooms with that status, oldest first."""
        query = sa.select(rooms.c.id).order_by(rooms.c.created_at, rooms.c.id)
        if status is not None:
            query = query.where(rooms.c.status == status)
        with self.engine.connect() as connection:
            return [row[0] for row in connection.execute(query)]

    def archive_idle(self, before: dt.datetime) -> list[str]:
        """Mark the rooms in play that nothing changed since `before` as archived; their ids."""
        with self.engine.begin() as connection:
            idle = [
                row[0]
                for row in connection.execute(
                    sa.select(rooms.c.id).where(rooms.c.status == PLAYING, rooms.c.updated_at < before)
                )
            ]
            if idle:
                connection.execute(
                    rooms.update()
                    .where(rooms.c.id.in_(idle), rooms.c.status == PLAYING)
                    .values(status=ARCHIVED, owner=None)
                )
        return idle

    def wake(self, room_id: str) -> None:
        """A waiting room (a correspondence room nobody watched) is in play again when it
        is opened or a deadline of it comes due; that counts as no activity."""
        with self.engine.begin() as connection:
            connection.execute(
                rooms.update().where(rooms.c.id == room_id, rooms.c.status == WAITING).values(status=PLAYING)
            )

    def put_to_wait(self, room_id: str, version: int, owner: str | None = None) -> bool:
        """Let a room in play wait in the store only (a correspondence room nobody watches):
        no process holds it until it is opened or a deadline of it comes due. Only at
        `version`, and only by its `owner` where several processes serve; whether it did."""
        fence = [] if owner is None else [rooms.c.owner == owner]
        with self.engine.begin() as connection:
            result = connection.execute(
                rooms.update()
                .where(rooms.c.id == room_id, rooms.c.status == PLAYING, rooms.c.version == version, *fence)
                .values(status=WAITING, owner=None)
            )
            return result.rowcount == 1

    def ping(self) -> None:
        """Raise StoreError unless the database answers."""
        try:
            with self.engine.connect() as connection:
                connection.execute(sa.text("SELECT 1"))
        except SQLAlchemyError as error:
            raise StoreError("The database {url} does not answer: {why}", url=self.safe_url, why=str(error)) from None
