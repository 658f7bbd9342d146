"""Matchmaking ("Hrát hned"): two seekers of the same game are seated together, on one
process or two; a seek whose browser went away is gone; after a wait a bot is offered."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hraj.clocks.seeks import BOT_OFFER_AFTER_S, DEFAULT_RATING
from hraj.players.rating import SCALE, Skill, display, from_display, openskill_game, places
from hraj.store.schema import people, ratings, seeks
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, view
from tests.server.live import LiveServer
from tests.server.test_accounts import guest, my_games
from tests.server.test_ratings import As, play_out, signed
from tests.store.databases import database_url


def ask(client: Any, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
    answer = client.post("/api/seeks", json=body, headers=headers)
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def status(client: Any, seek: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/seeks/{seek['seek']}", headers=auth(seek["secret"]))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_two_seekers_of_the_same_game_are_seated_together_and_others_wait(make_client: MakeClient) -> None:
    client = make_client()
    first = ask(client, {"game": "qwixx", "players": 2, "name": "Eva", "gender": "f", "clock": "normal"})
    assert first["state"] == "waiting"
    other_game = ask(client, {"game": "trefa", "players": 2})
    other_clock = ask(client, {"game": "qwixx", "players": 2, "clock": "quick"})
    second = ask(client, {"game": "qwixx", "players": 2, "name": "Jan", "clock": "normal"})
    assert second["state"] == "paired"
    mine = status(client, first)
    assert mine["state"] == "paired" and mine["room"] == second["room"] and {mine["seat"], second["seat"]} == {0, 1}
    summary = client.get(f"/api/rooms/{mine['room']}").json()
    assert [s["name"] for s in summary["seats"]] == ["Eva", "Jan"] and all(s["claimed"] for s in summary["seats"])
    assert summary["clock"]["per_move"] == 20
    assert view(client, mine["room"], mine["token"])["view"]["legal"]  # the token holds the seat
    assert status(client, other_game)["state"] == "waiting" and status(client, other_clock)["state"] == "waiting"


def test_a_three_player_table_fills_up_before_it_starts(make_client: MakeClient) -> None:
    client = make_client()
    found = [ask(client, {"game": "trefa", "players": 3}) for _ in range(3)]
    assert [f["state"] for f in found] == ["waiting", "waiting", "paired"]
    rooms = {status(client, f)["room"] for f in found}
    assert len(rooms) == 1


def test_a_seek_whose_browser_went_away_is_gone_and_a_cancelled_one_too(make_client: MakeClient) -> None:
    client = make_client()
    gone = ask(client, {"game": "qwixx", "players": 2})
    engine = client.app.state.rooms.store.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:  # its browser stopped renewing it a minute ago
        connection.execute(seeks.update().values(seen_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)))
    late = ask(client, {"game": "qwixx", "players": 2})
    assert late["state"] == "waiting"
    assert client.get(f"/api/seeks/{gone['seek']}", headers=auth(gone["secret"])).status_code == 404
    cancelled = client.post(f"/api/seeks/{late['seek']}/cancel", json={"secret": late["secret"]})
    assert cancelled.json() == {"ok": True}
    assert ask(client, {"game": "qwixx", "players": 2})["state"] == "waiting"
    with engine.connect() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(seeks)).scalar() == 1


def test_after_a_wait_a_bot_is_offered_and_taken(make_client: MakeClient) -> None:
    client = make_client()
    seek = ask(client, {"game": "qwixx", "players": 2, "name": "Eva"})
    assert "bot" not in status(client, seek)
    engine = client.app.state.rooms.store.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(
            seeks.update().values(created_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=BOT_OFFER_AFTER_S + 1))
        )
    offered = status(client, seek)
    assert offered["state"] == "waiting" and offered["bot"]
    taken = client.post(f"/api/seeks/{seek['seek']}/bot", headers=auth(seek["secret"]))
    assert taken.status_code == 201, taken.text
    room = client.get(f"/api/rooms/{taken.json()['room']}").json()
    assert [s["kind"] for s in room["seats"]] == ["person", "bot"] and room["seats"][1]["bot"] == offered["bot"]


def rate(client: TestClient, name: str, game: str, shown: float, deviation: float = 60) -> None:
    """Give an account an OpenSkill rating in `game` as its profile shows it (settled unless
    `deviation` is above the provisional threshold, 170)."""
    engine = client.app.state.rooms.store.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        person = connection.execute(sa.select(people.c.id).where(people.c.name == name)).scalar_one()
        connection.execute(
            ratings.insert().values(
                person=person,
                game=game,
                rating=from_display(shown),
                deviation=deviation / SCALE,
                experience=0,
                games=40,
                played_at=dt.datetime.now(dt.UTC),
            )
        )


def waited(client: TestClient, seconds: float) -> None:
    """Every seek began `seconds` ago (its browser renewed it just now)."""
    engine = client.app.state.rooms.store.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(seeks.update().values(created_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)))


def stored_seeks(client: TestClient) -> dict[str | None, float]:
    """Each stored seek's name -> the rating it carries."""
    engine = client.app.state.rooms.store.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        return dict(connection.execute(sa.select(seeks.c.name, seeks.c.rating)).all())


