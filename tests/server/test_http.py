"""The HTTP half of the protocol: rooms, invites, seats, moves, views and records."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from hraj.server.fairness import DICE_V3, room_commitment, verify_record
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, illegal_for, new_room, two_people, until_over, view


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["type"] == "error" and body["code"] == code
    assert body["message"] and body["key"]
    return body


def test_a_new_room_has_rolled_its_opening_chance_and_shows_only_the_commitment(client: TestClient) -> None:
    body = new_room(client, [{"kind": "person", "name": "Ema"}, {"kind": "bot", "bot": "random"}], claim=0)
    assert body["game"] == "qwixx" and body["options"] == {"players": 2, "first": None}
    assert body["version"] >= 2, "who starts and the first roll are already drawn and committed"
    assert len(body["commitment"]) == 64 and body["seed"] is None
    assert body["seat"] == 0 and body["token"] and body["host_token"] and body["invite"]
    assert body["invite_url"].endswith(f"/r/{body['room']}?invite={body['invite']}")
    assert [(s["kind"], s["name"], s["claimed"]) for s in body["seats"]] == [
        ("person", "Ema", True),
        ("bot", None, False),
    ]
    summary = client.get(f"/api/rooms/{body['room']}").json()
    assert summary["commitment"] == body["commitment"] and "token" not in summary and "invite" not in summary


@pytest.mark.parametrize(
    ("payload", "status", "code", "key"),
    [
        ({"game": "chess", "seats": [{}]}, 422, "invalid_option", "There is no game {game}; choose one of: {known}."),
        (
            {"game": "trefa", "options": {"sheet_file": "/etc/passwd"}, "seats": [{}]},
            422,
            "invalid_option",
            "The option {option} reads files of the machine; only the local command line may set it.",
        ),
        (
            {"game": "qwixx", "options": {"players": 3}, "seats": [{}, {}]},
            422,
            "invalid_option",
            "This game has {players} seats, but {given} were given.",
        ),
        (
            {"game": "qwixx", "seats": [{}, {"kind": "bot", "bot": "deep blue"}]},
            422,
            "invalid_option",
            "There is no bot {name} for {game}; choose one of: {known}.",
        ),
        (
            {"game": "qwixx", "seats": [{"bot": "random"}, {}]},
            400,
            "bad_message",
            "Seat {seat} is a person's; it takes no bot.",
        ),
        (
            {"game": "qwixx", "seats": [{}, {"kind": "bot"}], "claim": 1},
            400,
            "bad_message",
            "Seat {seat} cannot be claimed: it is no person's seat.",
        ),
        ({"game": "qwixx"}, 400, "bad_message", "The message is not valid at {where}: {why}."),
        (
            {"game": "qwixx", "seats": [{}], "colour": "red"},
            400,
            "bad_message",
            "The message is not valid at {where}: {why}.",
        ),
    ],
)
def test_bad_rooms_are_refused_with_a_code_and_a_reason(
    client: TestClient, payload: dict[str, Any], status: int, code: str, key: str
) -> None:
    body = error_of(client.post("/api/rooms", json=payload), status, code)
    assert body["key"] == key


def test_invites_give_each_free_seat_once(client: TestClient) -> None:
    body = new_room(client, [{}, {}, {"kind": "bot"}])
    room, invite = body["room"], body["invite"]
    error_of(client.post(f"/api/rooms/{room}/claim", json={"invite": "x" * 32}), 403, "forbidden")
    first = client.post(f"/api/rooms/{room}/claim", json={"invite": invite, "seat": 1, "name": "Ema"}).json()
    assert first["seat"] == 1
    error_of(client.post(f"/api/rooms/{room}/claim", json={"invite": invite, "seat": 1}), 409, "seat_taken")
    error_of(client.post(f"/api/rooms/{room}/claim", json={"invite": invite, "seat": 2}), 409, "seat_taken")
    second = client.post(f"/api/rooms/{room}/claim", json={"invite": invite}).json()
    assert second["seat"] == 0 and second["token"] != first["token"]
    error_of(client.post(f"/api/rooms/{room}/claim", json={"invite": invite}), 409, "seat_taken")
    seats = client.get(f"/api/rooms/{room}").json()["seats"]
    assert [s["claimed"] for s in seats] == [True, True, False]
    assert seats[1]["name"] == "Ema"


def test_unknown_rooms_paths_and_methods_are_structured_errors(client: TestClient) -> None:
    error_of(client.get("/api/rooms/nope"), 404, "not_found")
    error_of(client.get("/api/rooms/" + "x" * 40), 404, "not_found")
    error_of(client.get("/api/nowhere"), 404, "not_found")
    error_of(client.delete("/api/rooms"), 400, "bad_message")
    page = client.get("/nowhere")  # a page's address: a page in the page's language, not JSON
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")


def test_moves_over_http_need_the_seat_token_and_must_be_legal(client: TestClient) -> None:
    body, *tokens = two_people(client)
    room = body["room"]
    seat = view(client, room)["view"]["to_act"][0]
    token = tokens[seat]
    mine = view(client, room, token)
    assert mine["view"]["seat"] == seat and mine["version"] == body["version"]
    legal = mine["view"]["legal"]
    error_of(client.post(f"/api/rooms/{room}/actions", json={"action": "pass"}), 401, "unauthorized")
    error_of(
        client.post(f"/api/rooms/{room}/actions", json={"action": "pass"}, headers=auth("y" * 32)), 401, "unauthorized"
    )
    bad = error_of(
        client.post(f"/api/rooms/{room}/actions", json={"action": "x9"}, headers=auth(token)), 422, "invalid_action"
    )
    assert "x9" in bad["message"]
    wrong = illegal_for(legal)
    refused = error_of(
        client.post(f"/api/rooms/{room}/actions", json={"action": wrong}, headers=auth(token)), 409, "illegal_action"
    )
    assert wrong in refused["message"] or refused["params"]
    assert view(client, room, token)["version"] == mine["version"], "a refused move changes nothing"
    done = client.post(f"/api/rooms/{room}/actions", json={"action": legal[0]}, headers=auth(token))
    assert done.status_code == 200 and done.json()["version"] > mine["version"]
    assert view(client, room, token)["version"] == done.json()["version"]


def test_views_are_per_seat_and_spectators_see_the_public_view(client: TestClient) -> None:
    body, mine, theirs = two_people(client)
    room = body["room"]
    assert view(client, room, mine)["view"]["seat"] == 0
    assert view(client, room, theirs)["view"]["seat"] == 1
    watcher = view(client, room)
    assert watcher["view"]["seat"] is None and watcher["view"]["legal"] == []
    error_of(client.get(f"/api/rooms/{room}/view", headers=auth("z" * 32)), 401, "unauthorized")


def test_the_record_is_published_with_the_seed_only_at_the_end(make_client: MakeClient) -> None:
    client = make_client(bot_pace=0.0)
    playing, _, _ = two_people(client)
    error_of(client.get(f"/api/rooms/{playing['room']}/record"), 409, "not_over")
    bots = new_room(client, [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}])  # plays itself to the end
    summary = until_over(client, bots["room"])
    assert summary["status"] == "over" and summary["outcome"]["winners"]
    assert room_commitment(summary["seed"], bots["room"]) == bots["commitment"]
    record = client.get(f"/api/rooms/{bots['room']}/record").json()
    assert record["room"] == {
        "id": bots["room"],
        "seed": summary["seed"],
        "commitment": bots["commitment"],
        "dice": DICE_V3,
        "head": summary["head"],
    }
    assert verify_record(record).over


def test_a_person_left_to_a_bot_is_played_for_and_takes_the_seat_back(client: TestClient) -> None:
    body, mine, theirs = two_people(client)
    room, host = body["room"], body["host_token"]
    error_of(client.post(f"/api/rooms/{room}/seats/0/bot", json={"bot": "random"}), 401, "unauthorized")
    error_of(
        client.post(f"/api/rooms/{room}/seats/0/bot", json={"bot": "random"}, headers=auth(theirs)), 403, "forbidden"
    )
    error_of(
        client.post(f"/api/rooms/{room}/seats/0/bot", json={"bot": "nobody"}, headers=auth(mine)), 422, "invalid_option"
    )
    left = client.post(f"/api/rooms/{room}/seats/0/bot", json={"bot": "random"}, headers=auth(host))
    assert left.status_code == 200 and left.json()["seats"][0]["bot"] == "random"
    # While the bot plays seat 0, the game never waits for seat 0.
    for _ in range(40):
        state = view(client, room, theirs)
        if state["status"] == "over":
            break
        assert 0 not in state["view"]["to_act"] or 1 in state["view"]["to_act"]
        legal = state["view"]["legal"]
        if legal and not state["view"]["answered"]:
            client.post(f"/api/rooms/{room}/actions", json={"action": legal[0]}, headers=auth(theirs))
    error_of(client.post(f"/api/rooms/{room}/seats/0/back", headers=auth(host)), 403, "forbidden")
    back = client.post(f"/api/rooms/{room}/seats/0/back", headers=auth(mine))
    assert back.status_code == 200 and back.json()["seats"][0]["bot"] is None
    assert view(client, room, mine)["view"]["seat"] == 0


def test_oversized_bodies_and_floods_are_refused(make_client: MakeClient) -> None:
    client = make_client(http_rate=0.001, http_burst=5, max_message_bytes=1024)
    too_big = client.post("/api/rooms", content=b"{" + b" " * 2000 + b"}", headers={"content-type": "application/json"})
    error_of(too_big, 413, "too_large")
    chunks = (part for part in [b'{"game": ', b'"qwixx"}'])
    unstated = client.post("/api/rooms", content=chunks, headers={"content-type": "application/json"})
    assert error_of(unstated, 400, "bad_message")["key"] == "A request body must state its length."
    answers = [client.get("/api/health").status_code for _ in range(6)]
    assert answers[:4] == [200] * 4 and answers[-1] == 429
    error_of(client.get("/api/health"), 429, "rate_limited")


def test_errors_come_in_the_asked_language_too(client: TestClient) -> None:
    body = error_of(client.post("/api/rooms?lang=cs", json={"game": "chess", "seats": [{}]}), 422, "invalid_option")
    assert body["text"] and "chess" in body["text"]
    assert "text" not in error_of(
        client.post("/api/rooms", json={"game": "chess", "seats": [{}]}), 422, "invalid_option"
    )


def test_the_games_list_names_every_game_and_its_bots(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert "qwixx" in games and "random" in games["qwixx"]["bots"]
    assert "players" in games["qwixx"]["options"]


@pytest.mark.parametrize("invite", ["XXXXbad", "x" * 32, ""])
def test_an_invite_that_is_not_the_rooms_gets_the_rooms_refusal_whatever_its_length(
    client: TestClient, invite: str
) -> None:
    body = new_room(client, [{}, {}])
    answer = client.post(
        f"/api/rooms/{body['room']}/claim", json={"invite": invite, "name": "Eva"}, headers={"Accept-Language": "cs"}
    )
    refused = error_of(answer, 403, "forbidden")
    assert refused["key"] == "This invite is not valid for the room."
    assert "String should" not in refused["text"]


def test_the_summary_says_whether_a_links_invite_is_the_rooms(client: TestClient) -> None:
    body = new_room(client, [{}, {}])
    room = body["room"]
    assert client.get(f"/api/rooms/{room}", params={"invite": body["invite"]}).json()["invited"] is True
    assert client.get(f"/api/rooms/{room}", params={"invite": "XXXXbad"}).json()["invited"] is False
    assert "invited" not in client.get(f"/api/rooms/{room}").json()


def test_a_refused_message_says_why_in_the_clients_language(client: TestClient) -> None:
    body = new_room(client, [{}, {}])
    answer = client.post(
        f"/api/rooms/{body['room']}/claim",
        json={"invite": body["invite"], "name": "x" * 41},
        headers={"Accept-Language": "cs"},
    )
    refused = error_of(answer, 400, "bad_message")
    assert refused["text"] == "Zpráva není platná v name: smí mít nejvýš 40 znaků."
    blank = client.post(
        f"/api/rooms/{body['room']}/claim",
        json={"invite": body["invite"], "name": "\u200b"},
        headers={"Accept-Language": "cs"},
    )
    assert (
        error_of(blank, 400, "bad_message")["text"]
        == "Zpráva není platná v name: jméno potřebuje aspoň jeden viditelný znak."
    )
