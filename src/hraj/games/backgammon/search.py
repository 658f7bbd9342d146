"""Checker-play search with the evaluator: 0-ply, 1-ply and 2-ply, with gnubg's move filter.

The plies count as gnubg counts them. 0-ply scores each play by the evaluator's view
of the position after it. 1-ply looks one roll further: for each of the opponent's 21
rolls, the opponent answers with its best 0-ply play, and the play is worth the
average (by the rolls' chances) of the positions the answers leave. 2-ply adds one
more roll: each of those positions is worth the average over the mover's 21 rolls of
its best 0-ply play's position.

Every level works on a whole batch at once: the positions of all 21 rolls of every
position in the batch go through the lockstep play generator (`lockstep`) and the
evaluator together. Deeper plies cost about 21 and 441 times as much, so, as gnubg
does, only the best plays of the lower ply go on (`Filter`): those within an equity
margin of the best, at most a few. All values are the mover's, in points a game
without the cube.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.afterstates import ROLL_WEIGHTS, ROLLS, afterstates
from hraj.games.backgammon.evaluator import OFF, SIDE, Evaluator, Probabilities, cubeless_equity, flip
from hraj.games.backgammon.lockstep import batch_afterstates, best_of_segments, swap
from hraj.games.backgammon.moves import CHECKERS, Steps

_ROLL_ARRAY = np.array(ROLLS)


@dataclass(frozen=True)
class Filter:
    """Which plays go on to the next ply: at most `keep`, within `margin` points of the best."""

    keep: int
    margin: float


ONE_PLY_FILTER = Filter(keep=8, margin=0.16)
TWO_PLY_FILTER = Filter(keep=3, margin=0.08)


@dataclass(frozen=True)
class RankedPlay:
    """A legal play with the mover's five probabilities and equity, and the ply that gave them."""

    steps: Steps
    probabilities: Probabilities
    equity: float
    ply: int


def on_roll(net: Evaluator, positions: NDArray[np.int8], plies: int) -> Probabilities:
    """The five outputs (n, 5) of each position for its side on roll, `plies` rolls deep:
    at 0 the evaluator's own; deeper, the average over the side's 21 rolls of the value,
    one ply less deep, of the position its best 0-ply play leaves (seen by the other
    side, flipped). Finished games are exact at every depth."""
    positions = np.ascontiguousarray(positions, dtype=np.int8)
    if plies == 0:
        return net.probabilities(positions)
    result = net.probabilities(positions)
    going_on = (positions[:, OFF] < CHECKERS) & (positions[:, SIDE + OFF] < CHECKERS)
    if not going_on.any():
        return result
    rolling = positions[going_on]
    count = len(rolling)
    after = batch_afterstates(np.repeat(rolling, len(ROLLS), axis=0), np.tile(_ROLL_ARRAY, (count, 1)))
    theirs = net.probabilities(swap(after.positions))  # the other side on roll after each play
    chosen = best_of_segments(-cubeless_equity(theirs), after)
    values = theirs[chosen] if plies == 1 else on_roll(net, swap(after.positions[chosen]), plies - 1)
    result[going_on] = flip(np.einsum("r,nrp->np", ROLL_WEIGHTS, values.reshape(count, len(ROLLS), -1)))
    return result


def one_ply_on_roll(net: Evaluator, position: NDArray[np.int8]) -> Probabilities:
    """The side on roll's probabilities (5,), averaged over its 21 rolls of its best 0-ply play."""
    return np.asarray(on_roll(net, position[np.newaxis], 1)[0])


def after_play(net: Evaluator, after: NDArray[np.int8], plies: int) -> Probabilities:
    """The mover's five outputs (n, 5) after each of its plays (`after`, mover first), `plies` deep."""
    return flip(on_roll(net, swap(np.atleast_2d(after)), plies))


def zero_ply(net: Evaluator, after: NDArray[np.int8]) -> Probabilities:
    """The mover's probabilities (n, 5) after each play: the evaluator's view of the opponent on roll, flipped."""
    return after_play(net, after, 0)


def one_ply(net: Evaluator, after: NDArray[np.int8]) -> Probabilities:
    """The mover's probabilities (5,) after a play, one roll deep."""
    return np.asarray(after_play(net, after, 1)[0])


def two_ply(net: Evaluator, after: NDArray[np.int8]) -> Probabilities:
    """The mover's probabilities (5,) after a play, two rolls deep."""
    return np.asarray(after_play(net, after, 2)[0])


def _passing(ranked: list[RankedPlay], rule: Filter) -> list[int]:
    """Indexes of the plays that go on: `ranked` holds only plays valued at the last ply, best first."""
    best = ranked[0].equity
    return [index for index, play in enumerate(ranked[: rule.keep]) if play.equity >= best - rule.margin]


def rank_plays(net: Evaluator, position: NDArray[np.int8], dice: tuple[int, int], plies: int) -> list[RankedPlay]:
    """Every legal play of `dice` for the side on roll of `position`, best first, each
    valued at the deepest ply it reached (the best few reach `plies`, up to 2)."""
    plays, after = afterstates(position, dice)
    probabilities = zero_ply(net, after)
    equities = cubeless_equity(probabilities)
    ranked = sorted(
        (RankedPlay(steps, p, float(e), 0) for steps, p, e in zip(plays, probabilities, equities, strict=True)),
        key=lambda play: -play.equity,
    )
    if len(ranked) == 1:
        return ranked
    by_steps = {steps: index for index, steps in enumerate(plays)}
    frontier = len(ranked)  # the first `frontier` plays are valued at the last ply reached
    for ply, rule in ((1, ONE_PLY_FILTER), (2, TWO_PLY_FILTER)):
        if ply > plies:
            break
        chosen = _passing(ranked[:frontier], rule)
        if len(chosen) == 1:
            return ranked  # one candidate: nothing to compare more deeply
        values = after_play(net, after[[by_steps[ranked[index].steps] for index in chosen]], ply)
        upgraded = [
            RankedPlay(ranked[index].steps, value, float(cubeless_equity(value)), ply)
            for index, value in zip(chosen, values, strict=True)
        ]
        upgraded.sort(key=lambda play: -play.equity)
        rest = [play for index, play in enumerate(ranked) if index not in chosen]
        ranked = upgraded + rest
        frontier = len(upgraded)
    return ranked


__all__ = [
    "ONE_PLY_FILTER",
    "TWO_PLY_FILTER",
    "Filter",
    "RankedPlay",
    "after_play",
    "on_roll",
    "one_ply",
    "one_ply_on_roll",
    "rank_plays",
    "two_ply",
    "zero_ply",
]
