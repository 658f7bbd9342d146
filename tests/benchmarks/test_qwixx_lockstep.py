"""The lockstep games choose what the engine's bots choose, and end as the rules say."""

from __future__ import annotations

import random

import numpy as np
import pytest
from benchmarks.qwixx_lockstep import COLOUR_ROWS, Games, Lockstep, Roll, Table, erfc, wins

from hraj.core import resolve_chance
from hraj.games.qwixx.bots import GreedyQwixxBot
from hraj.games.qwixx.rules import COLOUR, PASS, WHITE, Cross, Qwixx, QwixxState
from hraj.games.qwixx.solo_table import table_for
from hraj.games.qwixx.table_bots import MasterQwixxBot, Sheet


def roll_of(state: QwixxState) -> Roll:
    roll = state.roll
    assert roll is not None
    colours = [die or 1 for die in roll.colours]
    return Roll(np.array([[roll.white1, roll.white2]]), np.array([colours]))


def white_cross(state: QwixxState, row: int) -> Cross:
    roll = state.roll
    assert roll is not None
    return Cross(row, roll.white1 + roll.white2) if row >= 0 else PASS


def colour_cross(state: QwixxState, option: int) -> Cross:
    roll = state.roll
    assert roll is not None
    if option < 0:
        return PASS
    row = int(COLOUR_ROWS[option])
    white = (roll.white1, roll.white2)[option % 2]
    die = roll.colours[row]
    assert die is not None
    return Cross(row, white + die)


def near_tie(bot: MasterQwixxBot, state: QwixxState, seat: int, ours: Cross) -> bool:
    """Whether the engine values `ours` within rounding of its own choice (the lockstep's
    erfc is an approximation, so a near tie may fall either way)."""
    values = dict(bot.scored(state, seat))
    best = max(values.values())
    if ours not in values:  # the same number reached by both white dice in a colour step
        return False
    return best[0] - values[ours][0] < 1e-6


@pytest.mark.parametrize(("players", "seats"), [(2, "mg"), (2, "gm"), (3, "gmg"), (3, "mgg"), (4, "ggmg")])
def test_lockstep_bots_choose_as_the_engine_bots_do(players: int, seats: str) -> None:
    lockstep = Lockstep(seats, Table(table_for(players)))
    rng = random.Random(players * 100 + len(seats))
    checked = 0
    for game_number in range(10):
        state = Qwixx(players=players).new_state()
        bots = {
            seat: MasterQwixxBot(game_number) if kind == "m" else GreedyQwixxBot(game_number)
            for seat, kind in enumerate(seats)
        }
        while True:
            resolve_chance(state, rng)
            if state.is_over:
                break
            games = Games.of(state, 1)
            if state.phase == WHITE:
                answers = lockstep.white_answers(games, state.active, roll_of(state))[0]
                for seat in state.waiting:
                    ours = white_cross(state, int(answers[seat]))
                    engine = bots[seat].choose(state, seat)
                    bot = bots[seat]
                    assert ours == engine or (isinstance(bot, MasterQwixxBot) and near_tie(bot, state, seat, ours))
                    checked += 1
            elif state.phase == COLOUR:
                option = int(
                    lockstep.colour_answer(games, state.active, roll_of(state), np.array([state.active_crossed]))[0]
                )
                ours = colour_cross(state, option)
                engine = bots[state.active].choose(state, state.active)
                bot = bots[state.active]
                assert ours == engine or (isinstance(bot, MasterQwixxBot) and near_tie(bot, state, state.active, ours))
                checked += 1
            seat = state.to_act[0]
            state.apply(seat, bots[seat].choose(state, seat), check=False)
    assert checked > 200


def test_lockstep_games_end_on_two_locks_or_four_penalties_and_score_as_the_rules() -> None:
    lockstep = Lockstep("gm", Table(table_for(2)))
    games = Games.of(Qwixx(players=2).new_state(), 400)
    scores = lockstep.play(games, 0, np.random.default_rng(5))
    locks = games.locked.sum(axis=1)
    assert games.done.all()
    assert ((locks >= 2) | (games.penalties >= 4).any(axis=1)).all()
    # The score of each sheet, recomputed from a row mask of the same crosses.
    for number in range(0, 400, 37):
        for seat in range(2):
            masks = []
            for row in range(4):
                last, crossed = int(games.last[number, seat, row]), int(games.crossed[number, seat, row])
                assert crossed == 0 or last >= crossed - 1
                masks.append(0 if crossed == 0 else (1 << last) | ((1 << (crossed - 1)) - 1))
            sheet = Sheet(masks, int(games.penalties[number, seat]))
            assert scores[number, seat] == sheet.score([])


def test_blocks_of_a_batch_see_the_same_dice() -> None:
    lockstep = Lockstep("mg", Table(table_for(2)))
    games = Games.concatenate([Games.of(Qwixx(players=2).new_state(), 50)] * 2)
    scores = lockstep.play(games, 0, np.random.default_rng(9), blocks=2)
    assert (scores[:50] == scores[50:]).all()
    assert len({tuple(row) for row in scores[:50]}) > 10


def test_erfc_matches_the_standard_library() -> None:
    points = np.linspace(-6, 6, 241)
    expected = np.array([__import__("math").erfc(x) for x in points])
    assert np.allclose(erfc(points), expected, rtol=1.2e-7, atol=1e-12)


def test_wins_share_ties() -> None:
    scores = np.array([[10, 5], [5, 10], [7, 7]])
    assert wins(scores, 0).tolist() == [1.0, 0.0, 0.5]
