"""PettingZoo's own checkers on every game and option set, and what they do not check."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test

from hraj.core.jsondata import GameOptions
from hraj.rl.pettingzoo_env import AgentObservation, env, raw_env
from tests.rl.cases import CASES

API_CYCLES = 60
SEED_CYCLES = 20


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_api_and_seed_tests_pass(game_id: str, options: GameOptions):
    with warnings.catch_warnings():
        # dict observations (observation + action mask) are PettingZoo's own convention
        # for board games, yet api_test still recommends a plain Box
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env(game_id, "win", None, **options), num_cycles=API_CYCLES)
    seed_test(lambda: env(game_id, "win", None, **options), num_cycles=SEED_CYCLES)


def play_to_end(aec: AECEnv[str, AgentObservation, int], seed: int) -> dict[str, float]:
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_a_whole_game_gives_each_winner_its_share():
    totals = play_to_end(env("qwixx", players=3), seed=4)
    assert sum(totals.values()) == pytest.approx(1.0)
    assert all(value in (0.0, 0.5, 1.0, pytest.approx(1 / 3)) for value in totals.values())


def test_score_rewards_are_the_final_scores():
    aec = raw_env("trefa", players=2, reward="score")
    totals = play_to_end(aec, seed=1)
    outcome = aec.game_state.outcome
    assert outcome is not None
    assert [totals[f"player_{seat}"] for seat in range(2)] == list(outcome.scores)


def test_qwixx_answers_are_asked_seat_after_seat_without_showing_earlier_ones():
    aec = raw_env("qwixx", players=3, first=0)
    aec.reset(seed=0)
    asked: list[str] = []
    state = aec.game_state
    while len(state.to_act) > 1 or not asked:
        agent = aec.agent_selection
        asked.append(agent)
        observation = aec.observe(agent)
        assert observation["observation"][:5].tolist() == [0, 0, 1, 0, 0]  # phase: white
        aec.step(int(np.flatnonzero(observation["action_mask"])[-1]))
        if state.view(None)["phase"] != "white":
            break
    assert asked == ["player_0", "player_1", "player_2"][: len(asked)]
    assert len(asked) >= 2


def test_an_illegal_action_is_refused_with_a_message():
    aec = raw_env("backgammon")
    aec.reset(seed=0)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        aec.step(illegal)


def test_the_same_seed_gives_the_same_game_and_the_next_reset_another():
    first = raw_env("abluxxen", players=3)
    second = raw_env("abluxxen", players=3)
    assert play_to_end(first, seed=9) == play_to_end(second, seed=9)
    assert first.game_state.record() == second.game_state.record()
    first.reset(seed=9)
    opening = first.game_state.record()
    first.reset()  # no seed: the next game of seed 9's sequence
    assert first.game_state.record() != opening
    first.reset(seed=9)
    assert first.game_state.record() == opening


def test_a_bad_reward_kind_is_refused():
    with pytest.raises(ValueError, match="reward"):
        raw_env("qwixx", reward="money")
