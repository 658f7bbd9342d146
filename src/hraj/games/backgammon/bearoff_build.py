"""Build the one-sided bear-off database (`bearoff.npz`): run
`python -m hraj.games.backgammon.bearoff_build [OUTPUT]`.

Deterministic (no randomness: the same file every time), about a minute on one core.
Positions are solved in order of pip count, so every position a roll can reach is
already solved. For each roll the play that leaves the fewest expected rolls is
chosen (ties: the lower row, so the choice is fixed); doubles play four steps of one
die. In a bear-off every die can be played while a checker is left (a die higher than
the highest checker bears that checker off), so the forced-play rules never bite and
the plays of a roll are all the ways to use its dice in either order.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.bearoff import DATA_FILE, UNIT, HomeBoard, home_index, home_positions
from hraj.games.backgammon.moves import CHECKERS, HOME_SIZE

#: Columns kept: the most rolls any position needs, found below 40 (checked when built).
MAX_ROLLS = 40
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
ROLL_WEIGHTS = np.array([(1 if a == b else 2) / 36 for a, b in ROLLS])

Best = tuple[float, int]
"""(expected rolls left after the steps, the row they end in)."""


def single_steps(home: HomeBoard, die: int) -> list[HomeBoard]:
    """Every position one die can leave: move a checker down, or bear one off (from
    the die's point, or from the highest point when no checker is on or above it)."""
    results = []
    for point in range(die + 1, HOME_SIZE + 1):
        if home[point - 1]:
            after = list(home)
            after[point - 1] -= 1
            after[point - die - 1] += 1
            results.append(tuple(after))
    highest = max((point for point in range(1, HOME_SIZE + 1) if home[point - 1]), default=0)
    source = die if home[die - 1] else highest if 0 < highest < die else 0
    if source:
        after = list(home)
        after[source - 1] -= 1
        results.append(tuple(after))
    return results


def successors() -> list[list[list[int]]]:
    """`successors()[die][row]`: the rows one die can reach from each row."""
    index = home_index()
    boards = home_positions()
    table: list[list[list[int]]] = [[]]
    for die in range(1, HOME_SIZE + 1):
        table.append([[index[after] for after in single_steps(board, die)] for board in boards])
    return table


def solve(done: NDArray[np.bool_], steps: list[list[list[int]]]) -> NDArray[np.float64]:
    """Distributions of the rolls until a position is `done` (all off, or one off),
    each roll played to need the fewest rolls on average. Row r, column n: P(n rolls)."""
    count = len(done)
    value = [0.0] * count
    distribution = np.zeros((count, MAX_ROLLS))
    # best[k][die][row]: the best (value, row) after k more steps of `die` from `row`
    best: list[list[list[Best]]] = [[[(0.0, 0)] * count for _ in range(HOME_SIZE + 1)] for _ in range(4)]

    def step_best(k: int, die: int, row: int) -> Best:
        options = steps[die][row]
        if not options:
            return (value[row], row)
        if k == 1:
            return min((value[after], after) for after in options)
        previous = best[k - 1][die]
        return min(previous[after] for after in options)

    for row in range(count):
        if done[row]:
            distribution[row, 0] = 1.0
        else:
            ends = []
            for a, b in ROLLS:
                if a == b:
                    ends.append(min(best[3][a][after] for after in steps[a][row])[1])
                else:
                    first_a = min(best[1][b][after] for after in steps[a][row])
                    first_b = min(best[1][a][after] for after in steps[b][row])
                    ends.append(min(first_a, first_b)[1])
            follow = ROLL_WEIGHTS @ distribution[ends]
            if follow[-1] > 0:
                raise RuntimeError(f"Row {row} needs more than {MAX_ROLLS} rolls; raise MAX_ROLLS.")
            distribution[row, 1:] = follow[:-1]
            value[row] = 1.0 + float(ROLL_WEIGHTS @ np.array([value[end] for end in ends]))
        for die in range(1, HOME_SIZE + 1):
            for k in range(1, 4):
                best[k][die][row] = step_best(k, die, row)
    return distribution


def build() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(rolls, first_off): the two tables of `bearoff.BearoffDatabase`."""
    boards = home_positions()
    steps = successors()
    all_off = np.array([sum(board) == 0 for board in boards])
    one_off = np.array([sum(board) < CHECKERS for board in boards])
    return solve(all_off, steps), solve(one_off, steps)


def save(path: Path, rolls: NDArray[np.float64], first_off: NDArray[np.float64]) -> None:
    """Keep the columns any position needs, each probability in units of 1/65535 (as
    gnubg stores its own database), compressed: about 1.5 MB."""
    used = max(int(np.flatnonzero(rolls.any(axis=0))[-1]), int(np.flatnonzero(first_off.any(axis=0))[-1])) + 1
    np.savez_compressed(path, rolls=to_units(rolls[:, :used]), first_off=to_units(first_off[:, :used]))


def to_units(probabilities: NDArray[np.float64]) -> NDArray[np.uint16]:
    """Probabilities as integers in units of 1/65535."""
    return np.rint(probabilities * UNIT).astype(np.uint16)


def main() -> None:
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name(DATA_FILE)
    start = time.perf_counter()
    rolls, first_off = build()
    save(output, rolls, first_off)
    size = output.stat().st_size
    print(f"{len(rolls)} positions in {time.perf_counter() - start:.0f} s: {output} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
