"""Moves keep their clients' ids in the store, and a commit in doubt can be read back."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from hraj.store import AppendBatch, CommitInDoubt, StaleVersion, Store
from tests.store.test_db import new_room

OPENING = AppendBatch("a", 0, [("chance", None, "first 0"), ("chance", None, "w1 w2 r3 y4 g5 b6")])


def test_a_moves_id_is_stored_with_it_and_read_back_by_seat(store: Store) -> None:
    store.create_room(new_room("a"))
    store.append([OPENING])
    store.append([AppendBatch("a", 2, [("move", 0, "r3"), ("auto", 1, "pass")], action_id="k1")])
    store.append([AppendBatch("a", 4, [("move", 1, "pass")], action_id="k1")])  # another seat's k1
    store.append([AppendBatch("a", 5, [("move", 0, "pass")])])  # a move without an id
    room = store.load_room("a")
    assert room is not None
    assert room.action_ids == {(0, "k1"): 3, (1, "k1"): 5}


def test_one_seat_cannot_store_two_moves_under_one_id(store: Store) -> None:
    store.create_room(new_room("a"))
    store.append([OPENING])
    store.append([AppendBatch("a", 2, [("move", 0, "r3")], action_id="k1")])
    with pytest.raises(sa.exc.IntegrityError):
        store.append([AppendBatch("a", 3, [("move", 0, "pass")], action_id="k1")])
    room = store.load_room("a")
    assert room is not None and room.version == 3


def _lose_the_answer_to_commit(store: Store, *, after_committing: bool) -> None:
    """The next commit fails as a connection lost at that moment would: after the
    database committed it, or before."""

    def commit(connection: sa.Connection) -> None:
        sa.event.remove(store.engine, "commit", commit)
        driver = connection.connection.driver_connection
        if after_committing:
            driver.commit()  # type: ignore[union-attr]
        else:
            driver.rollback()  # type: ignore[union-attr]
        raise sa.exc.OperationalError("COMMIT", None, ConnectionError("server closed the connection"))

    sa.event.listen(store.engine, "commit", commit)


@pytest.mark.parametrize("committed", [True, False])
def test_a_commit_whose_answer_is_lost_is_in_doubt_until_the_store_is_read(store: Store, committed: bool) -> None:
    store.create_room(new_room("a"))
    store.append([OPENING])
    batch = AppendBatch("a", 2, [("move", 0, "r3")], action_id="k1")
    _lose_the_answer_to_commit(store, after_committing=committed)
    with pytest.raises(CommitInDoubt):
        store.append([batch])
    assert store.holds(batch) is committed
    room = store.load_room("a")
    assert room is not None and room.version == (3 if committed else 2)


def test_a_failure_before_the_commit_is_no_doubt(store: Store) -> None:
    store.create_room(new_room("a"))
    with pytest.raises(StaleVersion):  # the version check refuses it: nothing was written
        store.append([AppendBatch("a", 5, [("move", 0, "r3")])])


def test_a_log_that_went_on_otherwise_does_not_hold_the_batch(store: Store) -> None:
    store.create_room(new_room("a"))
    store.append([OPENING])
    store.append([AppendBatch("a", 2, [("move", 0, "pass")], action_id="k2")])
    assert store.holds(AppendBatch("a", 2, [("move", 0, "pass")], action_id="k2"))
    with pytest.raises(StaleVersion):
        store.holds(AppendBatch("a", 2, [("move", 0, "r3")], action_id="k1"))
    with pytest.raises(StaleVersion):  # the same move, but another client's
        store.holds(AppendBatch("a", 2, [("move", 0, "pass")], action_id="k3"))
