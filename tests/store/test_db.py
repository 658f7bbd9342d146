"""The store on SQLite and PostgreSQL: schema, rooms, seats and the event log."""

from __future__ import annotations

import dataclasses

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from hraj.core.game import OutcomeJson
from hraj.store import AppendBatch, NewRoom, NewSeat, Store, StoreError
from hraj.store.db import OVER, PLAYING
from hraj.store.schema import metadata


def new_room(room_id: str = "room1", seats: int = 2) -> NewRoom:
    return NewRoom(
        id=room_id,
        game="qwixx",
        options={"players": seats, "first": None},
        seed="ab" * 32,
        commitment="cd" * 32,
        invite_hash="ef" * 32,
        host_hash="01" * 32,
        seats=[NewSeat("person"), *[NewSeat("bot", bot="random") for _ in range(seats - 1)]],
    )


def test_migrating_twice_is_harmless_and_matches_the_schema(store: Store) -> None:
    store.migrate()
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
        tables = set(sa.inspect(connection).get_table_names())
    assert differences == []
    assert {"rooms", "seats", "events", "alembic_version"} <= tables


def test_a_room_comes_back_as_it_was_created(store: Store) -> None:
    created = store.create_room(new_room())
    room = store.load_room("room1")
    assert room is not None
    assert created == room  # what the server keeps in memory is what a restart reads
    assert (room.game, room.options, room.status, room.version) == ("qwixx", {"players": 2, "first": None}, PLAYING, 0)
    assert (room.seed, room.commitment) == ("ab" * 32, "cd" * 32)
    assert [(s.seat, s.kind, s.bot, s.token_hash) for s in room.seats] == [
        (0, "person", None, None),
        (1, "bot", "random", None),
    ]
    assert room.events == []
    assert store.load_room("nowhere") is None


def test_events_get_consecutive_versions_across_batches(store: Store) -> None:
    store.create_room(new_room("a"))
    store.create_room(new_room("b"))
    store.append(
        [
            AppendBatch("a", 0, [("chance", None, "first 1"), ("chance", None, "w1 w2 r3 y4 g5 b6")]),
            AppendBatch("b", 0, [("chance", None, "first 0")]),
        ]
    )
    store.append([AppendBatch("a", 2, [("move", 1, "pass"), ("auto", 1, "penalty")])])
    a, b = store.load_room("a"), store.load_room("b")
    assert a is not None and b is not None
    assert a.version == 4 and b.version == 1
    assert a.events == [
        ("chance", None, "first 1"),
        ("chance", None, "w1 w2 r3 y4 g5 b6"),
        ("move", 1, "pass"),
        ("auto", 1, "penalty"),
    ]
    assert b.events == [("chance", None, "first 0")]


def test_a_batch_with_a_stale_version_writes_nothing_at_all(store: Store) -> None:
    store.create_room(new_room("a"))
    store.create_room(new_room("b"))
    store.append([AppendBatch("a", 0, [("chance", None, "first 1")])])
    with pytest.raises(StoreError, match="Room a is not at the version"):
        store.append(
            [
                AppendBatch("b", 0, [("chance", None, "first 0")]),
                AppendBatch("a", 0, [("chance", None, "first 0")]),
            ]
        )
    a, b = store.load_room("a"), store.load_room("b")
    assert a is not None and b is not None
    assert (a.version, a.events) == (1, [("chance", None, "first 1")])
    assert (b.version, b.events) == (0, [])


def test_finishing_a_room_stores_its_outcome_and_status(store: Store) -> None:
    store.create_room(new_room("a"))
    store.create_room(new_room("b"))
    outcome: OutcomeJson = {"scores": [3.0, 1.0], "winners": [0], "reason": "penalties", "details": {}}
    store.append([AppendBatch("a", 0, [("chance", None, "first 0")], status=OVER, outcome=outcome)])
    room = store.load_room("a")
    assert room is not None
    assert (room.status, room.outcome) == (OVER, outcome)
    assert store.room_ids(PLAYING) == ["b"]
    assert sorted(store.room_ids()) == ["a", "b"]


