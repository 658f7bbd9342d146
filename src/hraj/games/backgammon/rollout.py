"""Rollouts: the candidate plays of a roll played out many times, all games in lockstep.

A rollout values a play by playing the game on from the position it leaves, many
times over, and averaging the results: the ground truth of backgammon analysis. Here
every game of every candidate runs together in `lockstep` (the 0-ply evaluator choosing
each play, the whole batch scored at once), cubeless, with two kinds of variance
reduction:

- the same dice for every candidate: game i of each candidate follows trial i's rolls,
  so the candidates are compared on the same luck (their differences are far less noisy
  than their values);
- quasi-random first rolls, as gnubg rolls out: the first roll of trial i is the
  (i mod 36)-th of the 36 rolls, the second the (i div 36 mod 36)-th, so with a
  multiple of 36 games every first roll comes up equally often.

A game in which both sides are home ends there with the bear-off database's exact
chances (`bearoff`), which is both faster and less noisy than playing it out.

`rollout_positions` takes the positions after the candidate plays; `rollout_plays` takes
a state and its legal plays. Both give, for each candidate, the mover's mean points a
game, its standard error and the mean of the five outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.afterstates import apply_plays
from hraj.games.backgammon.bearoff import batch_bearoff
from hraj.games.backgammon.evaluator import Evaluator, cubeless_equity, flip, shipped
from hraj.games.backgammon.lockstep import Dice, net_policy, play, swap
from hraj.games.backgammon.notation import Play
from hraj.games.backgammon.rules import BackgammonState

_ALL_ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(1, 7)])
"""The 36 rolls, each once."""


@dataclass(frozen=True)
class RolloutValue:
    """One candidate's rollout, for the side that played it: mean points a game
    (cubeless), the standard error of that mean, the mean of the five outcomes (win,
    gammon win, backgammon win, gammon loss, backgammon loss) and the games played."""

    equity: float
    standard_error: float
    probabilities: tuple[float, float, float, float, float]
    games: int


def first_rolls(games: int) -> NDArray[np.int64]:
    """The quasi-random first two rolls of each trial (games, 2, 2)."""
    trial = np.arange(games)
    return np.stack([_ALL_ROLLS[trial % 36], _ALL_ROLLS[(trial // 36) % 36]], axis=1)


def settle_bearoffs(positions: NDArray[np.int8]) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """`lockstep.play`'s early end: both sides home, valued exactly by the database."""
    return batch_bearoff(positions)


def rollout_positions(
    after: NDArray[np.int8], games: int, seed: int = 0, evaluator: Evaluator | None = None
) -> list[RolloutValue]:
    """Roll out the positions after each candidate play (k, 52; the mover's board first,
    before the opponent's roll): `games` games each, on shared dice (see the module)."""
    net = evaluator or shipped()
    after = np.atleast_2d(np.asarray(after, dtype=np.int8))
    candidates = len(after)
    dice = Dice(games, np.random.default_rng(seed), first_rolls(games))
    starts = np.repeat(swap(after), games, axis=0)  # the opponent on roll
    trials = np.tile(np.arange(games), candidates)
    played = play(starts, net_policy(net), dice, trials, settle=settle_bearoffs)
    outcomes = flip(played.outcomes).reshape(candidates, games, 5)  # the mover's
    points = cubeless_equity(outcomes)
    spread = points.std(axis=1, ddof=1) if games > 1 else np.full(candidates, np.inf)
    means = outcomes.mean(axis=1)
    return [
        RolloutValue(
            float(points[index].mean()),
            float(spread[index] / np.sqrt(games)),
            (
                float(means[index, 0]),
                float(means[index, 1]),
                float(means[index, 2]),
                float(means[index, 3]),
                float(means[index, 4]),
            ),
            games,
        )
        for index in range(candidates)
    ]


def rollout_plays(
    state: BackgammonState, plays: Sequence[Play], games: int, seed: int = 0, evaluator: Evaluator | None = None
) -> list[RolloutValue]:
    """Roll out each of `plays` (legal checker plays of the side on roll of `state`,
    whose dice are rolled): `games` games each on shared dice, for that side."""
    seat = state.turn
    position = np.array(state.boards[seat] + state.boards[1 - seat], dtype=np.int8)
    after = np.concatenate([apply_plays(position, [play.steps]) for play in plays])
    return rollout_positions(after, games, seed, evaluator)


__all__ = ["RolloutValue", "first_rolls", "rollout_plays", "rollout_positions", "settle_bearoffs"]
