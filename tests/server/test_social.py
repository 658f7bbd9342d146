"""Rooms among people: public rooms and the lobby, seats without an invite, chat, rematch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.server.chat import CHAT_BURST, CHAT_MAX_CHARS
from hraj.server.settings import Settings
from tests.server.conftest import SECRET, MakeClient
from tests.server.helpers import auth, new_room, two_people, until_over
from tests.server.test_ws import hello, until

FRIENDS = [{"kind": "person", "name": "Eva"}, {"kind": "person"}]


@pytest.fixture
def fast(make_client: MakeClient) -> TestClient:
    """A server whose bots move without pause, for games played to the end."""
    return make_client(bot_pace=0.0)


def finished(client: TestClient, game: str, seats: int, **extra: Any) -> dict[str, Any]:
    """A room of people whose seats are left to bots at once, played to the end."""
    body = new_room(client, [{"kind": "person"}] * seats, claim=0, **{"game": game, **extra})
    tokens = {0: body["token"]}
    for seat in range(1, seats):
        claimed = client.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"], "seat": seat})
        tokens[seat] = claimed.json()["token"]
    for seat, token in tokens.items():
        answer = client.post(f"/api/rooms/{body['room']}/seats/{seat}/bot", json={"bot": "random"}, headers=auth(token))
        assert answer.status_code == 200, answer.text
    until_over(client, body["room"])
    body["tokens"] = tokens
    return body


# --- public rooms, the lobby, taking a seat without the invite ------------------------------


def test_a_private_room_needs_its_invite_and_says_so(client: TestClient) -> None:
    room = new_room(client, FRIENDS, claim=0)
    answer = client.post(f"/api/rooms/{room['room']}/claim?lang=cs", json={"name": "Jan"})
    assert answer.status_code == 403
    assert answer.json()["key"] == "This room is private: a seat needs its invite link."
    assert "soukrom" in answer.json()["text"]


def test_a_public_room_gives_a_free_seat_to_anyone_under_their_name(client: TestClient) -> None:
    room = new_room(client, FRIENDS, claim=0, public=True)
    assert room["public"] is True
    answer = client.post(f"/api/rooms/{room['room']}/claim", json={"name": "Jan"})
    assert answer.status_code == 200, answer.text
    seats = client.get(f"/api/rooms/{room['room']}").json()["seats"]
    assert [seat["name"] for seat in seats] == ["Eva", "Jan"]
    again = client.post(f"/api/rooms/{room['room']}/claim?lang=cs", json={"name": "Petr"})
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"


def test_the_lobby_lists_only_public_rooms_with_a_free_seat_newest_first(client: TestClient) -> None:
    private = new_room(client, FRIENDS, claim=0)
    older = new_room(client, FRIENDS, claim=0, public=True)
    newer = new_room(client, [*FRIENDS, {"kind": "bot", "bot": "greedy"}], claim=0, public=True)
    full = new_room(client, FRIENDS, claim=0, public=True)
    client.post(f"/api/rooms/{full['room']}/claim", json={"name": "Jan"})
    listed = client.get("/api/lobby").json()["rooms"]
    ids = [entry["room"] for entry in listed]
    assert ids == [newer["room"], older["room"]]
    assert private["room"] not in ids and full["room"] not in ids
    entry = listed[0]
    assert entry["game"] == "qwixx" and entry["options"]["players"] == 3
    assert [seat["claimed"] for seat in entry["seats"]] == [True, False, False]
    assert entry["created_at"].endswith("+00:00")
    text = str(listed)
    for secret in ("token", "invite", "seed", newer["token"], newer["invite"], newer["host_token"]):
        assert secret not in text


def test_the_lobby_is_bounded(make_client: MakeClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from hraj.server import app as app_module

    monkeypatch.setattr(app_module, "LOBBY_SIZE", 3)
    client = make_client(room_rate=100_000.0, room_burst=100_000)
    made = [new_room(client, FRIENDS, claim=0, public=True)["room"] for _ in range(5)]
    listed = [entry["room"] for entry in client.get("/api/lobby").json()["rooms"]]
    assert listed == made[::-1][:3]


# --- chat -------------------------------------------------------------------------------------


def test_chat_reaches_players_and_spectators_and_keeps_markup_as_text(client: TestClient) -> None:
    body, eva, jan = two_people(client)
    room = body["room"]
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as player,
        client.websocket_connect(f"/ws/rooms/{room}") as spectator,
    ):
        hello(player, jan)
        hello(spectator)
        sent = client.post(
            f"/api/rooms/{room}/chat", json={"text": "<script>alert(1)</script> ahoj"}, headers=auth(eva)
        )
        assert sent.status_code == 200, sent.text
        for socket in (player, spectator):
            message, _ = until(socket, "chat")
            assert message["text"] == "<script>alert(1)</script> ahoj"
            assert message["name"] is None and message["seat"] == 0
        player.send_json({"type": "chat", "text": "  taky\nahoj  ", "id": "c1"})
        ack, _ = until(player, "ack", "c1")
        assert ack["chat"] == 2
        said, _ = until(spectator, "chat")
        assert said["text"] == "taky ahoj" and said["name"] == "Jan"
        spectator.send_json({"type": "chat", "text": "hi", "id": "s1"})
        refused, _ = until(spectator, "error")
        assert refused["code"] == "forbidden"
    lines = client.get(f"/api/rooms/{room}/chat").json()
    assert [line["text"] for line in lines["messages"]] == ["<script>alert(1)</script> ahoj", "taky ahoj"]


def test_chat_refuses_empty_long_and_hurried_messages_with_clear_words(client: TestClient) -> None:
    body, eva, _ = two_people(client)
    room = body["room"]
    empty = client.post(f"/api/rooms/{room}/chat?lang=cs", json={"text": " \u200b\x00 "}, headers=auth(eva))
    assert empty.status_code == 400 and empty.json()["text"]
    long = client.post(f"/api/rooms/{room}/chat?lang=sk", json={"text": "a" * (CHAT_MAX_CHARS + 1)}, headers=auth(eva))
    assert long.status_code == 400 and str(CHAT_MAX_CHARS) in long.json()["text"]
    huge = client.post(f"/api/rooms/{room}/chat", json={"text": "a" * 5000}, headers=auth(eva))
    assert huge.status_code == 400 and "Traceback" not in huge.text
    nobody = client.post(f"/api/rooms/{room}/chat", json={"text": "hi"})
    assert nobody.status_code == 403
    codes = [
        client.post(f"/api/rooms/{room}/chat", json={"text": f"m{n}"}, headers=auth(eva)).status_code
        for n in range(CHAT_BURST + 1)
    ]
    assert codes == [200] * CHAT_BURST + [429]


def test_a_room_against_bots_has_no_chat(client: TestClient) -> None:
    room = new_room(client, [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], claim=0)
    assert client.get(f"/api/rooms/{room['room']}").json()["chat"] is False
    answer = client.post(f"/api/rooms/{room['room']}/chat", json={"text": "hi"}, headers=auth(room["token"]))
    assert answer.status_code == 403


def test_chat_survives_a_restart_with_the_room(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'hraj.db'}", secret=SECRET)
    with TestClient(create_app(settings)) as client:
        body, eva, _ = two_people(client)
        client.post(f"/api/rooms/{body['room']}/chat", json={"text": "dobrý den"}, headers=auth(eva))
    with TestClient(create_app(settings)) as client:
        lines = client.get(f"/api/rooms/{body['room']}/chat").json()["messages"]
        assert [(line["number"], line["text"]) for line in lines] == [(1, "dobrý den")]
        answer = client.post(f"/api/rooms/{body['room']}/chat", json={"text": "znovu"}, headers=auth(eva))
        assert answer.json()["number"] == 2


# --- rematch -------------------------------------------------------------------------------


def test_a_rematch_keeps_seats_and_options_and_passes_the_first_player_on(fast: TestClient) -> None:
    old = finished(fast, "qwixx", 3, public=False)
    summary = fast.get(f"/api/rooms/{old['room']}").json()
    assert summary["rematch"] is None and summary["rematch_passes_first"] is True
    record = fast.get(f"/api/rooms/{old['room']}/record").json()
    first = next(int(text.split()[1]) for kind, _, text in record["events"] if text.startswith("first "))
    with fast.websocket_connect(f"/ws/rooms/{old['room']}") as spectator:
        hello(spectator)
        # Offered by seat 2, accepted by seat 0: the rematch waits for seat 1's consent.
        for seat in (2, 0):
            asked = fast.post(f"/api/rooms/{old['room']}/rematch", headers=auth(old["tokens"][seat]))
            assert asked.status_code == 202 and asked.json()["rematch"] is None, asked.text
        votes, _ = until(spectator, "rematch_votes")
        assert votes["yes"] == [2]
        made = fast.post(f"/api/rooms/{old['room']}/rematch", headers=auth(old["tokens"][1]))
        assert made.status_code == 201, made.text
        told, _ = until(spectator, "rematch")
    new = made.json()
    assert told["rematch"] == new["room"] != old["room"]
    assert new["options"]["first"] == (first + 1) % 3 and new["first_passed"] is True
    assert new["status"] == "playing" and new["commitment"] != summary["commitment"]
    assert [(s["kind"], s["name"], s["claimed"]) for s in new["seats"]] == [
        (s["kind"], s["name"], s["claimed"]) for s in summary["seats"]
    ]
    # The same seat tokens hold the same seats; asking again finds the same rematch.
    mine = fast.get(f"/api/rooms/{new['room']}/view", headers=auth(old["tokens"][1])).json()
    assert mine["view"]["seat"] == 1
    again = fast.post(f"/api/rooms/{old['room']}/rematch", headers=auth(old["tokens"][0]))
    assert again.status_code == 200 and again.json()["room"] == new["room"]
    assert fast.get(f"/api/rooms/{old['room']}").json()["rematch"] == new["room"]


def test_a_backgammon_rematch_keeps_the_opening_roll(fast: TestClient) -> None:
    old = finished(fast, "backgammon", 2)
    fast.post(f"/api/rooms/{old['room']}/rematch", headers=auth(old["tokens"][1]))
    made = fast.post(f"/api/rooms/{old['room']}/rematch", headers=auth(old["tokens"][0])).json()
    assert made["options"]["first"] is None and made["first_passed"] is False


def test_a_rematch_is_for_players_of_a_finished_game_only(fast: TestClient) -> None:
    body, eva, _ = two_people(fast)
    early = fast.post(f"/api/rooms/{body['room']}/rematch?lang=cs", headers=auth(eva))
    assert early.status_code == 409 and early.json()["text"]
    old = finished(fast, "qwixx", 2)
    assert fast.post(f"/api/rooms/{old['room']}/rematch").status_code == 401
    stranger = fast.post(f"/api/rooms/{old['room']}/rematch", headers=auth("x" * 32))
    assert stranger.status_code == 403
    host = fast.post(f"/api/rooms/{old['room']}/rematch", headers=auth(old["host_token"]))
    assert host.status_code == 202  # the host offers; the players consent


def test_a_declined_rematch_does_not_start_and_a_new_offer_asks_again(fast: TestClient) -> None:
    old = finished(fast, "qwixx", 2)
    room = old["room"]
    assert fast.post(f"/api/rooms/{room}/rematch", headers=auth(old["tokens"][0])).status_code == 202
    declined = fast.post(f"/api/rooms/{room}/rematch/decline", headers=auth(old["tokens"][1]))
    assert declined.status_code == 200 and declined.json() == {"room": room, "rematch": None, "yes": [], "declined": 1}
    summary = fast.get(f"/api/rooms/{room}").json()
    assert summary["rematch"] is None and summary["rematch_votes"] == {"yes": [], "declined": 1}
    # Seat 0's old acceptance was cleared by the refusal: seat 1 alone starts nothing.
    again = fast.post(f"/api/rooms/{room}/rematch", headers=auth(old["tokens"][1]))
    assert again.status_code == 202 and again.json()["yes"] == [1]
    made = fast.post(f"/api/rooms/{room}/rematch", headers=auth(old["tokens"][0]))
    assert made.status_code == 201


def test_a_local_game_against_a_bot_has_a_rematch_too(fast: TestClient) -> None:
    room = new_room(fast, [{"kind": "person"}, {"kind": "bot", "bot": "random"}], claim=0)
    fast.post(f"/api/rooms/{room['room']}/seats/0/bot", json={"bot": "random"}, headers=auth(room["token"]))
    until_over(fast, room["room"])
    made = fast.post(f"/api/rooms/{room['room']}/rematch", headers=auth(room["token"]))
    assert made.status_code == 201
    seats = made.json()["seats"]
    assert seats[1]["kind"] == "bot" and seats[1]["bot"] == "random"
    assert seats[0]["bot"] is None  # the person plays the rematch again
    mine = fast.get(f"/api/rooms/{made.json()['room']}/view", headers=auth(room["token"])).json()
    assert mine["view"]["seat"] == 0
