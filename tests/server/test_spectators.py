"""Spectators share one state per tick, and a room holds a bounded number of them.

Before, 2,000 spectator sockets on one room turned 47 moves into 54,000 frames, and
another room's moves waited for them (p99 17 ms -> 419 ms).
"""

from __future__ import annotations

import asyncio

import pytest
from starlette.websockets import WebSocketDisconnect

from hraj.server.guard import CLOSE_TOO_MANY
from hraj.server.spectators import SpectatorFeed
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, new_room
from tests.server.test_ws import hello, until


class Watcher:
    def __init__(self) -> None:
        self.got: list[str] = []

    def push(self, message: str) -> None:
        self.got.append(message)


def test_spectators_get_the_first_state_at_once_and_then_only_the_newest_per_tick() -> None:
    async def scenario() -> list[list[str]]:
        feed = SpectatorFeed(interval=0.2, most=10)
        watchers = [Watcher(), Watcher()]
        for watcher in watchers:
            assert feed.admit(watcher)
        feed.publish("v1")
        seen_at_once = list(watchers[0].got)
        for version in ("v2", "v3", "v4"):  # three moves within one tick
            feed.publish(version)
        await asyncio.sleep(0.35)
        feed.close()
        return [seen_at_once, *(w.got for w in watchers)]

    at_once, first, second = asyncio.run(scenario())
    assert at_once == ["v1"]
    assert first == second == ["v1", "v4"], "one frame per tick, the newest"


def test_a_feed_holds_at_most_its_spectators() -> None:
    feed = SpectatorFeed(interval=0.2, most=2)
    watchers = [Watcher() for _ in range(3)]
    assert [feed.admit(w) for w in watchers] == [True, True, False]
    feed.discard(watchers[0])
    assert feed.admit(watchers[2])


def test_a_room_full_of_spectators_refuses_one_more_but_never_a_player(make_client: MakeClient) -> None:
    client = make_client(spectators=2)
    body = new_room(client, [{"kind": "person"}, {"kind": "person"}], claim=0)
    room = body["room"]
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as first,
        client.websocket_connect(f"/ws/rooms/{room}") as second,
    ):
        hello(first)
        hello(second)
        with client.websocket_connect(f"/ws/rooms/{room}") as third:
            third.send_json({"type": "hello"})
            error = third.receive_json()
            assert (error["type"], error["code"]) == ("error", "rate_limited")
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == CLOSE_TOO_MANY
        with client.websocket_connect(f"/ws/rooms/{room}") as player:
            assert hello(player, body["token"])["seat"] == 0
            # The spectators see the player's move as a state, as the player does.
            answer = client.post(
                f"/api/rooms/{room}/actions", json={"action": "pass", "id": "x"}, headers=auth(body["token"])
            )
            assert answer.status_code == 200
            version = answer.json()["version"]
            for ws in (first, second, player):
                while until(ws, "state")[0]["version"] < version:
                    pass
