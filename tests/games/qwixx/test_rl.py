"""Qwixx for learning agents: a pending answer to the white sum stays hidden."""

from __future__ import annotations

import numpy as np

import hraj
from hraj.games.qwixx.rl import NUM_ACTIONS, cross_id
from hraj.games.qwixx.rules import PASS, Cross
from hraj.rl import codec, observe


def test_ids_pass_first_then_rows_left_to_right():
    assert cross_id(PASS) == 0
    assert cross_id(Cross(0, 2)) == 1
    assert cross_id(Cross(3, 12)) == NUM_ACTIONS - 1


def test_an_answer_to_the_white_sum_is_seen_only_by_its_own_seat():
    game = hraj.game("qwixx", players=3, first=0)
    rl = codec(game)
    crossed, passed = game.new_state(), game.new_state()
    for state in (crossed, passed):
        state.apply_chance("w3 w4 r1 y1 g1 b1")
    crossed.apply(1, "r7")
    passed.apply(1, "pass")
    for seat in (0, 2):
        assert np.array_equal(observe(rl, crossed, seat), observe(rl, passed, seat))
    assert not np.array_equal(observe(rl, crossed, 1), observe(rl, passed, 1))
