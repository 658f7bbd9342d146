"""People in the store on SQLite and PostgreSQL: accounts, sessions, seats and games."""

from __future__ import annotations

import dataclasses

from hraj.store import NewRoom, NewSeat, Store
from hraj.store.people import People
from tests.store.test_db import new_room


def room(room_id: str, seats: int = 2) -> NewRoom:
    """A room of `seats` person seats named P0, P1, ..."""
    return dataclasses.replace(new_room(room_id, seats), seats=[NewSeat("person", name=f"P{n}") for n in range(seats)])


def test_a_name_key_is_unique(store: Store) -> None:
    people = People(store)
    assert people.create_account("a" * 32, "Eva", "eva", "hash")
    assert not people.create_account("b" * 32, "éva", "eva", "hash")
    found = people.account_named("eva")
    assert found is not None and (found.id, found.name) == ("a" * 32, "Eva")


def test_sessions_are_revoked_one_by_one_or_all_at_once(store: Store) -> None:
    people = People(store)
    people.create_account("a" * 32, "Eva", "eva", "hash")
    for token in ("s1", "s2", "s3"):
        people.add_session(token, "a" * 32)
    account = people.session_account("s1")
    assert account is not None and account.name == "Eva"
    people.drop_session("s1")
    assert people.session_account("s1") is None
    assert people.drop_sessions("a" * 32, keep="s3") == 1
    assert people.session_account("s2") is None and people.session_account("s3") is not None


def test_a_person_takes_one_seat_a_room_and_a_guests_games_move_to_the_account(store: Store) -> None:
    people = People(store)
    store.create_room(room("r1"))
    store.create_room(room("r2"))
    guest = "g" * 32
    assert people.link_seat("r1", 0, guest)
    assert not people.link_seat("r1", 1, guest), "a second seat at one screen stays nobody's"
    assert people.link_seat("r2", 1, guest)
    assert {(g.room, g.seat) for g in people.games(guest)} == {("r1", 0), ("r2", 1)}
    people.create_account("a" * 32, "Eva", "eva", "hash")
    assert people.move_games(guest, "a" * 32) == 2
    assert people.games(guest) == []
    games = people.games("a" * 32)
    assert {(g.room, g.seat) for g in games} == {("r1", 0), ("r2", 1)}
    assert [s.name for s in games[0].seats] == ["P0", "P1"]


def test_a_deleted_account_loses_name_password_and_sessions_but_keeps_its_games(store: Store) -> None:
    people = People(store)
    store.create_room(room("r1"))
    people.create_account("a" * 32, "Eva", "eva", "hash")
    people.add_session("s1", "a" * 32)
    people.link_seat("r1", 0, "a" * 32)
    people.delete_account("a" * 32)
    assert people.session_account("s1") is None
    assert people.account("a" * 32) is None and people.account_named("eva") is None
    assert people.deleted(["a" * 32, "b" * 32]) == {"a" * 32}
    loaded = store.load_room("r1")
    assert loaded is not None and loaded.seats[0].name is None and loaded.seats[1].name == "P1"
    assert [g.room for g in people.games("a" * 32)] == ["r1"]
    assert people.create_account("b" * 32, "eva", "eva", "hash"), "the name is free again"
