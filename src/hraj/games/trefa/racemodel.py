"""The exact chance of winning a Trefa race when every seat plays a racer's policy.

A seat's sheet moves only with its own dice, so each seat's future is a Markov chain of
its own, independent of the others: within a row the state is (empty fields, hits),
and a racer's turn (`rowvalue.RowValues` with a turn cost) moves it to a new state with
some points written, with probabilities that follow exactly from the dice. All rows of
the shipped sheets print the same numbers, so one chain serves every row (a sheet file
whose rows print different numbers is modelled with the current row's for later rows).

From the chain follow, for every row state, the joint distribution of (turns until the
row is full, points it still adds) and of (points written so far, the row not yet full)
after each number of turns. Rows are independent, so a whole sheet's distributions are
2-D convolutions of the row's: `done[t, x]`, the chance that the seat fills its sheet on
its t-th turn from now with final score x, and `open[t, x]`, the chance that after t of
its turns the sheet is not full and the total is x. The game ends on the turn the first
sheet is full, the others keep what they wrote, so the chance of winning is a sum over
who finishes when: no sampling, no noise, a few milliseconds per option.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from hraj.games.trefa.rowvalue import bits, fitting_dice, row_values, submasks
from hraj.games.trefa.sheets import ROWS

#: A turn's end within a row: (empty fields after it, hits after it, points written).
Step = tuple[int, int, int]
Grid = NDArray[np.float64]

#: Turn axis of a sheet's distributions: a sheet takes at most 30 turns (one field each).
TURNS = 32
#: A row takes at most 6 turns; with the turn now, a candidate's row spans 8.
ROW_TURNS = 8
#: Probability below this is float noise of the convolutions.
NOISE = 1e-13


def _cases(printed: int) -> list[tuple[int, float]]:
    """A die against a field printing `printed`: each value that fits, or too high (0)."""
    cases = [(value, 1 / 6) for value in range(1, printed + 1)]
    return [*cases, (0, (6 - printed) / 6)] if printed < 6 else cases


def _weighted(options: Sequence[Sequence[tuple[int, float]]]) -> list[tuple[tuple[int, ...], float]]:
    combos: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    for cases in options:
        combos = [((*throw, value), p * q) for throw, p in combos for value, q in cases]
    return combos


class RowChain:
    """A racer's row as a Markov chain: its turn-by-turn steps and their distributions."""

    def __init__(self, numbers: tuple[int, ...], hit_bonus: tuple[int, ...], turn_cost: float) -> None:
        self.table = row_values(numbers, hit_bonus, turn_cost)
        self.numbers = numbers
        self.hit_bonus = hit_bonus
        self.full = (1 << len(numbers)) - 1
        #: Points a row can still add: every number and the biggest bonus, plus one.
        self.points = sum(numbers) + max(hit_bonus) + 1
        self._after: dict[tuple[int, int, tuple[int, ...]], Step] = {}
        self._rerolls: dict[tuple[int, int, int], dict[Step, float]] = {}
        self._turns: dict[tuple[int, int], dict[Step, float]] = {}
        self._done: dict[tuple[int, int], Grid] = {}
        self._open: dict[tuple[int, int], Grid] = {}

    def after_throw(self, mask: int, hits: int, throw: tuple[int, ...]) -> Step:
        """The racer's write after its last throw (dice per empty field, 0 = too high),
        or the cross-out of the leftmost empty field when nothing fits."""
        key = (mask, hits, throw)
        found = self._after.get(key)
        if found is not None:
            return found
        table = self.table
        fitting, hit_mask, values = fitting_dice(bits(mask), throw, self.numbers)
        if not fitting:
            step = (mask & (mask - 1), hits, 0)
        else:
            best, step = float("-inf"), (mask, hits, 0)
            gains = {0: 0}
            for chosen in submasks(fitting):
                low = chosen & -chosen
                gains[chosen] = gains[chosen ^ low] + values[low.bit_length() - 1]
                after_hits = hits + (chosen & hit_mask).bit_count()
                score = gains[chosen] + table.value(mask ^ chosen, after_hits)
                if score > best:
                    best, step = score, (mask ^ chosen, after_hits, gains[chosen])
        self._after[key] = step
        return step

    def reroll(self, mask: int, hits: int, ones: int) -> dict[Step, float]:
        """Where a turn that rerolls ends, keeping the 1s on the fields `ones`."""
        key = (mask, hits, ones & mask)
        found = self._rerolls.get(key)
        if found is not None:
            return found
        empties = bits(mask)
        options = [[(1, 1.0)] if ones >> field & 1 else _cases(self.numbers[field]) for field in empties]
        ends: dict[Step, float] = defaultdict(float)
        for throw, p in _weighted(options):
            ends[self.after_throw(mask, hits, throw)] += p
        self._rerolls[key] = dict(ends)
        return self._rerolls[key]

    def turn(self, mask: int, hits: int) -> dict[Step, float]:
        """Where a whole racer turn from this row state ends, with the probability of each."""
        key = (mask, hits)
        found = self._turns.get(key)
        if found is not None:
            return found
        table = self.table
        empties = bits(mask)
        ends: dict[Step, float] = defaultdict(float)
        for throw, p in _weighted([_cases(self.numbers[field]) for field in empties]):
            step = self.after_throw(mask, hits, throw)
            ones = sum(1 << field for field, value in zip(empties, throw, strict=True) if value == 1)
            if table.reroll_value(mask, hits, ones) > step[2] + table.value(step[0], step[1]):
                for end, q in self.reroll(mask, hits, ones).items():
                    ends[end] += p * q
            else:
                ends[step] += p
        self._turns[key] = dict(ends)
        return self._turns[key]

    def done(self, mask: int, hits: int) -> Grid:
        """[t, x]: the chance the row is full after exactly t more turns, having added x points
        (the numbers still written and the hit bonus)."""
        key = (mask, hits)
        if key not in self._done:
            grid = np.zeros((ROW_TURNS, self.points))
            if not mask:
                grid[0, self.hit_bonus[hits]] = 1.0
            else:
                for step, p in self.turn(mask, hits).items():
                    self._add(grid, step, p, self.done(step[0], step[1]))
            self._done[key] = grid
        return self._done[key]

    def open(self, mask: int, hits: int) -> Grid:
        """[t, x]: the chance the row is still not full after t more turns, x points written since."""
        key = (mask, hits)
        if key not in self._open:
            grid = np.zeros((ROW_TURNS, self.points))
            if mask:
                grid[0, 0] = 1.0
                for step, p in self.turn(mask, hits).items():
                    if step[0]:
                        self._add(grid, step, p, self.open(step[0], step[1]))
            self._open[key] = grid
        return self._open[key]

    def after(self, ends: dict[Step, float]) -> tuple[Grid, Grid]:
        """`done` and `open` of a row whose turn now ends as `ends` says, counting this turn."""
        done = np.zeros((ROW_TURNS, self.points))
        still = np.zeros((ROW_TURNS, self.points))
        still[0, 0] = 1.0
        for step, p in ends.items():
            self._add(done, step, p, self.done(step[0], step[1]))
            if step[0]:
                self._add(still, step, p, self.open(step[0], step[1]))
        return done, still

    def _add(self, grid: Grid, step: Step, p: float, later: Grid) -> None:
        """Adds `later`, one turn on and `step`'s points up, weighted by p."""
        gain = step[2]
        grid[1:, gain:] += p * later[:-1, : self.points - gain]


