"""Clocked rooms: time runs on the server, is stored with every commit, and when it runs
out the stand-in bot plays that turn while the person keeps the seat."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import MakeClient
from tests.server.helpers import auth, new_room, view


def clocked_pair(client: TestClient, clock: object, game: str = "qwixx") -> tuple[dict[str, Any], str, str]:
    body = new_room(client, [{"kind": "person"}, {"kind": "person"}], claim=0, clock=clock, options={"first": 0})
    other = client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"], "name": "Jan"})
    assert other.status_code == 200, other.text
    return body, body["token"], other.json()["token"]


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("not in time")


def test_a_room_takes_a_preset_or_a_custom_clock_and_refuses_a_bad_one(make_client: MakeClient) -> None:
    client = make_client()
    body, _, _ = clocked_pair(client, "normal")
    assert body["clock"] == {"kind": "live", "per_move": 20, "reserve": 120, "per_point": False, "per_game": False}
    custom, _, _ = clocked_pair(client, {"per_move": 5, "reserve": 30})
    assert custom["clock"]["per_move"] == 5 and custom["clock"]["reserve"] == 30
    days = new_room(client, [{"kind": "person"}, {"kind": "person"}], clock="days-3")
    assert days["clock"]["kind"] == "correspondence" and days["absent_after"] == 0
    for bad in ["usbgf", "bullet", {"per_move": 0}]:
        refused = client.post("/api/rooms", json={"game": "qwixx", "seats": [{}, {}], "clock": bad})
        assert refused.status_code in (400, 422), (bad, refused.text)
    solo = client.post("/api/rooms", json={"game": "qwixx", "seats": [{}, {"kind": "bot"}], "clock": "normal"})
    assert solo.status_code == 422 and solo.json()["code"] == "invalid_option"
    assert new_room(client, [{"kind": "person"}, {"kind": "person"}])["clock"] is None


def test_the_clock_is_shown_on_the_socket_and_moves_with_the_turns(make_client: MakeClient) -> None:
    client = make_client()
    body, first, _ = clocked_pair(client, {"per_move": 30, "reserve": 60})
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as socket:
        socket.send_json({"type": "hello", "token": first})
        messages = [socket.receive_json() for _ in range(3)]
    clock = next(m for m in messages if m["type"] == "clock")["clock"]
    assert clock["control"]["per_move"] == 30
    running = [seat["running"] for seat in clock["seats"]]
    assert running == [True, True]  # Qwixx's white sum: both decide
    assert all(25 < seat["move"] <= 30 and seat["reserve"] == 60 for seat in clock["seats"])


def test_when_time_runs_out_the_stand_in_plays_that_turn_and_the_person_keeps_the_seat(
    make_client: MakeClient,
) -> None:
    client = make_client()
    body, first, second = clocked_pair(client, {"per_move": 1, "reserve": 0})
    room = body["room"]
    start = view(client, room, first)["version"]
    # Seat 1 answers at once; seat 0 lets its time run out.
    legal = view(client, room, second)["view"]["legal"]
    assert client.post(f"/api/rooms/{room}/actions", json={"action": legal[0]}, headers=auth(second)).status_code == 200
    moved = wait_for(lambda: (v := view(client, room, first))["version"] > start + 1 and v)
    summary = client.get(f"/api/rooms/{room}").json()
    seat0 = summary["seats"][0]
    assert seat0["bot"] is None and not seat0["stand_in"] and seat0["claimed"]
    stored = client.app.state.rooms.store.load_room(room)  # type: ignore[attr-defined]
    assert stored.clock["seats"][0]["timeouts"] >= 1 and stored.clock["seats"][1]["timeouts"] == 0
    assert any(kind == "move" and seat == 0 for kind, seat, _ in stored.events[start:])
    assert moved["version"] <= stored.version


def test_a_player_cannot_send_the_clocks_own_forfeit(make_client: MakeClient) -> None:
    client = make_client()
    body, first, _ = clocked_pair(client, "normal")
    refused = client.post(f"/api/rooms/{body['room']}/actions", json={"action": "forfeit"}, headers=auth(first))
    assert refused.status_code == 409 and refused.json()["code"] == "illegal_action"
