"""Small helpers for the in-process HTTP and WebSocket tests."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

CANDIDATES = [f"{row}{number}" for row in "rygb" for number in range(2, 13)]


def new_room(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={"game": "qwixx", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def two_people(client: TestClient) -> tuple[dict[str, Any], str, str]:
    """A two-seat Qwixx room with both seats claimed: (room, token of seat 0, token of seat 1)."""
    body = new_room(client, [{"kind": "person"}, {"kind": "person"}], claim=0)
    other = client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"], "name": "Jan"})
    assert other.status_code == 200, other.text
    return body, body["token"], other.json()["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view(client: TestClient, room: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/rooms/{room}/view", headers=auth(token) if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def illegal_for(legal: list[str]) -> str:
    """An action that parses but is not legal now."""
    return next(action for action in CANDIDATES if action not in legal)


def until_over(client: TestClient, room: str, timeout: float = 30.0) -> dict[str, Any]:
    """The room's summary once its game is over (bots play in the server's loop meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        summary: dict[str, Any] = client.get(f"/api/rooms/{room}").json()
        if summary["status"] == "over":
            return summary
        assert time.monotonic() < deadline, f"room {room} is still playing at version {summary['version']}"
        time.sleep(0.05)
