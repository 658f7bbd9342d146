"""PettingZoo AEC environments for every hraj game: `hraj.rl.pettingzoo_env.env(game_id, **options)`.

Agents are `player_0` ... one per seat. Dice and cards are drawn inside the
environment from a generator seeded by `reset(seed=...)`, so a seed replays a game.
Simultaneous decisions (every seat answering one roll) are asked one seat after
another in seat order; each seat's observation comes from its own view, which never
shows another seat's pending answer, so the order gives nobody an advantage.

Observations are dicts: `observation` (float32, see docs/rl.md) and `action_mask`
(int8, 1 = legal). Rewards come only at the end (`reward="win"` or `"score"`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, TypedDict

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import hraj
from hraj.core.game import Game, Seat, State
from hraj.rl.codec import Codec, Mask, Observation, codec, legal_ids, mask_of, view_mask
from hraj.rl.rewards import check_reward, final_rewards


class AgentObservation(TypedDict):
    """What `observe` gives an agent: its observation vector and its legal-action mask."""

    observation: Observation
    action_mask: Mask


class Metadata(TypedDict):
    """What PettingZoo reads of an environment's `metadata`."""

    render_modes: list[str]
    name: str
    is_parallelizable: bool


def agent_name(seat: Seat) -> str:
    return f"player_{seat}"


def spaces(codec: Codec[Any, Any]) -> tuple[gymnasium.spaces.Dict, gymnasium.spaces.Discrete]:
    """The observation space (observation + action mask) and the action space of a codec."""
    observation = gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(-1.0, 1.0, (codec.observation_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (codec.num_actions,), np.int8),
        }
    )
    return observation, gymnasium.spaces.Discrete(codec.num_actions)


class HrajAECEnv(AECEnv[str, AgentObservation, int]):  # type: ignore[misc]
    """One hraj game with fixed options as a PettingZoo AEC environment."""

    #: PettingZoo reads it from the instance, which names its game (`hraj_<game>_v0`).
    metadata: Metadata = {"render_modes": ["ansi", "human"], "name": "hraj", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game: Game[Any, Any], reward: str = "win", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}")
        self.game = game
        self.codec = codec(game)
        self.reward_kind = check_reward(reward)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"hraj_{game.id}_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(game.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space, action_space = spaces(self.codec)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._seeder: random.Random | None = None
        self.rng = random.Random()
        self.game_state: State[Any, Any] = game.new_state()
        #: The deciding seat's legal actions by id, once asked for (None: not yet).
        self._legal: dict[int, object] | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self.action_spaces[agent]

    # --- the AEC cycle ------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        if seed is not None or self._seeder is None:
            self._seeder = random.Random(seed)
        # a reset without a seed goes on from the last seed: the next game, not the same one
        self.rng = random.Random(self._seeder.getrandbits(64))
        self.game_state = self.game.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Draw the dice and cards that are due, then select the seat that decides."""
        state = self.game_state
        while state.is_chance:
            state.apply_chance(state.sample_chance(self.rng), check=False)
        self._legal = None
        agents = self.possible_agents
        if state.is_over:
            outcome = state.outcome
            assert outcome is not None
            for seat, value in enumerate(final_rewards(outcome, self.reward_kind)):
                self.rewards[agents[seat]] = value
                self.terminations[agents[seat]] = True
            return
        self.agent_selection = agents[state.to_act[0]]

    def _legal_now(self) -> dict[int, object]:
        if self._legal is None:
            self._legal = legal_ids(self.codec, self.game_state, self._seats[self.agent_selection])
        return self._legal

    def observe(self, agent: str) -> AgentObservation:
        """A new observation and mask each time: an agent may keep them (in a replay buffer, say).
        The deciding seat's mask comes from the same view as its observation."""
        seat = self._seats[agent]
        state = self.game_state
        view = state.view(seat)
        observation: Observation = self.codec.observe(view)
        if agent != self.agent_selection or state.is_over:
            mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        elif self._legal is None:
            mask, self._legal = view_mask(self.codec, view, state, seat)
        else:
            mask = mask_of(self.codec, self._legal)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal_now()
        if action is None or int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent} now; use the action mask")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.game_state.apply(self._seats[agent], legal[int(action)], check=False)
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        text = json.dumps(self.game_state.view(None), ensure_ascii=False)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no files or processes."""


def raw_env(game_id: str, reward: str = "win", render_mode: str | None = None, **options: object) -> HrajAECEnv:
    """The environment without PettingZoo's checking wrappers (the fast one)."""
    return HrajAECEnv(hraj.game(game_id, **options), reward=reward, render_mode=render_mode)


def env(
    game_id: str, reward: str = "win", render_mode: str | None = None, **options: object
) -> AECEnv[str, AgentObservation, int]:
    """The environment wrapped in PettingZoo's usual order and bounds checks."""
    wrapped: AECEnv[str, AgentObservation, int] = raw_env(game_id, reward=reward, render_mode=render_mode, **options)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
