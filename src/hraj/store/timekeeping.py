"""The stored side of clocks: a room's clock and its deadlines, written with its commits.

A room's clock (`rooms.clock`, JSON the clocks part defines) and its deadline rows change
only in the transaction that commits the room's events, so what a process reads back
after any crash is a clock that matches the log. A **waiting** room is a correspondence
room whose players all have days to answer and nobody is watching: it is not kept in
any process's memory, and only its deadline rows stand for it until it is opened or its
time runs out (`waiting_deadlines`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from hraj.store.notices import events_notice, notify
from hraj.store.schema import deadlines, rooms
from hraj.store.times import utc

#: A correspondence room nobody is watching: kept in the store only, woken when opened
#: or when a deadline of it comes due.
WAITING = "waiting"


@dataclass(frozen=True, slots=True)
class DueRow:
    """A stored deadline: the seat's turn, begun at the room's `version`, ends at `due` (UTC)."""

    room_id: str
    seat: int
    version: int
    due: dt.datetime


@dataclass(frozen=True, slots=True)
class ClockChange:
    """What a commit changes of a room's clock: the clock as JSON and its deadlines now."""

    clock: Mapping[str, object]
    deadlines: Sequence[DueRow]


def write_clocks(connection: sa.Connection, changes: dict[str, ClockChange]) -> None:
    """Store the clocks and replace the deadlines of the rooms in `changes` (inside a commit)."""
    if not changes:
        return
    connection.execute(
        rooms.update().where(rooms.c.id == sa.bindparam("room")).values(clock=sa.bindparam("clock")),
        [{"room": room, "clock": change.clock} for room, change in changes.items()],
    )
    connection.execute(deadlines.delete().where(deadlines.c.room_id.in_(list(changes))))
    rows = [
        {"room_id": row.room_id, "seat": row.seat, "version": row.version, "due": row.due}
        for change in changes.values()
        for row in change.deadlines
    ]
    if rows:
        connection.execute(deadlines.insert(), rows)


def set_clock(engine: sa.Engine, room_id: str, version: int, change: ClockChange, owner: str | None = None) -> bool:
    """Store a room's clock and deadlines without events (its turns begin when the last
    seat is taken), only while the room is at `version` (and `owner`'s, who tells the
    other processes); whether it did."""
    fence = [] if owner is None else [rooms.c.owner == owner]
    with engine.begin() as connection:
        found = connection.execute(
            sa.select(rooms.c.id).where(rooms.c.id == room_id, rooms.c.version == version, *fence).with_for_update()
        ).first()
        if found is None:
            return False
        write_clocks(connection, {room_id: change})
        if owner is not None:
            notify(connection, [events_notice(room_id, version, [], owner, clock=change.clock)])
        return True


def read_deadlines(connection: sa.Connection, room_ids: Iterable[str]) -> list[DueRow]:
    query = sa.select(deadlines).where(deadlines.c.room_id.in_(list(room_ids))).order_by(deadlines.c.seat)
    return [_row(row) for row in connection.execute(query).mappings()]


def waiting_deadlines(engine: sa.Engine, before: dt.datetime, limit: int = 10_000) -> list[DueRow]:
    """The deadlines of waiting rooms due before `before`, soonest first: what a process
    watches for rooms that nobody holds in memory."""
    query = (
        sa.select(deadlines)
        .join(rooms, rooms.c.id == deadlines.c.room_id)
        .where(rooms.c.status == WAITING, deadlines.c.due <= before)
        .order_by(deadlines.c.due)
        .limit(limit)
    )
    with engine.connect() as connection:
        return [_row(row) for row in connection.execute(query).mappings()]


def seats_due(engine: sa.Engine, held: Iterable[tuple[str, int]]) -> dict[tuple[str, int], dt.datetime]:
    """Of the (room, seat) pairs a person holds, those whose turn runs now, with when it
    runs out: the games that wait for that person ("Moje hry" lists them first)."""
    wanted = set(held)
    if not wanted:
        return {}
    query = sa.select(deadlines).where(deadlines.c.room_id.in_(sorted({room for room, _ in wanted})))
    with engine.connect() as connection:
        rows = [_row(row) for row in connection.execute(query).mappings()]
    return {(row.room_id, row.seat): row.due for row in rows if (row.room_id, row.seat) in wanted}


def _row(row: sa.RowMapping) -> DueRow:
    return DueRow(row["room_id"], row["seat"], row["version"], utc(row["due"]))
