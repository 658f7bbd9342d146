"""The database fails mid-play: nothing unsaved is shown or kept, and the same move works once it is back.

Three outages: the SQLite file turns read-only (every write fails, reads go on), the
database stops altogether (reads fail too, so the room cannot reload what is stored
and must undo the move by itself), and a real PostgreSQL server is stopped at once and
started again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from hraj.app.site import create_app
from hraj.server.settings import Settings
from hraj.store import AppendBatch, NewRoom, RoomData, Store
from tests.server.conftest import SECRET
from tests.server.helpers import auth, new_room, two_people, view
from tests.server.test_ws import hello, until
from tests.store.databases import postgres_url_or_fail


class ReadOnlySwitch:
    """Turns a SQLite store read-only at the database itself (`PRAGMA query_only`)."""

    def __init__(self, store: Store) -> None:
        self.on = False
        sa.event.listen(store.engine, "checkout", self._checkout)

    def _checkout(self, dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA query_only = {1 if self.on else 0}")
        cursor.close()


class StoppedStore(Store):
    """A store whose database is gone while `stopped` is set: every call fails as a dead server does."""

    stopped = False

    def _check(self) -> None:
        if self.stopped:
            raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    def append(self, batches: Iterable[AppendBatch], owner: str | None = None) -> None:
        self._check()
        super().append(batches, owner)

    def load_room(self, room_id: str, *, with_events: bool = True) -> RoomData | None:
        self._check()
        return super().load_room(room_id, with_events=with_events)

    def ping(self) -> None:
        self._check()
        super().ping()

    def create_room(self, room: NewRoom) -> RoomData:
        self._check()
        return super().create_room(room)

    def claim_seat(
        self,
        room_id: str,
        seat: int,
        token_hash: str,
        name: str | None,
        gender: str | None = None,
        owner: str | None = None,
    ) -> bool:
        self._check()
        return super().claim_seat(room_id, seat, token_hash, name, gender, owner)


@pytest.fixture
def stopped(tmp_path: Path) -> Iterator[tuple[TestClient, StoppedStore]]:
    store = StoppedStore(f"sqlite:///{tmp_path / 'hraj.db'}")
    with TestClient(create_app(Settings(database_url=store.url, secret=SECRET), store)) as client:
        yield client, store


def stored_events(store: Store, room: str) -> list[tuple[str, int | None, str]]:
    data = store.load_room(room)
    assert data is not None
    return data.events


def play_through_outage(client: TestClient, store: Store, fail: Any, heal: Any) -> None:
    body, *tokens = two_people(client)
    room = body["room"]
    seat = view(client, room)["view"]["to_act"][0]
    before = view(client, room, tokens[seat])
    log_before = stored_events(store, room)
    action = before["view"]["legal"][-1]
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as player,
        client.websocket_connect(f"/ws/rooms/{room}") as watcher,
    ):
        hello(player, tokens[seat])
        hello(watcher)
        until(watcher, "state")
        until(player, "state")
        fail()
        player.send_json({"type": "act", "action": action, "id": "a1"})
        error, seen = until(player, "error", "a1")
        assert error["code"] == "unavailable", error
        assert "state" not in seen and "ack" not in seen
        over_http = client.post(f"/api/rooms/{room}/actions", json={"action": action}, headers=auth(tokens[seat]))
        assert over_http.status_code == 503 and over_http.json()["code"] == "unavailable"
        watcher.send_json({"type": "ping", "id": "p"})
        pong, seen = until(watcher, "pong", "p")
        assert "state" not in seen and pong["version"] == before["version"], "nothing unsaved was broadcast"
        assert client.get("/api/health").status_code == 503
        heal()
        assert view(client, room, tokens[seat]) == before, "the room is exactly as stored"
        assert stored_events(store, room) == log_before
        player.send_json({"type": "act", "action": action, "id": "a2"})
        ack, _ = until(player, "ack", "a2")
        assert ack["version"] > before["version"]
    after = stored_events(store, room)
    assert after[: len(log_before)] == log_before
    moves = [event for event in after[len(log_before) :] if event[0] == "move"]
    assert moves == [("move", seat, action)], "the retried move is stored once, alone"
    assert len(after) == ack["version"]


def test_a_read_only_sqlite_file_refuses_the_move_and_the_retry_succeeds(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'hraj.db'}")
    switch = ReadOnlySwitch(store)
    with TestClient(create_app(Settings(database_url=store.url, secret=SECRET), store)) as client:

        def fail() -> None:
            switch.on = True

        def heal() -> None:
            switch.on = False

        play_through_outage(client, store, fail, heal)


def test_a_stopped_database_refuses_the_move_and_the_retry_succeeds(
    stopped: tuple[TestClient, StoppedStore],
) -> None:
    """Before, the room could not reload from a stopped database: `internal`, the unsaved
    move stayed in memory, the retry was illegal and the move was stored later with another."""
    client, store = stopped

    def fail() -> None:
        store.stopped = True

    def heal() -> None:
        store.stopped = False

    play_through_outage(client, store, fail, heal)


def test_store_failures_over_http_are_503_not_500(stopped: tuple[TestClient, StoppedStore]) -> None:
    client, store = stopped
    body = new_room(client, [{"kind": "person"}] * 3, claim=0)
    store.stopped = True
    created = client.post("/api/rooms", json={"game": "qwixx", "seats": [{"kind": "person"}] * 2})
    assert created.status_code == 503 and created.json()["code"] == "unavailable"
    health = client.get("/api/health")
    assert health.status_code == 503 and health.json()["ok"] is False
    ready = client.get("/api/ready")  # a proxy's health check takes the process out of rotation
    assert ready.status_code == 503 and ready.json()["ready"] is False
    claimed = client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]})
    assert claimed.status_code == 503 and claimed.json()["code"] == "unavailable"
    store.stopped = False
    assert client.get("/api/health").status_code == 200
    assert client.get("/api/ready").json() == {"ready": True}


SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "postgres.sh"


@pytest.mark.slow
def test_a_stopped_postgresql_refuses_the_move_and_the_retry_succeeds() -> None:
    """PostgreSQL of its own, stopped at once mid-play (`pg_ctl -m immediate`) and started again."""
    import os
    import shutil
    import subprocess

    if shutil.which("pg_ctl") is None and not list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        postgres_url_or_fail()  # skips on a developer's machine, fails in CI
    started = subprocess.run(["bash", str(SCRIPT), "start"], capture_output=True, text=True, check=True)
    exports = dict(item.split("=", 1) for item in started.stdout.split()[1:])
    env = {**os.environ, **exports}

    def script(command: str) -> None:
        subprocess.run(["bash", str(SCRIPT), command], env=env, check=True, capture_output=True)

    try:
        store = Store(exports["HRAJ_TEST_POSTGRES_URL"])
        with TestClient(create_app(Settings(database_url=store.url, secret=SECRET), store)) as client:
            play_through_outage(client, store, lambda: script("pause"), lambda: script("resume"))
        store.close()
    finally:
        script("stop")
