"""The pool of seeks: shared by processes, a seek paired once, a gone browser's seek dropped."""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
from importlib import resources

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from hraj.store import NewRoom, NewSeat, Store
from hraj.store.errors import SeekTaken
from hraj.store.seeks import SeekRow, add_seek, cancel, renew, waiting

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)


def seek(seek_id: str, key: str = "k", at: dt.datetime = NOW) -> SeekRow:
    return SeekRow(seek_id, "h" * 64, key, "qwixx", {"players": 2}, 2, False, None, 1500.0, None, None, at, at)


def room_for(room_id: str, pairs: list[tuple[str, int]]) -> NewRoom:
    return NewRoom(room_id, "qwixx", {"players": 2}, "0" * 64, "c" * 64, "i", "h", [NewSeat("person")] * 2, pairs=pairs)


def test_a_seek_waits_until_its_browser_stops_renewing_it(store: Store) -> None:
    add_seek(store.engine, seek("a"))
    add_seek(store.engine, seek("b", key="other"))
    assert [s.id for s in waiting(store.engine, "k", NOW + dt.timedelta(seconds=5), ttl_s=10)] == ["a"]
    renewed = renew(store.engine, "a", NOW + dt.timedelta(seconds=8))
    assert renewed is not None and renewed.seen_at == NOW + dt.timedelta(seconds=8)
    assert [s.id for s in waiting(store.engine, "k", NOW + dt.timedelta(seconds=17), ttl_s=10)] == ["a"]
    assert waiting(store.engine, "k", NOW + dt.timedelta(seconds=19), ttl_s=10) == []
    assert renew(store.engine, "a", NOW) is None  # gone
    assert waiting(store.engine, "other", NOW + dt.timedelta(seconds=19), ttl_s=10) == []


def test_the_room_that_pairs_seeks_marks_them_and_a_paired_seek_stays(store: Store) -> None:
    add_seek(store.engine, seek("a"))
    add_seek(store.engine, seek("b"))
    store.create_room(room_for("r1", [("a", 0), ("b", 1)]))
    found = renew(store.engine, "b", NOW)
    assert found is not None and (found.room_id, found.seat) == ("r1", 1)
    cancel(store.engine, "b")  # too late: it is paired
    assert renew(store.engine, "b", NOW) is not None
    assert waiting(store.engine, "k", NOW, ttl_s=10) == []


def test_a_seek_paired_meanwhile_stops_the_second_room_entirely(store: Store) -> None:
    for name in "abc":
        add_seek(store.engine, seek(name))
    store.create_room(room_for("r1", [("a", 0), ("b", 1)]))
    with pytest.raises(SeekTaken):
        store.create_room(room_for("r2", [("c", 0), ("b", 1)]))
    assert store.load_room("r2") is None
    still = renew(store.engine, "c", NOW)
    assert still is not None and still.room_id is None


def test_two_processes_pairing_the_same_seeks_at_once_make_one_room(db_url: str) -> None:
    first, second = Store(db_url), Store(db_url)
    first.migrate()
    try:
        for attempt in range(5):
            a, b = f"a{attempt}", f"b{attempt}"
            add_seek(first.engine, seek(a))
            add_seek(first.engine, seek(b))
            made: list[str] = []
            barrier = threading.Barrier(2)

            def pair(
                store: Store,
                name: str,
                a: str = a,
                b: str = b,
                made: list[str] = made,
                barrier: threading.Barrier = barrier,
            ) -> None:
                barrier.wait()
                try:
                    store.create_room(room_for(name, [(a, 0), (b, 1)]))
                    made.append(name)
                except SeekTaken:
                    pass

            threads = [
                threading.Thread(target=pair, args=(store, f"{name}{attempt}"))
                for store, name in ((first, "x"), (second, "y"))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert len(made) == 1
            seated = [renew(second.engine, s, NOW) for s in (a, b)]
            assert {s.room_id for s in seated if s is not None} == set(made)
    finally:
        first.close()
        second.close()


def test_the_seekers_column_comes_and_goes_with_its_migration(store: Store) -> None:
    add_seek(store.engine, dataclasses.replace(seek("a"), person="p" * 32))
    config = Config()
    config.set_main_option("script_location", str(resources.files("hraj.store") / "migrations"))

    def columns() -> set[str]:
        with store.engine.connect() as connection:
            return {column["name"] for column in sa.inspect(connection).get_columns("seeks")}

    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0010")
    assert "person" not in columns()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    assert "person" in columns()
    found = renew(store.engine, "a", NOW)
    assert found is not None and found.person is None  # a seek of before knows nobody
    add_seek(store.engine, dataclasses.replace(seek("b"), person="q" * 32))
    assert [s.person for s in waiting(store.engine, "k", NOW, ttl_s=10)] == [None, "q" * 32]
