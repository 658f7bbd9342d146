"""The exact value of solo Qwixx: the expected final score from every start-of-turn sheet.

A row's future depends only on its last crossed position `p` (-1 for none, 10 for the
locked end) and on how many numbers it holds, `c`: 62 row states. Red and yellow are
interchangeable, and so are green and blue, so a pair of rows is an unordered pair of
row states (1,953 pair states). Mirroring every die (x -> 7 - x) turns red into green,
so the two pairs may be swapped too: a sheet is an unordered pair of pair states, plus
its penalties 0-3. Sheets with two locked rows have ended and score what they hold.

A turn is two decisions on one roll: the white sum (cross it in one row, or not), then
one white die plus one coloured die (cross it in that colour's row, or not); crossing
nothing costs a penalty. For a fixed pair of white dice the best result is
`max(D, G_red(d_red), ..., G_blue(d_blue))`: `D` is the best without a colour cross and
`G_k(d)` the best with a colour cross that uses die `d` of row `k` (maximised over the
white-sum choice). The four colour dice are independent, so the expectation of that
maximum comes from the product of the four distributions, not from 6^4 rolls.

Build (about ten minutes on one core; deterministic, no randomness):

    python -m hraj.games.qwixx.solo_table build

It writes `solo_table.npz` beside this module: the values of every sheet, quantised to
steps of 0.0044 points (uint16), about 12 MB compressed.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROW_LENGTH = 11
LOCK_POSITION = 10
CROSSES_TO_LOCK = 5
MAX_PENALTIES = 4
PENALTY_POINTS = 5
#: A value no real option reaches: marks an illegal option in the vectorised maxima.
ILLEGAL = -1.0e6

TABLE_PATH = Path(__file__).with_name("solo_table.npz")
#: The table for play against others: one other turn after each of ours, which ends the
#: game with this chance (a two-player game of greedy bots lasts about 23 turns).
DUEL_TABLE_PATH = Path(__file__).with_name("duel_table.npz")
DUEL_HAZARD = 0.05
#: If the game goes on after another seat's turn, each open row of ours is frozen with
#: this chance: that seat locked it (fitted by arenas against greedy: 0.01 and 0.03 won
#: less with two players).
DUEL_FREEZE = 0.02
#: The table for the master bot: the chance that the game ends after another seat's turn
#: rises with the sheet's progress (the sum of its rows' last crossed positions, plus 3 a
#: penalty), as measured in two-player games of master against greedy.
RISING_TABLE_PATH = Path(__file__).with_name("rising_table.npz")
RISING_PROGRESS = (12.0, 16.0, 20.0, 24.0, 28.0, 32.0, 36.0, 40.0)
RISING_HAZARD = (0.0, 0.03, 0.055, 0.09, 0.16, 0.25, 0.33, 0.45)
#: The table for tables of three or more: two other turns after each of ours, each of
#: which ends the game with the duel table's chance. It is shipped as its difference
#: from the duel table in steps of `TRIO_STEPS` quantisation steps (0.035 points), which
#: compresses to a third of a table of its own; a duel table built with other settings
#: calls for this one to be built again.
TRIO_TABLE_PATH = Path(__file__).with_name("trio_table.npz")
TRIO_STEPS = 8


def rising_hazard(progress: npt.NDArray[np.int64], penalties: int) -> FloatArray:
    """The chance of the game's end after another seat's turn, by a sheet's progress."""
    return np.interp(progress + 3 * penalties, RISING_PROGRESS, RISING_HAZARD)


#: Quantisation of the shipped table: value = LOW + STEP * stored.
LOW, HIGH = -20.0, 266.0
STEP = (HIGH - LOW) / 65535

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _row_states() -> list[tuple[int, int]]:
    states = [(-1, 0)]
    states += [(p, c) for p in range(LOCK_POSITION) for c in range(1, p + 2)]
    states += [(LOCK_POSITION, c) for c in range(CROSSES_TO_LOCK + 1, ROW_LENGTH + 1)]
    return states


