"""Failed sign-ins per account name, counted in the store (`sign_in_failures`).

Every server process reads and writes the same rows, so a name tried through several
processes is counted once in all. A failure is counted by one statement that starts a
new window when the last one is over, and the time the name must wait is written in the
same transaction (PostgreSQL holds the row meanwhile, SQLite the whole database), so two
processes counting at once never lose a failure. The policy (how long to wait after how
many) is the caller's: the store only counts and keeps the time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from hraj.store.schema import sign_in_failures
from hraj.store.times import utc

#: Seconds to wait after this many failures in a window that began so many seconds ago.
Pause = Callable[[int, float], float]


def blocked_until(engine: sa.Engine, key: str) -> dt.datetime | None:
    """Until when `key` may not try to sign in (None: never counted, or forgotten)."""
    with engine.connect() as connection:
        found = connection.execute(
            sa.select(sign_in_failures.c.blocked_until).where(sign_in_failures.c.name_key == key)
        ).scalar()
    return None if found is None else utc(found)


def count_failure(engine: sa.Engine, key: str, now: dt.datetime, window: dt.timedelta, pause: Pause) -> int:
    """Count a failed sign-in of `key` at `now` (the first of a new window if its window is
    over) and keep until when it must wait, `pause(failures, seconds into the window)`
    from now; the failures of its window so far. Rows of windows long over are dropped."""
    table = sign_in_failures
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    over = table.c.first_at < now - window
    insert = dialect.insert(table).values(name_key=key, failures=1, first_at=now, blocked_until=now)
    counted = insert.on_conflict_do_update(
        index_elements=[table.c.name_key],
        set_={
            "failures": sa.case((over, 1), else_=table.c.failures + 1),
            "first_at": sa.case((over, now), else_=table.c.first_at),
        },
    ).returning(table.c.failures, table.c.first_at)
    with engine.begin() as connection:
        failures, first_at = connection.execute(counted).one()
        wait = pause(failures, (now - utc(first_at)).total_seconds())
        until = now + dt.timedelta(seconds=max(0.0, wait))
        connection.execute(table.update().where(table.c.name_key == key).values(blocked_until=until))
        connection.execute(table.delete().where(table.c.first_at < now - 2 * window, table.c.blocked_until < now))
    return int(failures)


def forget(engine: sa.Engine, key: str) -> None:
    """A right password: the name's failures are forgotten."""
    with engine.begin() as connection:
        connection.execute(sign_in_failures.delete().where(sign_in_failures.c.name_key == key))
