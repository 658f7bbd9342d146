"""Positions after every legal play of a roll, as one array: the fast path of self-play.

The engine's `moves.play_steps` already finds each distinct play once (bit masks,
memoised); building the positions after them one list at a time is what costs. Here
all plays of a roll are applied at once: they all use the same number of dice (the
forced-play rules), so their steps form an (n, k) array and each of the k steps is a
handful of NumPy operations over every play together.

Positions are arrays of 52 counts, the mover's board then the opponent's (see
`evaluator`); `swap` turns them round so that the side now on roll comes first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.moves import BAR, Steps, play_steps

SIDE = BAR + 1
_SWAP = np.r_[SIDE : 2 * SIDE, 0:SIDE]


def swap(positions: NDArray[np.int8]) -> NDArray[np.int8]:
    """The same positions seen from the other side (its board first)."""
    return positions[..., _SWAP]


def apply_plays(position: NDArray[np.int8], plays: Sequence[Steps]) -> NDArray[np.int8]:
    """The positions (n, 52) after each of `plays` (all of one length) from `position` (52,)."""
    count = len(plays)
    after = np.repeat(position[np.newaxis, :], count, axis=0)
    if not count or not plays[0]:
        return after
    steps = np.array(plays, dtype=np.intp)  # (n, k, 2): origin, target
    rows = np.arange(count)
    for index in range(steps.shape[1]):
        origins, targets = steps[:, index, 0], steps[:, index, 1]
        after[rows, origins] -= 1
        after[rows, targets] += 1
        # a blot on the mover's point t is the opponent's point 25 - t: index 2 * SIDE - 1 - t
        blot = 2 * SIDE - 1 - targets
        hit = (targets > 0) & (after[rows, blot] == 1)
        after[rows, blot] -= hit.astype(np.int8)
        after[:, 2 * SIDE - 1] += hit.astype(np.int8)
    return after


def afterstates(position: NDArray[np.int8], dice: tuple[int, int]) -> tuple[tuple[Steps, ...], NDArray[np.int8]]:
    """Every legal play of `dice` for the side on roll of `position`, one per distinct
    result, and the positions after them (mover first). No play: one empty play, the
    position unchanged."""
    mine = tuple(position[:SIDE].tolist())
    theirs = tuple(position[SIDE:].tolist())
    plays = play_steps(mine, theirs, dice)
    if not plays:
        return ((),), position[np.newaxis, :].copy()
    return plays, apply_plays(position, plays)