def test_a_signed_in_seeker_carries_their_rating_and_a_guest_or_newcomer_the_centre(client: TestClient) -> None:
    eva, eva_csrf = signed(client, "Eva")
    rate(client, "Eva", "qwixx", 1720)
    mine = ask(eva, {"game": "qwixx", "players": 2, "name": "Someone else"}, eva_csrf)
    assert mine["rating"] == pytest.approx(1720)
    petr, petr_csrf = signed(client, "Petr")  # signed in, never rated in this game
    ask(petr, {"game": "qwixx", "players": 2, "clock": "quick"}, petr_csrf)
    jana, jana_csrf = signed(client, "Jana")  # a provisional rating: "1 620 ?" on her profile
    rate(client, "Jana", "qwixx", 1620, deviation=250)
    ask(jana, {"game": "qwixx", "players": 2, "clock": "normal"}, jana_csrf)
    client.cookies = httpx.Cookies()  # a browser nobody signed in on
    ask(client, {"game": "qwixx", "players": 2, "clock": "calm", "name": "Host"})
    assert stored_seeks(client) == {
        "Eva": pytest.approx(1720),
        "Petr": DEFAULT_RATING,
        "Jana": pytest.approx(1620),
        "Host": DEFAULT_RATING,
    }


def test_a_cookie_without_its_csrf_token_seeks_as_a_guest(client: TestClient) -> None:
    eva, _ = signed(client, "Eva")
    rate(client, "Eva", "qwixx", 1720)
    ask(eva, {"game": "qwixx", "players": 2, "name": "Eva?"})
    assert stored_seeks(client) == {"Eva?": DEFAULT_RATING}


def test_far_apart_signed_in_seekers_are_paired_only_once_their_ranges_have_widened(client: TestClient) -> None:
    eva, eva_csrf = signed(client, "Eva")
    rate(client, "Eva", "qwixx", 1900)
    petr, petr_csrf = signed(client, "Petr")
    rate(client, "Petr", "qwixx", 1450)
    strong = ask(eva, {"game": "qwixx", "players": 2}, eva_csrf)
    weak = ask(petr, {"game": "qwixx", "players": 2}, petr_csrf)
    assert strong["state"] == weak["state"] == "waiting"  # 450 points apart, each accepts 150
    waited(client, 10)  # each accepts 400 now: not yet
    assert status(petr, weak)["state"] == "waiting"
    waited(client, 13)  # and 475
    paired = status(petr, weak)
    assert paired["state"] == "paired" and status(eva, strong)["room"] == paired["room"]
    names = {s["name"] for s in client.get(f"/api/rooms/{paired['room']}").json()["seats"]}
    assert names == {"Eva", "Petr"}  # the accounts' names, as a room's creator's seat bears it


