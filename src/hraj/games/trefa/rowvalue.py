"""The exact expected score of a Trefa row under best play, for bots and analysis.

Only the active seat's own dice touch its row, each die is fair and independent, and a
row's score is the numbers written plus a bonus for its hits. So the future of a row
depends only on which fields are still empty and how many hits it has: with `mask` the
set of empty fields (bit i = field i from the left) and `hits` the hits so far,

    V(mask, hits) = expected (numbers still to be written + final hit bonus)

is a small table (64 masks x 7 hit counts), filled by expectimax over one turn:

    throw -> keep it, or reroll (the 1s stay) -> write a non-empty set of dice that fit,
    or, if none fits, cross out the leftmost empty field.

A die matters only through what it can do in its field: show a number up to the printed
one, or be too high. That collapses 6^6 throws to at most 6*6*5*4*3*2 = 4320 cases.

In solo play rows are independent and time is free, so playing by this table is exactly
optimal. With several players the race to finish five rows also counts, which the table
ignores.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

#: A die value per empty field, in field order; 0 = too high for its field.
Throw = tuple[int, ...]


def bits(mask: int) -> list[int]:
    """The fields a bit mask names, lowest first."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def fitting_dice(empties: Sequence[int], throw: Throw, numbers: Sequence[int]) -> tuple[int, int, list[int]]:
    """What a throw on the empty fields allows: the mask of fields whose die fits (a 0 does
    not), the mask of those that hit their printed number, and each field's die value."""
    fitting = hit_mask = 0
    values = [0] * len(numbers)
    for field, value in zip(empties, throw, strict=True):
        if value:
            fitting |= 1 << field
            values[field] = value
            if value == numbers[field]:
                hit_mask |= 1 << field
    return fitting, hit_mask, values


def submasks(mask: int) -> list[int]:
    """Every non-empty subset of `mask`, each after all of its own subsets."""
    subsets = []
    sub = mask
    while sub:
        subsets.append(sub)
        sub = (sub - 1) & mask
    subsets.reverse()
    return subsets


class RowValues:
    """Expected final row scores under best play, for one row's printed numbers."""

    def __init__(self, numbers: Sequence[int], hit_bonus: Sequence[int], turn_cost: float = 0.0) -> None:
        self.numbers = tuple(numbers)
        self.hit_bonus = tuple(hit_bonus)
        self.turn_cost = turn_cost
        self.fields = len(self.numbers)
        self._values: dict[tuple[int, int], float] = {}
        self._rerolls: dict[tuple[int, int, int], float] = {}

    def value(self, mask: int, hits: int) -> float:
        """V(mask, hits): expected points still to come for a row with these empty fields."""
        key = (mask, hits)
        if key not in self._values:
            self._solve(mask, hits)
        return self._values[key]

    def reroll_value(self, mask: int, hits: int, ones: int) -> float:
        """Expected points still to come if the turn rerolls, keeping the 1s on the fields `ones`.

        The expectation is exact: it runs over every outcome of the dice thrown again.
        """
        key = (mask, hits, ones & mask)
        if key not in self._rerolls:
            self._solve(mask, hits)
        return self._rerolls[key]

    def write_value(self, mask: int, hits: int, written: dict[int, int]) -> float:
        """Points now plus expected points to come after writing `written` (field -> value)."""
        new_hits = sum(1 for field, value in written.items() if value == self.numbers[field])
        rest = mask & ~sum(1 << field for field in written)
        return sum(written.values()) + self.value(rest, hits + new_hits)

    def cross_value(self, mask: int, hits: int) -> float:
        """Expected points to come after crossing out the leftmost empty field."""
        return self.value(mask & (mask - 1), hits)

    # --- the expectimax -----------------------------------------------------------------

    def _solve(self, mask: int, hits: int) -> None:
        if mask == 0:
            self._values[(mask, hits)] = float(self.hit_bonus[hits])
            return
        empties = bits(mask)
        # what each empty field's die can do, with the probability of each
        cases = [self._cases(self.numbers[field]) for field in empties]
        best: dict[Throw, float] = {}
        for throw in itertools.product(*(values for values, _ in cases)):
            best[throw] = self._best_after_throw(mask, hits, empties, throw)
        # reroll values: the fields showing 1 keep it, the others are thrown again
        for kept in range(1 << len(empties)):
            options = [((1,), (1.0,)) if kept >> j & 1 else case for j, case in enumerate(cases)]
            total = 0.0
            for throw, probability in _weighted(options):
                total += probability * best[throw]
            ones = sum(1 << field for j, field in enumerate(empties) if kept >> j & 1)
            self._rerolls[(mask, hits, ones)] = total
        expected = 0.0
        for throw, probability in _weighted(cases):
            ones = sum(1 << field for field, value in zip(empties, throw, strict=True) if value == 1)
            expected += probability * max(best[throw], self._rerolls[(mask, hits, ones)])
        self._values[(mask, hits)] = expected - self.turn_cost

    @staticmethod
    @functools.cache
    def _cases(printed: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """A die against a field printing `printed`: each value that fits (1/6 each), or too high (0)."""
        values = tuple(range(1, printed + 1)) + ((0,) if printed < 6 else ())
        weights = (1 / 6,) * printed + (((6 - printed) / 6,) if printed < 6 else ())
        return values, weights

    def _best_after_throw(self, mask: int, hits: int, empties: list[int], throw: Throw) -> float:
        """The best of writing some fitting dice (or the forced cross-out) after the last throw."""
        fitting, hit_mask, values = fitting_dice(empties, throw, self.numbers)
        if not fitting:
            return self.cross_value(mask, hits)
        gain = {0: 0}
        best = float("-inf")
        for chosen in submasks(fitting):
            low = chosen & -chosen
            gain[chosen] = gain[chosen ^ low] + values[low.bit_length() - 1]
            score = gain[chosen] + self.value(mask ^ chosen, hits + (chosen & hit_mask).bit_count())
            best = max(best, score)
        return best


def _weighted(options: Sequence[tuple[tuple[int, ...], tuple[float, ...]]]) -> list[tuple[Throw, float]]:
    """Every combination of the options with its probability."""
    combos: list[tuple[Throw, float]] = [((), 1.0)]
    for values, weights in options:
        combos = [
            ((*throw, value), probability * weight)
            for throw, probability in combos
            for value, weight in zip(values, weights, strict=True)
        ]
    return combos


@functools.cache
def row_values(numbers: tuple[int, ...], hit_bonus: tuple[int, ...], turn_cost: float = 0.0) -> RowValues:
    """The shared table for a row's printed numbers, hit bonus and price of a turn."""
    return RowValues(numbers, hit_bonus, turn_cost)
