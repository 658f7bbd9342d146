"""The net bots: legal play to the end, every play's value, the levels, and a random
bot that leaves the cube and resignations alone."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hraj.core.bot import RandomBot, default_bot, make_bot, strongest_bot
from hraj.core.driver import play_game
from hraj.games.backgammon.bots import LEVELS, ExpertBot, NetBot, PlayValue
from hraj.games.backgammon.duel import duel, net_player, pubeval_player
from hraj.games.backgammon.evaluator import Evaluator, cubeless_equity, shipped
from hraj.games.backgammon.moves import START
from hraj.games.backgammon.notation import Decision, Play
from hraj.games.backgammon.rules import MOVE, Backgammon, BackgammonState
from hraj.games.backgammon.search import on_roll

from .helpers import position


@pytest.mark.parametrize("options", [{}, {"match_length": 3}, {"beavers": True, "jacoby": True}])
def test_the_net_plays_legal_games_to_the_end(options: dict[str, object]) -> None:
    game = Backgammon(**options)
    state = play_game(game.new_state(), [NetBot(1), RandomBot(2)], random.Random(4))
    assert state.is_over and state.outcome is not None


def _move_state(seed: int, turns: int) -> BackgammonState:
    """A checker play with a choice, `turns` turns into a game of the net against itself."""
    rng = random.Random(seed)
    bot = NetBot()
    state = Backgammon(cube=False).new_state()
    seen = 0
    while True:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
            continue
        if state.phase == MOVE and len(state.play_steps()) > 1:
            seen += 1
            if seen > turns:
                return state
        seat = state.to_act[0]
        state.apply(seat, bot.choose(state, seat))


def test_values_gives_every_legal_play_once_with_valid_probabilities() -> None:
    state = _move_state(seed=5, turns=6)
    values = NetBot().values(state, state.turn)
    legal = {str(action) for action in state.legal_actions(state.turn) if isinstance(action, Play)}
    assert {str(value.action) for value in values} == legal and len(values) == len(legal)
    equities = [value.equity for value in values]
    assert equities == sorted(equities, reverse=True)
    for value in values:
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = value.probabilities
        assert 0 <= win_backgammon <= win_gammon <= win <= 1
        assert 0 <= lose_backgammon <= lose_gammon <= 1 - win
        assert value.equity == pytest.approx(float(cubeless_equity(np.array(value.probabilities))))
    assert NetBot().choose(state, state.turn) == values[0].action


def test_the_expert_values_its_best_plays_one_roll_deep() -> None:
    # the first decision of a game where 0-ply leaves more than one candidate
    for turns in range(1, 20):
        state = _move_state(seed=6, turns=turns)
        values = ExpertBot().values(state, state.turn)
        if values[0].ply > 0:
            break
    assert isinstance(values[0], PlayValue) and values[0].ply == 1
    plies = [value.ply for value in values]
    assert plies == sorted(plies, reverse=True)  # the deeper valued plays come first
    assert plies.count(1) >= 2 and values[0].action in state.legal_actions(state.turn)


def test_values_are_empty_without_a_roll_to_play() -> None:
    state = Backgammon().new_state()
    state.apply_chance(state.sample_chance(random.Random(1)))
    assert NetBot().values(state, 1 - state.turn) == []


def test_the_net_bots_roll_rather_than_double_at_the_start() -> None:
    state = position({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert str(NetBot(0).choose(state, 0)) == "roll"


def test_levels_from_pubeval_to_the_expert_and_the_net_by_default() -> None:
    assert list(LEVELS) == ["pubeval", "net", "expert"]
    assert default_bot("backgammon") == "net"
    assert strongest_bot("backgammon") == "expert"
    assert isinstance(make_bot("backgammon", "expert"), ExpertBot)


@pytest.mark.parametrize("options", [{}, {"match_length": 5}, {"beavers": True}])
def test_the_random_bot_never_doubles_beavers_or_resigns(options: dict[str, object]) -> None:
    optional = {"double", "beaver", "resign"}
    for seed in range(4):
        chosen: list[object] = []
        bots = [RandomBot(seed), RandomBot(seed + 10)]
        state = Backgammon(**options).new_state()
        rng = random.Random(seed)
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            action = bots[seat].choose(state, seat)
            assert isinstance(action, (Play, Decision))
            chosen.append(action)
            state.apply(seat, action)
        assert not [a for a in chosen if isinstance(a, Decision) and a.word in optional]
        assert state.outcome is not None and state.outcome.reason != "resign"


def test_the_random_bot_may_be_asked_for_every_action() -> None:
    state = position({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    words = {str(RandomBot(seed, every_action=True).choose(state, 0)).split()[0] for seed in range(40)}
    assert {"double", "resign"} <= words


def test_the_shipped_net_beats_pubeval_as_no_random_net_can() -> None:
    # 8 duplicate pairs (16 cubeless games) with fixed dice; an untrained net loses
    # about 2 points a game to pubeval, the shipped net wins
    trained = duel(net_player(shipped()), pubeval_player, pairs=8, seed=0)
    untrained = duel(net_player(Evaluator.random(80, seed=1)), pubeval_player, pairs=4, seed=0)
    assert untrained.points < -1.0
    assert trained.points > 0.0


def test_the_cube_looks_as_deep_as_the_level_plays() -> None:
    mine = theirs = START
    start = np.array([mine + theirs], dtype=np.int8)
    net = shipped()
    assert np.allclose(NetBot().probabilities(mine, theirs), on_roll(net, start, 0)[0])
    assert np.allclose(ExpertBot().probabilities(mine, theirs), on_roll(net, start, 1)[0])
