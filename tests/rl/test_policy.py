"""The NumPy example agent: it trains, saves, loads and sits in the arena like a bot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hraj
from hraj.bots.arena import run_arena
from hraj.rl import codec, legal_mask, observe
from hraj.rl.gymnasium_env import HrajGymEnv
from hraj.rl.policy import LinearPolicy, PolicyBot, bot_maker, train

EPISODES = 20


def test_the_untrained_policy_is_uniform_over_the_legal_ids():
    game = hraj.game("qwixx", players=1)
    rl = codec(game)
    state = game.new_state()
    state.apply_chance("w3 w4 r1 y1 g1 b1")
    mask, _ = legal_mask(rl, state, 0)
    probabilities = LinearPolicy.zeros(rl).probabilities(observe(rl, state, 0), mask)
    assert probabilities.sum() == pytest.approx(1.0)
    assert np.all(probabilities[mask == 0] == 0)
    assert np.allclose(probabilities[mask == 1], 1 / mask.sum())


def test_training_changes_the_weights_and_the_same_seed_trains_the_same(tmp_path: Path):
    first = train(HrajGymEnv("qwixx", players=1), EPISODES, seed=3, learning_rate=0.03, scale=50)
    second = train(HrajGymEnv("qwixx", players=1), EPISODES, seed=3, learning_rate=0.03, scale=50)
    assert np.any(first.weights != 0)
    assert np.array_equal(first.weights, second.weights)
    path = tmp_path / "policy.npz"
    first.save(str(path))
    loaded = LinearPolicy.load(str(path))
    assert np.array_equal(loaded.weights, first.weights) and loaded.value_bias == first.value_bias


def test_a_trained_policy_plays_legal_games_in_the_arena():
    game = hraj.game("qwixx", players=2)
    policy = train(HrajGymEnv("qwixx", players=2, opponents="greedy"), EPISODES, seed=1, scale=50)
    result = run_arena(game, [bot_maker(policy, game), "greedy"], games=2, seed=0)
    assert result.entrants[0].bot_name == PolicyBot.name
    assert len(result.entrants[0].wins) == 2
