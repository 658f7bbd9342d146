"""Failed sign-ins per name in the store: counted once each, in a window, by every process."""

from __future__ import annotations

import datetime as dt
import threading

import sqlalchemy as sa

from hraj.store import Store
from hraj.store.schema import sign_in_failures
from hraj.store.sign_ins import blocked_until, count_failure, forget

START = dt.datetime(2026, 11, 28, 20, 0, tzinfo=dt.UTC)
HOUR = dt.timedelta(hours=1)


def no_pause(failures: int, elapsed: float) -> float:
    return 0.0


def test_failures_are_counted_in_a_window_that_starts_anew_when_it_is_over(store: Store) -> None:
    engine = store.engine
    counted = [count_failure(engine, "eva", START + dt.timedelta(minutes=m), HOUR, no_pause) for m in range(3)]
    assert counted == [1, 2, 3]
    assert count_failure(engine, "petr", START, HOUR, no_pause) == 1, "each name counts its own"
    assert count_failure(engine, "eva", START + HOUR + dt.timedelta(seconds=1), HOUR, no_pause) == 1
    assert count_failure(engine, "eva", START + HOUR + dt.timedelta(seconds=2), HOUR, no_pause) == 2


def test_the_wait_is_the_policys_after_this_failure_and_a_right_password_forgets_it(store: Store) -> None:
    engine = store.engine
    asked: list[tuple[int, float]] = []

    def pause(failures: int, elapsed: float) -> float:
        asked.append((failures, elapsed))
        return 10.0 * failures

    assert blocked_until(engine, "eva") is None
    count_failure(engine, "eva", START, HOUR, pause)
    count_failure(engine, "eva", START + dt.timedelta(seconds=30), HOUR, pause)
    assert asked == [(1, 0.0), (2, 30.0)]
    assert blocked_until(engine, "eva") == START + dt.timedelta(seconds=50)
    forget(engine, "eva")
    assert blocked_until(engine, "eva") is None
    assert count_failure(engine, "eva", START + dt.timedelta(seconds=60), HOUR, pause) == 1


def test_names_of_windows_long_over_are_dropped(store: Store) -> None:
    engine = store.engine
    count_failure(engine, "eva", START, HOUR, no_pause)
    count_failure(engine, "petr", START + 2 * HOUR + dt.timedelta(seconds=1), HOUR, no_pause)
    with engine.connect() as connection:
        names = connection.execute(sa.select(sign_in_failures.c.name_key)).scalars().all()
    assert names == ["petr"]


def test_processes_counting_the_same_name_at_once_lose_no_failure(db_url: str) -> None:
    stores = [Store(db_url) for _ in range(4)]  # one engine each, as server processes have
    stores[0].migrate()
    per_store = 15

    def fail(store: Store) -> None:
        for _ in range(per_store):
            count_failure(store.engine, "eva", START, HOUR, no_pause)

    threads = [threading.Thread(target=fail, args=(store,)) for store in stores]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert count_failure(stores[0].engine, "eva", START, HOUR, no_pause) == len(stores) * per_store + 1
    finally:
        for store in stores:
            store.close()
