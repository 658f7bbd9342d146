"""The expert inputs: shots agree with the engine's plays, escapes and primes as players count them."""

from __future__ import annotations

import numpy as np
import pytest

from hraj.games.backgammon.afterstates import ROLL_WEIGHTS, ROLLS, afterstates
from hraj.games.backgammon.features import EXTRA, INPUTS, RAW, contact, expert_inputs, shot_chance
from hraj.games.backgammon.moves import is_contact, pip_count

from .test_afterstates import _positions


def _random(count: int, seed: int) -> np.ndarray:
    return np.array([mine + theirs for mine, theirs in _positions(count, seed)], dtype=np.int8)


def _board(**points: int) -> list[int]:
    """A side's 26 counts from p1=..., p25= (the bar); the rest borne off."""
    board = [0] * 26
    for name, count in points.items():
        board[int(name[1:])] = count
    board[0] = 15 - sum(board)
    return board


def _extra(position: list[int], side: int = 0) -> np.ndarray:
    inputs = expert_inputs(np.array([position], dtype=np.int8))[0]
    begin = side * (RAW + EXTRA) + RAW
    return np.asarray(inputs[begin : begin + EXTRA])


def test_shots_are_the_rolls_with_a_play_that_hits_in_random_positions() -> None:
    positions = _random(500, seed=31)
    ours = shot_chance(positions[:, :26], positions[:, 26:])
    exact = np.zeros(len(positions))
    for index, position in enumerate(positions):
        for roll, weight in zip(ROLLS, ROLL_WEIGHTS, strict=True):
            _, after = afterstates(position, roll)
            exact[index] += weight * bool((after[:, 51] > position[51]).any())
    # the forced-play rules may forbid a hit the shot count allows: rare, and small
    assert np.mean(np.abs(ours - exact) < 1e-6) > 0.97
    assert np.abs(ours - exact).mean() < 0.005


def test_a_blot_six_away_is_hit_by_seventeen_rolls() -> None:
    attacker = _board(p13=1)
    defender = _board(p18=1)  # the attacker's point 7: six pips ahead of its checker
    chance = shot_chance(np.array([attacker], dtype=np.int8), np.array([defender], dtype=np.int8))
    assert chance[0] == pytest.approx(17 / 36)


def test_a_checker_on_the_bar_hits_only_after_entering() -> None:
    attacker = _board(p25=2, p13=1)
    defender = _board(p18=1)  # the attacker's 7, six away from its 13
    chance = shot_chance(np.array([attacker], dtype=np.int8), np.array([defender], dtype=np.int8))
    # no plain roll hits while both must enter; 6-6 (enter, enter, 13/7*) and 3-3 (13/10/7*) do
    assert chance[0] == pytest.approx(2 / 36)


def test_behind_a_full_prime_no_roll_escapes() -> None:
    primed = _board(p24=1, p1=9)
    wall = _board(p7=2, p8=2, p9=2, p10=2, p11=2, p12=2)  # the mover's 13-18, six in a row
    free = _board(p1=3)
    extra_primed = _extra(primed + wall)
    extra_free = _extra(_board(p24=1, p1=9) + free)
    assert extra_primed[4] == 0.0 and extra_free[4] == 1.0  # escapes of the rearmost checker
    assert extra_primed[5] == 1.0 and extra_free[5] == 0.0  # containment
    assert _extra(primed + wall, side=1)[8] == 1.0  # the other side's longest run: a full prime


def test_inputs_of_random_positions() -> None:
    positions = _random(300, seed=32)
    inputs = expert_inputs(positions)
    assert inputs.shape == (300, INPUTS) and np.isfinite(inputs).all()
    extra = inputs[:, RAW : RAW + EXTRA]
    assert np.allclose(extra[:, 0] * 15, positions[:, 0]) and np.allclose(
        extra[:, 1] * 167, [pip_count(row.tolist()) for row in positions[:, :26]], atol=1e-3
    )
    others = np.delete(extra, 1, axis=1)  # all but the pip count lie in [0, 1]
    assert ((others >= 0) & (others <= 1)).all()
    flags = [is_contact(list(m), list(t)) for m, t in zip(positions[:, :26], positions[:, 26:], strict=True)]
    assert contact(positions).tolist() == flags and inputs[:, -1].tolist() == [float(f) for f in flags]
    # the same position seen by the other side has the two sides' inputs swapped
    turned = expert_inputs(np.concatenate([positions[:, 26:], positions[:, :26]], axis=1))
    half = RAW + EXTRA
    assert np.array_equal(turned[:, :half], inputs[:, half : 2 * half])