def test_a_strong_player_is_offered_a_stronger_bot_than_a_guest(client: TestClient) -> None:
    eva, eva_csrf = signed(client, "Eva")
    rate(client, "Eva", "qwixx", 1800)
    strong = ask(eva, {"game": "qwixx", "players": 2}, eva_csrf)
    client.cookies = httpx.Cookies()
    new = ask(client, {"game": "qwixx", "players": 2, "clock": "quick"})
    waited(client, BOT_OFFER_AFTER_S + 1)
    for_eva, for_guest = status(eva, strong), status(client, new)
    assert for_eva["bot_rating"] > for_guest["bot_rating"] == DEFAULT_RATING
    assert (for_eva["bot"], for_guest["bot"]) == ("master", "optimal")  # the calibrated levels nearest
    taken = eva.post(f"/api/seeks/{strong['seek']}/bot", headers=auth(strong["secret"]))
    assert taken.json()["bot"] == "master" and taken.json()["bot_rating"] == for_eva["bot_rating"]
    room = eva.get(f"/api/rooms/{taken.json()['room']}").json()
    assert [s["bot"] for s in room["seats"]] == [None, "master"]


def test_a_seek_needs_its_own_secret(make_client: MakeClient) -> None:
    client: TestClient = make_client()
    seek = ask(client, {"game": "qwixx", "players": 2})
    assert client.get(f"/api/seeks/{seek['seek']}", headers=auth("x" * 32)).status_code == 404
    assert client.get(f"/api/seeks/{seek['seek']}").status_code == 401


def visitor(client: TestClient) -> tuple[Any, dict[str, str]]:
    """A browser nobody signed in on: its guest cookie and the page's CSRF token."""
    client.cookies = httpx.Cookies()
    person = As.__new__(As)
    person.client, person.csrf = client, guest(client)
    person.cookies = client.cookies
    return person, person.csrf


def test_two_rated_seekers_play_a_rated_room_whose_end_moves_both_ratings(make_client: MakeClient) -> None:
    client = make_client(provisional_deviation=1000.0)
    eva, eva_csrf = signed(client, "Eva")
    petr, petr_csrf = signed(client, "Petr")
    first = ask(eva, {"game": "qwixx", "players": 2, "rated": True}, eva_csrf)
    second = ask(petr, {"game": "qwixx", "players": 2, "rated": True}, petr_csrf)
    assert first["state"] == "waiting" and second["state"] == "paired"
    mine = status(eva, first)
    room = eva.get(f"/api/rooms/{mine['room']}").json()
    assert room["rated"] is True
    by_seat = {mine["seat"]: "Eva", second["seat"]: "Petr"}
    summary = play_out(eva, mine["room"], [mine["token"], second["token"]], seed=11)
    expected = openskill_game([Skill(25.0, 25 / 3)] * 2, places(summary["outcome"]))
    for seat, skill in enumerate(expected):
        shown = eva.get(f"/api/players/{by_seat[seat]}").json()["ratings"]["qwixx"]
        assert shown["rating"] == pytest.approx(display(skill.rating)) and shown["games"] == 1
    assert [(g["room"], g["rated"]) for g in my_games(petr)] == [(mine["room"], True)]


def test_a_rated_seeker_waits_for_a_rated_one_not_a_casual_one(client: TestClient) -> None:
    eva, eva_csrf = signed(client, "Eva")
    petr, petr_csrf = signed(client, "Petr")
    jana, jana_csrf = signed(client, "Jana")
    rated = ask(eva, {"game": "qwixx", "players": 2, "rated": True}, eva_csrf)
    casual = ask(petr, {"game": "qwixx", "players": 2}, petr_csrf)
    assert rated["state"] == casual["state"] == "waiting"
    waited(client, 60)  # however long they wait, rated or not is part of what they seek
    assert status(eva, rated)["state"] == status(petr, casual)["state"] == "waiting"
    assert ask(jana, {"game": "qwixx", "players": 2, "rated": True}, jana_csrf)["room"] == status(eva, rated)["room"]
    assert status(petr, casual)["state"] == "waiting"


