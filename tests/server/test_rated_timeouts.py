"""Time running out in a rated game: with two seats the person loses by forfeit (a
backgammon match as a resignation of the game with a backgammon), with more the stand-in
plays the seat for good and its person finishes last; and the ratings follow."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hraj.players.anchors import bot_rating
from hraj.players.rating import FIBS_START, MODEL, Skill, display, fibs_match, openskill_game, places
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, view
from tests.server.test_ratings import rated_room, signed

#: A clock no test waits for: its deadlines are made to come due by `expire`.
SLOW = {"per_move": 600, "reserve": 0}


def expire(client: TestClient, room_id: str, seat: int) -> None:
    """The seat's running deadline comes due now, as the process's heap would call it."""
    rooms = client.app.state.rooms  # type: ignore[attr-defined]

    async def due() -> None:
        room = await rooms.get(room_id)
        assert room.clock.timer is not None
        deadline = room.clock.timer.clock.deadline(room_id, seat)
        assert deadline is not None, f"seat {seat}'s time is not running"
        await room.call(lambda: room.clock.time_out(deadline))

    client.portal.call(due)  # type: ignore[union-attr]  # in the app's own loop


def ratings_of(client: Any, names: list[str], game: str) -> list[dict[str, Any]]:
    return [client.get(f"/api/players/{name}").json()["ratings"][game] for name in names]


def test_in_a_rated_game_of_two_the_player_whose_time_runs_out_loses_by_forfeit(make_client: MakeClient) -> None:
    client = make_client(provisional_deviation=1000.0)
    eva, eva_csrf = signed(client, "Eva")
    petr, petr_csrf = signed(client, "Petr")
    made = rated_room(eva, eva_csrf, [{}, {}], clock=SLOW, options={"first": 0})
    assert made.status_code == 201, made.text
    body = made.json()
    joined = petr.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]}, headers=petr_csrf)
    assert joined.status_code == 200, joined.text
    expire(client, body["room"], 0)
    summary = eva.get(f"/api/rooms/{body['room']}").json()
    assert summary["status"] == "over"
    outcome = summary["outcome"]
    assert outcome["reason"] == "forfeit" and outcome["winners"] == [1] and outcome["details"]["forfeited"] == 0
    expected = openskill_game([Skill(MODEL.mu, MODEL.sigma)] * 2, [2, 1])
    for shown, skill in zip(ratings_of(eva, ["Eva", "Petr"], "qwixx"), expected, strict=True):
        assert shown["rating"] == pytest.approx(display(skill.rating))
        assert shown["games"] == 1
    assert expected[1].rating > expected[0].rating


def test_in_a_rated_backgammon_match_the_player_out_of_time_loses_the_match(make_client: MakeClient) -> None:
    client = make_client()
    eva, eva_csrf = signed(client, "Eva")
    petr, petr_csrf = signed(client, "Petr")
    made = eva.post(
        "/api/rooms",
        json={
            "game": "backgammon",
            "options": {"match_length": 5, "first": 0},
            "seats": [{}, {}],
            "claim": 0,
            "rated": True,
            "clock": SLOW,
        },
        headers=eva_csrf,
    )
    assert made.status_code == 201, made.text
    body = made.json()
    joined = petr.post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]}, headers=petr_csrf)
    assert joined.status_code == 200, joined.text
    assert view(eva, body["room"], body["token"])["view"]["legal"], "Eva plays the opening roll"
    expire(client, body["room"], 0)
    outcome = eva.get(f"/api/rooms/{body['room']}").json()["outcome"]
    assert outcome["winners"] == [1] and outcome["scores"] == [0, 5]
    assert outcome["details"]["games"] == [{"winner": 1, "points": 5, "how": "forfeit"}]
    mat = eva.get(f"/r/{body['room']}/record.mat")
    assert mat.status_code == 200 and mat.text.endswith(" " * 34 + "Wins 5 points\n\n")
    assert eva.get(f"/r/{body['room']}/replay").status_code == 200
    expected = fibs_match([Skill(FIBS_START), Skill(FIBS_START)], 1, 5)
    shown = ratings_of(eva, ["Eva", "Petr"], "backgammon")
    assert [s["rating"] for s in shown] == pytest.approx([expected[0].rating, expected[1].rating])
    assert shown[1]["rating"] > FIBS_START > shown[0]["rating"]


def test_in_a_rated_game_of_three_the_stand_in_plays_on_for_good_and_the_person_is_last(
    make_client: MakeClient,
) -> None:
    client = make_client(provisional_deviation=1000.0)
    eva, eva_csrf = signed(client, "Eva")
    petr, petr_csrf = signed(client, "Petr")
    made = rated_room(
        eva, eva_csrf, [{}, {}, {"kind": "bot", "bot": "greedy"}], clock=SLOW, options={"players": 3, "first": 0}
    )
    assert made.status_code == 201, made.text
    body = made.json()
    room = body["room"]
    joined = petr.post(f"/api/rooms/{room}/claim", json={"invite": body["invite"]}, headers=petr_csrf)
    assert joined.status_code == 200, joined.text
    petr_token = joined.json()["token"]
    expire(client, room, 0)
    seat = eva.get(f"/api/rooms/{room}").json()["seats"][0]
    assert seat["bot"] is not None and seat["claimed"] and not seat["stand_in"]
    back = eva.post(f"/api/rooms/{room}/seats/0/back", headers={**eva_csrf, **auth(body["token"])})
    assert back.status_code == 403 and back.json()["code"] == "forbidden"
    refused = eva.post(f"/api/rooms/{room}/seats/0/back?lang=cs", headers={**eva_csrf, **auth(body["token"])})
    assert refused.json()["text"] == "Hráči 1 v této hodnocené hře vypršel čas: místo do konce hry hraje bot."
    other_bot = eva.post(
        f"/api/rooms/{room}/seats/0/bot", json={"bot": "random"}, headers={**eva_csrf, **auth(body["token"])}
    )
    assert other_bot.status_code == 403
    rng = random.Random(5)
    while (summary := petr.get(f"/api/rooms/{room}").json())["status"] != "over":
        legal = view(petr, room, petr_token)["view"]["legal"]
        if legal:
            petr.post(f"/api/rooms/{room}/actions", json={"action": rng.choice(legal)}, headers=auth(petr_token))
    seat_places = places(summary["outcome"], [0])
    assert seat_places[0] == 3
    greedy = bot_rating("qwixx", "greedy")
    assert greedy is not None
    start = Skill(MODEL.mu, MODEL.sigma)
    expected = openskill_game([start, start, greedy.skill()], seat_places)
    for shown, skill in zip(ratings_of(eva, ["Eva", "Petr"], "qwixx"), expected[:2], strict=True):
        assert shown["rating"] == pytest.approx(display(skill.rating))
    results = eva.get("/api/account/data").json()["results"]
    assert [(r["room"], r["place"], r["left"]) for r in results] == [(room, 3, True)]
