"""Trefa bots and the exact row values behind the expectimax bot."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import hraj
from hraj.core.bot import bot_names, make_bot
from hraj.core.driver import play_game
from hraj.games.trefa.bots import ExpectimaxBot, GreedyBot
from hraj.games.trefa.rowvalue import RowValues
from hraj.games.trefa.rules import REROLL_MOVE, STOP, Trefa, TrefaState, write
from tests.games.trefa.playouts import most_moves

NUMBERS = (6, 5, 4, 3, 2, 1)
BONUS = (0, 1, 3, 6, 10, 15, 21)


def turn_start(position: str) -> TrefaState:
    letters = [sheet.split()[0] for sheet in position.partition(":")[2].split("/")]
    return TrefaState.from_position(Trefa(players=len(letters), first=0, sheets="".join(letters)), position)


def test_the_bots_are_listed_for_trefa() -> None:
    assert bot_names("trefa") == ["random", "greedy", "expectimax", "racer", "winner"]
    assert isinstance(make_bot("trefa", "expectimax"), ExpectimaxBot)


def test_row_value_of_a_last_field_printing_1() -> None:
    # A 1 on the first throw or on the reroll: 11/36; it is a hit, so worth 1 + 1.
    table = RowValues(NUMBERS, BONUS)
    assert table.value(0b100000, 0) == pytest.approx(float(Fraction(11, 36) * 2))


def test_row_value_of_a_last_field_printing_6() -> None:
    # Reroll 2 and 3 (a reroll is worth (1+2+3+4+5+7)/6; a 1 is kept), keep 1, 4, 5 and 6 (+1 hit).
    table = RowValues(NUMBERS, BONUS)
    reroll = Fraction(1 + 2 + 3 + 4 + 5 + 7, 6)
    expected = (1 + reroll + reroll + 4 + 5 + 7) / 6
    assert table.value(0b000001, 0) == pytest.approx(float(expected))
    assert table.reroll_value(0b000001, 0, 0) == pytest.approx(float(reroll))
    assert table.reroll_value(0b000001, 0, 0b000001) == pytest.approx(1.0)  # the kept 1, no hit on a 6


def test_a_full_row_is_worth_its_bonus() -> None:
    table = RowValues(NUMBERS, BONUS)
    assert table.value(0, 4) == 10
    assert table.value(0, 6) == 21


def test_expectimax_values_the_reroll_by_the_exact_expectation() -> None:
    # Only the last field (black, printed 1) is open in sheet a row 1; black shows 3.
    state = turn_start("0: a 65432.")
    state.apply_chance("k3 w6 r6 y6 g6 b6")
    # a reroll brings a 1 with probability 1/6: 1 + six hits (21), else a cross-out with 5 hits (15)
    written = 6 + 5 + 4 + 3 + 2
    expected = written + (1 / 6) * (1 + 21) + (5 / 6) * 15
    assert ExpectimaxBot().value(state, 0, REROLL_MOVE) == pytest.approx(expected)
    assert ExpectimaxBot().value(state, 0, STOP) == pytest.approx(written + 15)
    assert ExpectimaxBot().choose(state, 0) == REROLL_MOVE


def test_expectimax_takes_a_hit_and_leaves_a_poor_number() -> None:
    state = turn_start("0: a")  # y6 r5 g4 b3 w2 k1
    state.apply_chance("k1 w6 r1 y6 g6 b6")  # hits: yellow 6, black 1; red 1 fits poorly
    assert ExpectimaxBot().choose(state, 0) == write("ky")
    assert GreedyBot().choose(state, 0) == write("kry")


def test_greedy_rerolls_only_when_nothing_fits() -> None:
    state = turn_start("0: a 6543..")
    state.apply_chance("k6 w6 r6 y6 g6 b6")
    assert GreedyBot().choose(state, 0) == REROLL_MOVE


@pytest.mark.parametrize("name", ["greedy", "expectimax"])
def test_bots_play_legal_games_to_the_end(name: str) -> None:
    state = hraj.game("trefa", players=3).new_state()
    bots = [make_bot("trefa", name, seed=seat) for seat in range(3)]
    play_game(state, bots, random.Random(4), max_moves=most_moves(3))
    assert state.is_over
    assert hraj.game("trefa", players=3).replay(state.record()) == state


def test_expectimax_beats_greedy_on_the_same_seeded_dice() -> None:
    totals = {}
    for name in ("greedy", "expectimax"):
        bot = make_bot("trefa", name, seed=0)
        game = hraj.game("trefa", players=1)
        total = 0.0
        for seed in range(30):
            state = play_game(game.new_state(), [bot], random.Random(seed), max_moves=most_moves(1))
            assert state.outcome is not None
            total += state.outcome.scores[0]
        totals[name] = total / 30
    assert totals["expectimax"] > totals["greedy"] + 30


def test_a_turn_cost_is_paid_once_per_turn_the_row_takes() -> None:
    # the last field printing 1 always takes exactly one more turn
    free, priced = RowValues(NUMBERS, BONUS), RowValues(NUMBERS, BONUS, turn_cost=3.0)
    assert priced.value(0b100000, 0) == pytest.approx(free.value(0b100000, 0) - 3.0)
    # a whole row takes several turns: the price grows with them
    assert priced.value(0b111111, 0) < free.value(0b111111, 0) - 2 * 3.0


def test_the_racer_plays_like_expectimax_alone_and_faster_with_others() -> None:
    solo = turn_start("0: a")
    solo.apply_chance("k2 w4 r3 y2 g4 b6")
    assert make_bot("trefa", "racer").choose(solo, 0) == ExpectimaxBot().choose(solo, 0)
    duo = turn_start("0: a / b")
    duo.apply_chance("k2 w4 r3 y2 g4 b6")
    racer, expectimax = make_bot("trefa", "racer"), ExpectimaxBot()
    assert isinstance(racer, ExpectimaxBot)
    assert racer.value(duo, 0, REROLL_MOVE) < expectimax.value(duo, 0, REROLL_MOVE)


def test_the_racer_wins_most_two_player_games_against_expectimax() -> None:
    wins = 0.0
    games = 40
    for seed in range(games):
        names = ("racer", "expectimax") if seed % 2 == 0 else ("expectimax", "racer")
        bots = [make_bot("trefa", name, seed=seed) for name in names]
        game = hraj.game("trefa", players=2, first=0)
        state = play_game(game.new_state(), bots, random.Random(seed), max_moves=most_moves(2))
        assert state.outcome is not None
        if names.index("racer") in state.outcome.winners:
            wins += 1 / len(state.outcome.winners)
    assert wins / games > 0.6
