"""The pubeval bot: the evaluator's arithmetic, legal choices everywhere, cube sense, strength."""

from __future__ import annotations

import random

import pytest

from hraj.core.bot import RandomBot, make_bot
from hraj.core.driver import play_game
from hraj.games.backgammon.bots import PubevalBot, pubeval, weights, winning_chance
from hraj.games.backgammon.moves import START as START_BOARD
from hraj.games.backgammon.notation import ROLL, Play
from hraj.games.backgammon.rules import Backgammon

from .helpers import START, position


def test_weights_are_tesauros_122_per_net() -> None:
    race, contact = weights()
    assert len(race) == len(contact) == 122
    # first and last weights of the published tables
    assert (race[1], race[121], contact[0], contact[121]) == (-0.17160, 3.42040, 0.25696, -2.75800)


def test_pubeval_adds_the_inputs_of_each_point() -> None:
    race, contact = weights()
    # 14 on my 6 point (inputs 90-94: one? no; two or more; three? no; (14-3)/2), one borne off,
    # an opposing blot on my 20 point (input 20) and one opposing checker on the bar (input 120)
    state = position({6: 14}, {5: 1, 25: 1})
    mine, theirs = tuple(state.boards[0]), tuple(state.boards[1])
    for w, race_flag in ((race, True), (contact, False)):
        expected = w[92] + w[94] * 11 / 2 + w[20] + w[120] / 2 + w[121] / 15
        assert pubeval(mine, theirs, race_flag) == pytest.approx(expected)


def test_pubeval_prefers_winning_above_all() -> None:
    state = position({1: 1}, {12: 2}, (2, 1))
    assert str(PubevalBot(0).choose(state, 0)) == "1/off"


def test_bot_is_registered_for_backgammon() -> None:
    assert isinstance(make_bot("backgammon", "pubeval", 1), PubevalBot)


def test_winning_chance_follows_the_race() -> None:
    assert winning_chance(START_BOARD, START_BOARD) > 0.5  # on roll
    ahead = position({6: 5, 5: 5, 4: 5}, {24: 15})
    assert winning_chance(ahead.boards[0], ahead.boards[1]) > 0.95


def test_cube_decisions() -> None:
    bot = PubevalBot(0)
    # far ahead in a race (75 pips to 115, no gammon): double; the opponent drops
    state = position({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 12: 5})
    assert str(bot.choose(state, 0)) == "double"
    state.apply(0, "double")
    assert str(bot.choose(state, 1)) == "drop"
    # an even position: roll
    assert str(bot.choose(position(START, START), 0)) == "roll"


def test_no_double_when_the_cube_already_wins_the_match() -> None:
    state = position(
        {6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 24: 5}, game=Backgammon(match_length=5), score=(3, 0), cube=2, cube_owner=0
    )
    assert str(PubevalBot(0).choose(state, 0)) == "roll"


@pytest.mark.parametrize("options", [{}, {"match_length": 3}, {"beavers": True}])
def test_pubeval_always_chooses_a_legal_action(options: dict[str, object]) -> None:
    game = Backgammon(**options)
    bots = [PubevalBot(1), RandomBot(2)]
    steps = 0

    def check(state: object) -> None:
        nonlocal steps
        steps += 1

    state = play_game(game.new_state(), bots, random.Random(3), on_step=check)
    assert state.is_over and steps > 10


def test_pubeval_beats_random_checker_play() -> None:
    game = Backgammon(cube=False)
    wins = 0
    for seed in range(12):
        pub = PubevalBot(seed)
        state = game.new_state()
        rng = random.Random(seed)
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            plays = [a for a in state.legal_actions(seat) if isinstance(a, Play)]
            action = pub.choose(state, seat) if seat == seed % 2 else (rng.choice(plays) if plays else ROLL)
            state.apply(seat, action)
        assert state.outcome is not None
        wins += state.outcome.winners == (seed % 2,)
    assert wins >= 11
