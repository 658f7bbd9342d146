"""The one-sided bear-off database: exact race odds once both sides are home.

A bear-off position of one side is its checkers on the six home points (up to 15 of
them; 54,264 positions counting the empty one). For each the database holds the
probability distribution of the number of rolls that side needs to bear all its
checkers off, playing every roll to need the fewest rolls on average (the usual
one-sided database, as gnubg's `gnubg_os0.bd`). For the positions of all 15
checkers it also holds the distribution of the rolls needed to bear off the *first*
checker, played to need the fewest rolls on average for that: the gammon odds.

Two such distributions give the race exactly: the side on roll, needing `n` rolls,
wins when the other side needs `n` or more (`race_win_probability`), and wins a
gammon when the other side has not borne a checker off in its first `n - 1` rolls.
Each side plays its own fastest bear-off, which is what nearly every position
calls for; a side saving a gammon plays to bear one checker off first.

The tables ship as `bearoff.npz` beside this module, built by the deterministic
command `python -m hraj.games.backgammon.bearoff_build` (under a minute); each
probability is stored in units of 1/65535 as gnubg stores its own (one row per
position, its columns the number of rolls), so the odds read from it are within about
1e-4 of the exact ones; it loads in well under a second.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.moves import BAR, CHECKERS, HOME_SIZE, OFF

HomeBoard = tuple[int, ...]
"""Checkers on the home points 1..6 of one side (six counts)."""

DATA_FILE = "bearoff.npz"
#: The shipped probabilities are integers in units of 1/UNIT.
UNIT = 65535


@cache
def home_positions() -> tuple[HomeBoard, ...]:
    """Every home board of 0 to 15 checkers, by pip count (then by the counts): a
    play only ever lowers the pip count, so each position comes after all it can reach."""
    keyed: list[tuple[int, HomeBoard]] = []

    def place(point: int, left: int, counts: tuple[int, ...], pip_total: int) -> None:
        if point > HOME_SIZE:
            keyed.append((pip_total, counts))
            return
        for count in range(left + 1):
            place(point + 1, left - count, (*counts, count), pip_total + point * count)

    place(1, CHECKERS, (), 0)
    keyed.sort()
    return tuple(board for _, board in keyed)


@cache
def home_index() -> dict[HomeBoard, int]:
    """The row of each home board in the tables."""
    return {board: row for row, board in enumerate(home_positions())}


def pips(home: HomeBoard) -> int:
    """The pip count of a home board."""
    return sum((point + 1) * count for point, count in enumerate(home))


def home_board(board: Sequence[int]) -> HomeBoard | None:
    """The home board of a side's full board (26 counts, see `moves`), or None while
    any checker is still outside its home board or on the bar."""
    if any(board[HOME_SIZE + 1 : BAR + 1]):
        return None
    return tuple(board[1 : HOME_SIZE + 1])


def is_bearoff(mine: Sequence[int], theirs: Sequence[int]) -> bool:
    """Are both sides' checkers all home (or off), so the database decides the game?"""
    return home_board(mine) is not None and home_board(theirs) is not None


