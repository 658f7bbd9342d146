"""The review of a finished game without a browser: the analysis links land on the move
they name in all four games, one name per seat, no impossible figure, rollouts kept."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hraj.core.record import move_events
from hraj.games.abluxxen import hints as abluxxen_hints
from hraj.web import rollouts
from tests.web.api import new_room, site_client

#: A random player against a strong one: the analysis always has a costly decision.
SEATS = {
    "qwixx": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "master"}],
    "trefa": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "racer"}],
    "backgammon": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "net"}],
    "abluxxen": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
}


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(abluxxen_hints, "QUICK_DEALS", 2)
    monkeypatch.setattr(abluxxen_hints, "QUICK_HORIZON", 2)
    monkeypatch.setenv("HRAJ_ROLLOUT_TRIALS", "4")
    monkeypatch.setenv("HRAJ_ROLLOUT_WORKERS", "1")
    with site_client(tmp_path) as test_client:
        yield test_client


def moves_of(client: TestClient, room: str) -> int:
    record = client.get(f"/api/rooms/{room}/record").json()
    return len(move_events([tuple(event) for event in record["events"]]))


@pytest.mark.parametrize("game", list(SEATS))
def test_the_costliest_decision_links_to_the_position_where_it_was_made(client: TestClient, game: str) -> None:
    room = new_room(client, game, SEATS[game])["room"]
    total = moves_of(client, room)
    analysis = client.get(f"/r/{room}/analysis?lang=en").text
    linked = [int(number) for number in re.findall(r'/replay\?move=(\d+)"', analysis)]
    assert linked and all(1 <= number <= total for number in linked)
    costliest = int(re.findall(r'<td><a href="/r/[^/]+/replay\?move=(\d+)">', analysis)[0])
    page = client.get(f"/r/{room}/replay?move={costliest}&lang=en").text
    assert f"Move {costliest} of {total}" in page
    assert 'aria-current="step"' in page and f'href="?move={costliest}" aria-current="step"' in page
    options = client.get(f"/r/{room}/analysis?move={costliest}&lang=en").text
    assert "Options of move" in options and "(played)" in options and "Best was" in options


@pytest.mark.parametrize("game", list(SEATS))
def test_a_seat_has_one_name_at_the_table_and_in_the_analysis(client: TestClient, game: str) -> None:
    room = new_room(client, game, SEATS[game])["room"]
    table = client.get(f"/r/{room}/replay?lang=cs").text
    analysis = client.get(f"/r/{room}/analysis?lang=cs").text
    names = set(re.findall(r'<th scope="row">(Bot \([^)]*\)(?: \d)?)</th>', analysis))
    assert names and all(name in table for name in names)
    assert not re.search(r"Bot \((random|greedy|master|racer|net)\)", analysis)


def test_no_figure_of_an_abluxxen_summary_is_impossible(client: TestClient) -> None:
    room = new_room(client, "abluxxen", SEATS["abluxxen"])["room"]
    analysis = client.get(f"/r/{room}/analysis?lang=cs").text
    percents = [float(text.replace(",", ".")) for text in re.findall(r"(\d+(?:,\d+)?)\s*%", analysis)]
    assert percents and max(percents) <= 100


def test_the_end_says_who_won_and_how_the_score_was_made(client: TestClient) -> None:
    room = new_room(client, "abluxxen", SEATS["abluxxen"])["room"]
    page = client.get(f"/r/{room}/replay?lang=en").text
    assert re.search(r"(wins|share the win): \d+ points?\.", page)
    assert "Cards laid out" in page and "Cards in hand" in page


def wait_for(client: TestClient, url: str) -> dict[str, object]:
    for _ in range(600):
        answer: dict[str, object] = client.get(url).json()
        if answer["status"] != "running":
            return answer
        time.sleep(0.05)
    raise AssertionError("the rollout did not end")


def test_a_rollout_runs_with_its_progress_and_a_second_look_reads_the_kept_one(client: TestClient) -> None:
    room = new_room(client, "qwixx", SEATS["qwixx"])["room"]
    analysis = client.get(f"/r/{room}/analysis?lang=en").text
    move = int(re.findall(r'<td><a href="/r/[^/]+/replay\?move=(\d+)">', analysis)[0])
    url = f"/r/{room}/rollout?move={move}&lang=en"
    assert client.get(url).json()["status"] == "none"
    started = client.post(url).json()
    assert started["status"] in ("running", "done") and started.get("total", 4) == 4
    done = wait_for(client, url)
    assert done["status"] == "done"
    assert "standard error" in str(done["html"]) and "(played)" in str(done["html"])
    kept = rollouts.load_rollout(client.app.state.rooms.store, room, move, 4, rollouts._seed(room))  # type: ignore[attr-defined]
    assert kept is not None and kept["move"] == move
    assert client.post(url).json()["status"] == "done"  # nothing played again


def test_a_rollout_can_be_stopped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HRAJ_ROLLOUT_TRIALS", "400")
    room = new_room(client, "trefa", SEATS["trefa"])["room"]
    analysis = client.get(f"/r/{room}/analysis?lang=en").text
    move = int(re.findall(r'<td><a href="/r/[^/]+/replay\?move=(\d+)">', analysis)[0])
    url = f"/r/{room}/rollout?move={move}"
    assert client.post(url).json()["status"] == "running"
    assert client.delete(url).json()["status"] == "stopped"
    assert wait_for(client, url)["status"] == "none"
    assert rollouts.load_rollout(client.app.state.rooms.store, room, move, 400, rollouts._seed(room)) is None  # type: ignore[attr-defined]


def test_the_room_log_numbers_its_lines_by_move_as_the_review_does(client: TestClient) -> None:
    room = new_room(client, "backgammon", SEATS["backgammon"])["room"]
    total = moves_of(client, room)
    table = client.get(f"/r/{room}/table?lang=en").text
    numbers = [int(number) for number in re.findall(r'<span class="move-no">(\d+)\.</span>', table)]
    # newest first: the last move's number leads, however long the game (the log keeps 40 lines)
    assert numbers[0] == total and numbers == sorted(numbers, reverse=True) and total > 40
