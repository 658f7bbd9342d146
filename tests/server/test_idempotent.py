"""A move sent again with its id is answered, never applied twice; `unavailable` means
not stored, even when the database fails in the middle of a commit.

Solo Qwixx makes a move that is legal twice in a row: the active player passes the
white sum, then passes again for the colours. Before, a `pass` sent again (its answer
was lost) was applied twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.core.record import MOVE
from hraj.server.settings import Settings
from hraj.store import AppendBatch, CommitInDoubt, Store
from tests.server.conftest import SECRET
from tests.server.helpers import auth, new_room, view
from tests.server.test_ws import hello, until


def moves_of(store_url: str, room: str) -> list[tuple[str, int | None, str]]:
    store = Store(store_url)
    try:
        data = store.load_room(room)
        assert data is not None
        return [event for event in data.events if event[0] == MOVE]
    finally:
        store.close()


def solo(client: TestClient) -> tuple[str, str]:
    body = new_room(client, [{"kind": "person"}], claim=0)
    return body["room"], body["token"]


def test_a_move_sent_again_over_the_socket_is_answered_as_the_first_time(client: TestClient) -> None:
    room, token = solo(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        hello(ws, token)
        ws.send_json({"type": "act", "action": "pass", "id": "move-1"})
        first, _ = until(ws, "ack", "move-1")
        ws.send_json({"type": "act", "action": "pass", "id": "move-1"})  # its answer was lost, say
        again, seen = until(ws, "ack", "move-1")
        assert again == first
        assert "state" not in seen, "nothing happened"
    assert view(client, room, token)["version"] == first["version"]
    assert view(client, room, token)["view"]["phase"] != "white", "the pass was applied once: colours are next"


def test_a_move_sent_again_over_http_after_a_restart_is_answered_as_the_first_time(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'hraj.db'}"
    with TestClient(create_app(Settings(database_url=database, secret=SECRET))) as client:
        room, token = solo(client)
        first = client.post(f"/api/rooms/{room}/actions", json={"action": "pass", "id": "k"}, headers=auth(token))
        assert first.status_code == 200, first.text
    with TestClient(create_app(Settings(database_url=database, secret=SECRET))) as client:
        again = client.post(f"/api/rooms/{room}/actions", json={"action": "pass", "id": "k"}, headers=auth(token))
        assert again.status_code == 200 and again.json() == first.json()
        other = client.post(f"/api/rooms/{room}/actions", json={"action": "pass", "id": "k2"}, headers=auth(token))
        assert other.status_code == 200 and other.json()["version"] > first.json()["version"]
    assert [text for _, _, text in moves_of(database, room)] == ["pass", "pass"]


def test_ids_are_the_seats_own(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'hraj.db'}"
    with TestClient(create_app(Settings(database_url=database, secret=SECRET))) as client:
        body = new_room(client, [{"kind": "person"}, {"kind": "person"}], claim=0)
        room = body["room"]
        other = client.post(f"/api/rooms/{room}/claim", json={"invite": body["invite"]}).json()["token"]
        for token in (body["token"], other):  # both answer the white sum, each with its own "1"
            answer = client.post(f"/api/rooms/{room}/actions", json={"action": "pass", "id": "1"}, headers=auth(token))
            assert answer.status_code == 200, answer.text
    moves = moves_of(database, room)
    assert len(moves) == 2 and {seat for _, seat, _ in moves} == {0, 1}


class CommitLost(Store):
    """The next move's commit fails as a connection lost at that moment does: after the
    database committed it (`stored`) or before; then the store cannot be read for
    `unreadable` tries."""

    doubt: bool | None = None
    unreadable = 0

    def append(self, batches: Iterable[AppendBatch], owner: str | None = None) -> None:
        batches = list(batches)
        stored, self.doubt = self.doubt, None
        if stored is None or not any(batch.action_id for batch in batches):
            super().append(batches, owner)
            return
        if stored:
            super().append(batches, owner)
        raise CommitInDoubt("The database did not confirm the commit: {why}", why="connection lost")

    def holds(self, batch: AppendBatch) -> bool:
        if self.unreadable:
            self.unreadable -= 1
            raise sa.exc.OperationalError("SELECT", {}, ConnectionError("connection refused"))
        return super().holds(batch)


def play_in_doubt(tmp_path: Path, stored: bool) -> tuple[dict[str, Any], list[tuple[str, int | None, str]], Any]:
    store = CommitLost(f"sqlite:///{tmp_path / 'hraj.db'}")
    with TestClient(create_app(Settings(database_url=store.url, secret=SECRET), store)) as client:
        room, token = solo(client)
        store.doubt, store.unreadable = stored, 3
        answer = client.post(f"/api/rooms/{room}/actions", json={"action": "pass", "id": "m"}, headers=auth(token))
        retry = client.post(f"/api/rooms/{room}/actions", json={"action": "pass", "id": "m"}, headers=auth(token))
        seen = view(client, room, token)
    return (
        answer.json() | {"status": answer.status_code, "retry": retry.json(), "seen": seen},
        moves_of(store.url, room),
        store,
    )


def test_a_commit_in_doubt_that_was_stored_is_acknowledged_not_unavailable(tmp_path: Path) -> None:
    """The move waits while the store cannot be read, then gets its `ack`: before, it was
    answered `unavailable` ("not saved, send it again") though it was saved."""
    answer, moves, _ = play_in_doubt(tmp_path, stored=True)
    assert answer["status"] == 200, answer
    assert moves == [("move", 0, "pass")]
    assert answer["retry"] == {key: answer[key] for key in ("room", "version", "head")}
    assert answer["seen"]["version"] == answer["version"]


def test_a_commit_in_doubt_that_was_not_stored_is_unavailable_and_the_retry_stores_it(tmp_path: Path) -> None:
    answer, moves, _ = play_in_doubt(tmp_path, stored=False)
    assert answer["status"] == 503 and answer["code"] == "unavailable", answer
    assert answer["retry"]["version"] == answer["seen"]["version"]
    assert moves == [("move", 0, "pass")]
