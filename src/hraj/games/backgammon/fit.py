"""Fitting the evaluator's nets to targets: the cross-entropy of the five outputs, by Adam.

Both ways of training use it: TD(λ) self-play (`train`) moves each position toward
its λ-return, distillation (`distil`) toward its searched value. A batch of positions
is split by kind (race or contact), each net learning from its own positions.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.evaluator import OUTPUTS, Evaluator, Net

Positions = NDArray[np.int8]


class Adam:
    """Adam's moment estimates for one net's four weight arrays."""

    def __init__(self, net: Net) -> None:
        self.steps = 0
        self.first = [np.zeros_like(array) for array in net.arrays()]
        self.second = [np.zeros_like(array) for array in net.arrays()]

    def step(self, net: Net, gradients: list[NDArray[np.float32]], rate: float) -> None:
        self.steps += 1
        scale = np.float32(rate * np.sqrt(1 - 0.999**self.steps) / (1 - 0.9**self.steps))
        for weights, gradient, first, second in zip(net.arrays(), gradients, self.first, self.second, strict=True):
            # in place: the arrays are the net's and Adam's own
            np.add(0.9 * first, 0.1 * gradient, out=first)
            np.add(0.999 * second, 0.001 * gradient * gradient, out=second)
            np.subtract(weights, scale * first / (np.sqrt(second) + 1e-8), out=weights)

    def state(self, prefix: str) -> dict[str, NDArray[np.float32]]:
        """The moments as named arrays (for a checkpoint), and the step count."""
        found = {f"{prefix}first{index}": array for index, array in enumerate(self.first)}
        found |= {f"{prefix}second{index}": array for index, array in enumerate(self.second)}
        found[f"{prefix}steps"] = np.array(self.steps)
        return found

    def restore(self, prefix: str, arrays: dict[str, NDArray[np.float32]]) -> None:
        self.first = [np.array(arrays[f"{prefix}first{index}"]) for index in range(len(self.first))]
        self.second = [np.array(arrays[f"{prefix}second{index}"]) for index in range(len(self.second))]
        self.steps = int(arrays[f"{prefix}steps"])


def gradients(
    net: Net, inputs: NDArray[np.float32], targets: NDArray[np.float32]
) -> tuple[float, list[NDArray[np.float32]]]:
    """The mean cross-entropy (summed over the five outputs) against the targets, and its gradients."""
    hidden, outputs = net.forward(inputs)
    clipped = np.clip(outputs, 1e-6, 1 - 1e-6)
    loss = -float(np.mean(targets * np.log(clipped) + (1 - targets) * np.log(1 - clipped)) * OUTPUTS)
    output_delta = (outputs - targets) / np.float32(len(inputs))
    hidden_delta = (output_delta @ net.output_weights.T) * hidden * (1 - hidden)
    return loss, [inputs.T @ hidden_delta, hidden_delta.sum(axis=0), hidden.T @ output_delta, output_delta.sum(axis=0)]


def kind_rows(evaluator: Evaluator, positions: Positions, inputs: NDArray[np.float32]) -> dict[str, NDArray[np.bool_]]:
    """Which rows each of the evaluator's nets learns from."""
    if "all" in evaluator.nets:
        return {"all": np.ones(len(positions), dtype=np.bool_)}
    touching = inputs[:, -1] > 0.5 if evaluator.encoding == "expert" else evaluator.kinds(positions)
    return {"contact": touching, "race": ~touching}


def fit_step(
    evaluator: Evaluator,
    adams: dict[str, Adam],
    positions: Positions,
    targets: NDArray[np.float64],
    rate: float,
    inputs: NDArray[np.float32] | None = None,
) -> float:
    """One Adam step of every net on its rows of a minibatch (`inputs`: the positions
    already encoded); returns the mean loss."""
    inputs = evaluator.encode(positions) if inputs is None else inputs
    total = 0.0
    for kind, rows in kind_rows(evaluator, positions, inputs).items():
        if rows.any():
            value, grads = gradients(evaluator.nets[kind], inputs[rows], targets[rows].astype(np.float32))
            adams[kind].step(evaluator.nets[kind], grads, rate)
            total += value * int(rows.sum())
    return total / max(len(positions), 1)


def loss(evaluator: Evaluator, positions: Positions, targets: NDArray[np.float64]) -> float:
    """The mean cross-entropy (summed over the five outputs) of the nets on labelled positions."""
    total = 0.0
    for start in range(0, len(positions), 4096):
        part = slice(start, start + 4096)
        inputs = evaluator.encode(positions[part])
        for kind, rows in kind_rows(evaluator, positions[part], inputs).items():
            if rows.any():
                value, _ = gradients(evaluator.nets[kind], inputs[rows], targets[part][rows].astype(np.float32))
                total += value * int(rows.sum())
    return total / max(len(positions), 1)


__all__ = ["Adam", "fit_step", "gradients", "kind_rows", "loss"]
