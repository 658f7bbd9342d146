"""The batched search gives what the plies mean, roll by roll, one position at a time."""

from __future__ import annotations

import numpy as np

from hraj.games.backgammon.afterstates import ROLL_WEIGHTS, ROLLS, afterstates, swap
from hraj.games.backgammon.evaluator import Evaluator, cubeless_equity, flip
from hraj.games.backgammon.search import after_play, on_roll, rank_plays

from .test_afterstates import _positions


def _slow_on_roll(net: Evaluator, position: np.ndarray, plies: int) -> np.ndarray:
    """The definition: each roll's best 0-ply play, valued `plies - 1` deep for the other side."""
    if plies == 0 or position[0] == 15 or position[26] == 15:
        return np.asarray(net.probabilities(position[np.newaxis])[0])
    total = np.zeros(5)
    for roll, weight in zip(ROLLS, ROLL_WEIGHTS, strict=True):
        _, after = afterstates(position, roll)
        theirs = net.probabilities(swap(after))
        best = swap(after)[int(np.argmin(cubeless_equity(theirs)))]
        total += weight * flip(_slow_on_roll(net, best, plies - 1))
    return total


def test_one_and_two_plies_are_the_rolls_averages() -> None:
    net = Evaluator.random(8, seed=21, scale=0.5)
    positions = np.array([mine + theirs for mine, theirs in _positions(120, seed=22)], dtype=np.int8)
    one = on_roll(net, positions[::6], 1)
    for index, position in enumerate(positions[::6]):
        assert np.allclose(one[index], _slow_on_roll(net, position, 1))
    two = on_roll(net, positions[:2], 2)
    for index, position in enumerate(positions[:2]):
        assert np.allclose(two[index], _slow_on_roll(net, position, 2))


def test_plays_are_ranked_by_their_deepest_value() -> None:
    net = Evaluator.random(8, seed=23, scale=0.5)
    position = np.array(_positions(30, seed=24)[-1][0] + _positions(30, seed=24)[-1][1], dtype=np.int8)
    ranked = rank_plays(net, position, (6, 5), 2)
    plays, after = afterstates(position, (6, 5))
    assert sorted(play.steps for play in ranked) == sorted(plays)
    deepest = [play for play in ranked if play.ply == ranked[0].ply]
    for play in deepest:
        value = after_play(net, after[plays.index(play.steps)][np.newaxis], play.ply)[0]
        assert np.allclose(play.probabilities, value)
    assert [play.equity for play in deepest] == sorted((play.equity for play in deepest), reverse=True)
