"""Rollouts: candidates share their dice, first rolls are spread evenly, values are the games' results."""

from __future__ import annotations

import numpy as np
import pytest

from hraj.games.backgammon.afterstates import afterstates
from hraj.games.backgammon.evaluator import Evaluator, cubeless_equity
from hraj.games.backgammon.moves import START
from hraj.games.backgammon.notation import Play
from hraj.games.backgammon.rollout import first_rolls, rollout_plays, rollout_positions

from .helpers import position


def _net() -> Evaluator:
    return Evaluator.random(8, seed=11)


def test_first_rolls_come_up_equally_often() -> None:
    rolls = first_rolls(36 * 36)
    firsts = {tuple(pair) for pair in rolls[:, 0].tolist()}
    assert len(firsts) == 36 and len({tuple(pair) for pair in rolls[:36, 0].tolist()}) == 36
    pairs = {(tuple(a), tuple(b)) for a, b in rolls.tolist()}
    assert len(pairs) == 36 * 36  # every pair of first two rolls once


def test_the_same_candidate_twice_gets_the_same_value_on_shared_dice() -> None:
    start = np.array(START + START, dtype=np.int8)
    _, after = afterstates(start, (3, 1))
    values = rollout_positions(after[[0, 0, 1]], games=40, seed=3, evaluator=_net())
    assert values[0] == values[1]  # the same dice, the same games
    assert values[0].games == 40 and values[0].standard_error > 0
    for value in values:
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = value.probabilities
        assert 0 <= win_backgammon <= win_gammon <= win <= 1 and 0 <= lose_backgammon <= lose_gammon <= 1 - win
        assert value.equity == pytest.approx(float(cubeless_equity(np.array(value.probabilities))))
    again = rollout_positions(after[[1]], games=40, seed=3, evaluator=_net())
    assert again[0] == values[2]  # the seed fixes the dice


def test_a_certain_gammon_rolls_out_as_one() -> None:
    mine = [13, 2] + [0] * 24  # two checkers on the one point: off with any roll
    theirs = [0] * 26
    theirs[6], theirs[25] = 14, 1  # none off and one on the bar: no checker comes off in one roll
    value = rollout_positions(np.array([mine + theirs], dtype=np.int8), games=36, evaluator=_net())[0]
    win, win_gammon, _, lose_gammon, _ = value.probabilities
    assert win == win_gammon == 1.0 and lose_gammon == 0.0 and 2.0 <= value.equity <= 3.0


def test_plays_of_a_state_roll_out_like_their_positions() -> None:
    state = position({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, (3, 1))
    plays = [Play(((8, 5), (6, 5))), Play(((24, 21), (21, 20)))]
    from_state = rollout_plays(state, plays, games=20, seed=4, evaluator=_net())
    start = np.array(START + START, dtype=np.int8)
    steps, after = afterstates(start, (3, 1))
    rows = [steps.index(play.steps) for play in plays]
    assert from_state == rollout_positions(after[rows], games=20, seed=4, evaluator=_net())
