"""The pool of seeks in the store, shared by every server process.

A seek is added by the process its browser asked, renewed by whichever process the
browser reaches next, and paired by any of them: the room that pairs seeks marks
them in the very transaction that creates it (`NewRoom.pairs`), on the condition that
none was paired meanwhile, so two processes pairing at once can never seat one person
twice (one of the two rooms is not created at all).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

import sqlalchemy as sa

from hraj.core.jsondata import GameOptions
from hraj.store.schema import seeks
from hraj.store.times import utc


@dataclass(frozen=True, slots=True)
class SeekRow:
    id: str
    secret_hash: str
    key: str
    game: str
    options: GameOptions
    players: int
    rated: bool
    clock: Mapping[str, object] | None
    rating: float
    name: str | None
    gender: str | None
    created_at: dt.datetime
    seen_at: dt.datetime
    room_id: str | None = None
    seat: int | None = None
    person: str | None = None
    """Who seeks (an account's or a guest's id); None: a browser without its cookie."""


def _seek(row: sa.RowMapping) -> SeekRow:
    return SeekRow(
        row["id"],
        row["secret_hash"],
        row["key"],
        row["game"],
        dict(row["options"]),
        row["players"],
        bool(row["rated"]),
        row["clock"],
        row["rating"],
        row["name"],
        row["gender"],
        utc(row["created_at"]),
        utc(row["seen_at"]),
        row["room_id"],
        row["seat"],
        row["person"],
    )


def add_seek(engine: sa.Engine, seek: SeekRow) -> None:
    with engine.begin() as connection:
        connection.execute(
            seeks.insert().values(
                id=seek.id,
                secret_hash=seek.secret_hash,
                key=seek.key,
                game=seek.game,
                options=seek.options,
                players=seek.players,
                rated=seek.rated,
                clock=seek.clock,
                rating=seek.rating,
                name=seek.name,
                gender=seek.gender,
                created_at=seek.created_at,
                seen_at=seek.seen_at,
                person=seek.person,
            )
        )


def renew(engine: sa.Engine, seek_id: str, now: dt.datetime) -> SeekRow | None:
    """A sign of the seek's browser: the seek as stored, or None if it is gone."""
    with engine.begin() as connection:
        connection.execute(seeks.update().where(seeks.c.id == seek_id).values(seen_at=now))
        row = connection.execute(sa.select(seeks).where(seeks.c.id == seek_id)).mappings().first()
    return None if row is None else _seek(row)


def cancel(engine: sa.Engine, seek_id: str) -> None:
    """The seeker stopped waiting (or took a bot): the seek leaves the pool unless paired."""
    with engine.begin() as connection:
        connection.execute(seeks.delete().where(seeks.c.id == seek_id, seeks.c.room_id.is_(None)))


def waiting(engine: sa.Engine, key: str, now: dt.datetime, ttl_s: float) -> list[SeekRow]:
    """The unpaired seeks of `key` whose browsers were heard within `ttl_s` seconds;
    those not heard from that long are removed (their browser went away)."""
    fresh = now - dt.timedelta(seconds=ttl_s)
    with engine.begin() as connection:
        connection.execute(seeks.delete().where(seeks.c.room_id.is_(None), seeks.c.seen_at < fresh))
        rows = connection.execute(
            sa.select(seeks).where(seeks.c.key == key, seeks.c.room_id.is_(None)).order_by(seeks.c.created_at)
        ).mappings()
        return [_seek(row) for row in rows]


def forget_paired(engine: sa.Engine, before: dt.datetime) -> int:
    """Remove paired seeks whose browsers last renewed them before `before` (they found
    their room long ago); how many."""
    with engine.begin() as connection:
        result = connection.execute(seeks.delete().where(seeks.c.room_id.is_not(None), seeks.c.seen_at < before))
        return result.rowcount


def mark_paired(connection: sa.Connection, room_id: str, pairs: list[tuple[str, int]]) -> bool:
    """Inside the transaction that creates `room_id`: give each seek its seat, only if
    none of them was paired meanwhile; whether all were still free."""
    for seek_id, seat in pairs:
        result = connection.execute(
            seeks.update().where(seeks.c.id == seek_id, seeks.c.room_id.is_(None)).values(room_id=room_id, seat=seat)
        )
        if result.rowcount != 1:
            return False
    return True
