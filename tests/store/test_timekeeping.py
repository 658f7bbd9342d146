"""Clocks in the store: written with the commit that moves them, deadlines enforced once,
waiting rooms kept in the store only."""

from __future__ import annotations

import datetime as dt
import threading

import pytest

from hraj.store import AppendBatch, NewRoom, NewSeat, Store
from hraj.store.db import PLAYING, StaleVersion
from hraj.store.timekeeping import WAITING, ClockChange, DueRow, waiting_deadlines

NOON = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
CLOCK = {"control": {"kind": "correspondence", "per_move": 86400, "reserve": 0}, "game": 1, "seats": []}


def timed_room(store: Store, room_id: str) -> None:
    store.create_room(
        NewRoom(room_id, "qwixx", {"players": 2}, "0" * 64, "c" * 64, "i", "h", [NewSeat("person")] * 2, clock=CLOCK)
    )


def due(room_id: str, seat: int, version: int, hours: float) -> DueRow:
    return DueRow(room_id, seat, version, NOON + dt.timedelta(hours=hours))


def test_a_commit_stores_the_clock_and_replaces_the_deadlines(store: Store) -> None:
    timed_room(store, "r")
    first = ClockChange({**CLOCK, "game": 1}, [due("r", 0, 1, 24), due("r", 1, 1, 24)])
    store.append([AppendBatch("r", 0, [("chance", None, "first 0")], clock=first)])
    second = ClockChange({**CLOCK, "game": 2}, [due("r", 1, 2, 48)])
    store.append([AppendBatch("r", 1, [("move", 0, "pass")], clock=second)])
    room = store.load_room("r")
    assert room is not None and room.clock == {**CLOCK, "game": 2}
    assert room.deadlines == [due("r", 1, 2, 48)]


def test_a_stale_commit_leaves_clock_and_deadlines_as_they_were(store: Store) -> None:
    timed_room(store, "r")
    store.append([AppendBatch("r", 0, [("chance", None, "first 0")], clock=ClockChange(CLOCK, [due("r", 0, 1, 1)]))])
    with pytest.raises(StaleVersion):
        store.append([AppendBatch("r", 0, [("move", 0, "pass")], clock=ClockChange({**CLOCK, "game": 9}, []))])
    room = store.load_room("r")
    assert room is not None and room.clock == CLOCK and room.deadlines == [due("r", 0, 1, 1)]


def test_an_untimed_room_has_no_clock(store: Store) -> None:
    store.create_room(NewRoom("u", "qwixx", {"players": 2}, "0" * 64, "c" * 64, "i", "h", [NewSeat("person")] * 2))
    store.append([AppendBatch("u", 0, [("chance", None, "first 0")])])
    room = store.load_room("u")
    assert room is not None and room.clock is None and room.deadlines == []


def test_a_waiting_room_is_left_out_of_the_rooms_in_play_and_its_deadlines_are_found(store: Store) -> None:
    for name, hours in [("soon", 1), ("later", 30)]:
        timed_room(store, name)
        store.append(
            [AppendBatch(name, 0, [("chance", None, "first 0")], clock=ClockChange(CLOCK, [due(name, 0, 1, hours)]))]
        )
    assert not store.put_to_wait("soon", version=0)  # not at that version: stays in play
    assert store.put_to_wait("soon", version=1) and store.put_to_wait("later", version=1)
    assert store.room_ids(PLAYING) == [] and store.room_ids(WAITING) == ["soon", "later"]
    found = waiting_deadlines(store.engine, NOON + dt.timedelta(hours=2))
    assert found == [due("soon", 0, 1, 1)]
    store.wake("soon")
    assert store.room_ids(PLAYING) == ["soon"]
    assert waiting_deadlines(store.engine, NOON + dt.timedelta(days=9)) == [due("later", 0, 1, 30)]


def test_two_processes_enforcing_one_deadline_store_it_once(db_url: str) -> None:
    """Two stores on one database (two processes) both time the same turn out at once:
    the commit is conditional on the turn's version, so exactly one of them is stored."""
    first, second = Store(db_url), Store(db_url)
    first.migrate()
    try:
        for attempt in range(5):
            room_id = f"r{attempt}"
            timed_room(first, room_id)
            first.append(
                [
                    AppendBatch(
                        room_id, 0, [("chance", None, "first 0")], clock=ClockChange(CLOCK, [due(room_id, 0, 1, 0)])
                    )
                ]
            )
            results: list[str] = []
            barrier = threading.Barrier(2)

            def enforce(
                store: Store, room_id: str = room_id, barrier: threading.Barrier = barrier, results: list[str] = results
            ) -> None:
                barrier.wait()
                try:
                    store.append([AppendBatch(room_id, 1, [("move", 0, "pass")], clock=ClockChange(CLOCK, []))])
                    results.append("stored")
                except StaleVersion:
                    results.append("stale")

            threads = [threading.Thread(target=enforce, args=(s,)) for s in (first, second)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(results) == ["stale", "stored"]
            room = second.load_room(room_id)
            assert room is not None and room.events == [("chance", None, "first 0"), ("move", 0, "pass")]
            assert room.deadlines == []
    finally:
        first.close()
        second.close()
