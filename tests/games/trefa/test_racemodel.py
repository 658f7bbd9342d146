"""The exact race model behind Trefa's `winner` bot: rows, sheets, who finishes when."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

import hraj
from hraj.core.driver import play_game
from hraj.games.trefa.bots import RacerBot, WinnerBot
from hraj.games.trefa.racemodel import TURNS, race_value, row_chain, sheet_model
from hraj.games.trefa.rowvalue import row_values
from hraj.games.trefa.rules import Trefa, TrefaState
from tests.games.trefa.playouts import most_moves

NUMBERS = (6, 5, 4, 3, 2, 1)
BONUS = (0, 1, 3, 6, 10, 15, 21)
COST = RacerBot.RACE_TURN_COST
SCORES = 211


def point(turn: int, score: int) -> np.ndarray:
    """A sheet distribution certain to be `score` after `turn` turns."""
    grid = np.zeros((TURNS, SCORES))
    grid[turn, score] = 1.0
    return grid


def finishing(turn: int, before: int, score: int) -> tuple[np.ndarray, np.ndarray]:
    """(done, open) of a seat with `before` points until it fills its sheet on `turn` with `score`."""
    still = np.zeros((TURNS, SCORES))
    still[:turn, before] = 1.0
    return point(turn, score), still


def test_a_last_field_printing_1_is_written_on_the_first_turn_it_fits() -> None:
    chain = row_chain(NUMBERS, BONUS, COST)
    done = chain.done(0b100000, 0)  # only the field printing 1 is empty, no hits yet
    # a 1 fits with 1/6, and a reroll that keeps nothing but a 1 doubles the chances: 11/36
    assert done[1, 1 + BONUS[1]] == pytest.approx(11 / 36)
    assert done[1, 0] == pytest.approx(25 / 36)  # else crossed out: no points, no hit
    assert done.sum() == pytest.approx(1.0)


def test_a_row_adds_on_average_what_the_racer_table_expects() -> None:
    # the table's value is the expected points less the price of every turn
    chain = row_chain(NUMBERS, BONUS, COST)
    done = chain.done(chain.full, 0)
    turns = float(done.sum(axis=1) @ np.arange(done.shape[0]))
    points = float(done.sum(axis=0) @ np.arange(done.shape[1]))
    assert points - COST * turns == pytest.approx(row_values(NUMBERS, BONUS, COST).value(chain.full, 0))
    # the row is full within six turns, and never still open after them
    assert chain.open(chain.full, 0)[6:].sum() == 0.0


def test_a_sheet_is_full_for_sure_within_thirty_turns() -> None:
    model = sheet_model(NUMBERS, BONUS, COST)
    chain = model.chain
    done, still = model.sheet(chain.done(chain.full, 0), chain.open(chain.full, 0), 4, 0)
    assert done.sum() == pytest.approx(1.0)
    assert done[:5].sum() == 0.0  # at least one turn a row
    assert float(still.sum(axis=1)[1:] @ np.ones(TURNS - 1)) == pytest.approx(
        float(done.sum(axis=1) @ np.arange(TURNS)) - 1
    )


def test_filling_the_sheet_now_ends_the_game_before_the_others_move() -> None:
    # seat on turn fills its sheet with 15 points; the other (16 after its next turn) never plays it
    assert race_value(finishing(1, 10, 15), [finishing(1, 10, 16)]) == (1.0, 15.0)


def test_an_opponent_who_finishes_first_stops_the_race() -> None:
    mine = finishing(3, 10, 13)
    mine[1][1:3] = point(1, 11)[1]  # 11 points after my first and second turn
    assert race_value(mine, [finishing(1, 10, 12)]) == (0.0, 11.0)


def test_a_tie_shares_the_win() -> None:
    assert race_value(finishing(2, 10, 14), [finishing(2, 14, 20)]) == (0.5, 14.0)


def test_a_three_way_tie_gives_each_a_third() -> None:
    # I fill my sheet with 14 on my second turn; both others are at 14 after one turn each
    win, score = race_value(finishing(2, 10, 14), [finishing(3, 14, 20), finishing(3, 14, 20)])
    assert win == pytest.approx(1 / 3)
    assert score == 14.0


def test_a_seat_later_in_the_order_finishing_first_ends_the_race_for_all() -> None:
    # the seat two places on fills its sheet on its first turn with 30: the one between has
    # had its turn (12), I have had mine (11), and 30 beats us both
    mine = finishing(3, 10, 40)
    mine[1][1:3] = point(1, 11)[1]
    between = finishing(3, 10, 40)
    between[1][1:3] = point(1, 12)[1]
    assert race_value(mine, [between, finishing(1, 10, 30)]) == (0.0, 11.0)


def test_the_model_agrees_with_played_out_games() -> None:
    # both seats racers from a mid-game position: the exact chance against 250 seeded games
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 654321 654321 6543.. / b 654321 654321 65....")
    state.apply_chance("k1 w6 r1 y6 g6 b6")
    move = RacerBot().choose(state, 0)
    valued = {option.action: option for option in WinnerBot(0).values(state, 0)}[move]
    wins, scores = 0.0, []
    for game in range(250):
        after = state.copy()
        after.apply(0, move)
        play_game(after, [RacerBot(2 * game), RacerBot(2 * game + 1)], random.Random(game), max_moves=most_moves(2))
        assert after.outcome is not None
        wins += (0 in after.outcome.winners) / len(after.outcome.winners)
        scores.append(after.outcome.scores[0])
    assert abs(wins / 250 - valued.win) < 0.095  # 3 standard errors
    assert abs(statistics.fmean(scores) - valued.score) < 2.5


def test_the_winner_values_its_options_and_plays_the_best() -> None:
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 654321 6543.. / b 654321 654321 654321 65432.")
    state.apply_chance("k1 w6 r1 y6 g6 b6")
    values = WinnerBot(3).values(state, 0)
    assert sorted(option.action for option in values) == sorted(state.legal_actions(0))
    assert all(0.0 <= option.win <= 1.0 and option.score >= state.score(0) for option in values)
    assert all(option.action in state.legal_actions(0) for option in values)
    best = max(values, key=lambda option: (option.win, option.score)).action
    assert WinnerBot(3).choose(state, 0) == best


def test_far_behind_an_opponent_about_to_finish_the_winner_sees_it_is_losing() -> None:
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 6543.. / b 654321 654321 654321 654321 65432.")
    state.apply_chance("k1 w6 r1 y6 g6 b6")
    assert max(option.win for option in WinnerBot(1).values(state, 0)) < 0.1


def test_alone_the_winner_plays_like_the_racer() -> None:
    state = TrefaState.from_position(Trefa(players=1, first=0), "0: a 654...")
    state.apply_chance("k1 w6 r2 y6 g6 b4")
    assert WinnerBot(0).choose(state, 0) == RacerBot().choose(state, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_the_winner_plays_legal_games_to_the_end(players: int) -> None:
    state = hraj.game("trefa", players=players).new_state()
    bots = [WinnerBot(seat) if seat == 0 else RacerBot(seat) for seat in range(players)]
    play_game(state, bots, random.Random(players), max_moves=most_moves(players))
    assert state.is_over
    assert hraj.game("trefa", players=players).replay(state.record()) == state


def test_the_values_are_the_same_for_any_seed() -> None:
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 654321 6543.. / b 654321 654321")
    state.apply_chance("k1 w6 r1 y6 g6 b6")
    assert WinnerBot(5).values(state, 0) == WinnerBot(4).values(state, 0)
