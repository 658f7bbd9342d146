"""The backgammon evaluator: a neural net that gives gnubg's five probabilities.

For a position with one side on roll (before it rolls), the net estimates the chances
of that side: win, win a gammon, win a backgammon, lose a gammon, lose a backgammon
(gnubg's outputs, each counting the ones after it: a backgammon is also a gammon and a
win). `cubeless_equity` turns them into points a game, gnubg's "cubeless equity".

A position is an array of 52 checker counts: the side on roll's board, then the
opponent's, each numbered from its own side as in `moves` (index 0 borne off, 1..24 the
points, 25 the bar). `Evaluator.probabilities` takes many positions at once, so that
every play of a roll is scored by one matrix product.

The shipped evaluator is two nets, one for races and one for positions where the sides
can still meet, each one hidden layer of sigmoid units over the expert inputs of
`features`; bear-offs are answered from the database. It was trained by TD(λ)
self-play (`hraj.games.backgammon.train`); the weights and the commands that made them
ship as `net.npz` and `net.json` beside this module. A file of the earlier kind, one net
over Tesauro's raw encoding (four units per point and the bar for each side, the
checkers borne off, both pip counts and whether the sides can still meet), still loads.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from hraj.games.backgammon.bearoff import batch_bearoff
from hraj.games.backgammon.features import expert_inputs
from hraj.games.backgammon.moves import BAR, CHECKERS, HOME_SIZE, OFF, POINTS

__all__ = [
    "CONTACT",
    "ENCODINGS",
    "INPUTS",
    "OFF",
    "OUTPUTS",
    "RACE",
    "SIDE",
    "Evaluator",
    "Net",
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


class Net:
    """One hidden layer of sigmoid units over some inputs, five sigmoid outputs."""

    PARTS = ("hidden_weights", "hidden_bias", "output_weights", "output_bias")

    def __init__(
        self,
        hidden_weights: NDArray[np.float32 | np.float64],
        hidden_bias: NDArray[np.float32 | np.float64],
        output_weights: NDArray[np.float32 | np.float64],
        output_bias: NDArray[np.float32 | np.float64],
    ) -> None:
        self.hidden_weights = np.array(hidden_weights, dtype=np.float32)  # (inputs, hidden)
        self.hidden_bias = np.array(hidden_bias, dtype=np.float32)
        self.output_weights = np.array(output_weights, dtype=np.float32)  # (hidden, OUTPUTS)
        self.output_bias = np.array(output_bias, dtype=np.float32)
        if self.output_weights.shape[1] != OUTPUTS:
            raise ValueError(f"a backgammon net needs {OUTPUTS} outputs")

    @classmethod
    def random(cls, inputs: int, hidden: int, seed: int | np.random.Generator, scale: float = 0.1) -> Net:
        """A net with small uniform random weights, the start of training."""
        rng = np.random.default_rng(seed)
        return cls(
            rng.uniform(-scale, scale, (inputs, hidden)),
            rng.uniform(-scale, scale, hidden),
            rng.uniform(-scale, scale, (hidden, OUTPUTS)),
            rng.uniform(-scale, scale, OUTPUTS),
        )

    @property
    def hidden(self) -> int:
        return int(self.hidden_weights.shape[1])

    def arrays(self) -> list[NDArray[np.float32]]:
        """The four weight arrays, in `PARTS` order (the same objects: changing them changes the net)."""
        return [self.hidden_weights, self.hidden_bias, self.output_weights, self.output_bias]

    def copy(self) -> Net:
        return Net(*self.arrays())

    def forward(self, inputs: Inputs) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Hidden activations and outputs of encoded inputs (training needs both)."""
        hidden: NDArray[np.float32] = inputs @ self.hidden_weights
        hidden += self.hidden_bias
        _sigmoid(hidden)
        outputs: NDArray[np.float32] = hidden @ self.output_weights
        outputs += self.output_bias
        return hidden, _sigmoid(outputs)


#: The inputs a net may be trained on: Tesauro's raw counts with pips and contact (the
#: first nets), or those with the expert measures of `features`.
ENCODINGS: dict[str, Callable[[Positions], Inputs]] = {"raw": encode, "expert": expert_inputs}
#: The kinds of position that have a net of their own: a pure race, or contact.
RACE, CONTACT = "race", "contact"


