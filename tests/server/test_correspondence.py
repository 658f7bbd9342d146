"""Correspondence rooms: days per move, a reminder by Web Push when a turn begins for a
player who is away, no absent-player bot, and rooms that wait in the store only."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from hraj.server import deadline_watch
from hraj.server.settings import new_vapid_key
from hraj.store.timekeeping import WAITING
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, new_room, view
from tests.server.push_receiver import PushReceiver


def correspondence(client: TestClient) -> tuple[dict[str, Any], str, str]:
    body = new_room(client, [{}, {}], claim=0, clock="days-1", options={"first": 0})
    other = client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"], "name": "Jan"})
    return body, body["token"], other.json()["token"]


@pytest.fixture
def receiver() -> Any:
    found = PushReceiver()
    yield found
    found.close()


def test_a_turn_that_begins_for_an_away_player_is_pushed_to_their_browser(
    make_client: MakeClient, receiver: PushReceiver
) -> None:
    client = make_client(vapid_key=new_vapid_key(), push_local=True)
    body, first, second = correspondence(client)
    room = body["room"]
    assert body["absent_after"] == 0  # only the time per move brings the stand-in
    subscribed = client.post(
        "/api/push",
        json={"subscription": receiver.subscription(), "lang": "cs", "seats": [{"room": room, "token": second}]},
    )
    assert subscribed.status_code == 201, subscribed.text
    # The white sum (both pass), seat 0's colour step (it passes): the next roll begins
    # a turn for seat 1, who is away.
    for token in (second, first, first):
        moved = client.post(f"/api/rooms/{room}/actions", json={"action": "pass"}, headers=auth(token))
        assert moved.status_code == 200, moved.text
    assert 1 in view(client, room, second)["view"]["to_act"]
    (message, *_) = receiver.wait_for(1)
    assert message.payload["url"] == f"/r/{room}" and message.payload["title"] == "Jste na tahu"
    assert message.payload["body"] == "Ve hře Qwixx jste na tahu."


def test_a_correspondence_room_nobody_watches_waits_in_the_store_and_wakes_when_opened(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_client()
    body, first, _ = correspondence(client)
    room = body["room"]
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    monkeypatch.setattr(deadline_watch, "WAIT_AFTER_S", 0.0)

    async def let_wait() -> list[str]:
        let: list[str] = await rooms.deadlines.let_wait()
        return let

    let = client.portal.call(let_wait)  # type: ignore[union-attr]  # in the app's own loop
    assert let == [room] and room not in rooms.rooms
    assert rooms.store.room_ids(WAITING) == [room]
    assert len(rooms.deadlines.heap.current(room)) == 2  # still watched while it waits
    opened = view(client, room, first)
    assert opened["status"] == "playing" and room in rooms.rooms
    assert rooms.store.room_ids(WAITING) == []
