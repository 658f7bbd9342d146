"""Rooms of bots alone: a budget per process, and no endless match unless the server says so.

Before, a backgammon match to 32,767 points between two pubeval seats was accepted by
default: it stored about 134,000 events a day, was never archived and was rebuilt at
every start, and forty addresses made 880 of them in 12 seconds.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from hraj.server.bot_rooms import BotRoomBudget
from tests.server.conftest import MakeClient
from tests.server.helpers import auth, new_room, until_over

ENDLESS = {
    "game": "backgammon",
    "options": {"match_length": 32767},
    "seats": [{"kind": "bot", "bot": "pubeval"}, {"kind": "bot", "bot": "pubeval"}],
}


def made(client: TestClient, spec: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = client.post("/api/rooms", json=spec)
    return answer.status_code, answer.json()


def test_an_endless_match_of_bots_alone_is_refused_unless_the_server_allows_it(make_client: MakeClient) -> None:
    status, body = made(make_client(), ENDLESS)
    assert (status, body["code"]) == (403, "forbidden")
    assert body["params"] == {"option": "match_length", "most": 25, "value": 32767}
    status, _ = made(make_client(), {**ENDLESS, "options": {"match_length": 25}})
    assert status == 201
    status, _ = made(make_client(bot_rooms_endless=True), ENDLESS)
    assert status == 201
    # With a person seated, any match length is the players' business.
    status, _ = made(make_client(), {**ENDLESS, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "pubeval"}]})
    assert status == 201


def test_rooms_of_bots_only_beyond_the_budget_are_refused(make_client: MakeClient) -> None:
    client = make_client(bot_room_budget=2, bot_pace=60.0)  # they stay in play meanwhile
    bots = {"game": "qwixx", "seats": [{"kind": "bot", "bot": "random"}] * 2}
    assert [made(client, bots)[0] for _ in range(2)] == [201, 201]
    status, body = made(client, bots)
    assert (status, body["code"]) == (429, "rate_limited")
    assert made(client, {"game": "qwixx", "seats": [{"kind": "person"}, {"kind": "bot"}]})[0] == 201


def test_a_room_whose_people_left_to_bots_waits_for_a_slot(make_client: MakeClient) -> None:
    """People who hand every seat to bots cannot get around the budget: the room waits,
    without a move, until a room of bots alone ends, and then plays to its end."""
    client = make_client(bot_room_budget=1, bot_pace=0.0)
    first = new_room(client, [{"kind": "bot", "bot": "random"}] * 2)
    second = new_room(client, [{"kind": "person"}, {"kind": "bot", "bot": "random"}], claim=0)
    left = client.post(
        f"/api/rooms/{second['room']}/seats/0/bot", json={"bot": "random"}, headers=auth(second["token"])
    )
    assert left.status_code == 200, left.text
    until_over(client, first["room"])
    assert until_over(client, second["room"])["status"] == "over"


def test_the_budget_gives_a_freed_slot_to_the_room_that_waited_longest() -> None:
    budget = BotRoomBudget(1)
    woken: list[str] = []
    assert budget.take("a", lambda: woken.append("a"))
    assert not budget.take("b", lambda: woken.append("b"))
    assert not budget.take("c", lambda: woken.append("c"))
    assert budget.full
    budget.give_back("a")
    assert woken == ["b"] and not budget.full
    assert budget.take("b", lambda: woken.append("b"))
    assert not budget.take("c", lambda: woken.append("c"))
    budget.give_back("c")  # it stopped waiting (its people came back)
    budget.give_back("b")
    assert woken == ["b"] and budget.running == set()


def test_a_waiting_room_makes_no_move_while_another_holds_the_slot(make_client: MakeClient) -> None:
    client = make_client(bot_room_budget=1, bot_pace=0.0)
    long_match = {**ENDLESS, "options": {"match_length": 25}}
    status, running = made(client, long_match)
    assert status == 201
    waiting = new_room(client, [{"kind": "person"}, {"kind": "bot", "bot": "random"}], claim=0)
    client.post(f"/api/rooms/{waiting['room']}/seats/0/bot", json={"bot": "random"}, headers=auth(waiting["token"]))
    versions = [client.get(f"/api/rooms/{room}").json()["version"] for room in (running["room"], waiting["room"])]
    time.sleep(0.5)
    later = [client.get(f"/api/rooms/{room}").json()["version"] for room in (running["room"], waiting["room"])]
    assert later[0] > versions[0], "the room with the slot plays"
    assert later[1] == versions[1], "the other waits"