@functools.cache
def row_chain(numbers: tuple[int, ...], hit_bonus: tuple[int, ...], turn_cost: float) -> RowChain:
    """The shared chain of a row's printed numbers, hit bonus and the racer's price of a turn."""
    return RowChain(numbers, hit_bonus, turn_cost)


class SheetModel:
    """Whole-sheet distributions for a racer's policy: the rows after the current one."""

    def __init__(self, chain: RowChain, score_range: int) -> None:
        self.chain = chain
        self.scores = score_range
        #: The FFT grid: no convolution wraps around (a sheet takes at most 31 turns with
        #: the turn now, and scores at most `score_range - 1`).
        self.shape = (TURNS, 256 if score_range <= 256 - chain.points else score_range + chain.points)
        fresh_done = self._fft(chain.done(chain.full, 0))
        fresh_open = self._fft(chain.open(chain.full, 0))
        # rows[k]: k fresh rows in a row, filled; waiting[k]: not full yet within them
        rows = [self._fft(self._delta())]
        waiting = [np.zeros_like(rows[0])]
        for _ in range(ROWS):
            waiting.append(self._fft(self._clean(self._inverse(waiting[-1]) + self._inverse(rows[-1] * fresh_open))))
            rows.append(self._fft(self._clean(self._inverse(rows[-1] * fresh_done))))
        self._rows = rows
        self._waiting = waiting

    def sheet(self, done: Grid, still: Grid, later_rows: int, score: int) -> tuple[Grid, Grid]:
        """(done, open) of a whole sheet: the current row's `done` and `still` (turns from now),
        then `later_rows` fresh rows; scores are totals, with `score` already on the sheet."""
        current = self._fft(done)
        full = self._clean(self._inverse(current * self._rows[later_rows]))
        waiting = self._clean(self._inverse(current * self._waiting[later_rows]))
        waiting[: still.shape[0], : still.shape[1]] += still
        return self._shift(full, score), self._shift(waiting, score)

    def _delta(self) -> Grid:
        grid = np.zeros((1, 1))
        grid[0, 0] = 1.0
        return grid

    def _fft(self, grid: Grid) -> NDArray[np.complex128]:
        return np.fft.rfft2(grid, s=self.shape)

    def _inverse(self, spectrum: NDArray[np.complex128]) -> Grid:
        return np.fft.irfft2(spectrum, s=self.shape)

    @staticmethod
    def _clean(grid: Grid) -> Grid:
        grid[grid < NOISE] = 0.0
        return grid

    def _shift(self, grid: Grid, score: int) -> Grid:
        out = np.zeros((TURNS, self.scores))
        out[:, score:] = grid[:TURNS, : self.scores - score]
        return out


