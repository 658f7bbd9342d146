"""Checker-play search with the evaluator: 0-ply, 1-ply and 2-ply, with gnubg's move filter.

The plies count as gnubg counts them. 0-ply scores each play by the net's evaluation
of the position after it. 1-ply looks one roll further: for each of the opponent's 21
rolls, the opponent answers with its best 0-ply play, and the play is worth the
average (by the rolls' chances) of the positions the answers leave. 2-ply adds one
more roll: each of those positions is worth the average over the mover's 21 rolls of
its best 0-ply play.

Deeper plies cost about 21 and 441 times as much, so, as gnubg does, only the best
plays of the lower ply go on (`Filter`): those within an equity margin of the best, at
most a few. All values are the mover's, in points a game without the cube.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.afterstates import ROLL_WEIGHTS, afterstates, afterstates_of_rolls, swap
from hraj.games.backgammon.evaluator import Evaluator, Probabilities, cubeless_equity, flip
from hraj.games.backgammon.moves import Steps


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


def zero_ply(net: Evaluator, after: NDArray[np.int8]) -> Probabilities:
    """The mover's probabilities (n, 5) after each play: the net's view of the opponent on roll, flipped."""
    return flip(net.probabilities(swap(after)))


def _segment_choice(equities: NDArray[np.float64], starts: NDArray[np.intp]) -> NDArray[np.intp]:
    """Per segment (`starts[i]` up to `starts[i + 1]`), the index of its lowest equity."""
    sizes = np.diff(starts)
    padded = np.full((len(sizes), int(sizes.max())), np.inf)
    columns = np.arange(padded.shape[1])
    mask = columns < sizes[:, np.newaxis]
    padded[mask] = equities
    return np.asarray(starts[:-1] + np.argmin(padded, axis=1))


def _best_answers(net: Evaluator, on_roll: NDArray[np.int8]) -> NDArray[np.int8]:
    """For a position with one side on roll (its board first), the positions after that
    side's best 0-ply play of each of the 21 rolls, seen by the other side (21, 52)."""
    after, starts = afterstates_of_rolls(on_roll)
    waiting = swap(after)  # the other side, now on roll
    chosen = _segment_choice(cubeless_equity(net.probabilities(waiting)), starts)
    return np.asarray(waiting[chosen])


def one_ply_on_roll(net: Evaluator, position: NDArray[np.int8]) -> Probabilities:
    """The side on roll's probabilities (5,), averaged over its 21 rolls of its best 0-ply play."""
    return flip(ROLL_WEIGHTS @ net.probabilities(_best_answers(net, position)))


def one_ply(net: Evaluator, after: NDArray[np.int8]) -> Probabilities:
    """The mover's probabilities after a play (the position `after`, the mover first),
    one roll deep: each of the opponent's rolls answered by its best 0-ply play."""
    if after[0] == 15:  # the mover has won: the net gives the exact result
        return np.asarray(zero_ply(net, after[np.newaxis])[0])
    return np.asarray(ROLL_WEIGHTS @ net.probabilities(_best_answers(net, swap(after))))


def two_ply(net: Evaluator, after: NDArray[np.int8]) -> Probabilities:
    """As `one_ply`, with each answer's position worth its 1-ply value for the mover on roll:
    the average over the mover's 21 rolls of its best 0-ply play."""
    if after[0] == 15:
        return np.asarray(zero_ply(net, after[np.newaxis])[0])
    answers = _best_answers(net, swap(after))  # (21, 52), the mover on roll
    values = net.probabilities(answers)  # exact where the opponent has won
    groups = [afterstates_of_rolls(position) for position in answers]
    sizes = [len(group[0]) for group in groups]
    everything = swap(np.concatenate([group[0] for group in groups]))  # the opponent on roll
    equities = cubeless_equity(net.probabilities(everything))
    offset = 0
    going_on: list[int] = []  # the answers after which the game goes on
    chosen: list[NDArray[np.intp]] = []  # for each, the mover's best play of each roll
    for index, (position, (_, starts)) in enumerate(zip(answers, groups, strict=True)):
        if position[26] != 15:
            going_on.append(index)
            chosen.append(offset + _segment_choice(equities[offset : offset + sizes[index]], starts))
        offset += sizes[index]
    if going_on:
        best = flip(net.probabilities(everything[np.concatenate(chosen)])).reshape(len(going_on), len(ROLL_WEIGHTS), 5)
        values[going_on] = np.einsum("r,arp->ap", ROLL_WEIGHTS, best)
    return np.asarray(ROLL_WEIGHTS @ values)


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
    for ply, rule, deeper in ((1, ONE_PLY_FILTER, one_ply), (2, TWO_PLY_FILTER, two_ply)):
        if ply > plies:
            break
        chosen = _passing(ranked[:frontier], rule)
        if len(chosen) == 1:
            return ranked  # one candidate: nothing to compare more deeply
        upgraded = []
        for index in chosen:
            value = deeper(net, after[by_steps[ranked[index].steps]])
            upgraded.append(RankedPlay(ranked[index].steps, value, float(cubeless_equity(value)), ply))
        upgraded.sort(key=lambda play: -play.equity)
        rest = [play for index, play in enumerate(ranked) if index not in chosen]
        ranked = upgraded + rest
        frontier = len(upgraded)
    return ranked
