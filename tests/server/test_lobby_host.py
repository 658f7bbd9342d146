"""Lobby honesty: an open room shows whether its host is here, and drops from the lobby
once the host has been away for the documented time."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from hraj.server.app import LOBBY_HOST_GONE
from tests.server.conftest import MakeClient
from tests.server.helpers import new_room


def test_the_lobby_shows_the_hosts_presence_and_drops_rooms_whose_host_left_long_ago(make_client: MakeClient) -> None:
    client = make_client()
    room = new_room(client, [{}, {}], claim=0, public=True)
    listed = client.get("/api/lobby").json()["rooms"]
    (entry,) = [r for r in listed if r["room"] == room["room"]]
    assert entry["host_away_since"] is not None  # made, but the host's page has not connected yet

    def host_away() -> str | None:
        found = [r for r in client.get("/api/lobby").json()["rooms"] if r["room"] == room["room"]]
        assert found
        since: str | None = found[0]["host_away_since"]
        return since

    def soon(check: Callable[[], bool]) -> None:  # the host's coming and going is written as it happens
        deadline = time.monotonic() + 10
        while not check():
            assert time.monotonic() < deadline
            time.sleep(0.05)

    with client.websocket_connect(f"/ws/rooms/{room['room']}") as socket:
        socket.send_json({"type": "hello", "token": room["token"]})
        socket.receive_json()
        soon(lambda: host_away() is None)
    soon(lambda: host_away() is not None)
    store = client.app.state.rooms.store  # type: ignore[attr-defined]
    store.note_host(room["room"], dt.datetime.now(dt.UTC) - LOBBY_HOST_GONE - dt.timedelta(seconds=1))
    client.app.state.open_rooms.forget()  # type: ignore[attr-defined]  # the lobby is read at most once a second
    assert room["room"] not in [r["room"] for r in client.get("/api/lobby").json()["rooms"]]
    page = client.get("/lobby?lang=cs").text
    assert room["room"] not in page and "10 minut" in page
