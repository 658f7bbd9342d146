"""Matchmaking ("Hrát hned"): two seekers of the same game are seated together, on one
process or two; a seek whose browser went away is gone; after a wait a bot is offered."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hraj.clocks.seeks import BOT_OFFER_AFTER_S
from hraj.store.schema import seeks
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, view
from tests.server.live import LiveServer
from tests.store.databases import database_url


def ask(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/seeks", json=body)
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


def test_a_seek_needs_its_own_secret(make_client: MakeClient) -> None:
    client: TestClient = make_client()
    seek = ask(client, {"game": "qwixx", "players": 2})
    assert client.get(f"/api/seeks/{seek['seek']}", headers=auth("x" * 32)).status_code == 404
    assert client.get(f"/api/seeks/{seek['seek']}").status_code == 401


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
