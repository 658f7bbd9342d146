"""Rollouts: the same luck for every option, gnubg's quasi-random first rolls, the
standard errors, processes and stopping."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import hraj
from hraj.analysis.rollout import Chance, rollout, standard_error
from hraj.core.bot import make_bot
from hraj.core.driver import play_game
from hraj.core.errors import InvalidOption


def qwixx_record(seed: int = 3) -> dict[str, object]:
    game = hraj.game("qwixx", players=2)
    bots = [make_bot("qwixx", "random", 1), make_bot("qwixx", "master", 2)]
    return dict(play_game(game.new_state(), bots, random.Random(seed)).record())


def a_roll_ahead() -> hraj.State:  # type: ignore[type-arg]
    """A backgammon position whose next event is an ordinary roll (21 outcomes)."""
    game = hraj.game("backgammon")
    state = game.new_state()
    rng = random.Random(1)
    while not (state.is_chance and len(state.chance_outcomes()) == 21):
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[0])
    return state


@pytest.mark.parametrize("trials", [36, 72, 50])
def test_the_first_roll_of_the_trials_comes_as_often_as_its_chance_says(trials: int) -> None:
    start = a_roll_ahead()
    outcomes = {str(roll): probability for roll, probability in start.chance_outcomes()}
    met: Counter[str] = Counter()
    for trial in range(trials):
        state = start.copy()
        Chance(trial, trials, seed=7, stratify=True).resolve(state)
        met[state.events()[-1][2]] += 1
    # a Latin hypercube: every roll within one of its share (36 trials: 1 of each double, 2 of the rest)
    assert all(abs(met[roll] - trials * probability) < 1 for roll, probability in outcomes.items())
    if trials == 36:
        assert sorted(met.values()) == [1] * 6 + [2] * 15


def test_every_option_of_a_trial_meets_the_same_dice() -> None:
    game = hraj.game("qwixx", players=2)
    state = game.new_state()
    rolls = []
    for _ in range(2):
        copy = state.copy()
        chance = Chance(trial=5, trials=36, seed=1)
        chance.resolve(copy)
        rolls.append(copy.events())
    assert rolls[0] == rolls[1]
    other = state.copy()
    Chance(trial=6, trials=36, seed=1).resolve(other)
    assert other.events() != rolls[0]


def test_the_standard_error_is_the_spread_over_the_root_of_the_trials() -> None:
    assert standard_error([1.0, 0.0, 1.0, 0.0]) == pytest.approx((1 / 3) ** 0.5 / 2)
    assert standard_error([0.5]) == 0.0


def test_a_rollout_ranks_the_options_and_keeps_the_played_one() -> None:
    game = hraj.game("qwixx", players=2)
    record = qwixx_record()
    result = rollout(game, record, 2, trials=6, seed=1)
    assert result is not None
    assert result.move == 2 and result.trials == 6 and result.unit == "win"
    assert result.played in {option.action for option in result.options}
    means = [option.mean for option in result.options]
    assert means == sorted(means, reverse=True)
    assert all(0 <= option.mean <= 1 and option.trials == 6 for option in result.options)
    assert result.options[0].gap_error == 0


def test_two_processes_give_the_same_figures_as_one() -> None:
    game = hraj.game("qwixx", players=2)
    record = qwixx_record()
    alone = rollout(game, record, 2, trials=8, seed=2)
    spread = rollout(game, record, 2, trials=8, seed=2, workers=2)
    assert alone is not None and spread is not None
    assert alone.options == spread.options


def test_a_rollout_stops_when_asked_and_tells_its_progress() -> None:
    game = hraj.game("qwixx", players=2)
    seen: list[tuple[int, int]] = []
    result = rollout(
        game,
        qwixx_record(),
        2,
        trials=12,
        progress=lambda done, total: seen.append((done, total)),
        cancelled=lambda: len(seen) >= 1,
    )
    assert result is None and seen == [(4, 12)]


def test_a_move_that_is_not_there_is_refused() -> None:
    game = hraj.game("qwixx", players=2)
    with pytest.raises(InvalidOption):
        rollout(game, qwixx_record(), 10_000, trials=4)