#: Every row state (last crossed position, numbers crossed), empty row first.
ROW_STATES = _row_states()
ROW_INDEX = {state: i for i, state in enumerate(ROW_STATES)}
N_ROWS = len(ROW_STATES)
ROW_LOCKED = np.array([p == LOCK_POSITION for p, _ in ROW_STATES])
#: Points of a row: n(n+1)/2 for n crosses, the lock counting as one.
ROW_POINTS = np.array([(c + (p == LOCK_POSITION)) * (c + (p == LOCK_POSITION) + 1) // 2 for p, c in ROW_STATES])
ROW_PROGRESS = np.array([p + 1 for p, _ in ROW_STATES])


def _row_next() -> IntArray:
    """NEXT[r, q]: the row state after crossing position q, or -1 where that is illegal."""
    table = np.full((N_ROWS, ROW_LENGTH), -1, dtype=np.int64)
    for i, (p, c) in enumerate(ROW_STATES):
        for q in range(p + 1, ROW_LENGTH):
            if p == LOCK_POSITION or (q == LOCK_POSITION and c < CROSSES_TO_LOCK):
                continue
            table[i, q] = ROW_INDEX[(q, c + 1)]
    return table


ROW_NEXT = _row_next()
#: Unordered pairs of row states (a <= b); the last index is an illegal sentinel.
PAIRS = np.array([(a, b) for a in range(N_ROWS) for b in range(a, N_ROWS)], dtype=np.int64)
N_PAIRS = len(PAIRS)
INVALID = N_PAIRS
PAIR_INDEX = np.full((N_ROWS + 1, N_ROWS + 1), INVALID, dtype=np.int64)
for _i, (_a, _b) in enumerate(PAIRS):
    PAIR_INDEX[_a, _b] = PAIR_INDEX[_b, _a] = _i
PAIR_POINTS = ROW_POINTS[PAIRS].sum(axis=1)
PAIR_LOCKS = ROW_LOCKED[PAIRS].sum(axis=1)
PAIR_PROGRESS = ROW_PROGRESS[PAIRS].sum(axis=1)


def _pair_moves() -> tuple[IntArray, IntArray, IntArray]:
    """Pair states after one cross (slot, q), two crosses (q0, q1) and a double cross in one slot."""
    rows = np.vstack([PAIRS, [[N_ROWS, N_ROWS]]])  # the sentinel pair's rows are the sentinel row
    next_row = ROW_NEXT.copy()
    next_row[next_row < 0] = N_ROWS  # an illegal cross leads to the sentinel row ...
    next_row = np.vstack([next_row, np.full((1, ROW_LENGTH), N_ROWS)])  # ... which stays there
    one = np.empty((N_PAIRS + 1, 2, ROW_LENGTH), dtype=np.int64)
    one[:, 0, :] = PAIR_INDEX[next_row[rows[:, 0]], rows[:, 1, None]]
    one[:, 1, :] = PAIR_INDEX[rows[:, 0, None], next_row[rows[:, 1]]]
    two = PAIR_INDEX[next_row[rows[:, 0]][:, :, None], next_row[rows[:, 1]][:, None, :]]
    double = np.empty((N_PAIRS + 1, 2, ROW_LENGTH, ROW_LENGTH), dtype=np.int64)
    for slot in range(2):
        twice = next_row[next_row[rows[:, slot]]]  # (pairs, q0, q1)
        other = rows[:, 1 - slot, None, None]
        double[:, slot] = PAIR_INDEX[twice, other] if slot == 0 else PAIR_INDEX[other, twice]
    return one, two, double


PAIR_ONE, PAIR_TWO, PAIR_DOUBLE = _pair_moves()

#: A row another seat locks is frozen: nothing more can be crossed in it, and it counts
#: as locked for the end of the game. It is modelled as our own locked row with the
#: fewest crosses, `FROZEN_ROW`, its points corrected by `PAIR_FROZEN_POINTS`.
FROZEN_ROW = ROW_INDEX[(LOCK_POSITION, CROSSES_TO_LOCK + 1)]


def _pair_freezes() -> tuple[IntArray, IntArray, npt.NDArray[np.bool_]]:
    """Per pair state and slot: the pair with that row frozen, the points that changes by, whether it can."""
    frozen = np.empty((N_PAIRS, 2), dtype=np.int64)
    frozen[:, 0] = PAIR_INDEX[FROZEN_ROW, PAIRS[:, 1]]
    frozen[:, 1] = PAIR_INDEX[PAIRS[:, 0], FROZEN_ROW]
    points = ROW_POINTS[PAIRS] - ROW_POINTS[FROZEN_ROW]
    return frozen, points, ~ROW_LOCKED[PAIRS]


PAIR_FROZEN, PAIR_FROZEN_POINTS, PAIR_CAN_FREEZE = _pair_freezes()


def _white_pairs() -> tuple[IntArray, IntArray, IntArray, FloatArray]:
    """The 21 unordered white rolls: sum index, colour-sum indices per die value, probability."""
    sums, first, second, probs = [], [], [], []
    for w1 in range(1, 7):
        for w2 in range(w1, 7):
            sums.append(w1 + w2 - 2)
            first.append([w1 + d - 2 for d in range(1, 7)])
            second.append([w2 + d - 2 for d in range(1, 7)])
            probs.append((1 if w1 == w2 else 2) / 36)
    return np.array(sums), np.array(first), np.array(second), np.array(probs)


WHITE_SUM, COLOUR_FIRST, COLOUR_SECOND, WHITE_PROB = _white_pairs()


#: CDF_OF_CODE[code]: the product of four counts written in base 7, over 6^4.
_POWERS = 7 ** np.arange(4)
CDF_OF_CODE = np.array([np.prod([(code // p) % 7 for p in _POWERS]) / 6**4 for code in range(7**4)], dtype=np.float64)
_LABELS = np.repeat(np.arange(4, dtype=np.int64), 6)


def expected_max(values: FloatArray) -> FloatArray:
    """E[max] over four independent rows of six equally likely values: values (..., 4, 6).

    Sorting the 24 values and sweeping them upwards, the CDF of the maximum after each
    value is the product of the four rows' counts so far; E[max] = top - sum F_i gap_i.
    The row of each value rides in the two lowest mantissa bits (an error of 1e-15).
    """
    lead = values.shape[:-2]
    flat = np.array(values, dtype=np.float64).reshape(-1, 24)
    bits = flat.view(np.int64)
    bits &= ~np.int64(3)
    bits |= _LABELS
    ordered = np.sort(flat, axis=1).T.copy()  # (24, m)
    codes = np.cumsum(_POWERS[ordered.view(np.int64) & 3], axis=0)
    cdf = CDF_OF_CODE[codes[:-1]]
    gaps = ordered[1:] - ordered[:-1]
    return np.asarray((ordered[-1] - np.einsum("ij,ij->j", cdf, gaps)).reshape(lead))


def turn_values(table: npt.NDArray[np.float32], penalty: FloatArray, pa: IntArray, pb: IntArray) -> FloatArray:
    """Expected final score of sheets (pa, pb) at the start of a turn, from their successors' values.

    `table` holds the values at the same penalty count (indexed by two pair states, the
    sentinel included) and `penalty` the value of taking a penalty in each sheet. Rows
    are 0, 1 (the pair of `pa`) and 2, 3 (of `pb`); every array below is indexed by
    number - 2, so a white sum s and a colour number c index all four rows alike.
    """
    col = pb[:, None, None]
    row = pa[:, None, None]
    one_a = table[PAIR_ONE[pa], col]  # (n, slot, position)
    one_b = table[row, PAIR_ONE[pb]][:, :, ::-1]  # green and blue run 12 -> 2
    two_a = table[PAIR_TWO[pa], col]  # [n, position of row 0, position of row 1]
    two_b = table[row, PAIR_TWO[pb]][:, ::-1, ::-1]
    double_a = table[PAIR_DOUBLE[pa], pb[:, None, None, None]]  # [n, slot, first, second]
    double_b = table[pa[:, None, None, None], PAIR_DOUBLE[pb]][:, :, ::-1, ::-1]
    # cross[n, x, y, a, b]: row x of pa at a, row y of pb at b
    cross = table[PAIR_ONE[pa][:, :, None, :, None], PAIR_ONE[pb][:, None, :, None, :]][..., ::-1]
    single = np.concatenate([one_a, one_b], axis=1)  # (n, row, number)

    # A white cross that locks the second row ends the game before the colour step.
    ends = PAIR_LOCKS[pa] + PAIR_LOCKS[pb] == 1
    white_ends = (LOCK_POSITION, LOCK_POSITION, 0, 0)  # number index of each row's lock
    # pieces[k]: (white row j, array [n, white s, colour c]) for a colour cross in row k.
    pieces: list[list[tuple[int, npt.NDArray[np.float32]]]] = [
        [(0, double_a[:, 0]), (1, two_a.transpose(0, 2, 1))],
        [(1, double_a[:, 1]), (0, two_a)],
        [(2, double_b[:, 0]), (3, two_b.transpose(0, 2, 1))],
        [(3, double_b[:, 1]), (2, two_b)],
    ]
    for x in range(2):
        for y in range(2):
            pieces[2 + y].append((x, cross[:, x, y]))
            pieces[x].append((2 + y, cross[:, x, y].transpose(0, 2, 1)))
    colour_best = np.empty((len(pa), 4, ROW_LENGTH, ROW_LENGTH), dtype=np.float32)
    for k in range(4):
        best = np.broadcast_to(single[:, k, None, :], colour_best[:, k].shape).copy()
        for j, piece in pieces[k]:
            if ends.any():
                masked = piece.copy()
                masked[ends, white_ends[j], :] = ILLEGAL
                np.maximum(best, masked, out=best)
            else:
                np.maximum(best, piece, out=best)
        colour_best[:, k] = best
    no_colour = np.maximum(single.max(axis=1), penalty[:, None])  # (n, s)

    # For each white roll: G[n, k, pair, d] with either white die, floored at D.
    sums = WHITE_SUM[:, None]
    options = np.maximum(colour_best[:, :, sums, COLOUR_FIRST], colour_best[:, :, sums, COLOUR_SECOND])
    np.maximum(options, no_colour[:, None, WHITE_SUM, None], out=options)
    per_roll = expected_max(options.transpose(0, 2, 1, 3))  # (n, pair)
    return np.asarray(per_roll @ WHITE_PROB)


def canonical_states() -> tuple[IntArray, IntArray]:
    """Sheets (pa <= pb) that are still playing: fewer than two locked rows."""
    pa, pb = np.triu_indices(N_PAIRS)
    live = PAIR_LOCKS[pa] + PAIR_LOCKS[pb] < 2
    return pa[live].astype(np.int64), pb[live].astype(np.int64)


def white_sum_values(
    table: npt.NDArray[np.float32], pa: IntArray, pb: IntArray, penalties: int, hazard: float | FloatArray
) -> FloatArray:
    """Value of sheets (pa, pb) at the start of another seat's turn, from `table` at the start of ours.

    On another seat's turn a sheet may only cross the white sum, without risk of a
    penalty; then that seat ends the game with probability `hazard`, and the sheet
    scores what it holds, or our turn comes.
    """
    points_now = PAIR_POINTS_SENTINEL[pa] + PAIR_POINTS_SENTINEL[pb] - PENALTY_POINTS * penalties
    cross_a, cross_b = PAIR_ONE[pa], PAIR_ONE[pb]
    then = np.concatenate(
        [table[cross_a, pb[:, None, None]], table[pa[:, None, None], cross_b][:, :, ::-1]], axis=1
    ).astype(np.float64)  # (n, row, number)
    points = np.concatenate(
        [
            PAIR_POINTS_SENTINEL[cross_a] + PAIR_POINTS_SENTINEL[pb][:, None, None],
            (PAIR_POINTS_SENTINEL[pa][:, None, None] + PAIR_POINTS_SENTINEL[cross_b])[:, :, ::-1],
        ],
        axis=1,
    ) - (PENALTY_POINTS * penalties)
    ends = np.broadcast_to(np.asarray(hazard, dtype=np.float64), pa.shape)
    worth = ends[:, None, None] * points + (1 - ends[:, None, None]) * then
    stay = ends * points_now + (1 - ends) * table[pa, pb].astype(np.float64)
    best = np.maximum(worth.max(axis=1), stay[:, None])  # (n, white sum)
    return np.asarray(best @ SUM_PROB)


#: Points of each pair state, 0 for the sentinel; the probability of each white sum 2-12.
PAIR_POINTS_SENTINEL = np.append(PAIR_POINTS, 0)
SUM_PROB = np.array([(6 - abs(7 - total)) / 36 for total in range(2, 13)])


def _ended(values: npt.NDArray[np.float32]) -> None:
    """Sheets with two locked rows score what they hold, whatever comes."""
    points = (PAIR_POINTS[:, None] + PAIR_POINTS[None, :]).astype(np.float64)
    over = PAIR_LOCKS[:, None] + PAIR_LOCKS[None, :] >= 2
    for m in range(MAX_PENALTIES):
        values[m, :N_PAIRS, :N_PAIRS][over] = (points - PENALTY_POINTS * m)[over]


def frozen_values(values: npt.NDArray[np.float32], pa: IntArray, pb: IntArray, m: int, freeze: float) -> FloatArray:
    """Value of sheets (pa, pb) once another seat's turn may have locked one of their
    open rows, each with chance `freeze`, from `values` of the turn that follows."""
    total = np.zeros(len(pa), dtype=np.float64)
    chance = np.zeros(len(pa), dtype=np.float64)
    for pairs, other, first in ((pa, pb, True), (pb, pa, False)):
        for slot in range(2):
            can = PAIR_CAN_FREEZE[pairs, slot]
            frozen = PAIR_FROZEN[pairs, slot]
            worth = (values[m, frozen, other] if first else values[m, other, frozen]).astype(np.float64)
            total += np.where(can, freeze * (worth + PAIR_FROZEN_POINTS[pairs, slot]), 0.0)
            chance += np.where(can, freeze, 0.0)
    return np.asarray(total + (1 - chance) * values[m, pa, pb].astype(np.float64))


def build(
    batch: int = 4000,
    progress: bool = True,
    hazard: float | None = None,
    rising: bool = False,
    others: int = 1,
    freeze: float = 0.0,
) -> npt.NDArray[np.float32]:
    """values[m, pa, pb] at the start of our turn, sentinel row and column included (ILLEGAL).

    Solo (`hazard` None) every turn is ours. Otherwise `others` other seats' turns follow
    each of ours (one: a table of two), each of which ends the game with probability
    `hazard`, or with `rising_hazard` of the sheet's progress when `rising`. With
    `freeze` above 0, each other seat's turn that does not end the game also locks each
    open row of ours with that chance, after our white sum.
    """
    if rising:
        hazard = DUEL_HAZARD
    size = N_PAIRS + 1
    values = np.full((MAX_PENALTIES, size, size), ILLEGAL, dtype=np.float32)
    _ended(values)
    # waits[0]: the value at the start of the first other seat's turn after ours, ...
    waits: list[npt.NDArray[np.float32]] = []
    for _ in range(others if hazard is not None else 0):
        waits.append(np.full((MAX_PENALTIES, size, size), ILLEGAL, dtype=np.float32))
        _ended(waits[-1])
    after = waits[0] if waits else values  # solo: the next turn is ours again
    # With a chance of frozen rows, each other seat's turn leads to the value of what
    # follows it once that turn may have frozen a row: exposed[0] of our turn's values,
    # exposed[k] of the wait k turns before ours.
    exposed: list[npt.NDArray[np.float32]] = []
    if freeze > 0:
        if hazard is None:
            raise ValueError("a chance of frozen rows needs other seats (--duel)")
        for _ in waits:
            exposed.append(np.full((MAX_PENALTIES, size, size), ILLEGAL, dtype=np.float32))
            _ended(exposed[-1])
    pa, pb = canonical_states()
    level = PAIR_PROGRESS[pa] + PAIR_PROGRESS[pb]
    done, total, start = 0, len(pa) * MAX_PENALTIES, time.monotonic()
    for lvl in range(int(level.max()), -1, -1):
        at = np.flatnonzero(level == lvl)
        for m in range(MAX_PENALTIES - 1, -1, -1):
            for lo in range(0, len(at), batch):
                a, b = pa[at[lo : lo + batch]], pb[at[lo : lo + batch]]
                if m + 1 < MAX_PENALTIES:
                    penalty = after[m + 1, a, b].astype(np.float64)
                else:
                    penalty = (PAIR_POINTS[a] + PAIR_POINTS[b] - PENALTY_POINTS * MAX_PENALTIES).astype(np.float64)
                result = turn_values(after[m], penalty, a, b)
                values[m, a, b] = values[m, b, a] = result
                if hazard is not None:
                    ends = rising_hazard(PAIR_PROGRESS[a] + PAIR_PROGRESS[b], m) if rising else hazard
                    following = values  # the last other seat's turn is followed by ours
                    for k, wait in enumerate(reversed(waits)):
                        if exposed:
                            exposed[k][m, a, b] = exposed[k][m, b, a] = frozen_values(following, a, b, m, freeze)
                            following = exposed[k]
                        theirs = white_sum_values(following[m], a, b, m, ends)
                        wait[m, a, b] = wait[m, b, a] = theirs
                        following = wait
                done += len(a)
            if progress:
                _progress(done, total, start)
    if progress:
        print(file=sys.stderr)
    return values


def _progress(done: int, total: int, start: float) -> None:
    width = 40
    filled = width * done // total
    elapsed = time.monotonic() - start
    bar = "#" * filled + "." * (width - filled)
    print(f"\r[{bar}] {done:,}/{total:,} sheets, {elapsed:.0f} s", end="", file=sys.stderr)


def save(values: npt.NDArray[np.float32], path: Path = TABLE_PATH) -> None:
    """Store the upper triangle (pa <= pb) of every penalty layer, quantised to uint16."""
    np.savez_compressed(path, values=quantise(values), pairs=np.int64(N_PAIRS))


def quantise(values: npt.NDArray[np.float32]) -> npt.NDArray[np.uint16]:
    """The upper triangle (pa <= pb) of every penalty layer in steps of `STEP` points."""
    pa, pb = np.triu_indices(N_PAIRS)
    flat = values[:, pa, pb].astype(np.float64)
    return np.rint((np.clip(flat, LOW, HIGH) - LOW) / STEP).astype(np.uint16)


def save_difference(values: npt.NDArray[np.float32], base: SoloTable, path: Path = TRIO_TABLE_PATH) -> None:
    """Store a table as its difference from `base` in steps of `TRIO_STEPS` quantisation steps."""
    difference = quantise(values).astype(np.int32) - base.quantised.astype(np.int32)
    coarse = np.rint(difference / TRIO_STEPS).astype(np.int16)
    np.savez_compressed(path, difference=coarse, steps=np.int64(TRIO_STEPS), pairs=np.int64(N_PAIRS))


class SoloTable:
    """Look-ups in the shipped table by row states; see `sheet_value`."""

    def __init__(self, quantised: npt.NDArray[np.uint16]) -> None:
        self.quantised = quantised

    @classmethod
    def load(cls, path: Path = TABLE_PATH) -> SoloTable:
        """A table as `save` wrote it, or as `save_difference` did against the duel table."""
        if not path.exists():
            raise FileNotFoundError(
                f"The Qwixx table {path} is missing; build it with: python -m hraj.games.qwixx.solo_table build"
                + {
                    DUEL_TABLE_PATH.name: " --duel",
                    RISING_TABLE_PATH.name: " --rising",
                    TRIO_TABLE_PATH.name: " --duel --others 2",
                }.get(path.name, "")
            )
        with np.load(path) as data:
            if int(data["pairs"]) != N_PAIRS:
                raise ValueError(f"{path} was built for another state layout; rebuild it.")
            if "difference" not in data:
                return cls(np.asarray(data["values"]))
            base = duel_table().quantised.astype(np.int32)
            values = base + int(data["steps"]) * np.asarray(data["difference"], dtype=np.int32)
            return cls(np.clip(values, 0, np.iinfo(np.uint16).max).astype(np.uint16))

    def value(self, rows: Sequence[int], penalties: int) -> float:
        """Expected final score of a sheet at the start of a turn.

        `rows` are four row-state indices (red, yellow, green, blue). A sheet that has
        ended (two locked rows, four penalties) is worth its score.
        """
        points = int(sum(ROW_POINTS[r] for r in rows))
        if penalties >= MAX_PENALTIES or sum(bool(ROW_LOCKED[r]) for r in rows) >= 2:
            return float(points - PENALTY_POINTS * penalties)
        a = int(PAIR_INDEX[rows[0], rows[1]])
        b = int(PAIR_INDEX[rows[2], rows[3]])
        a, b = min(a, b), max(a, b)
        index = a * N_PAIRS - a * (a - 1) // 2 + (b - a)
        return LOW + STEP * float(self.quantised[penalties, index])


@functools.cache
def solo_table() -> SoloTable:
    """The shipped solo table, loaded once per process."""
    return SoloTable.load()


@functools.cache
def duel_table() -> SoloTable:
    """The shipped table for play against others (`build --duel`), loaded once per process."""
    return SoloTable.load(DUEL_TABLE_PATH)


@functools.cache
def trio_table() -> SoloTable:
    """The shipped table for tables of three or more (`build --duel --others 2`), loaded once."""
    return SoloTable.load(TRIO_TABLE_PATH)


def table_for(players: int) -> SoloTable:
    """The table that models a game of `players` best: two other turns after each of ours
    with three players or more (it won more than the duel table with three, four and five
    players), one with two."""
    return trio_table() if players >= 3 else duel_table()


@functools.cache
def rising_table() -> SoloTable:
    """The shipped table whose chance of the end rises with progress (`build --rising`)."""
    return SoloTable.load(RISING_TABLE_PATH)


def row_state(last: int, crossed: int) -> int:
    """Index of the row state with last crossed position `last` (-1: none) and `crossed` numbers."""
    return ROW_INDEX[(last, crossed)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m hraj.games.qwixx.solo_table", description=__doc__)
    parser.add_argument("command", choices=["build"])
    parser.add_argument("--out", type=Path, default=None, help="where to write the table")
    parser.add_argument(
        "--duel",
        action="store_true",
        help=f"the table of a seat facing one other seat that ends the game with chance {DUEL_HAZARD} a turn",
    )
    parser.add_argument(
        "--rising",
        action="store_true",
        help="the duel table with a chance of the end that rises with the sheet's progress (for master)",
    )
    parser.add_argument("--hazard", type=float, default=DUEL_HAZARD, help="the duel table's chance of the end a turn")
    parser.add_argument(
        "--freeze",
        type=float,
        default=None,
        help=f"with --duel, the chance that another seat's turn locks each open row of ours ({DUEL_FREEZE}; 0: none)",
    )
    parser.add_argument(
        "--others",
        type=int,
        choices=[1, 2],
        default=1,
        help="other seats' turns after each of ours (2: the table of three, stored against the duel table)",
    )
    args = parser.parse_args(argv)
    if args.freeze is not None and (not args.duel or args.rising):
        parser.error("--freeze models the other seats' locks: it goes with --duel, and not with --rising")
    # Past the check above, a freeze chance given comes with the duel table.
    freeze = 0.0 if not args.duel or args.rising else DUEL_FREEZE if args.freeze is None else args.freeze
    start = time.monotonic()
    values = build(
        hazard=args.hazard if args.duel else None,
        rising=args.rising,
        others=args.others,
        freeze=freeze,
    )
    empty = int(PAIR_INDEX[0, 0])
    print(f"expected score: {values[0, empty, empty]:.4f} ({time.monotonic() - start:.0f} s)")
    trio = args.duel and args.others == 2
    default = TRIO_TABLE_PATH if trio else DUEL_TABLE_PATH if args.duel else TABLE_PATH
    out = args.out or (RISING_TABLE_PATH if args.rising else default)
    if trio:
        save_difference(values, duel_table(), out)
    else:
        save(values, out)
    args.out = out
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