@functools.cache
def sheet_model(numbers: tuple[int, ...], hit_bonus: tuple[int, ...], turn_cost: float) -> SheetModel:
    """The shared sheet model of a racer's policy with this price of a turn."""
    chain = row_chain(numbers, hit_bonus, turn_cost)
    return SheetModel(chain, ROWS * (chain.points - 1) + 1)


def _below(grid: Grid) -> Grid:
    """[t, x]: the mass of each row of `grid` below x."""
    return np.cumsum(grid, axis=1) - grid


def _share(rivals: Sequence[Grid]) -> Grid:
    """[t, x]: the expected share of the win of a score x against independent rivals
    (unnormalised distributions over their scores), a tie shared equally."""
    coefficients = [np.ones_like(rivals[0])]
    for rival in rivals:
        lower, equal = _below(rival), rival
        new = [coefficients[0] * lower]
        for m in range(1, len(coefficients)):
            new.append(coefficients[m] * lower + coefficients[m - 1] * equal)
        new.append(coefficients[-1] * equal)
        coefficients = new
    return sum((c / (m + 1) for m, c in enumerate(coefficients)), np.zeros_like(rivals[0]))


def race_value(mine: tuple[Grid, Grid], others: Sequence[tuple[Grid, Grid]]) -> tuple[float, float]:
    """(the chance of winning, a tie shared; the expected final score) of the seat on turn.

    `mine` is the seat's (done, open) counting its turn now as turn 1; `others` are the
    other seats' in the order they play next, each counting from its next turn.
    """
    my_done, my_open = mine
    points = np.arange(my_done.shape[1], dtype=np.float64)
    win = score = 0.0
    # I fill my sheet on my turn t: each other seat has had t - 1 turns
    rivals = [still[:-1] for _, still in others]
    masses = np.prod([rival.sum(axis=1) for rival in rivals], axis=0)
    win += float((my_done[1:] * _share(rivals)).sum())
    score += float((my_done[1:] @ points * masses).sum())
    # seat j (j-th after me) fills its sheet on its turn t: I have had t turns, so have the
    # seats before it, the seats after it t - 1
    for j, (done, _) in enumerate(others):
        rivals = [done[1:]]
        for k, (_, still) in enumerate(others):
            if k != j:
                rivals.append(still[1:] if k < j else still[:-1])
        masses = np.prod([rival.sum(axis=1) for rival in rivals], axis=0)
        win += float((my_open[1:] * _share(rivals)).sum())
        score += float((my_open[1:] @ points * masses).sum())
    return win, score
