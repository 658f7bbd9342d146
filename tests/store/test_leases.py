"""Room ownership on PostgreSQL: leases, claims, the fence on commits, adoption, release."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from hraj.store import AppendBatch, NewRoom, NewSeat, Store
from hraj.store.errors import NotOwner, StaleVersion
from hraj.store.leases import Leases
from hraj.store.schema import servers
from tests.store.databases import database_url


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[Store]:
    store = Store(next(database_url("postgres", tmp_path)))
    store.migrate()
    yield store
    store.close()


def room(store: Store, room_id: str, owner: str | None) -> None:
    store.create_room(
        NewRoom(room_id, "qwixx", {"players": 2}, "0" * 64, "c" * 64, "i", "h", [NewSeat("person")] * 2, owner=owner)
    )


def lapse(store: Store, leases: Leases) -> None:
    """Let a process's lease run out at once (as if it died a lease ago)."""
    with store.engine.begin() as connection:
        connection.execute(
            servers.update()
            .where(servers.c.id == leases.id)
            .values(expires_at=sa.func.now() - sa.text("interval '1 s'"))
        )


def test_a_live_owner_keeps_its_room_and_its_commits_are_the_only_ones_stored(pg: Store) -> None:
    a, b = Leases(pg, "a", 30), Leases(pg, "b", 30)
    a.renew()
    b.renew()
    assert a.live() == {"a", "b"}
    room(pg, "r1", "a")
    assert b.claim("r1") == "a" and b.owner("r1") == "a"
    pg.append([AppendBatch("r1", 0, [("move", 0, "pass")])], owner="a")
    with pytest.raises(NotOwner):
        pg.append([AppendBatch("r1", 1, [("move", 1, "pass")])], owner="b")
    with pytest.raises(StaleVersion) as stale:
        pg.append([AppendBatch("r1", 0, [("move", 1, "pass")])], owner="a")
    assert not isinstance(stale.value, NotOwner)
    stored = pg.load_room("r1")
    assert stored is not None and stored.events == [("move", 0, "pass")] and stored.owner == "a"


def test_a_dead_owners_room_is_claimed_and_the_old_owner_is_fenced_off(pg: Store) -> None:
    a, b = Leases(pg, "a", 30), Leases(pg, "b", 30)
    a.renew()
    b.renew()
    room(pg, "r1", "a")
    room(pg, "r2", "a")
    room(pg, "r3", None)
    lapse(pg, a)
    assert b.owner("r1") is None
    assert b.claim("r1") == "b"
    # The old owner, were it only paused, can no longer write the room it lost.
    with pytest.raises(NotOwner):
        pg.append([AppendBatch("r1", 0, [("move", 0, "pass")])], owner="a")
    pg.append([AppendBatch("r1", 0, [("move", 0, "pass")])], owner="b")
    # The rest of the dead process's rooms, and a room nobody owns, are adopted at once.
    assert sorted(b.adopt()) == ["r2", "r3"]
    assert b.adopt() == []
    assert a.claim("r2") == "b"


def test_a_clean_stop_gives_the_rooms_up_at_once(pg: Store) -> None:
    a, b = Leases(pg, "a", 30), Leases(pg, "b", 30)
    a.renew()
    b.renew()
    room(pg, "r1", "a")
    a.release()
    assert b.live() == {"b"}
    assert b.owner("r1") is None
    assert b.adopt() == ["r1"]


def test_finished_rooms_are_not_adopted_and_a_renewal_remakes_a_lost_row(pg: Store) -> None:
    a = Leases(pg, "a", 30)
    room(pg, "r1", None)
    pg.append([AppendBatch("r1", 0, [("move", 0, "pass")], status="over")])
    assert a.adopt() == []
    a.renew()
    with pg.engine.begin() as connection:
        connection.execute(servers.delete())
    a.renew()
    assert a.live() == {"a"}


def test_only_the_owner_changes_a_rooms_seats(pg: Store) -> None:
    a, b = Leases(pg, "a", 30), Leases(pg, "b", 30)
    a.renew()
    b.renew()
    room(pg, "r1", "a")
    with pytest.raises(NotOwner):
        pg.claim_seat("r1", 0, "11" * 32, "Ema", owner="b")
    with pytest.raises(NotOwner):
        pg.update_seat("r1", 0, owner="b", bot="random")
    assert pg.claim_seat("r1", 0, "11" * 32, "Ema", owner="a")
    assert not pg.claim_seat("r1", 0, "22" * 32, "Jan", owner="a"), "taken: no NotOwner for the owner"
    pg.update_seat("r1", 0, owner="a", bot="random")
    stored = pg.load_room("r1", with_events=False)
    assert stored is not None and (stored.seats[0].token_hash, stored.seats[0].bot) == ("11" * 32, "random")
