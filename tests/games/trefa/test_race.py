"""The race behind Trefa's `winner` bot: who finishes when, and the chance of winning."""

from __future__ import annotations

import random

import pytest

import hraj
from hraj.core.driver import play_game
from hraj.games.trefa.bots import RacerBot, WinnerBot
from hraj.games.trefa.race import race_share, row_pool
from hraj.games.trefa.rules import Trefa, TrefaState

NUMBERS = (6, 5, 4, 3, 2, 1)
BONUS = (0, 1, 3, 6, 10, 15, 21)


class QuickWinner(WinnerBot):
    SAMPLES = 60


def test_filling_the_last_row_now_ends_the_game_before_the_others_move() -> None:
    # seat 0 is on turn and fills its sheet with 5 points; seat 1 never gets its 3 + 3
    assert race_share([[5], [3, 3]], [10, 10], 0) == (1.0, 15)


def test_an_opponent_who_finishes_first_stops_the_race() -> None:
    # seat 0 needs three turns; seat 1 (next) finishes on its first, after seat 0's first
    assert race_share([[1, 1, 1], [2]], [10, 10], 0) == (0.0, 11)


def test_a_tie_shares_the_win() -> None:
    # seat 1 is on turn and finishes on its second turn; seat 0 has one turn in between
    assert race_share([[4, 9], [1, 3]], [10, 10], 1) == (0.5, 14)


def test_a_row_pool_is_the_same_every_time_and_ends_every_row() -> None:
    pool = row_pool(NUMBERS, BONUS, 8.0, 0b110110, 1)  # fields 1 and 4 written, one a hit
    assert pool == row_pool.__wrapped__(NUMBERS, BONUS, 8.0, 0b110110, 1)
    assert all(1 <= len(turns) <= 4 for turns in pool)
    assert all(0 <= sum(turns) <= 6 + 3 + 2 + 1 + 21 for turns in pool)


def test_the_winner_values_its_options_and_plays_the_best() -> None:
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 654321 6543.. / b 654321 654321 654321 65432.")
    state.apply_chance("k1 w6 r1 y6 g6 b6")
    values = QuickWinner(3).values(state, 0)
    assert 1 <= len(values) <= WinnerBot.CANDIDATES + 2
    assert all(0.0 <= option.win <= 1.0 and option.score >= state.score(0) for option in values)
    assert all(option.action in state.legal_actions(0) for option in values)
    best = max(values, key=lambda option: (option.win, option.score)).action
    assert QuickWinner(3).choose(state, 0) == best


def test_far_behind_an_opponent_about_to_finish_the_winner_sees_it_is_losing() -> None:
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 6543.. / b 654321 654321 654321 654321 65432.")
    state.apply_chance("k1 w6 r1 y6 g6 b6")
    assert max(option.win for option in QuickWinner(1).values(state, 0)) < 0.1


def test_alone_the_winner_plays_like_the_racer() -> None:
    state = TrefaState.from_position(Trefa(players=1, first=0), "0: a 654...")
    state.apply_chance("k1 w6 r2 y6 g6 b4")
    assert QuickWinner(0).choose(state, 0) == RacerBot().choose(state, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_the_winner_plays_legal_games_to_the_end(players: int) -> None:
    state = hraj.game("trefa", players=players).new_state()
    bots = [QuickWinner(seat) if seat == 0 else RacerBot(seat) for seat in range(players)]
    play_game(state, bots, random.Random(players))
    assert state.is_over
    assert hraj.game("trefa", players=players).replay(state.record()) == state


def test_every_legal_option_can_be_valued() -> None:
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 654321 6543.. / b 654321 654321")
    state.apply_chance("k1 w6 r1 y6 g6 b6")
    values = QuickWinner(4).values(state, 0, every=True)
    assert sorted(option.action for option in values) == sorted(state.legal_actions(0))
