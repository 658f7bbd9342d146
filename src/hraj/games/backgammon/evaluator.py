"""The backgammon evaluator: a neural net that gives gnubg's five probabilities.

For a position with one side on roll (before it rolls), the net estimates the chances
of that side: win, win a gammon, win a backgammon, lose a gammon, lose a backgammon
(gnubg's outputs, each counting the ones after it: a backgammon is also a gammon and a
win). `cubeless_equity` turns them into points a game, gnubg's "cubeless equity".

A position is an array of 52 checker counts: the side on roll's board, then the
opponent's, each numbered from its own side as in `moves` (index 0 borne off, 1..24 the
points, 25 the bar). `Evaluator.probabilities` takes many positions at once, so that
every play of a roll is scored by one matrix product.

The net is one hidden layer of sigmoid units over Tesauro's raw encoding (four units
per point and the bar for each side, the checkers borne off) and three cheap inputs:
both pip counts and whether the sides can still meet. It was trained by TD(λ) self-play
(`hraj.games.backgammon.train`), then fitted to its own 1-ply values (`distil`); the
weights and the configuration that made them ship as `net.npz` and `net.json` beside
this module.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from hraj.games.backgammon.moves import BAR, CHECKERS, HOME_SIZE, OFF, POINTS

__all__ = [
    "INPUTS",
    "OFF",
    "OUTPUTS",
    "SIDE",
    "Evaluator",
    "consistent",
    "contact",
    "cubeless_equity",
    "encode",
    "finished",
    "flip",
    "outcome_probabilities",
    "position",
    "shipped",
]

SIDE = BAR + 1
"""Counts of one side in a position array: 0 off, 1..24 points, 25 bar."""
POSITION = 2 * SIDE
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
OUTPUTS = 5
MAX_PIPS = 167.0  # the starting pip count scales the pip inputs near 0..1
INPUTS = 2 * 4 * BAR + 5
"""4 units for each point and the bar of each side (the side on roll's first), then the
checkers off of each side, the two pip counts and the contact flag."""

Probabilities = NDArray[np.float64]
Positions = NDArray[np.int8]
Inputs = NDArray[np.float32]


def _unit_table() -> NDArray[np.float32]:
    """Tesauro's four units of a count 0..15: one, two, three checkers, and (n - 3) / 2 above."""
    table = np.zeros((CHECKERS + 1, 4), dtype=np.float32)
    for count in range(CHECKERS + 1):
        table[count] = (count >= 1, count >= 2, count >= 3, max(count - 3, 0) / 2)
    return table


_UNITS = _unit_table()
_PACKED_UNITS = _UNITS.view(np.complex128).reshape(CHECKERS + 1)
"""The four float32 units of a count as one 16-byte item: one gather moves all four."""
_POINT_INDEX = np.r_[1:SIDE, SIDE + 1 : POSITION]  # points and bar of both sides
_UNIT_COUNT = 2 * 4 * BAR


def _count_table() -> NDArray[np.float32]:
    """Position (52) -> checkers off of each side / 15 and pip counts / 167 (52, 4)."""
    table = np.zeros((POSITION, 4), dtype=np.float32)
    table[OFF, 0] = table[SIDE + OFF, 1] = 1 / CHECKERS
    table[:SIDE, 2] = table[SIDE:, 3] = np.arange(SIDE) / MAX_PIPS  # the bar counts 25 pips
    return table


_COUNTS = _count_table()
_DEPTH = np.tile(np.arange(1, SIDE, dtype=np.int8), 2)  # each slot's point number, the bar 25


def encode(positions: Positions) -> Inputs:
    """The net's inputs (n, INPUTS) of positions (n, 52)."""
    count = positions.shape[0]
    inputs = np.empty((count, INPUTS), dtype=np.float32)
    slots = positions[:, _POINT_INDEX]
    inputs[:, :_UNIT_COUNT] = _PACKED_UNITS.take(slots).view(np.float32)
    inputs[:, _UNIT_COUNT : _UNIT_COUNT + 4] = positions.astype(np.float32) @ _COUNTS
    inputs[:, -1] = _contact(slots)
    return inputs


def _contact(slots: NDArray[np.int8]) -> NDArray[np.bool_]:
    # the rearmost checker of each side (its point number, 25 on the bar): contact while
    # mine is behind theirs, seen from the same side
    backs = ((slots > 0) * _DEPTH).reshape(-1, 2, BAR).max(axis=2)
    return np.asarray(backs.sum(axis=1) > BAR)


def contact(positions: Positions) -> NDArray[np.bool_]:
    """Can the sides still meet (not a pure race)? One flag per position."""
    return _contact(np.asarray(positions)[:, _POINT_INDEX])


def flip(probabilities: Probabilities) -> Probabilities:
    """The same chances seen by the other side: a win is its loss, a gammon won its gammon lost."""
    flipped = probabilities[..., [WIN, LOSE_GAMMON, LOSE_BACKGAMMON, WIN_GAMMON, WIN_BACKGAMMON]].copy()
    flipped[..., WIN] = 1.0 - probabilities[..., WIN]
    return flipped


def cubeless_equity(probabilities: Probabilities) -> NDArray[np.float64]:
    """Points a game for the side the probabilities belong to, without the cube (gnubg's units):
    2 P(win) - 1 + P(gammon won) - P(gammon lost) + P(backgammon won) - P(backgammon lost)."""
    p = np.asarray(probabilities, dtype=np.float64)
    return np.asarray(
        2 * p[..., WIN]
        - 1
        + p[..., WIN_GAMMON]
        - p[..., LOSE_GAMMON]
        + p[..., WIN_BACKGAMMON]
        - p[..., LOSE_BACKGAMMON]
    )


def outcome_probabilities(winner_board: Sequence[int], loser_board: Sequence[int]) -> Probabilities:
    """The exact five outputs, for the winner, of a game the winner has just finished."""
    gammon = loser_board[OFF] == 0
    backgammon = gammon and (loser_board[BAR] > 0 or any(loser_board[POINTS - HOME_SIZE + 1 : POINTS + 1]))
    return np.array([1.0, float(gammon), float(backgammon), 0.0, 0.0])


def finished(positions: Positions) -> Probabilities:
    """The exact outputs of finished positions (one side has borne off all 15), NaN elsewhere."""
    result = np.full((positions.shape[0], OUTPUTS), np.nan)
    for index, position in enumerate(positions):
        mine, theirs = position[:SIDE], position[SIDE:]
        if mine[OFF] == CHECKERS:
            result[index] = outcome_probabilities(mine, theirs)
        elif theirs[OFF] == CHECKERS:
            result[index] = flip(outcome_probabilities(theirs, mine))
    return result


def consistent(probabilities: Probabilities) -> Probabilities:
    """Clip outputs to the order the events nest in: backgammon ≤ gammon ≤ win (both sides)."""
    p = probabilities
    p[..., WIN_GAMMON] = np.minimum(p[..., WIN_GAMMON], p[..., WIN])
    p[..., WIN_BACKGAMMON] = np.minimum(p[..., WIN_BACKGAMMON], p[..., WIN_GAMMON])
    p[..., LOSE_GAMMON] = np.minimum(p[..., LOSE_GAMMON], 1.0 - p[..., WIN])
    p[..., LOSE_BACKGAMMON] = np.minimum(p[..., LOSE_BACKGAMMON], p[..., LOSE_GAMMON])
    return p


def _sigmoid(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """1 / (1 + e^-x), in place."""
    np.clip(x, -40.0, 40.0, out=x)
    np.negative(x, out=x)
    np.exp(x, out=x)
    x += 1.0
    np.reciprocal(x, out=x)
    return x


class Evaluator:
    """One hidden layer of sigmoid units, five sigmoid outputs: the side on roll's chances."""

    def __init__(
        self,
        hidden_weights: NDArray[np.float32 | np.float64],
        hidden_bias: NDArray[np.float32 | np.float64],
        output_weights: NDArray[np.float32 | np.float64],
        output_bias: NDArray[np.float32 | np.float64],
        config: Mapping[str, object] | None = None,
    ) -> None:
        self.hidden_weights = np.array(hidden_weights, dtype=np.float32)  # (INPUTS, hidden)
        self.hidden_bias = np.array(hidden_bias, dtype=np.float32)
        self.output_weights = np.array(output_weights, dtype=np.float32)  # (hidden, OUTPUTS)
        self.output_bias = np.array(output_bias, dtype=np.float32)
        #: What `net.json` says of the net (how it was trained), where it was read.
        self.config: dict[str, object] = dict(config or {})
        if self.hidden_weights.shape[0] != INPUTS or self.output_weights.shape[1] != OUTPUTS:
            raise ValueError(f"a backgammon net needs {INPUTS} inputs and {OUTPUTS} outputs")

    @classmethod
    def random(cls, hidden: int, seed: int, scale: float = 0.1) -> Evaluator:
        """A net with small uniform random weights, the start of training."""
        rng = np.random.default_rng(seed)
        return cls(
            rng.uniform(-scale, scale, (INPUTS, hidden)),
            rng.uniform(-scale, scale, hidden),
            rng.uniform(-scale, scale, (hidden, OUTPUTS)),
            rng.uniform(-scale, scale, OUTPUTS),
        )

    @classmethod
    def load(cls, path: Path | str) -> Evaluator:
        """A net saved by `save` (an .npz file)."""
        with np.load(path) as data:
            return cls(data["hidden_weights"], data["hidden_bias"], data["output_weights"], data["output_bias"])

    def save(self, path: Path | str, **extra: ArrayLike) -> None:
        """The weights (float32, small enough to ship), with any `extra` arrays."""
        arrays: dict[str, NDArray[np.float32]] = {
            "hidden_weights": self.hidden_weights,
            "hidden_bias": self.hidden_bias,
            "output_weights": self.output_weights,
            "output_bias": self.output_bias,
        }
        np.savez_compressed(path, allow_pickle=True, **arrays, **extra)

    def forward(self, inputs: Inputs) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Hidden activations and raw outputs of encoded inputs (training needs both)."""
        hidden: NDArray[np.float32] = inputs @ self.hidden_weights
        hidden += self.hidden_bias
        _sigmoid(hidden)
        outputs: NDArray[np.float32] = hidden @ self.output_weights
        outputs += self.output_bias
        return hidden, _sigmoid(outputs)

    def raw(self, positions: Positions) -> Probabilities:
        """The net's outputs as they are, without exact endings or clipping (for training)."""
        return self.forward(encode(positions))[1].astype(np.float64)

    def probabilities(self, positions: Positions | Iterable[Sequence[int]]) -> Probabilities:
        """gnubg's five outputs (n, 5) for the side on roll of each position (n, 52):
        finished positions exactly, others by the net, clipped so that they nest."""
        array = np.asarray(positions, dtype=np.int8).reshape(-1, POSITION)
        out = consistent(self.raw(array))
        done = (array[:, OFF] == CHECKERS) | (array[:, SIDE + OFF] == CHECKERS)
        if done.any():
            out[done] = finished(array[done])
        return out

    def evaluate(self, mine: Sequence[int], theirs: Sequence[int]) -> Probabilities:
        """The five outputs (5,) of one position: the side on roll's board, then the opponent's."""
        result: Probabilities = self.probabilities([(*mine, *theirs)])[0]
        return result


def position(mine: Sequence[int], theirs: Sequence[int]) -> Positions:
    """One position array from the two boards (the side on roll's first)."""
    return np.array((*mine, *theirs), dtype=np.int8)


@cache
def shipped() -> Evaluator:
    """The net that ships with hraj (`net.npz`, trained by `hraj.games.backgammon.train`)."""
    folder = resources.files("hraj.games.backgammon")
    with resources.as_file(folder.joinpath("net.npz")) as path:
        evaluator = Evaluator.load(path)
    described = json.loads(folder.joinpath("net.json").read_text(encoding="utf-8"))
    if not isinstance(described, dict):
        raise ValueError("the shipped net.json must hold a JSON object")
    evaluator.config = described
    return evaluator
