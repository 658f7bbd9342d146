"""Room ownership among several server processes on one PostgreSQL database.

Each process has a row in `servers` whose `expires_at` it pushes ahead every second or
so (its lease, by PostgreSQL's own clock, so the processes' clocks never matter). A
room belongs to the process named in `rooms.owner` while that process's lease runs;
once it lapses (the process died, or lost the database for longer than the lease) any
other process may claim the room. Every commit of a room checks its owner in the same
statement that checks its version (`Store.append(owner=...)`), so a process that lost
a room — even one that does not know it yet — can never write it: the lease is a
fence, not just a hint.

Why lease rows rather than PostgreSQL advisory locks: a lock lives as long as one
database session, so a pooled connection that drops silently loses every room of the
process while the process goes on serving them, and nothing in a commit could tell; a
lock is no value a write can be checked against; and thousands of held locks fill the
server's shared lock table. A row costs one UPDATE per process per second however many
rooms it owns, can be read by anyone (who owns this room?), and fences every commit.
"""

from __future__ import annotations

import sqlalchemy as sa

from hraj.store.db import Store
from hraj.store.room_data import PLAYING
from hraj.store.schema import rooms, servers

_LIVE = sa.text("now() + make_interval(secs => :lease)")


def _alive(owner: sa.ColumnElement[str | None]) -> sa.ColumnElement[bool]:
    """SQL: the process named by `owner` holds a lease that has not run out."""
    return sa.exists().where(servers.c.id == owner, servers.c.expires_at > sa.func.now())


_CLAIMABLE = sa.or_(rooms.c.owner.is_(None), rooms.c.owner == sa.bindparam("me"), ~_alive(rooms.c.owner))


class Leases:
    """One process's view of the `servers` leases and of which rooms it owns."""

    def __init__(self, store: Store, server_id: str, lease_s: float) -> None:
        self.store = store
        self.id = server_id
        self.lease_s = lease_s

    def renew(self) -> None:
        """Push this process's lease `lease_s` seconds ahead (the row is made if missing)."""
        with self.store.engine.begin() as connection:
            updated = connection.execute(
                servers.update().where(servers.c.id == self.id).values(expires_at=_LIVE),
                {"lease": self.lease_s},
            )
            if updated.rowcount == 0:
                connection.execute(
                    servers.insert().values(id=self.id, started_at=sa.func.now(), expires_at=_LIVE),
                    {"lease": self.lease_s},
                )

    def release(self) -> None:
        """A clean stop: give up every room and the lease, so others take the rooms at once."""
        with self.store.engine.begin() as connection:
            connection.execute(rooms.update().where(rooms.c.owner == self.id).values(owner=None))
            connection.execute(servers.delete().where(servers.c.id == self.id))

    def claim(self, room_id: str) -> str | None:
        """Take the room if nobody alive owns it; returns its owner afterwards (this
        process's id when it got it, None when there is no such room)."""
        with self.store.engine.begin() as connection:
            got = connection.execute(
                rooms.update().where(rooms.c.id == room_id, _CLAIMABLE).values(owner=self.id).returning(rooms.c.id),
                {"me": self.id},
            ).first()
            if got is not None:
                return self.id
            owner: str | None = connection.execute(sa.select(rooms.c.owner).where(rooms.c.id == room_id)).scalar()
            return owner

    def owner(self, room_id: str) -> str | None:
        """The process that owns the room now, or None if nobody alive does."""
        with self.store.engine.connect() as connection:
            owner: str | None = connection.execute(
                sa.select(rooms.c.owner).where(rooms.c.id == room_id, _alive(rooms.c.owner))
            ).scalar()
            return owner

    def adopt(self, limit: int = 500) -> list[str]:
        """Claim up to `limit` rooms in play that no live process owns (their owner died
        or stopped); their ids. Rooms another process is claiming meanwhile are skipped."""
        orphans = (
            sa.select(rooms.c.id)
            .where(rooms.c.status == PLAYING, sa.or_(rooms.c.owner.is_(None), ~_alive(rooms.c.owner)))
            .order_by(rooms.c.updated_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        with self.store.engine.begin() as connection:
            return [
                row[0]
                for row in connection.execute(
                    rooms.update().where(rooms.c.id.in_(orphans)).values(owner=self.id).returning(rooms.c.id)
                )
            ]

    def live(self) -> set[str]:
        """The ids of every process whose lease runs."""
        with self.store.engine.connect() as connection:
            query = sa.select(servers.c.id).where(servers.c.expires_at > sa.func.now())
            return {row[0] for row in connection.execute(query)}
