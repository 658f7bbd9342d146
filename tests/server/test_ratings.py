"""Rated rooms over HTTP: who may sit, and ratings, profiles and leaderboards after the end."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from hraj.players.rating import Skill, display, display_deviation, openskill_game, places
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, view
from tests.server.test_accounts import guest, sign_up


class As:
    """One person's browser on the test's client (which runs the app's rooms): their cookies
    and CSRF token, put on the client for each request made as them."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        client.cookies = httpx.Cookies()
        self.csrf = {"X-CSRF-Token": sign_up(client, name)["csrf"]}
        self.cookies = client.cookies

    def __getattr__(self, method: str) -> Any:
        self.client.cookies = self.cookies
        return getattr(self.client, method)


def signed(client: TestClient, name: str) -> tuple[Any, dict[str, str]]:
    person = As(client, name)
    return person, person.csrf


def rated_room(client: Any, headers: dict[str, str], seats: list[dict[str, Any]], **extra: Any) -> Any:
    return client.post(
        "/api/rooms", json={"game": "qwixx", "seats": seats, "claim": 0, "rated": True, **extra}, headers=headers
    )


def play_out(client: Any, room: str, tokens: list[str], seed: int) -> dict[str, Any]:
    """Random legal moves of the people's seats until the end; the summary then."""
    rng = random.Random(seed)
    while True:
        summary: dict[str, Any] = client.get(f"/api/rooms/{room}").json()
        if summary["status"] == "over":
            return summary
        for token in tokens:
            legal = view(client, room, token)["view"]["legal"]
            if legal:
                client.post(f"/api/rooms/{room}/actions", json={"action": rng.choice(legal)}, headers=auth(token))


def test_a_rated_game_between_two_accounts_moves_both_ratings_by_the_formula(make_client: MakeClient) -> None:
    client = make_client(provisional_deviation=1000.0)
    eva, eva_csrf = signed(client, "Eva")
    petr, petr_csrf = signed(client, "Petr")
    made = rated_room(eva, eva_csrf, [{}, {}])
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["rated"] is True and body["seats"][0]["name"] == "Eva"
    joined = petr.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]}, headers=petr_csrf)
    assert joined.status_code == 200, joined.text
    summary = play_out(eva, body["room"], [body["token"], joined.json()["token"]], seed=7)
    expected = openskill_game([Skill(25.0, 25 / 3)] * 2, places(summary["outcome"]))
    for name, skill in zip(("Eva", "Petr"), expected, strict=True):
        shown = eva.get(f"/api/players/{name}").json()["ratings"]["qwixx"]
        assert shown["rating"] == pytest.approx(display(skill.rating))
        assert shown["deviation"] == pytest.approx(display_deviation(skill.deviation or 0))
        assert (shown["games"], shown["provisional"]) == (1, False)
    board = eva.get("/api/leaderboard/qwixx").json()["players"]
    by_rating = sorted(zip(("Eva", "Petr"), expected, strict=True), key=lambda pair: -pair[1].rating)
    assert [(p["name"], p["rating"]) for p in board] == [(n, pytest.approx(display(s.rating))) for n, s in by_rating]
    data = eva.get("/api/account/data").json()
    assert [g["room"] for g in data["games"]] == [body["room"]] and data["games"][0]["rated"] is True
    assert [(r["game"], r["games"]) for r in data["ratings"]] == [("qwixx", 1)]
    assert data["ratings"][0]["rating"] == pytest.approx(expected[0].rating)
    assert [(r["room"], r["rated"]) for r in data["results"]] == [(body["room"], True)]


def test_a_provisional_rating_stays_off_the_leaderboard(client: TestClient) -> None:
    eva, eva_csrf = signed(client, "Eva")
    made = rated_room(eva, eva_csrf, [{}, {"kind": "bot", "bot": "greedy"}])
    assert made.status_code == 201, made.text
    play_out(eva, made.json()["room"], [made.json()["token"]], seed=3)
    rating = eva.get("/api/players/eva").json()["ratings"]["qwixx"]
    assert rating["provisional"] is True and rating["games"] == 1
    assert eva.get("/api/leaderboard/qwixx").json() == {"game": "qwixx", "players": []}


def test_only_a_signed_in_person_starts_a_rated_room_and_sits_in_one(client: TestClient) -> None:
    visitor = As.__new__(As)
    visitor.client, visitor.cookies = client, httpx.Cookies()
    client.cookies = visitor.cookies
    headers = guest(client)
    refused = rated_room(client, headers, [{}, {}])
    assert refused.status_code == 403 and refused.json()["key"] == "Sign in to start a rated game."
    eva, eva_csrf = signed(client, "Eva")
    alone = eva.post(
        "/api/rooms",
        json={"game": "trefa", "options": {"players": 1}, "seats": [{}], "claim": 0, "rated": True},
        headers=eva_csrf,
    )
    assert alone.status_code == 403 and "not rated" in alone.json()["message"]
    body = rated_room(eva, eva_csrf, [{}, {}]).json()
    as_guest = visitor.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]}, headers=headers)
    assert as_guest.status_code == 403 and as_guest.json()["key"] == "This game is rated: sign in to take a seat."
    twice = eva.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]}, headers=eva_csrf)
    assert twice.status_code == 403


def test_an_unknown_player_or_game_is_not_found(client: TestClient) -> None:
    assert client.get("/api/players/nikdo").status_code == 404
    assert client.get("/api/leaderboard/chess").status_code == 404
    assert client.get("/api/leaderboard/qwixx").json() == {"game": "qwixx", "players": []}