class BearoffDatabase:
    """The two tables: `rolls[row, n]` = P(bearing everything off takes exactly n
    rolls), `first_off[row, n]` = P(the first checker comes off on roll n); a position
    with a checker already off has `first_off` 1 at n = 0."""

    def __init__(self, rolls: NDArray[np.float64], first_off: NDArray[np.float64]) -> None:
        self.rolls = rolls
        self.first_off = first_off
        # P(needing at least n rolls) for n = 0..: 1 - P(fewer than n)
        self._at_least = 1.0 - np.concatenate([np.zeros((len(rolls), 1)), np.cumsum(rolls, axis=1)[:, :-1]], axis=1)
        self._first_at_least = 1.0 - np.concatenate(
            [np.zeros((len(first_off), 1)), np.cumsum(first_off, axis=1)[:, :-1]], axis=1
        )

    def row(self, home: HomeBoard) -> int:
        try:
            return home_index()[tuple(home)]
        except KeyError:
            raise ValueError(f"Not a home board of up to 15 checkers: {home}") from None

    def expected_rolls(self, home: HomeBoard) -> float:
        """The average number of rolls to bear off every checker."""
        distribution = self.rolls[self.row(home)]
        return float(distribution @ np.arange(len(distribution)))

    def race_win_probability(self, mine: HomeBoard, theirs: HomeBoard) -> float:
        """The chance that the side on roll (`mine`) bears off first."""
        mine_rolls = self.rolls[self.row(mine)]
        their_at_least = self._at_least[self.row(theirs)]
        # I finish on my roll n before they roll their n-th time: they need n or more
        return float(np.clip(mine_rolls @ their_at_least, 0.0, 1.0))

    def gammon_probability(self, mine: HomeBoard, theirs: HomeBoard) -> float:
        """The chance that the side on roll bears off all before the other side bears
        off one (0 once they have a checker off)."""
        if sum(theirs) < CHECKERS:
            return 0.0
        mine_rolls = self.rolls[self.row(mine)]
        # they had n - 1 rolls when I finish on my n-th: none off means first_off >= n
        their_first_at_least = self._first_at_least[self.row(theirs)]
        return float(np.clip(mine_rolls @ their_first_at_least, 0.0, 1.0))

    def gammon_loss_probability(self, mine: HomeBoard, theirs: HomeBoard) -> float:
        """The chance that the side on roll is gammoned: the other side, rolling second,
        bears off all before the side on roll bears off one."""
        if sum(mine) < CHECKERS:
            return 0.0
        their_rolls = self.rolls[self.row(theirs)]
        # they finish on their n-th roll, after my n rolls: my first checker needs n + 1
        my_first_at_least = self._first_at_least[self.row(mine)]
        return float(np.clip(their_rolls[:-1] @ my_first_at_least[1:], 0.0, 1.0))

    def batch(self, mine_rows: NDArray[np.intp], their_rows: NDArray[np.intp]) -> NDArray[np.float64]:
        """`probabilities` for many pairs of rows at once (n, 5)."""
        mine_rolls, their_rolls = self.rolls[mine_rows], self.rolls[their_rows]
        result = np.zeros((len(mine_rows), 5))
        result[:, 0] = np.einsum("ij,ij->i", mine_rolls, self._at_least[their_rows])
        their_full = self._first_at_least[their_rows, 0] == 1.0  # no checker off yet
        mine_full = self._first_at_least[mine_rows, 0] == 1.0
        gammon = np.einsum("ij,ij->i", mine_rolls, self._first_at_least[their_rows])
        result[:, 1] = np.where(their_full, gammon, 0.0)
        lost = np.einsum("ij,ij->i", their_rolls[:, :-1], self._first_at_least[mine_rows, 1:])
        result[:, 3] = np.where(mine_full, lost, 0.0)
        return np.clip(result, 0.0, 1.0)

    def probabilities(self, mine: HomeBoard, theirs: HomeBoard) -> tuple[float, float, float, float, float]:
        """gnubg's five outputs for the side on roll: win, gammon win, backgammon win,
        gammon loss, backgammon loss (no backgammons: nobody is in the other's home)."""
        return (
            self.race_win_probability(mine, theirs),
            self.gammon_probability(mine, theirs),
            0.0,
            self.gammon_loss_probability(mine, theirs),
            0.0,
        )


@cache
def database() -> BearoffDatabase:
    """The shipped database, loaded once."""
    with resources.files("hraj.games.backgammon").joinpath(DATA_FILE).open("rb") as handle:
        data = np.load(handle)
        rolls = _from_units(data["rolls"])
        first_off = _from_units(data["first_off"])
    if rolls.shape[0] != len(home_positions()) or first_off.shape[0] != len(home_positions()):
        raise ValueError(f"{DATA_FILE} does not hold one row per home board; rebuild it.")
    return BearoffDatabase(rolls, first_off)


_DIGITS = 16 ** np.arange(HOME_SIZE, dtype=np.int64)


@cache
def _sorted_keys() -> tuple[NDArray[np.int64], NDArray[np.intp]]:
    """Each home board as one integer (a hex digit per point), sorted, with its row."""
    keys = np.array(home_positions(), dtype=np.int64) @ _DIGITS
    order = np.argsort(keys)
    return keys[order], order.astype(np.intp)


def home_rows(boards: NDArray[np.int8]) -> NDArray[np.intp]:
    """The database rows of home boards (n, 6: points 1..6)."""
    keys, rows = _sorted_keys()
    return np.asarray(rows[np.searchsorted(keys, boards.astype(np.int64) @ _DIGITS)])


def batch_bearoff(positions: NDArray[np.int8]) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """For positions (n, 52, the side on roll first): which are bear-offs (both sides
    home, the game not over) and their five outputs (m, 5) for the side on roll."""
    side = BAR + 1
    mine, theirs = positions[:, :side], positions[:, side:]
    home = ~(mine[:, HOME_SIZE + 1 :] > 0).any(axis=1) & ~(theirs[:, HOME_SIZE + 1 :] > 0).any(axis=1)
    home &= (mine[:, OFF] < CHECKERS) & (theirs[:, OFF] < CHECKERS)
    if not home.any():
        return home, np.zeros((0, 5))
    found = database().batch(home_rows(mine[home, 1 : HOME_SIZE + 1]), home_rows(theirs[home, 1 : HOME_SIZE + 1]))
    return home, found


def _from_units(units: NDArray[np.uint16]) -> NDArray[np.float64]:
    """Probabilities back from their 1/65535 units, each row scaled to sum to 1 so
    that the rounding does not bias the odds."""
    table = units.astype(np.float64)
    normalised: NDArray[np.float64] = table / table.sum(axis=1, keepdims=True)
    return normalised


def bearoff_probabilities(
    mine: Sequence[int], theirs: Sequence[int]
) -> tuple[float, float, float, float, float] | None:
    """The five outputs of a bear-off position for the side on roll, or None if either
    side still has a checker outside its home board. Full boards as in `moves`."""
    mine_home, their_home = home_board(mine), home_board(theirs)
    if mine_home is None or their_home is None:
        return None
    if mine[OFF] == CHECKERS:
        return (1.0, 0.0, 0.0, 0.0, 0.0)
    if theirs[OFF] == CHECKERS:
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    return database().probabilities(mine_home, their_home)
