"""Bots' cube and resignation decisions through `decisions.decide`, with the cheap evaluator."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hraj.core.driver import play_game
from hraj.core.game import State
from hraj.core.jsondata import GameOptions
from hraj.games.backgammon.bots import ExpertBot, NetBot, PubevalBot
from hraj.games.backgammon.cube import Outcomes
from hraj.games.backgammon.decisions import (
    accepts_resignation,
    decide,
    quick_probabilities,
    race_win_estimate,
    resign_level,
    with_bearoff,
)
from hraj.games.backgammon.rules import Backgammon, BackgammonState

from .helpers import START, position


def act(state: BackgammonState, seat: int) -> str:
    return str(decide(state, seat, quick_probabilities))


def test_resign_levels_only_for_certain_losses() -> None:
    assert resign_level(Outcomes(0.0), contact=False) == 1
    assert resign_level(Outcomes(0.0, 0, 0, 1.0, 0.0), contact=False) == 2
    assert resign_level(Outcomes(0.0, 0, 0, 1.0, 1.0), contact=False) == 3
    assert resign_level(Outcomes(0.0), contact=True) == 0  # a shot may still come
    assert resign_level(Outcomes(0.001), contact=False) == 0
    assert resign_level(Outcomes(0.0, 0, 0, 0.5), contact=False) == 0  # single or gammon: not sure which


def test_resigns_a_single_when_the_bearoff_cannot_be_won() -> None:
    # on roll with 5 checkers on the 6-point (others off) against one on the 1-point:
    # even 6-6 bears off only four
    assert act(position({6: 5}, {1: 1}), 0) == "resign 1"
    # with 3 there, 6-6 wins: roll
    assert act(position({6: 3}, {1: 1}), 0) == "roll"


def test_resigns_a_gammon_that_cannot_be_saved() -> None:
    # 15 checkers on the 6-point against one on the 1-point... a 6 saves it: no resignation;
    state = position({6: 15}, {1: 1})
    assert act(state, 0) == "roll"
    # 15 checkers still outside home against one checker about to come off: lost, but the
    # cheap evaluator cannot be sure off the database, so no resignation either
    assert act(position({12: 15}, {1: 1}), 0) == "roll"


def test_no_resignation_while_a_real_chance_remains() -> None:
    # far behind in contact
    assert not act(position({24: 3, 13: 12}, {6: 5, 5: 5, 4: 5}), 0).startswith("resign")
    # far behind in a race outside the database
    assert not act(position({13: 15}, {6: 5, 5: 5, 4: 5}), 0).startswith("resign")
    # behind in a bear-off but with a winning roll
    assert not act(position({6: 1, 5: 1}, {1: 2}), 0).startswith("resign")


def test_no_repeat_of_a_declined_resignation() -> None:
    state = position({6: 5}, {1: 1})
    state.apply(0, "resign 1")
    state.apply(1, "decline")
    assert act(state, 0) == "roll"


def test_accepts_what_playing_on_is_worth_and_declines_less() -> None:
    # the opponent (seat 0, on roll) has no chance at all: a single resignation is accepted
    state = position({6: 5}, {1: 1})
    state.apply(0, "resign 1")
    assert accepts_resignation(state, 1, quick_probabilities)
    # the opponent offers a single where it will surely be gammoned: declined, a gammon accepted
    state = position({6: 15}, {1: 1, 2: 1})
    state.apply(0, "resign 1")
    assert act(state, 1) == "decline"
    state = position({6: 15}, {1: 1, 2: 1})
    state.apply(0, "resign 2")
    assert act(state, 1) == "accept"


def test_accepts_a_resignation_from_a_player_ahead() -> None:
    state = position({6: 2}, {6: 15})
    state.apply(0, "resign 1")
    assert act(state, 1) == "accept"


def test_doubles_and_drops_a_big_race_lead_takes_a_fair_double() -> None:
    ahead = position({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 12: 5})
    assert act(ahead, 0) == "double"
    ahead.apply(0, "double")
    assert act(ahead, 1) == "drop"
    # a race 10% ahead at 111 pips: a double the opponent takes
    close = position({6: 4, 7: 4, 8: 4, 9: 3}, {6: 4, 8: 4, 9: 4, 10: 3})
    close.apply(0, "double")
    assert act(close, 1) == "take"


def test_an_even_opening_position_rolls() -> None:
    assert act(position(START, START), 0) == "roll"


def test_beaver_a_double_from_a_player_behind() -> None:
    game = Backgammon(beavers=True)
    state = position({13: 15}, {6: 5, 5: 5, 4: 5}, game=game)
    state.apply(0, "double")
    assert act(state, 1) == "beaver"
    # the doubler, far behind, drops the beaver
    state.apply(1, "beaver")
    assert act(state, 0) == "drop"


def test_post_crawford_the_trailer_doubles_at_once_and_crawford_never() -> None:
    game = Backgammon(match_length=5)
    trailer = position(START, START, game=game, score=(0, 4))
    assert not trailer.is_crawford
    assert act(trailer, 0) == "double"
    crawford = position({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 12: 5}, game=game, score=(0, 4), crawford=True)
    assert act(crawford, 0) == "roll"


def test_the_race_estimate_is_even_for_an_even_race_off_roll() -> None:
    assert race_win_estimate(100, 100, on_roll=True) > 0.5 > race_win_estimate(100, 100, on_roll=False)
    assert race_win_estimate(100, 100, on_roll=True) + race_win_estimate(100, 100, on_roll=False) == pytest.approx(1.0)
    assert 0.0 < race_win_estimate(150, 10) < 0.01


@pytest.mark.parametrize(
    "options",
    [{}, {"jacoby": True, "beavers": True}, {"match_length": 5}, {"match_length": 3}],
)
def test_pubeval_plays_legal_games_to_the_end(options: GameOptions) -> None:
    """Every action is legal (the driver checks), resignations come only in lost races."""
    game = Backgammon(**options)
    resignations: list[BackgammonState] = []

    def watch(state: State[Any, Any]) -> None:
        assert isinstance(state, BackgammonState)
        if state.resignation:
            resignations.append(state.copy())

    for seed in range(3):
        final = play_game(game.new_state(), [PubevalBot(seed), PubevalBot(seed + 1)], random.Random(seed), watch)
        assert final.is_over
    for state in resignations:
        seat = state.resigner
        mine, theirs = state.boards[seat], state.boards[1 - seat]
        win = quick_probabilities(tuple(mine), tuple(theirs))[0]
        assert win == 0.0, (state.boards, win)


def test_with_bearoff_answers_home_positions_from_the_database() -> None:
    def never(mine: object, theirs: object) -> tuple[float, ...]:
        return (0.5, 0.0, 0.0, 0.0, 0.0)

    evaluate = with_bearoff(never)
    home = position({6: 5}, {1: 1})
    assert evaluate(tuple(home.boards[0]), tuple(home.boards[1]))[0] == 0.0
    contact = position(START, START)
    assert evaluate(tuple(contact.boards[0]), tuple(contact.boards[1]))[0] == 0.5


def test_the_net_bots_decide_the_cube_through_decide_with_the_bearoff_database() -> None:
    """Bear-offs come from the database, so these hold whatever the net's weights."""
    for bot in (NetBot(0), ExpertBot(0)):
        assert str(bot.choose(position({6: 5}, {1: 1}), 0)) == "resign 1"
        ahead = position({6: 3, 5: 2}, {6: 4, 5: 4})
        assert str(bot.choose(ahead, 0)) == "double"
        ahead.apply(0, "double")
        assert str(bot.choose(ahead, 1)) == "drop"
