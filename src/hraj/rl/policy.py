"""A small learning agent in NumPy alone: a linear softmax policy trained by REINFORCE.

It is the example of docs/rl.md, kept in the package so that a trained policy sits in
hraj's arena like any bot (`PolicyBot`). Linear in the observation: one weight row
per action id, and a linear value estimate as the baseline that keeps the gradient's
variance down. Enough to learn a solo dice game in minutes on a CPU; nothing to rival the
search bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from hraj.core.bot import Bot
from hraj.core.game import Game, Seat, State
from hraj.rl.codec import Codec, Mask, Observation, codec, legal_mask, observe

if TYPE_CHECKING:  # the environment needs Gymnasium, which a trained policy does not
    from hraj.rl.gymnasium_env import HrajGymEnv

Floats = npt.NDArray[np.float64]


@dataclass
class LinearPolicy:
    """Softmax over the legal ids of `weights @ observation + bias`."""

    weights: Floats
    bias: Floats
    value_weights: Floats
    value_bias: float = 0.0

    @classmethod
    def zeros(cls, codec: Codec[Any, Any]) -> LinearPolicy:
        """The uniform policy: every legal action equally likely."""
        size, actions = codec.observation_size, codec.num_actions
        return cls(np.zeros((actions, size)), np.zeros(actions), np.zeros(size))

    def probabilities(self, observation: Observation, mask: Mask) -> Floats:
        logits = self.weights @ observation + self.bias
        logits = np.where(mask == 1, logits, -np.inf)
        logits -= logits.max()
        exp = np.exp(logits)
        probabilities: Floats = exp / exp.sum()
        return probabilities

    def act(self, observation: Observation, mask: Mask, rng: np.random.Generator, *, greedy: bool = False) -> int:
        probabilities = self.probabilities(observation, mask)
        if greedy:
            return int(np.argmax(probabilities))
        return int(rng.choice(len(probabilities), p=probabilities))

    def value(self, observation: Observation) -> float:
        return float(self.value_weights @ observation + self.value_bias)

    def save(self, path: str) -> None:
        np.savez_compressed(
            path, weights=self.weights, bias=self.bias, value_weights=self.value_weights, value_bias=self.value_bias
        )

    @classmethod
    def load(cls, path: str) -> LinearPolicy:
        with np.load(path) as data:
            return cls(data["weights"], data["bias"], data["value_weights"], float(data["value_bias"]))


@dataclass
class Step:
    observation: Observation
    mask: Mask
    action: int


@dataclass
class Reinforce:
    """REINFORCE with a learned linear baseline, for episodes whose reward comes at the end."""

    policy: LinearPolicy
    learning_rate: float = 0.01
    value_rate: float = 0.01
    #: Returns are divided by this, so one learning rate suits games of any score scale.
    scale: float = 1.0
    returns: list[float] = field(default_factory=list)

    def update(self, steps: list[Step], episode_return: float) -> None:
        target = episode_return / self.scale
        policy = self.policy
        for step in steps:
            advantage = target - policy.value(step.observation)
            policy.value_weights += self.value_rate * advantage * step.observation
            policy.value_bias += self.value_rate * advantage
            gradient = -policy.probabilities(step.observation, step.mask)
            gradient[step.action] += 1.0
            legal = step.mask == 1
            policy.weights[legal] += self.learning_rate * advantage * np.outer(gradient[legal], step.observation)
            policy.bias[legal] += self.learning_rate * advantage * gradient[legal]
        self.returns.append(episode_return)


def train(
    env: HrajGymEnv,
    episodes: int,
    seed: int = 0,
    learning_rate: float = 0.01,
    scale: float = 1.0,
    on_episode: Callable[[int, float], None] | None = None,
) -> LinearPolicy:
    """Train a linear policy on a hraj Gymnasium environment (`HrajGymEnv`)."""
    rng = np.random.default_rng(seed)
    learner = Reinforce(LinearPolicy.zeros(env.codec), learning_rate, learning_rate, scale)
    for episode in range(episodes):
        observation, info = env.reset(seed=seed * 1_000_003 + episode)
        steps: list[Step] = []
        total, done = 0.0, False
        while not done:
            mask: Mask = info["action_mask"]
            action = learner.policy.act(observation, mask, rng)
            steps.append(Step(observation, mask, action))
            observation, reward, done, _, info = env.step(action)
            total += float(reward)
        learner.update(steps, total)
        if on_episode is not None:
            on_episode(episode + 1, total)
    return learner.policy


class PolicyBot(Bot):
    """A trained policy as a hraj bot: it plays the id it rates most likely."""

    name = "policy"
    help = "plays a trained linear policy"

    def __init__(self, policy: LinearPolicy, game: Game[Any, Any], seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy = policy
        self.codec = codec(game)

    def choose(self, state: State[Any, Any], seat: Seat) -> object:
        mask, by_id = legal_mask(self.codec, state, seat)
        generator = np.random.default_rng(self.rng.randrange(1 << 30))
        return by_id[self.policy.act(observe(self.codec, state, seat), mask, generator, greedy=True)]


@dataclass(frozen=True, eq=False)
class PolicyBotMaker:
    """What the arena takes in place of a bot name: makes the bot from a seed, and names
    it in the arena's table."""

    policy: LinearPolicy
    game: Game[Any, Any]
    name: str = PolicyBot.name

    def __call__(self, seed: int) -> Bot:
        return PolicyBot(self.policy, self.game, seed)


def bot_maker(policy: LinearPolicy, game: Game[Any, Any]) -> Callable[[int], Bot]:
    """What the arena takes in place of a bot name: makes the bot from a seed."""
    return PolicyBotMaker(policy, game)
