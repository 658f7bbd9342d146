"""What a finished game is worth to each seat, as learning code counts it."""

from __future__ import annotations

from typing import Literal

from hraj.core.game import Outcome

Reward = Literal["win", "score"]
REWARDS: tuple[Reward, ...] = ("win", "score")


def check_reward(reward: str) -> Reward:
    """The reward kind, or ValueError naming the known ones."""
    for known in REWARDS:
        if reward == known:
            return known
    raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")


def final_rewards(outcome: Outcome, reward: Reward) -> list[float]:
    """`win`: each winner's share of one win (ties share it), 0 for the others;
    `score`: the seat's final score in the game's own unit (points, points of a match)."""
    if reward == "score":
        return [float(score) for score in outcome.scores]
    share = 1.0 / len(outcome.winners)
    return [share if seat in outcome.winners else 0.0 for seat in range(len(outcome.scores))]
