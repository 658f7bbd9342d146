"""Gymnasium environments: one seat of a hraj game, hraj's bots in the other seats.

Importing this module registers `hraj/<Name>-v0` for every registered game (`hraj/Pig-v0`
for a game named Pig), so

    import hraj.rl.gymnasium_env
    env = gymnasium.make("hraj/Pig-v0", players=2, opponents="greedy")

or, without the import, `gymnasium.make("hraj.rl.gymnasium_env:hraj/Pig-v0")`. Every
other keyword is a game option. The observation is the seat's float32 vector (see
docs/rl.md); the legal actions are `info["action_mask"]` and `env.action_masks()`.
An illegal action ends the episode as a lost game (`info["illegal_action"]`), so that
a learner sampling the whole action space still gets a well-formed episode.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsInt

import gymnasium
import numpy as np

import hraj
from hraj.core.bot import Bot, make_bot
from hraj.core.game import Seat, State
from hraj.core.registry import game_class
from hraj.rl.codec import Mask, Observation, codec, mask_of, view_mask
from hraj.rl.rewards import check_reward, final_rewards

NAMESPACE = "hraj"


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: `hraj/Pig-v0` for Pig."""
    return f"{NAMESPACE}/{game_class(game_id).name}-v0"


class HrajGymEnv(gymnasium.Env[Observation, SupportsInt]):
    """One seat of a game against hraj's bots; dice, cards and bots seeded by `reset`.

    An action is an action id: a Python int or a NumPy integer (what `Discrete` samples).
    The info dicts of `reset` and `step` keep Gymnasium's own loose type, which every
    wrapper passes on: `action_mask` (a `Mask`) and, after an illegal action,
    `illegal_action`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (Gymnasium's own shape)

    def __init__(
        self,
        game_id: str,
        seat: Seat = 0,
        opponents: str | Sequence[str] = "random",
        reward: str = "score",
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}")
        self.game = hraj.game(game_id, **options)
        if not 0 <= seat < self.game.players:
            raise ValueError(f"seat must be 0 to {self.game.players - 1}, not {seat}")
        self.seat = seat
        names = [opponents] * (self.game.players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != self.game.players - 1:
            raise ValueError(f"{self.game.players - 1} opponents are needed, not {len(names)}")
        for name in names:  # checked here, so a bad name fails at once
            make_bot(self.game.id, name)
        self.opponents = names
        self.codec = codec(self.game)
        self.reward_kind = check_reward(reward)
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(-1.0, 1.0, (self.codec.observation_size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.codec.num_actions)
        self.rng = random.Random()
        self.state: State[Any, Any] = self.game.new_state()
        self._bots: dict[Seat, Bot] = {}
        self._legal: dict[int, object] = {}

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        # a reset without a seed goes on from the last seed, as Gymnasium asks
        self.rng = random.Random(int(self.np_random.integers(1 << 62)))
        self.state = self.game.new_state()
        others = [seat for seat in range(self.game.players) if seat != self.seat]
        self._bots = {
            seat: make_bot(self.game.id, name, self.rng.randrange(1 << 30)).unhurried()
            for seat, name in zip(others, self.opponents, strict=True)
        }
        self._advance()
        observation, mask = self._observation()
        return observation, {"action_mask": mask}

    def _advance(self) -> None:
        """Dice, cards and the bots' decisions, until this seat decides or the game ends."""
        state = self.state
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(self.rng), check=False)
                continue
            if self.seat in state.to_act:
                break
            seat = state.to_act[0]
            state.apply(seat, self._bots[seat](state.determinize(seat, self.rng), seat))

    def _observation(self, ended: bool = False) -> tuple[Observation, Mask]:
        """The seat's observation now, and its mask made from the same view (no legal
        action once the game is over or the episode `ended` otherwise)."""
        state = self.state
        view = state.view(self.seat)
        if ended or state.is_over:
            self._legal = {}
            mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        else:
            mask, self._legal = view_mask(self.codec, view, state, self.seat)
        return self.codec.observe(view), mask

    def action_masks(self) -> Mask:
        """The legal actions now (1 = legal), as maskable learners ask for them."""
        return mask_of(self.codec, self._legal)

    def step(self, action: SupportsInt) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        chosen = self._legal.get(int(action))
        if chosen is None:
            low = 0.0 if self.reward_kind == "win" else self.codec.score_range()[0]
            observation, mask = self._observation(ended=True)
            return observation, low, True, False, {"action_mask": mask, "illegal_action": True}
        self.state.apply(self.seat, chosen, check=False)
        self._advance()
        reward = 0.0
        outcome = self.state.outcome
        if outcome is not None:
            reward = final_rewards(outcome, self.reward_kind)[self.seat]
        if self.render_mode == "human":
            self.render()
        observation, mask = self._observation()
        return observation, reward, outcome is not None, False, {"action_mask": mask}

    def render(self) -> str | None:
        text = json.dumps(self.state.view(self.seat), ensure_ascii=False)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register_envs() -> list[str]:
    """Register one Gymnasium id per hraj game (again is harmless); returns the ids."""
    ids = []
    for game_id in hraj.GAMES:
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=f"{__name__}:HrajGymEnv", kwargs={"game_id": game_id})
        ids.append(name)
    return ids


register_envs()
