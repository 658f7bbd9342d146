"""OpenSpiel's random simulation test on every game, and its algorithms on one."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import hraj
from hraj.core.jsondata import GameOptions
from hraj.rl.openspiel_game import register_games, short_name
from tests.rl.cases import SMALL


def load(game_id: str, options: GameOptions) -> pyspiel.Game:
    params = ",".join(f"{name}={value}" for name, value in options.items())
    return pyspiel.load_game(f"{short_name(game_id)}({params})")


def test_every_game_is_registered():
    names = register_games()
    assert names == [f"hraj_{game_id}" for game_id in hraj.GAMES]
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("game_id", "options"), SMALL)
def test_random_simulation_test_passes(game_id: str, options: GameOptions):
    pyspiel.random_sim_test(load(game_id, options), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("name", "information"),
    [
        ("hraj_qwixx(players=2)", pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        ("hraj_abluxxen(players=2,variant=expert)", pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        ("hraj_trefa", pyspiel.GameType.Information.PERFECT_INFORMATION),
        ("hraj_backgammon(match_length=3)", pyspiel.GameType.Information.PERFECT_INFORMATION),
    ],
)
def test_game_types(name: str, information: pyspiel.GameType.Information):
    game = pyspiel.load_game(name)
    kind = game.get_type()
    assert kind.information == information
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL


def test_a_qwixx_roll_is_one_chance_step_per_die():
    state = pyspiel.load_game("hraj_qwixx(players=2,first=0)").new_initial_state()
    for pips in (3, 4, 1, 1, 1, 1):
        assert state.is_chance_node()
        assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 6] * 6)
        state.apply_action(pips - 1)
    assert state.current_player() in (0, 1)
    assert "r7" in [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]


def test_options_and_the_score_reward_are_parameters():
    game = pyspiel.load_game("hraj_backgammon(match_length=3,reward=score)")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.min_utility() == 0.0
    solo = pyspiel.load_game("hraj_qwixx(players=1,reward=score)")
    assert solo.num_players() == 1 and solo.min_utility() == -20.0


MCTS_DECISIONS = 6


def test_mcts_chooses_legal_moves():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("hraj_trefa(players=2,first=0)")
    rng = np.random.RandomState(0)
    bots = [
        mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
    ]
    state = game.new_initial_state()
    decisions = 0
    while decisions < MCTS_DECISIONS:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert not state.is_terminal()
