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
    """The positions (n, 52) after each of `plays` (all of one length) from `position` (52,).
    A step (0, 0) changes nothing: shorter plays may be padded with it."""
    if not plays or not plays[0]:
        return np.repeat(position[np.newaxis, :], len(plays), axis=0)
    return apply_steps(position, np.array(plays, dtype=np.intp))


def apply_steps(position: NDArray[np.int8], steps: NDArray[np.intp]) -> NDArray[np.int8]:
    """`apply_plays` with the plays as an array (n, k, 2) of origins and targets."""
    count = steps.shape[0]
    after = np.repeat(position[np.newaxis, :], count, axis=0)
    rows = np.arange(count)
    for index in range(steps.shape[1]):
        origins, targets = steps[:, index, 0], steps[:, index, 1]
        after[rows, origins] -= 1
        after[rows, targets] += 1
        # a blot on the mover's point t is the opponent's point 25 - t: index 2 * SIDE - 1 - t
        blot = 2 * SIDE - 1 - targets
        hit = ((targets > 0) & (after[rows, blot] == 1)).astype(np.int8)
        after[rows, blot] -= hit
        after[:, 2 * SIDE - 1] += hit
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


ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
"""The 21 distinct rolls, high die first."""
ROLL_WEIGHTS = np.array([(1 if a == b else 2) / 36 for a, b in ROLLS])
"""The chance of each of `ROLLS`."""
_PADDING = tuple(((0, 0),) * (4 - used) for used in range(5))
"""Steps that change nothing (a checker off stays off), to bring every play to four steps."""
_NO_PLAY = np.zeros((1, 4, 2), dtype=np.intp)
_PADDED: dict[int, tuple[tuple[Steps, ...], NDArray[np.intp]]] = {}
"""id of a `play_steps` result (memoised there, so it recurs) -> (the result, kept alive
so that its id stays its own; its plays padded to four steps as an array)."""
_PADDED_SIZE = 1 << 13


def _padded(plays: tuple[Steps, ...]) -> NDArray[np.intp]:
    if not plays:
        return _NO_PLAY
    known = _PADDED.get(id(plays))
    if known is not None and known[0] is plays:
        return known[1]
    array = np.array([play + _PADDING[len(play)] for play in plays], dtype=np.intp)
    if len(_PADDED) >= _PADDED_SIZE:
        _PADDED.clear()
    _PADDED[id(plays)] = (plays, array)
    return array


def afterstates_of_rolls(
    position: NDArray[np.int8], rolls: Sequence[tuple[int, int]] = ROLLS
) -> tuple[NDArray[np.int8], NDArray[np.intp]]:
    """The positions after every legal play of each of `rolls` (an unplayable roll: the
    position itself), all in one array, and where each roll's plays start in it (one
    more entry: the end). The search's hot path: one NumPy pass for all the rolls."""
    mine = tuple(position[:SIDE].tolist())
    theirs = tuple(position[SIDE:].tolist())
    arrays = [_padded(play_steps(mine, theirs, roll)) for roll in rolls]
    starts = np.zeros(len(arrays) + 1, dtype=np.intp)
    np.cumsum([len(array) for array in arrays], out=starts[1:])
    return apply_steps(position, np.concatenate(arrays)), starts