def test_a_person_seat_is_claimed_only_once(store: Store) -> None:
    store.create_room(new_room())
    assert store.claim_seat("room1", 0, "11" * 32, "Ema")
    assert not store.claim_seat("room1", 0, "22" * 32, "Jan")
    assert not store.claim_seat("room1", 1, "22" * 32, "Jan"), "a bot seat cannot be claimed"
    room = store.load_room("room1")
    assert room is not None
    assert (room.seats[0].token_hash, room.seats[0].name) == ("11" * 32, "Ema")


def test_a_seat_can_be_left_to_a_bot_and_taken_back(store: Store) -> None:
    store.create_room(new_room())
    store.update_seat("room1", 0, bot="random")
    room = store.load_room("room1")
    assert room is not None and room.seats[0].bot == "random"
    store.update_seat("room1", 0, bot=None)
    room = store.load_room("room1")
    assert room is not None and room.seats[0].bot is None
    with pytest.raises(StoreError, match="no seat 7"):
        store.update_seat("room1", 7, bot="random")
    with pytest.raises(ValueError, match="unknown seat fields"):
        store.update_seat("room1", 0, kind="bot")


def test_what_one_store_commits_another_store_reads(db_url: str) -> None:
    first = Store(db_url)
    first.migrate()
    first.create_room(new_room())
    first.append([AppendBatch("room1", 0, [("chance", None, "first 1")])])
    first.close()
    second = Store(db_url)
    second.migrate()
    room = second.load_room("room1")
    second.close()
    assert room is not None and room.events == [("chance", None, "first 1")]


def test_bad_database_urls_are_clear_errors() -> None:
    with pytest.raises(StoreError, match="not a valid URL"):
        Store("no url at all")
    with pytest.raises(StoreError, match="must be sqlite"):
        Store("mysql://localhost/hraj")
    unreachable = Store("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
    with pytest.raises(StoreError, match="Cannot open the database"):
        unreachable.migrate()
    assert "nobody@127.0.0.1:1" in unreachable.safe_url


def test_rooms_stored_before_dice_version_2_keep_version_1(db_url: str) -> None:
    """Migration 0002 adds the dice version and the absence time; older rooms get 1 and 120 s."""
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    store = Store(db_url)
    config = Config()
    config.set_main_option("script_location", str(resources.files("hraj.store") / "migrations"))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            sa.text(
                "INSERT INTO rooms (id, game, options, seed, commitment, invite_hash, host_hash, status, version,"
                " created_at, updated_at) VALUES ('old', 'qwixx', '{\"players\": 2}', :s, 'c', 'i', 'h', 'playing',"
                " 0, :now, :now)"
            ),
            {"s": "ab" * 32, "now": "2026-01-01 00:00:00+00:00"},
        )
    store.migrate()
    old = store.load_room("old")
    assert old is not None and (old.dice, old.absent_after) == (1, 120)
    store.create_room(dataclasses.replace(new_room("new"), dice=2, absent_after=30))
    assert (store.load_room("new").dice, store.load_room("new").absent_after) == (2, 30)  # type: ignore[union-attr]
    store.close()


def test_idle_rooms_are_archived_and_their_next_move_wakes_them(store: Store) -> None:
    import datetime as dt

    store.create_room(new_room("idle"))
    assert store.archive_idle(dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)) == []
    assert store.archive_idle(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1)) == ["idle"]
    assert store.room_ids(PLAYING) == []
    assert store.load_room("idle") is not None  # reading it changes nothing
    assert store.room_ids(PLAYING) == []
    store.append([AppendBatch("idle", 0, [("chance", None, "first 0")])])
    assert store.room_ids(PLAYING) == ["idle"]


def test_the_lobby_reads_seats_as_a_loaded_room_does(store: Store) -> None:
    room = dataclasses.replace(
        new_room(),
        public=True,
        seats=[NewSeat("person", name="Eva", token_hash="aa" * 32, gender="f"), NewSeat("person")],
    )
    store.create_room(room)
    (listed,) = store.open_rooms(limit=10)
    loaded = store.load_room("room1")
    assert loaded is not None
    assert listed.seats == loaded.seats
    assert listed.seats[0].gender == "f"
