"""Replays step by turn, the deal as one step, and every hand shown once the game is over."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import hraj
from hraj.core import random_playout
from hraj.core.record import Event
from hraj.games.abluxxen.rules import AbluxxenState
from hraj.games.abluxxen.web import card_text
from hraj.web.replays import asked_together, private_chances, replay_steps, turn_ends
from tests.server.helpers import until_over
from tests.web.api import new_room
from tests.web.test_pages import client  # noqa: F401  (the fixture)

# --- where turns end -------------------------------------------------------------------------


def test_the_deal_is_one_step_and_each_player_s_decisions_are_one() -> None:
    events: list[Event] = [
        ("chance", None, "5"),
        ("chance", None, "9"),
        ("chance", None, "first 1"),
        ("move", 1, "play 5"),
        ("move", 1, "draw deck"),
        ("move", 2, "play 9"),
    ]
    assert turn_ends(events) == [3, 5, 6]


def test_the_roll_of_a_turn_opens_the_turn() -> None:
    events: list[Event] = [
        ("chance", None, "31"),  # the opening roll
        ("move", 0, "8/5 6/5"),
        ("move", 1, "roll"),
        ("chance", None, "64"),
        ("move", 1, "24/18 13/9"),
        ("chance", None, "22"),  # the dice of seat 0's next turn come with it
        ("move", 0, "6/4(2) 8/6(2)"),
    ]
    assert turn_ends(events) == [1, 2, 5, 7]


def test_a_card_only_its_drawer_saw_stays_with_the_drawer_s_turn() -> None:
    events: list[Event] = [
        ("chance", None, "7"),
        ("move", 0, "play 7"),
        ("move", 0, "draw deck"),
        ("chance", None, "12"),  # into seat 0's hand
        ("move", 1, "play 3"),
    ]
    assert turn_ends(events, frozenset({0, 3})) == [1, 4, 5]
    assert turn_ends(events) == [1, 3, 5]  # were it face up, it would open seat 1's turn


def test_a_forced_step_of_another_seat_is_a_turn_of_its_own() -> None:
    events: list[Event] = [
        ("chance", None, "52"),
        ("move", 0, "13/8 13/11"),
        ("chance", None, "66"),
        ("auto", 1, "no move"),
        ("chance", None, "41"),
        ("move", 0, "24/20 21/20"),
    ]
    assert turn_ends(events) == [1, 2, 4, 6]


def test_answers_given_at_once_are_one_step_with_their_roll() -> None:
    events: list[Event] = [
        ("chance", None, "first 0"),
        ("chance", None, "w34 r1 y2 g3 b4"),
        ("move", 0, "r7"),  # every seat answers the white sum at once
        ("move", 1, "pass"),
        ("move", 0, "y5"),  # the active seat's colour dice: its own decision
        ("chance", None, "w11 r6 y6 g6 b6"),
        ("move", 1, "r2"),
        ("move", 0, "pass"),
        ("auto", 1, "penalty"),  # seat 1's colour step had nothing: shown with the answers
        ("chance", None, "w66 r1 y1 g1 b1"),
        ("move", 0, "pass"),
        ("move", 1, "pass"),
        ("chance", None, "w25 r3 y3 g3 b3"),  # no colour cross was left: the answers end here
        ("move", 1, "g7"),
        ("move", 0, "pass"),
    ]
    together = frozenset({2, 3, 6, 7, 10, 11, 13, 14})
    assert turn_ends(events, together=together) == [2, 4, 5, 9, 12, 15]
    # Asked one by one, each answer would be a step that changes nothing on the table.
    one_by_one = turn_ends(events)
    assert 3 in one_by_one and 7 in one_by_one and len(one_by_one) > 7


def test_a_three_player_qwixx_replay_never_steps_between_the_answers_to_one_roll() -> None:
    import random

    game = hraj.game("qwixx", players=3)
    events = random_playout(game.new_state(), random.Random(4)).events()
    together = asked_together(game, events)
    rolls = sum(1 for kind, _, text in events if kind == "chance" and not text.startswith("first"))
    # Seats with no cross to make are not asked: the others still answer at once.
    assert rolls < len(together) <= 3 * rolls
    ends = replay_steps(game, events)
    assert not any(end - 1 in together and end in together for end in ends)
    assert len(ends) <= 2 * rolls + 1
    # Every step after the opening shows something new: the dice, a cross or a penalty.
    tables = [game.replay_events(events[:end], whole=False).view(None) for end in ends]
    assert all(before != after for before, after in itertools.pairwise(tables))


def test_an_empty_record_has_no_step() -> None:
    assert turn_ends([]) == []


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


def test_a_three_player_abluxxen_deal_is_one_step_not_forty_five() -> None:
    game, state = abluxxen_game()
    events = state.events()
    private = private_chances(game, events)
    assert len(private) >= 39  # 13 cards to each of 3 hands, then the cards drawn
    ends = replay_steps(game, events)
    first_move = next(index for index, (kind, _, _) in enumerate(events) if kind == "move")
    assert ends[0] == first_move >= 45
    assert len(ends) < len(events) / 2
    # No step begins with a card drawn into a hand: it belongs to its drawer's turn.
    assert all(end not in private for end in ends[:-1])
    assert any(end - 1 in private for end in ends[1:])


# --- the replay page --------------------------------------------------------------------------


def test_the_replay_of_a_finished_abluxxen_game_shows_every_hand(client: TestClient) -> None:  # noqa: F811
    room = new_room(client, "abluxxen", [{"kind": "bot", "bot": "random"}] * 3)
    record = client.get(f"/api/rooms/{room['room']}/record").json()
    game = hraj.game("abluxxen", **record["options"])
    events = [tuple(event) for event in record["events"]]
    ends = replay_steps(game, events)
    page = client.get(f"/r/{room['room']}/replay?step=1&lang=en").text
    assert f"Turn 1 of {len(ends)}" in page
    assert "The start of the game" in page and "shows every hand" in page
    dealt = game.replay_events(events[: ends[0]], whole=False)
    assert isinstance(dealt, AbluxxenState)
    shown = sorted(line.split(":", 1)[1].split() for line in re.findall(r'<p class="known">([^<]*)</p>', page))
    hands = sorted([card_text(card) for card in dealt.view(seat)["hand"] or ()] for seat in range(3))
    assert shown == hands and all(len(hand) == 13 for hand in hands)
    later = client.get(f"/r/{room['room']}/replay?step=2&lang=cs").text
    assert "Tento tah" in later and "Tah 2 z" in later


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
