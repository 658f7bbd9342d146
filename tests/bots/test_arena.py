"""The arena: seats rotate, ties share a win, and the figures carry 95% intervals."""

from __future__ import annotations

import math
import random
import time

import pytest

import hraj
from hraj.bots.arena import Estimate, run_arena
from hraj.core.bot import make_bot
from hraj.games.abluxxen import search
from hraj.games.abluxxen.rules import AbluxxenState


def test_estimate_of_a_known_sample() -> None:
    estimate = Estimate.of([0.0, 1.0, 0.0, 1.0])
    assert estimate.mean == 0.5
    assert estimate.half_width == pytest.approx(1.959963984540054 * math.sqrt(1 / 3) / 2)


def test_every_game_hands_out_exactly_one_win() -> None:
    result = run_arena(hraj.game("qwixx", players=3), ["random", "random", "greedy"], games=30, seed=4)
    assert result.games == 30
    totals = [sum(entrant.wins[i] for entrant in result.entrants) for i in range(30)]
    assert all(total == pytest.approx(1.0) for total in totals)


def test_same_seed_same_results() -> None:
    first = run_arena(hraj.game("qwixx", players=2), ["random", "random"], games=10, seed=9)
    again = run_arena(hraj.game("qwixx", players=2), ["random", "random"], games=10, seed=9)
    assert [e.scores for e in first.entrants] == [e.scores for e in again.entrants]


class RacingClock:
    """A clock whose every reading is a minute after the last: a machine so busy that a
    search bound by time would stop after its first deals."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 60.0
        return self.now


def test_a_bot_that_searches_on_a_clock_plays_the_same_games_however_busy_the_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = hraj.game("abluxxen", players=2)
    calm = run_arena(game, ["planner", "greedy"], games=1, seed=5)
    monkeypatch.setattr(time, "perf_counter", RacingClock())
    busy = run_arena(game, ["planner", "greedy"], games=1, seed=5)
    assert [e.scores for e in busy.entrants] == [e.scores for e in calm.entrants]
    # Outside the arena the same bot does stop on the clock: the arena is what differs.
    state = game.new_state()
    while state.is_chance:
        state.apply_chance(state.sample_chance(random.Random(1)))
    [seat] = state.to_act
    hurried = make_bot("abluxxen", "planner", 1)
    assert isinstance(hurried, search.SearchBot) and isinstance(state, AbluxxenState)
    assert {option.samples for option in hurried.values(state, seat)} == {2}


def test_unknown_bot_names_the_choices() -> None:
    with pytest.raises(hraj.InvalidOption, match="random"):
        make_bot("qwixx", "nobody")


def test_chunks_from_a_first_game_make_up_one_run() -> None:
    game = hraj.game("qwixx", players=2)
    whole = run_arena(game, ["random", "greedy"], games=6, seed=3)
    parts = [run_arena(game, ["random", "greedy"], games=3, seed=3, first=first) for first in (0, 3)]
    for index, entrant in enumerate(whole.entrants):
        assert entrant.wins == parts[0].entrants[index].wins + parts[1].entrants[index].wins
        assert entrant.scores == parts[0].entrants[index].scores + parts[1].entrants[index].scores
