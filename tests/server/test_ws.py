"""The WebSocket half of the protocol: hello, moves, acks, errors, reconnection, limits."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from hraj.server.guard import CLOSE_TOO_MANY
from hraj.server.room_socket import ADDRESS_SOCKETS
from tests.server.conftest import MakeClient
from tests.server.helpers import illegal_for, new_room, two_people, view


def hello(ws: WebSocketTestSession, token: str | None = None, since: int | None = None, **extra: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "since": since, **extra})
    welcome: dict[str, Any] = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def until(ws: WebSocketTestSession, kind: str, message_id: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """Read up to the first message of `kind` (with that id); also the kinds seen before it."""
    seen: list[str] = []
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind and (message_id is None or message.get("id") == message_id):
            return message, seen
        seen.append(message["type"])


def closed_with(ws: WebSocketTestSession, code: int) -> None:
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == code


def test_a_socket_must_start_with_hello(client: TestClient) -> None:
    body = new_room(client, [{}, {}])
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        ws.send_json({"type": "act", "action": "pass"})
        error = ws.receive_json()
        assert (error["type"], error["code"], error["key"]) == (
            "error",
            "hello_required",
            "Start with a hello message.",
        )
        closed_with(ws, 4400)


def test_an_unknown_room_is_an_error_message_then_a_close(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/nothing-here") as ws:
        error = ws.receive_json()
        assert (error["code"], error["params"]) == ("not_found", {"room": "nothing-here"})
        closed_with(ws, 4404)


def test_a_wrong_token_is_refused(client: TestClient) -> None:
    body = new_room(client, [{}, {}])
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token-of-this-room"})
        assert ws.receive_json()["code"] == "unauthorized"
        closed_with(ws, 4401)


def test_a_spectator_watches_but_cannot_act(client: TestClient) -> None:
    body, _, _ = two_people(client)
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        welcome = hello(ws)
        assert welcome["seat"] is None and welcome["commitment"] == body["commitment"]
        state = ws.receive_json()
        assert state["type"] == "state" and state["view"]["seat"] is None and state["version"] == welcome["version"]
        ws.send_json({"type": "act", "action": "pass", "id": "a1"})
        error, _ = until(ws, "error", "a1")
        assert error["code"] == "forbidden"
        ws.send_json({"type": "ping", "id": "p1"})
        assert until(ws, "pong", "p1")[0]["version"] == welcome["version"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("not json", None),
        ('{"type": "dance"}', None),
        ('{"type": "act"}', "act.action"),
        ('{"type": "act", "action": "pass", "colour": "red"}', "act.colour"),
        ('{"type": "act", "action": ""}', "act.action"),
        ('["act"]', None),
    ],
)
def test_malformed_messages_get_an_error_and_the_socket_stays(client: TestClient, text: str, where: str | None) -> None:
    body, token, _ = two_people(client)
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        hello(ws, token)
        ws.send_text(text)
        error, _ = until(ws, "error")
        assert error["code"] == "bad_message" and error["key"] == "The message is not valid at {where}: {why}."
        if where is not None:
            assert error["params"]["where"] == where
        ws.send_json({"type": "ping", "id": "still-there"})
        until(ws, "pong", "still-there")


def test_a_second_hello_is_refused(client: TestClient) -> None:
    body, token, _ = two_people(client)
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        hello(ws, token)
        ws.send_json({"type": "hello", "token": token})
        error, _ = until(ws, "error")
        assert (error["code"], error["key"]) == ("bad_message", "Say hello only once per connection.")


def test_a_move_is_broadcast_before_it_is_acknowledged(client: TestClient) -> None:
    body, *tokens = two_people(client)
    room = body["room"]
    seat = view(client, room)["view"]["to_act"][0]
    other = 1 - seat
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as mine,
        client.websocket_connect(f"/ws/rooms/{room}") as theirs,
    ):
        hello(mine, tokens[seat])
        state, _ = until(mine, "state")
        hello(theirs, tokens[other])
        until(theirs, "state")
        legal = state["view"]["legal"]
        mine.send_json({"type": "act", "action": illegal_for(legal), "id": "bad"})
        refused, _ = until(mine, "error", "bad")
        assert refused["code"] == "illegal_action"
        mine.send_json({"type": "act", "action": "q5", "id": "nonsense"})
        assert until(mine, "error", "nonsense")[0]["code"] == "invalid_action"
        mine.send_json({"type": "act", "action": legal[0], "id": "good"})
        ack, before = until(mine, "ack", "good")
        assert "state" in before, "the new state comes before the acknowledgement"
        assert ack["version"] > state["version"]
        pushed, _ = until(theirs, "state")
        assert pushed["view"]["seat"] == other and pushed["version"] > state["version"]


def test_a_reconnecting_client_gets_only_what_followed(client: TestClient) -> None:
    body, *tokens = two_people(client)
    room = body["room"]
    seat = view(client, room)["view"]["to_act"][0]
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        first = hello(ws, tokens[seat])
        until(ws, "state")
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        again = hello(ws, tokens[seat], since=first["version"])
        assert again["version"] == first["version"]
        ws.send_json({"type": "ping", "id": "p"})
        _, before = until(ws, "pong", "p")
        assert "state" not in before, "nothing new happened, so no state is sent"
        ws.send_json({"type": "act", "action": view(client, room, tokens[seat])["view"]["legal"][0], "id": "m"})
        moved, _ = until(ws, "ack", "m")
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        hello(ws, tokens[seat], since=first["version"])
        state, _ = until(ws, "state")
        assert state["version"] >= moved["version"] > first["version"]


def test_a_seat_can_be_left_to_a_bot_and_taken_back_over_the_socket(client: TestClient) -> None:
    body, mine, _ = two_people(client)
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        hello(ws, mine)
        ws.send_json({"type": "leave", "bot": "random", "id": "l"})
        until(ws, "ack", "l")
        assert client.get(f"/api/rooms/{body['room']}").json()["seats"][0]["bot"] == "random"
        ws.send_json({"type": "back", "id": "b"})
        until(ws, "ack", "b")
        seats = client.get(f"/api/rooms/{body['room']}").json()["seats"]
        assert seats[0]["bot"] is None and seats[0]["connected"] is True


def test_the_end_reveals_the_seed_to_every_connection(client: TestClient) -> None:
    body = new_room(client, [{}, {"kind": "bot"}], claim=0)
    room = body["room"]
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        hello(ws, body["token"])
        ws.send_json({"type": "leave", "bot": "random", "id": "l"})
        while True:  # the bots finish the game
            message = ws.receive_json()
            if message["type"] == "state" and message["status"] == "over":
                break
            assert "seed" not in message
        assert message["seed"] == client.get(f"/api/rooms/{room}/record").json()["room"]["seed"]
        assert message["view"]["outcome"]["winners"]


def test_oversized_messages_and_floods_get_errors(make_client: MakeClient) -> None:
    client = make_client(ws_rate=0.001, ws_burst=5, max_message_bytes=512)
    body, token, _ = two_people(client)
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        hello(ws, token)
        ws.send_text(json.dumps({"type": "ping", "id": "x" * 600}))
        error, _ = until(ws, "error")
        assert (error["code"], error["params"]) == ("too_large", {"limit": 512})
        for number in range(4):
            ws.send_json({"type": "ping", "id": str(number)})
            until(ws, "pong", str(number))
        ws.send_json({"type": "ping", "id": "flood"})
        assert until(ws, "error")[0]["code"] == "rate_limited"
        with pytest.raises(WebSocketDisconnect) as closed:  # closed, not answered message by message
            ws.receive_json()
        assert closed.value.code == CLOSE_TOO_MANY
    # The address opens no other socket for a while.
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        ws.receive_json()
    assert refused.value.code == CLOSE_TOO_MANY


def test_the_sockets_of_one_address_share_its_message_budget(make_client: MakeClient) -> None:
    """Sockets of one address, each well within its own rate, together send more than the
    address's `ADDRESS_SOCKETS` sockets' worth: the socket that goes over is closed,
    after 3 of its own 10. (A flooder's thirty sockets each sent their own burst of 40
    whenever its penalty ended.)"""
    client = make_client(ws_rate=0.001, ws_burst=10)
    body, _, _ = two_people(client)
    room = body["room"]
    each, budget = 8, 10 * ADDRESS_SOCKETS
    first = budget // each  # sockets that send `each` pings, under the address's budget
    with contextlib.ExitStack() as stack:
        opened = [stack.enter_context(client.websocket_connect(f"/ws/rooms/{room}")) for _ in range(first + 1)]
        for ws in opened:
            hello(ws)
        for ws in opened[:first]:
            for number in range(each):
                ws.send_json({"type": "ping", "id": str(number)})
                until(ws, "pong", str(number))
        last = opened[-1]
        left = budget - first * each
        assert 0 < left < 10, "the last socket is far from its own limit"
        for number in range(left):
            last.send_json({"type": "ping", "id": str(number)})
            until(last, "pong", str(number))
        last.send_json({"type": "ping", "id": "over"})
        answer = last.receive_json()  # not a pong
        assert (answer["type"], answer.get("code")) == ("error", "rate_limited"), answer
        with pytest.raises(WebSocketDisconnect) as closed:
            last.receive_json()
        assert closed.value.code == CLOSE_TOO_MANY
