"""Gymnasium's checker on every registered id, against every bot of the game."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hraj
from hraj.core.bot import bot_names
from hraj.rl.gymnasium_env import HrajGymEnv, env_id, register_envs

BOT_CASES = [
    pytest.param(game_id, bot, id=f"{game_id}-{bot}")
    for game_id in hraj.GAMES
    for bot in bot_names(game_id)
    if bot not in {"expectimax", "racer"}  # slow search bots: one game below instead
]


def test_one_id_per_game():
    assert register_envs() == [env_id(game_id) for game_id in hraj.GAMES]
    assert "hraj/Qwixx-v0" in gymnasium.registry
    assert "hraj/Backgammon-v0" in gymnasium.registry


@pytest.mark.parametrize(("game_id", "bot"), BOT_CASES)
def test_check_env_passes(game_id: str, bot: str):
    # The opponents decide by their budget of work alone (`Bot.unhurried`), so two resets
    # with one seed replay the same game on a busy machine too.
    env = gymnasium.make(env_id(game_id), opponents=bot)
    check_env(env.unwrapped, skip_render_check=True)


def play(env: gymnasium.Env, seed: int) -> tuple[float, int]:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        assert not truncated
    return total, steps


def test_a_search_bot_sits_as_opponent():
    env = HrajGymEnv("trefa", players=2, opponents="racer")
    total, steps = play(env, seed=2)
    assert steps > 0
    assert env.state.outcome is not None
    assert total == env.state.outcome.scores[0]


def test_solo_qwixx_episode_returns_the_score():
    env = gymnasium.make("hraj/Qwixx-v0", players=1)
    total, _ = play(env, seed=5)
    assert isinstance(env.unwrapped, HrajGymEnv)
    outcome = env.unwrapped.state.outcome
    assert outcome is not None and total == outcome.scores[0]


def test_an_illegal_action_ends_the_episode_as_a_loss():
    env = HrajGymEnv("qwixx", players=2, reward="win")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == 0.0 and info["illegal_action"]


def test_wrong_arguments_are_refused_with_a_message():
    with pytest.raises(ValueError, match="opponents"):
        HrajGymEnv("qwixx", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        HrajGymEnv("backgammon", seat=2)
    with pytest.raises(hraj.InvalidOption):
        HrajGymEnv("qwixx", opponents="nobody")
