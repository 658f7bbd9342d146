"""Replays step by move (the one numbering), the deal before the first move, and every hand
shown once the game is over."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import hraj
from hraj.core.record import Event, move_events
from hraj.games.abluxxen.rules import AbluxxenState
from hraj.games.abluxxen.web import card_text
from hraj.web.replays import move_list, position_end, previous_end
from tests.server.helpers import until_over
from tests.web.api import new_room
from tests.web.test_pages import client  # noqa: F401  (the fixture)

# --- where each move's position is -------------------------------------------------------------

BACKGAMMON: list[Event] = [
    ("chance", None, "31"),  # the opening roll
    ("move", 0, "8/5 6/5"),  # move 1
    ("move", 1, "roll"),  # move 2
    ("chance", None, "64"),
    ("move", 1, "24/18 13/9"),  # move 3
    ("chance", None, "66"),
    ("auto", 0, "no move"),
    ("move", 1, "roll"),  # move 4
]


def test_move_n_shows_the_position_where_it_was_made_its_dice_on_the_table() -> None:
    assert [position_end(BACKGAMMON, move) for move in (1, 2, 3, 4)] == [1, 2, 4, 7]
    assert position_end(BACKGAMMON, 5) == len(BACKGAMMON)  # past the last move: the end


def test_the_lines_before_a_move_begin_at_the_move_before_it() -> None:
    assert previous_end(BACKGAMMON, 1) == 0
    assert previous_end(BACKGAMMON, 3) == 2  # "seat 1 chose to roll", "rolled 6 and 4"
    assert previous_end(BACKGAMMON, 5) == 7  # the end: from the last move on


def test_the_move_list_numbers_every_decision_and_nothing_else() -> None:
    rows = move_list("backgammon", BACKGAMMON, ["Eva", "Petr"], "en")
    assert [(row["number"], row["name"], row["text"]) for row in rows] == [
        (1, "Eva", "8/5 6/5"),
        (2, "Petr", "roll"),
        (3, "Petr", "24/18 13/9"),
        (4, "Petr", "roll"),
    ]


def abluxxen_game(seed: int = 5) -> tuple[Any, Any]:
    import random

    game = hraj.game("abluxxen", players=3, first=0)
    state = game.new_state()
    rng = random.Random(seed)
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return game, state


def test_a_three_player_abluxxen_deal_comes_before_the_first_move() -> None:
    _, state = abluxxen_game()
    events = state.events()
    first = position_end(events, 1)
    assert first >= 45 and events[first][0] == "move"  # 13 cards to each of 3 hands, the display
    assert all(kind == "chance" for kind, _, _ in events[:first])


# --- the replay page --------------------------------------------------------------------------


def test_the_replay_of_a_finished_abluxxen_game_shows_every_hand(client: TestClient) -> None:  # noqa: F811
    room = new_room(client, "abluxxen", [{"kind": "bot", "bot": "random"}] * 3)
    record = client.get(f"/api/rooms/{room['room']}/record").json()
    game = hraj.game("abluxxen", **record["options"])
    events = [tuple(event) for event in record["events"]]
    moves = len(move_events(events))
    page = client.get(f"/r/{room['room']}/replay?move=1&lang=en").text
    assert f"Move 1 of {moves}" in page
    assert "The start of the game" in page and "shows every hand" in page
    dealt = game.replay_events(events[: position_end(events, 1)], whole=False)
    assert isinstance(dealt, AbluxxenState)
    shown = sorted(line.split(":", 1)[1].split() for line in re.findall(r'<p class="known">([^<]*)</p>', page))
    hands = sorted([card_text(card) for card in dealt.view(seat)["hand"] or ()] for seat in range(3))
    assert shown == hands and all(len(hand) == 13 for hand in hands)
    later = client.get(f"/r/{room['room']}/replay?move=2&lang=cs").text
    assert "Od tahu 1" in later and "Tah 2 z" in later


def test_a_live_room_offers_no_replay_link_until_the_end(client: TestClient) -> None:  # noqa: F811
    room = new_room(client, "qwixx", [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], claim=0)
    page = client.get(f"/r/{room['room']}?lang=en").text
    assert 'data-over="0"' in page
    assert '<span class="replay-link">' in page  # hidden by the style sheet while data-over is 0
    css = (Path(hraj.__file__).parent / "web" / "static" / "style.css").read_text(encoding="utf-8")
    assert '#room:not([data-over="1"]) .replay-link { display: none; }' in css
    assert client.get(f"/r/{room['room']}/replay").status_code == 409
    client.post(
        f"/api/rooms/{room['room']}/seats/0/bot",
        json={"bot": "random"},
        headers={"authorization": f"Bearer {room['token']}"},
    )
    until_over(client, room["room"])
    assert 'data-over="1"' in client.get(f"/r/{room['room']}").text
