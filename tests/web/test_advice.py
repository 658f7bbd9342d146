"""Hints at a room's table and the analysis on a finished game's replay page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hraj.analysis.game import hint
from hraj.core.game import State
from hraj.core.hints import Adviser, OptionValue
from hraj.i18n import catalog
from hraj.web import advice
from tests.server.helpers import until_over
from tests.web.api import new_room, site_client

PEOPLE = [{"kind": "person"}, {"kind": "person"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with site_client(tmp_path) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_player_against_a_bot_gets_the_options_ranked(client: TestClient) -> None:
    room = new_room(
        client, "backgammon", [{"kind": "person"}, {"kind": "bot", "bot": "pubeval"}], claim=0, options={"first": 0}
    )
    assert client.get(f"/api/rooms/{room['room']}").json()["hints"] is True
    answer = client.get(f"/r/{room['room']}/hint?lang=en", headers=bearer(room["token"]))
    assert answer.status_code == 200, answer.text
    assert "Hint: equity (points a game)" in answer.text
    assert 'class="best"' in answer.text
    assert "estimates of a simple bot" not in answer.text  # the net values every play itself
    assert client.get(f"/r/{room['room']}/hint?lang=en").status_code == 401


def test_a_position_is_hinted_once_however_often_it_is_asked(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = new_room(
        client, "qwixx", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], claim=0, options={"first": 0}
    )
    worked_out: list[int] = []

    def counted(state: State[Any, Any], seat: int, *, seed: int = 0) -> tuple[list[OptionValue], Adviser]:
        worked_out.append(seed)
        return hint(state, seat, seed=seed)

    monkeypatch.setattr("hraj.web.advice.hint", counted)
    answers = [client.get(f"/r/{room['room']}/hint?lang=cs", headers=bearer(room["token"])) for _ in range(5)]
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.text for answer in answers}) == 1
    assert len(worked_out) == 1
    english = client.get(f"/r/{room['room']}/hint?lang=en", headers=bearer(room["token"]))
    assert "Hint:" in english.text and len(worked_out) == 1  # the same work, told in another language


def test_people_online_get_no_hints_unless_the_room_allowed_them(client: TestClient) -> None:
    room = new_room(client, "backgammon", PEOPLE, claim=0, options={"first": 0})
    assert client.get(f"/api/rooms/{room['room']}").json()["hints"] is False
    refused = client.get(f"/r/{room['room']}/hint?lang=cs", headers=bearer(room["token"]))
    assert refused.status_code == 403
    assert "Rady jsou v této místnosti vypnuté" in refused.text
    allowed = new_room(client, "backgammon", PEOPLE, claim=0, options={"first": 0}, hints=True)
    assert client.get(f"/api/rooms/{allowed['room']}").json()["hints"] is True
    assert client.get(f"/r/{allowed['room']}/hint", headers=bearer(allowed["token"])).status_code == 200
    page = client.get(f"/r/{allowed['room']}?lang=en").text
    assert "Hints are allowed in this room for every seat." in page  # shown by hints.js to everyone joining


def test_a_hint_out_of_turn_is_refused(client: TestClient) -> None:
    room = new_room(client, "backgammon", PEOPLE, claim=1, options={"first": 0}, hints=True)
    answer = client.get(f"/r/{room['room']}/hint?lang=en", headers=bearer(room["token"]))
    assert answer.status_code == 409
    assert "It is not your turn" in answer.text


def test_a_finished_game_has_its_analysis_with_a_plot_and_links_to_the_replay(client: TestClient) -> None:
    # A random player loses chances in every game, so the analysis always has a costliest decision to link.
    room = new_room(client, "qwixx", [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "master"}])
    until_over(client, room["room"])
    html = client.get(f"/r/{room['room']}/analysis?lang=en").text
    assert "Players: chance of winning" in html
    assert "<svg" in html and "<polyline" in html
    assert f"/r/{room['room']}/replay?move=" in html
    assert any(word in html for word in ("Master", "Expert", "Advanced", "Intermediate", "Beginner"))
    replay = client.get(f"/r/{room['room']}/replay?lang=en").text
    assert 'id="analysis"' in replay and "/static/analysis.js" in replay


def test_an_unfinished_game_has_no_analysis_yet(client: TestClient) -> None:
    room = new_room(client, "qwixx", PEOPLE, claim=0)
    answer = client.get(f"/r/{room['room']}/analysis?lang=en")
    assert answer.status_code == 409
    assert "The analysis opens when the game is over." in answer.text


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_refusal_is_translated(lang: str) -> None:
    for text in (advice.NO_HINTS, advice.NO_SEAT, advice.NOT_YOUR_TURN, advice.NOT_OVER):
        assert text in catalog(lang)