def test_a_person_seeking_twice_is_not_seated_against_themselves(client: TestClient) -> None:
    eva, eva_csrf = signed(client, "Eva")
    ask(eva, {"game": "qwixx", "players": 2, "rated": True}, eva_csrf)
    assert ask(eva, {"game": "qwixx", "players": 2, "rated": True}, eva_csrf)["state"] == "waiting"


def test_a_guest_or_a_money_game_cannot_seek_a_rated_game(client: TestClient) -> None:
    someone, headers = visitor(client)
    refused = someone.post("/api/seeks", json={"game": "qwixx", "players": 2, "rated": True}, headers=headers)
    assert refused.status_code == 403 and refused.json()["key"] == "Sign in to start a rated game."
    eva, eva_csrf = signed(client, "Eva")
    money = eva.post("/api/seeks", json={"game": "backgammon", "players": 2, "rated": True}, headers=eva_csrf)
    assert money.status_code == 403 and "not rated" in money.json()["message"]
    assert stored_seeks(client) == {}


def test_a_rated_seeker_who_takes_the_bot_plays_a_rated_room_of_their_own(client: TestClient) -> None:
    eva, eva_csrf = signed(client, "Eva")
    seek = ask(eva, {"game": "abluxxen", "players": 2, "rated": True}, eva_csrf)
    waited(client, BOT_OFFER_AFTER_S + 1)
    taken = eva.post(f"/api/seeks/{seek['seek']}/bot", headers=auth(seek["secret"]))
    assert taken.status_code == 201, taken.text
    room = eva.get(f"/api/rooms/{taken.json()['room']}").json()
    assert room["rated"] is True and room["seats"][1]["bot"] == taken.json()["bot"]
    assert [(g["room"], g["rated"]) for g in my_games(eva)] == [(room["room"], True)]


def test_the_seats_guests_take_through_seeks_are_in_their_games(client: TestClient) -> None:
    eva, eva_csrf = visitor(client)
    jan, jan_csrf = visitor(client)
    first = ask(eva, {"game": "trefa", "players": 2, "name": "Eva"}, eva_csrf)
    second = ask(jan, {"game": "trefa", "players": 2, "name": "Jan"}, jan_csrf)
    assert [g["room"] for g in my_games(eva)] == [second["room"]] == [g["room"] for g in my_games(jan)]
    alone = ask(eva, {"game": "qwixx", "players": 2}, eva_csrf)
    waited(client, BOT_OFFER_AFTER_S + 1)
    taken = eva.post(f"/api/seeks/{alone['seek']}/bot", headers=auth(alone["secret"])).json()
    assert [g["room"] for g in my_games(eva)] == [taken["room"], status(eva, first)["room"]]
    assert [g["seat"] for g in my_games(jan)] == [second["seat"]]


def test_seekers_on_two_processes_of_one_postgresql_are_seated_together(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    servers = [LiveServer(url) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        first = ask(httpx.Client(base_url=servers[0].url), {"game": "qwixx", "players": 2})
        second = ask(httpx.Client(base_url=servers[1].url), {"game": "qwixx", "players": 2})
        assert first["state"] == "waiting" and second["state"] == "paired"
        mine = status(httpx.Client(base_url=servers[0].url), first)
        assert mine["state"] == "paired" and mine["room"] == second["room"]
        seen = httpx.get(
            f"{servers[0].url}/api/rooms/{mine['room']}/view", headers=auth(mine["token"]), timeout=30
        ).json()
        assert seen["view"]["legal"]
    finally:
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                server.stop()


def test_a_seek_cannot_name_a_file_of_the_machine(client: TestClient, tmp_path: Path) -> None:
    sheets = tmp_path / "sheets.json"
    sheets.write_text("{not json", encoding="utf-8")
    answer = client.post("/api/seeks", json={"game": "trefa", "options": {"sheet_file": str(sheets)}})
    assert answer.status_code == 422
    assert (
        answer.json()["key"]
        == "The option {option} reads files of the machine; only the local command line may set it."
    )
    assert stored_seeks(client) == {}
