"""The greedy Qwixx bot: legal always, never a needless penalty, clearly above random."""

from __future__ import annotations

import random

import hraj
from hraj.bots.arena import run_arena
from hraj.games.qwixx.bots import GreedyQwixxBot
from hraj.games.qwixx.rules import Qwixx, QwixxState


def test_greedy_beats_random_in_seeded_games() -> None:
    result = run_arena(hraj.game("qwixx", players=2), ["greedy", "random"], games=60, seed=1)
    greedy, rand = result.win_rate(0), result.win_rate(1)
    assert greedy.mean - greedy.half_width > 0.8
    assert result.mean_score(0).mean > result.mean_score(1).mean + 20
    assert rand.mean < 0.2


def test_greedy_takes_a_cheap_cross_instead_of_a_penalty() -> None:
    state = QwixxState.from_position(Qwixx(players=2), "0: r2,3,4,5,6,7,8 / -")
    state.apply_chance("w6 w5 r1 y1 g1 b1")  # white 11: red 11 skips 9 and 10
    state.apply(0, "pass")
    state.apply(1, "pass")
    choice = GreedyQwixxBot(0).choose(state, 0)
    assert str(choice) != "pass"


def test_greedy_does_not_end_the_game_with_a_lock_when_behind() -> None:
    state = QwixxState.from_position(Qwixx(players=2), "0: r2,3,4,5,6 / g12,11,10,9,8,7,6,5,4,3,2+ b12,11,10,9,8,7,6,5")
    state.apply_chance("w6 w6 r1 y1 b1")
    assert str(GreedyQwixxBot(0).choose(state, 0)) != "r12"


def test_greedy_locks_to_win_when_ahead() -> None:
    state = QwixxState.from_position(Qwixx(players=2), "0: r2,3,4,5,6,7,8 g12,11,10,9,8,7,6,5,4,3,2+ / b12")
    state.apply_chance("w6 w6 r1 y1 b1")
    assert str(GreedyQwixxBot(0).choose(state, 0)) == "r12"


def test_greedy_only_plays_legal_moves() -> None:
    rng = random.Random(5)
    for seed in range(20):
        state = hraj.game("qwixx", players=3).new_state()
        bot = GreedyQwixxBot(seed)
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            state.apply(seat, bot.choose(state.determinize(seat, rng), seat))  # apply checks legality
        assert state.outcome is not None