class Evaluator:
    """gnubg's five outputs for the side on roll: a net for races and one for contact
    positions (or one net for all), finished games exactly and, with `bearoff`, both
    sides home from the one-sided bear-off database."""

    def __init__(
        self,
        nets: Mapping[str, Net],
        encoding: str = "expert",
        config: Mapping[str, object] | None = None,
        bearoff: bool = True,
    ) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown inputs {encoding!r}")
        if set(nets) not in ({RACE, CONTACT}, {"all"}):
            raise ValueError("a backgammon evaluator has a race and a contact net, or one net for all")
        self.nets = dict(nets)
        self.encoding = encoding
        self.encode = ENCODINGS[encoding]
        self.bearoff = bearoff
        #: What `net.json` says of the nets (how they were trained), where it was read.
        self.config: dict[str, object] = dict(config or {})
        width = len(self.encode(np.zeros((1, POSITION), dtype=np.int8))[0])
        for net in self.nets.values():
            if net.hidden_weights.shape[0] != width:
                raise ValueError(f"a net on {encoding} inputs needs {width} of them")

    @classmethod
    def random(cls, hidden: int, seed: int, scale: float = 0.1, encoding: str = "expert") -> Evaluator:
        """Race and contact nets with small random weights, the start of training."""
        width = len(ENCODINGS[encoding](np.zeros((1, POSITION), dtype=np.int8))[0])
        rng = np.random.default_rng(seed)
        return cls({kind: Net.random(width, hidden, rng, scale) for kind in (RACE, CONTACT)}, encoding)

    @classmethod
    def load(cls, path: Path | str) -> Evaluator:
        """Nets saved by `save` (an .npz file); a file of one net on raw inputs loads as that."""
        with np.load(path) as data:
            if "hidden_weights" in data:
                return cls({"all": Net(*(data[part] for part in Net.PARTS))}, "raw", bearoff=False)
            kinds = str(data["kinds"]).split(",")
            nets = {kind: Net(*(data[f"{kind}/{part}"] for part in Net.PARTS)) for kind in kinds}
            return cls(nets, str(data["encoding"]))

    def save(self, path: Path | str, **extra: ArrayLike) -> None:
        """The weights (float32, small enough to ship), with any `extra` arrays."""
        arrays: dict[str, ArrayLike] = {
            f"{kind}/{part}": array
            for kind, net in self.nets.items()
            for part, array in zip(Net.PARTS, net.arrays(), strict=True)
        }
        arrays |= {"kinds": np.array(",".join(self.nets)), "encoding": np.array(self.encoding), **extra}
        np.savez_compressed(path, allow_pickle=False, **arrays)

    def copy(self) -> Evaluator:
        nets = {kind: net.copy() for kind, net in self.nets.items()}
        return Evaluator(nets, self.encoding, self.config, self.bearoff)

    @property
    def hidden(self) -> int:
        return max(net.hidden for net in self.nets.values())

    def kinds(self, positions: Positions) -> NDArray[np.bool_]:
        """Which positions go to the contact net (the rest are races)."""
        return contact(positions)

    def raw(self, positions: Positions) -> Probabilities:
        """The nets' outputs as they are, without exact endings or clipping (for training)."""
        inputs = self.encode(positions)
        if "all" in self.nets:
            return self.nets["all"].forward(inputs)[1].astype(np.float64)
        out = np.empty((len(positions), OUTPUTS))
        touching = inputs[:, -1] > 0.5 if self.encoding == "expert" else self.kinds(positions)
        for kind, rows in ((CONTACT, touching), (RACE, ~touching)):
            if rows.any():
                out[rows] = self.nets[kind].forward(inputs[rows])[1]
        return out

    def probabilities(self, positions: Positions | Iterable[Sequence[int]]) -> Probabilities:
        """gnubg's five outputs (n, 5) for the side on roll of each position (n, 52):
        finished positions exactly, bear-offs from the database, others by the nets,
        clipped so that they nest."""
        array = np.asarray(positions, dtype=np.int8).reshape(-1, POSITION)
        out = consistent(self.raw(array))
        done = (array[:, OFF] == CHECKERS) | (array[:, SIDE + OFF] == CHECKERS)
        if done.any():
            out[done] = finished(array[done])
        if self.bearoff:
            home, exact = batch_bearoff(array)
            if home.any():
                out[home] = exact
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
