"""Bounded work and absent players: rooms of bots, per-address limits, stand-ins, who hears what."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import MakeClient
from tests.server.helpers import auth, new_room, two_people, view
from tests.server.test_ws import hello, until

LONG_MATCH = {"game": "backgammon", "options": {"match_length": 32767}}
PUBEVAL = {"kind": "bot", "bot": "pubeval"}


def summary(client: TestClient, room: str) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/rooms/{room}").json()
    return body


def test_a_room_of_bots_answers_at_once_and_plays_at_a_bounded_pace(make_client: MakeClient) -> None:
    """Before, the answer came only when the whole 32,767-point match was over (such a
    match of bots alone needs a server that allows endless ones)."""
    client = make_client(bot_pace=0.05, bot_rooms_endless=True)
    began = time.monotonic()
    created = client.post("/api/rooms", json={**LONG_MATCH, "seats": [PUBEVAL, PUBEVAL]})
    assert created.status_code == 201, created.text
    assert time.monotonic() - began < 2.0
    first = created.json()["version"]
    time.sleep(0.6)
    later = summary(client, created.json()["room"])
    assert later["status"] == "playing"
    # at most one bot move per 0.05 s, each followed by at most a few chance or forced steps
    assert first < later["version"] <= first + 13 * 4


def test_a_public_server_may_refuse_rooms_of_bots_only(make_client: MakeClient) -> None:
    client = make_client(bot_rooms=False)
    refused = client.post("/api/rooms", json={**LONG_MATCH, "seats": [PUBEVAL, PUBEVAL]})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    new_room(client, [{"kind": "person"}, {"kind": "bot"}])


def test_a_room_whose_people_left_to_bots_is_paced_too(make_client: MakeClient) -> None:
    client = make_client(bot_pace=0.2)
    body, *tokens = two_people(client)
    room = body["room"]
    for seat, token in enumerate(tokens):
        assert client.post(f"/api/rooms/{room}/seats/{seat}/bot", json={}, headers=auth(token)).status_code == 200
    start = summary(client, room)["version"]
    time.sleep(0.5)
    assert summary(client, room)["version"] - start <= 3 * 8


def test_rooms_per_address_are_limited(make_client: MakeClient) -> None:
    client = make_client(room_rate=0.001, room_burst=3)
    for _ in range(3):
        new_room(client, [{"kind": "person"}, {"kind": "person"}])
    refused = client.post("/api/rooms", json={"game": "qwixx", "seats": [{"kind": "person"}] * 2})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_socket_upgrades_per_address_are_limited(make_client: MakeClient) -> None:
    """Before, WebSocket upgrades bypassed the limiter (227 connections/s from one address)."""
    client = make_client(ws_connect_rate=0.001, ws_connect_burst=2)
    body, _, _ = two_people(client)
    for _ in range(2):
        with client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
            hello(ws)
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/rooms/{body['room']}") as ws:
        ws.receive_json()


def test_open_sockets_per_address_are_limited(make_client: MakeClient) -> None:
    client = make_client(ws_per_address=1)
    body, _, _ = two_people(client)
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as first:
        hello(first)
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/rooms/{body['room']}") as second:
            second.receive_json()
    with client.websocket_connect(f"/ws/rooms/{body['room']}") as again:
        hello(again)


def test_spectators_coming_and_going_send_nobody_a_seats_message(client: TestClient) -> None:
    """Before, every connect and disconnect sent `seats` to everyone (1.12 M messages for 1,500 watchers)."""
    body, mine, theirs = two_people(client)
    room = body["room"]
    with client.websocket_connect(f"/ws/rooms/{room}") as player:
        hello(player, mine)
        until(player, "state")
        for _ in range(3):
            with client.websocket_connect(f"/ws/rooms/{room}") as watcher:
                hello(watcher)
        player.send_json({"type": "ping", "id": "p"})
        _, seen = until(player, "pong", "p")
        assert "seats" not in seen
        with client.websocket_connect(f"/ws/rooms/{room}") as other:
            hello(other, theirs)
            seats, _ = until(player, "seats")
            assert seats["seats"][1]["connected"] is True
        seats, _ = until(player, "seats")
        assert seats["seats"][1]["connected"] is False


def test_a_second_socket_of_a_connected_seat_changes_nothing_for_the_others(client: TestClient) -> None:
    body, mine, theirs = two_people(client)
    room = body["room"]
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as player,
        client.websocket_connect(f"/ws/rooms/{room}") as other,
    ):
        hello(player, mine)
        hello(other, theirs)
        until(player, "seats")
        with client.websocket_connect(f"/ws/rooms/{room}") as tab:
            hello(tab, theirs)
        player.send_json({"type": "ping", "id": "p"})
        _, seen = until(player, "pong", "p")
        assert "seats" not in seen


def test_an_absent_player_who_must_act_is_played_by_a_stand_in_until_they_return(make_client: MakeClient) -> None:
    """Before, a seat whose player had gone kept the room waiting for ever."""
    client = make_client(bot_pace=0.05)
    body = new_room(client, [{"kind": "person"}, {"kind": "person"}], claim=0, absent_after=1)
    token = body["token"]
    other = client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]}).json()["token"]
    room = body["room"]
    assert summary(client, room)["absent_after"] == 1
    with client.websocket_connect(f"/ws/rooms/{room}") as present:
        hello(present, other)
        deadline = time.monotonic() + 10
        while not summary(client, room)["seats"][0]["stand_in"]:
            assert time.monotonic() < deadline, "no stand-in came for the absent seat 0"
            time.sleep(0.05)
        seats, _ = until(present, "seats")
        while not seats["seats"][0]["stand_in"]:
            seats, _ = until(present, "seats")
        assert seats["seats"][0]["bot"] is not None and seats["seats"][1]["stand_in"] is False
        with client.websocket_connect(f"/ws/rooms/{room}") as back:
            welcome = hello(back, token)
            assert welcome["seats"][0]["stand_in"] is False and welcome["seats"][0]["bot"] is None
            seats, _ = until(present, "seats")
            while seats["seats"][0]["stand_in"] or not seats["seats"][0]["connected"]:
                seats, _ = until(present, "seats")


def test_a_room_may_turn_stand_ins_off(make_client: MakeClient) -> None:
    client = make_client(absent_after=1)
    body = new_room(client, [{"kind": "person"}, {"kind": "person"}], claim=0, absent_after=0)
    client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]})
    version = summary(client, body["room"])["version"]
    time.sleep(1.5)
    after = summary(client, body["room"])
    assert after["version"] == version and not any(seat["stand_in"] for seat in after["seats"])


def test_the_host_cannot_hand_a_connected_players_seat_to_a_bot(client: TestClient) -> None:
    body, _, theirs = two_people(client)
    room = body["room"]
    host = auth(body["host_token"])
    with client.websocket_connect(f"/ws/rooms/{room}") as other:
        hello(other, theirs)
        refused = client.post(f"/api/rooms/{room}/seats/1/bot", json={"bot": "random"}, headers=host)
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
        assert refused.json()["message"] == "Jan is here; only they can leave their seat to a bot."
        own = client.post(f"/api/rooms/{room}/seats/1/bot", json={"bot": "random"}, headers=auth(theirs))
        assert own.status_code == 200
        assert client.post(f"/api/rooms/{room}/seats/1/back", headers=auth(theirs)).status_code == 200
    handed = client.post(f"/api/rooms/{room}/seats/1/bot", json={"bot": "random"}, headers=host)
    assert handed.status_code == 200


def test_every_acknowledgement_carries_the_chain_head_of_the_stored_log(client: TestClient) -> None:
    from hraj.server.fairness import DICE_CURRENT, chain_head

    body, *tokens = two_people(client)
    room = body["room"]
    seat = view(client, room)["view"]["to_act"][0]
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = hello(ws, tokens[seat])
        state, _ = until(ws, "state")
        assert welcome["dice"] == DICE_CURRENT and state["head"] == welcome["head"]
        ws.send_json({"type": "act", "action": state["view"]["legal"][0], "id": "a"})
        ack, _ = until(ws, "ack", "a")
    stored = client.app.state.rooms.store.load_room(room)  # type: ignore[attr-defined]
    assert ack["head"] == chain_head(body["commitment"], stored.events)
    assert len(stored.events) == ack["version"]


def test_the_stand_in_is_the_chosen_bot_or_the_games_default_level() -> None:
    from hraj.core.bot import default_bot
    from hraj.server.seats import stand_in_bot

    assert stand_in_bot("qwixx", "greedy") == "greedy"
    assert stand_in_bot("qwixx", "") == default_bot("qwixx") != "random"
    assert stand_in_bot("backgammon", "greedy") == default_bot("backgammon") == "net"
    assert stand_in_bot("trefa", "expectimax") == "expectimax"


def test_the_refusal_names_an_unnamed_seat_as_the_page_numbers_it(client: TestClient) -> None:
    body = new_room(client, [{"kind": "person"}, {"kind": "person"}], claim=0)
    room = body["room"]
    theirs = client.post(f"/api/rooms/{room}/claim", json={"invite": body["invite"]}).json()["token"]
    with client.websocket_connect(f"/ws/rooms/{room}") as other:
        hello(other, theirs)
        refused = client.post(
            f"/api/rooms/{room}/seats/1/bot",
            json={"bot": "random"},
            headers={**auth(body["host_token"]), "Accept-Language": "cs"},
        )
    assert refused.json()["text"] == "Hráč 2 je u stolu; své místo může botovi přenechat jen ten, kdo na něm sedí."
