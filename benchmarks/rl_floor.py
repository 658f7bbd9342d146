"""Null environments of each library's API, for `benchmarks.rl_speed`'s floor: the same
shapes and bookkeeping as hraj's environments (seats, observation size, action ids,
game length), a constant observation and mask, and no game behind them. What a
decision costs through one of them is what the library and the agent cost by
themselves, which no adapter of a game can go below."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsInt

import gymnasium
import numpy as np
import numpy.typing as npt
import pyspiel
from pettingzoo import AECEnv

#: A null chance step: a die.
DIE = [(pips, 1 / 6) for pips in range(6)]
#: How many ids of a null mask are legal (spread over the whole range, as a game's are).
LEGAL = 10


class Shape:
    """What a null environment copies of a game: seats, sizes, decisions per game, and
    the chance steps per game that OpenSpiel takes (one per die)."""

    def __init__(self, players: int, observation_size: int, num_actions: int, length: int, chance: int = 0) -> None:
        self.players = players
        self.observation_size = observation_size
        self.num_actions = num_actions
        self.length = max(1, length)
        self.chance = chance
        self.observation = np.zeros(observation_size, dtype=np.float32)
        self.observation[::3] = 0.5
        self.legal = sorted({(number * num_actions) // LEGAL for number in range(LEGAL)})
        self.mask = np.zeros(num_actions, dtype=np.int8)
        self.mask[self.legal] = 1


class NullAEC(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """A PettingZoo AEC environment that does what hraj's does, less the game: seats in
    turn, rewards dicts, `_accumulate_rewards`, a fresh observation and mask per `observe`,
    the end of a game for every agent at once, then `_was_dead_step` for each."""

    metadata = {"render_modes": [], "name": "null_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        self.shape = shape
        self.possible_agents = [f"player_{seat}" for seat in range(shape.players)]
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-1.0, 1.0, (shape.observation_size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (shape.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gymnasium.spaces.Discrete(shape.num_actions))
        self._played = 0

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self._played = 0
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        return {"observation": self.shape.observation.copy(), "action_mask": self.shape.mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not self.shape.mask[int(action)]:
            raise ValueError(f"action {action} is not legal")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._played += 1
        if self._played >= self.shape.length:
            for other in self.agents:
                self.rewards[other] = 1.0 / len(self.agents)
                self.terminations[other] = True
        else:
            self.agent_selection = self.possible_agents[self._played % self.shape.players]
        self._accumulate_rewards()


class NullGym(gymnasium.Env[npt.NDArray[np.float32], SupportsInt]):
    """A Gymnasium environment of one seat: a fresh observation and mask per step, the end
    after the game's length of decisions; no bots (they add no round trip through the API)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.observation_space = gymnasium.spaces.Box(-1.0, 1.0, (shape.observation_size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(shape.num_actions)
        self._played = 0

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self._played = 0
        return self.shape.observation.copy(), {"action_mask": self.shape.mask.copy()}

    def step(self, action: SupportsInt) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if not self.shape.mask[int(action)]:
            raise ValueError(f"action {action} is not legal")
        self._played += 1
        done = self._played >= self.shape.length
        return self.shape.observation.copy(), float(done), done, False, {"action_mask": self.shape.mask.copy()}


def _null_game_type(players: int) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"null_floor_{players}",
        long_name="null floor",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )


class NullSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel Python game of the game's seats and action ids, constant legal ids,
    and as many chance steps of six outcomes as the game has, spread over its decisions."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        info = pyspiel.GameInfo(
            num_distinct_actions=shape.num_actions,
            max_chance_outcomes=len(DIE),
            num_players=shape.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=shape.length + shape.chance,
        )
        super().__init__(_null_game_type(shape.players), info, {})

    def new_initial_state(self) -> NullSpielState:
        return NullSpielState(self)


class NullSpielState(pyspiel.State):  # type: ignore[misc]
    """A state that only counts its decisions and chance steps, as hraj's keeps its
    position in one attribute."""

    def __init__(self, game: NullSpielGame) -> None:
        super().__init__(game)
        self.shape = game.shape
        self.played = 0
        self.drawn = 0

    def _chance_due(self) -> bool:
        """Whether a chance step comes before the next decision (the game's share of them)."""
        shape = self.shape
        return self.drawn < (self.played + 1) * shape.chance // shape.length

    def current_player(self) -> int:
        if self.played >= self.shape.length:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._chance_due():
            return int(pyspiel.PlayerId.CHANCE)
        return self.played % self.shape.players

    def _legal_actions(self, player: int) -> list[int]:
        return self.shape.legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return DIE[:]

    def _apply_action(self, action: int) -> None:
        if self._chance_due():
            self.drawn += 1
        else:
            self.played += 1

    def is_terminal(self) -> bool:
        return self.played >= self.shape.length

    def returns(self) -> list[float]:
        return [1.0 / self.shape.players] * self.shape.players
