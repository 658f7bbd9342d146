"""Cube decisions from the five cubeless probabilities, for money and match play.

The model is Rick Janowski's ("Take-Points in Money Games", 1993; the cubeful equity
as a mix of a dead and a live cube, as gnubg uses it at 0-ply). With `W` the average
value of a game won (1 plus the gammons and backgammons per win) and `L` that of a game
lost:

- dead cube: the cube is never turned again, the cubeless equity `p W - (1 - p) L`;
- live cube: the cube is turned at exactly the right moment, so the equity is linear
  in the chance of winning `p` between anchors: `(0, -L)`, the take point
  `TP = (L - 1/2) / (W + L + 1/2)` where the opponent's double makes it `-1` (when the
  opponent may double), the cash point `CP = (L + 1) / (W + L + 1/2)` where our double
  makes it `+1` (when we may double), and `(1, W)`;
- cubeful equity: `(1 - x) dead + x live`, with the cube efficiency `x` (0 dead, 1
  fully live): 0.68 in contact, in races `0.55 + 0.00125 * pips` within 0.6..0.7, and
  0.6 once both sides are bearing off, gnubg's default values. With `x` the take point
  for a position without gammons is `0.5 / (2 + x / 2)`: 25% dead, about 21.4% at 0.68.

Money equities are per unit of the cube in play, as gnubg prints them ("No double",
"Double, take", "Double, pass"). The Jacoby rule (money, cube centred): a game played
out counts gammons single, so the dead equity and the ends of the live line count them
single; the take and cash points keep them (once the cube is turned they count).
Beavers: a take worth more than nothing to the taker (`Double, take` below 0 for the
doubler) is beavered, and the doubler counts that twice.

Match play works in match winning chances (MWC) from the match equity table
(`match_equity`): the live line's anchors are the MWC of losing or winning the cube
at the take and cash points, which come level by level from the top cube (dead: a
player who wins the match with it may not double) down, each the fully live take point
of the level above; the mix with the dead cube uses the same `x`. Equities are reported
as MWC and as gnubg's EMG. The Crawford game has no doubling, and a player who already
wins the match by winning the cube's value has a dead cube.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.match_equity import MatchScore, emg
from hraj.games.backgammon.moves import Board, is_contact, pip_count
from hraj.games.backgammon.rules import MAX_CUBE

CONTACT_EFFICIENCY = 0.68
BEAROFF_EFFICIENCY = 0.6
RACE_EFFICIENCY_OFFSET = 0.55
RACE_EFFICIENCY_PER_PIP = 0.00125
RACE_EFFICIENCY_RANGE = (0.6, 0.7)

ProbabilityFunction = Callable[[Board, Board], Sequence[float] | NDArray[np.float64]]
"""gnubg's five outputs for the side on roll before it rolls: (mine, theirs) -> win,
gammon win, backgammon win, gammon loss, backgammon loss (each counting the next)."""


class Owner(Enum):
    """Who holds the cube, seen from the side deciding."""

    CENTRED = "centred"
    MINE = "mine"
    THEIRS = "theirs"

    def flipped(self) -> Owner:
        return {Owner.MINE: Owner.THEIRS, Owner.THEIRS: Owner.MINE}.get(self, Owner.CENTRED)


@dataclass(frozen=True)
class Outcomes:
    """gnubg's five cubeless probabilities for one side; a gammon is also a win, a
    backgammon also a gammon."""

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0

    @classmethod
    def of(cls, values: Sequence[float] | NDArray[np.float64]) -> Outcomes:
        """From a sequence of five, clipped into a consistent order (0 <= bg <= gammon <= win)."""
        if len(values) != 5:
            raise ValueError(f"Five probabilities are needed, not {len(values)}.")
        win = min(max(float(values[0]), 0.0), 1.0)
        win_gammon = min(max(float(values[1]), 0.0), win)
        lose_gammon = min(max(float(values[3]), 0.0), 1.0 - win)
        return cls(
            win,
            win_gammon,
            min(max(float(values[2]), 0.0), win_gammon),
            lose_gammon,
            min(max(float(values[4]), 0.0), lose_gammon),
        )

    def flipped(self) -> Outcomes:
        """The same chances from the other side."""
        return Outcomes(1.0 - self.win, self.lose_gammon, self.lose_backgammon, self.win_gammon, self.win_backgammon)

    def without_gammons(self) -> Outcomes:
        return Outcomes(self.win)

    @property
    def average_win(self) -> float:
        """W: points of an average game won, per cube."""
        return 1.0 + (self.win_gammon + self.win_backgammon) / self.win if self.win > 0 else 1.0

    @property
    def average_loss(self) -> float:
        """L: points of an average game lost, per cube."""
        lose = 1.0 - self.win
        return 1.0 + (self.lose_gammon + self.lose_backgammon) / lose if lose > 0 else 1.0

    @property
    def cubeless_equity(self) -> float:
        """Money points a game with the cube at 1 and dead: gnubg's cubeless equity."""
        return 2 * self.win - 1 + self.win_gammon + self.win_backgammon - self.lose_gammon - self.lose_backgammon


def cube_efficiency(mine: Board, theirs: Board) -> float:
    """gnubg's default cube efficiency of a position (see the module docstring)."""
    if is_contact(mine, theirs):
        return CONTACT_EFFICIENCY
    if not any(mine[7:]) and not any(theirs[7:]):
        return BEAROFF_EFFICIENCY
    low, high = RACE_EFFICIENCY_RANGE
    return min(max(RACE_EFFICIENCY_OFFSET + RACE_EFFICIENCY_PER_PIP * pip_count(mine), low), high)


@dataclass(frozen=True)
class CubeContext:
    """The cube as the side on roll sees it: value, owner, the money rules or the match score."""

    cube: int = 1
    owner: Owner = Owner.CENTRED
    jacoby: bool = False
    beavers: bool = False
    #: None for a money game.
    score: MatchScore | None = None
    efficiency: float = CONTACT_EFFICIENCY
    #: False for a game without the cube: equities are then cubeless (efficiency 0).
    cube_in_play: bool = True

    def flipped(self) -> CubeContext:
        score = None if self.score is None else self.score.flipped()
        return CubeContext(
            self.cube, self.owner.flipped(), self.jacoby, self.beavers, score, self.efficiency, self.cube_in_play
        )

    @property
    def may_double(self) -> bool:
        """May the side on roll offer the cube now (by the rules, not by the position)?"""
        if not self.cube_in_play or self.owner is Owner.THEIRS or self.cube >= MAX_CUBE:
            return False
        if self.score is not None:
            return not self.score.crawford and self.score.away > self.cube
        return True


@dataclass(frozen=True)
class CubeAnalysis:
    """The three cubeful equities of the side on roll and what they call for.

    Money: equity per unit of the cube in play. Match: match winning chance (MWC);
    `emg` gives them in gnubg's EMG units."""

    no_double: float
    double_take: float
    double_pass: float
    may_double: bool
    beavers: bool = False
    score: MatchScore | None = None
    cube: int = 1

    @property
    def beaver(self) -> bool:
        """Would the taker beaver (money with beavers: the take is worth more than nothing to them)?"""
        return self.beavers and self.score is None and self.double_take < 0

    @property
    def take(self) -> bool:
        """Is taking right for the opponent (no worse for them than passing)?"""
        return self.double_take <= self.double_pass

    @property
    def double_equity(self) -> float:
        """What doubling is worth: the opponent answers as best for them (a beaver doubles the take)."""
        if self.take:
            return 2 * self.double_take if self.beaver else self.double_take
        return self.double_pass

    @property
    def double(self) -> bool:
        return self.may_double and self.double_equity > self.no_double

    @property
    def too_good(self) -> bool:
        """Better to play on for more than the opponent's pass gives."""
        return self.may_double and not self.take and self.no_double > self.double_pass

    @property
    def verdict(self) -> str:
        """gnubg's wording of the proper cube action."""
        answer = "beaver" if self.beaver else "take" if self.take else "pass"
        if not self.may_double:
            return "No double available"
        if self.double:
            return f"Double, {answer}"
        if self.too_good:
            return "Too good to double, pass"
        return f"No double, {answer}"

    @property
    def emg(self) -> tuple[float, float, float]:
        """No double, double take, double pass in gnubg's EMG units (money: the equities)."""
        if self.score is None:
            return (self.no_double, self.double_take, self.double_pass)
        return tuple(emg(mwc, self.score, self.cube) for mwc in (self.no_double, self.double_take, self.double_pass))  # type: ignore[return-value]


def analyse(outcomes: Outcomes, context: CubeContext) -> CubeAnalysis:
    """The cube decision of the side on roll, whose cubeless chances are `outcomes`."""
    if context.score is None:
        return _money(outcomes, context)
    return _match(outcomes, context)


def cubeful_equity(outcomes: Outcomes, context: CubeContext) -> float:
    """The side on roll's cubeful equity without doubling now (money: per cube; match: MWC)."""
    return analyse(outcomes, context).no_double


# --- money ------------------------------------------------------------------------------


def janowski_points(outcomes: Outcomes) -> tuple[float, float]:
    """(take point, cash point) of the fully live cube, by Janowski's formulas."""
    w, lose = outcomes.average_win, outcomes.average_loss
    return (lose - 0.5) / (w + lose + 0.5), (lose + 1.0) / (w + lose + 0.5)


def _money(outcomes: Outcomes, context: CubeContext) -> CubeAnalysis:
    x = context.efficiency
    centred_jacoby = context.jacoby and context.owner is Owner.CENTRED
    no_double = _money_cubeful(outcomes, context.owner, x, single_ends=centred_jacoby)
    double_take = 2 * _money_cubeful(outcomes, Owner.THEIRS, x, single_ends=False)
    return CubeAnalysis(no_double, double_take, 1.0, context.may_double, context.beavers)


def _money_cubeful(outcomes: Outcomes, owner: Owner, x: float, *, single_ends: bool) -> float:
    p = outcomes.win
    take_point, cash_point = janowski_points(outcomes)
    ends = outcomes.without_gammons() if single_ends else outcomes
    w, lose = ends.average_win, ends.average_loss
    anchors = [(0.0, -lose), (1.0, w)]
    if owner is not Owner.MINE:
        anchors.append((take_point, -1.0))
    if owner is not Owner.THEIRS:
        anchors.append((cash_point, 1.0))
    dead = p * w - (1 - p) * lose
    return (1 - x) * dead + x * _line(anchors, p)


def _line(anchors: list[tuple[float, float]], p: float) -> float:
    """The piecewise linear function through `anchors` at `p`."""
    points = sorted(anchors)
    for (p0, e0), (p1, e1) in pairwise(points):
        if p <= p1:
            return e0 if p1 == p0 else e0 + (e1 - e0) * (p - p0) / (p1 - p0)
    return points[-1][1]


# --- match ------------------------------------------------------------------------------


def _match(outcomes: Outcomes, context: CubeContext) -> CubeAnalysis:
    score = context.score
    assert score is not None
    x, cube = context.efficiency, context.cube
    no_double = _match_cubeful(outcomes, score, cube, context.owner, x)
    double_take = _match_cubeful(outcomes, score, 2 * cube, Owner.THEIRS, x)
    double_pass = score.after(cube)
    return CubeAnalysis(no_double, double_take, double_pass, context.may_double, False, score, cube)


def _can_double(score: MatchScore, cube: int) -> bool:
    return not score.crawford and score.away > cube and cube < MAX_CUBE


Shares = tuple[float, float, float, float]
"""Gammons and backgammons as shares of wins and of losses: all a live line depends on
besides the score, so the lines of a position's cube levels are worked out once."""


def _shares(outcomes: Outcomes) -> Shares:
    win, lose = outcomes.win, 1.0 - outcomes.win
    return (
        round(outcomes.win_gammon / win, 6) if win > 0 else 0.0,
        round(outcomes.win_backgammon / win, 6) if win > 0 else 0.0,
        round(outcomes.lose_gammon / lose, 6) if lose > 0 else 0.0,
        round(outcomes.lose_backgammon / lose, 6) if lose > 0 else 0.0,
    )


def _flip(shares: Shares) -> Shares:
    return (shares[2], shares[3], shares[0], shares[1])


def _averages(shares: Shares, score: MatchScore, cube: int) -> tuple[float, float]:
    """(MWC of an average game won, of an average game lost) at this cube."""
    win_g, win_bg, lose_g, lose_bg = shares
    wins = (1 - win_g) * score.after(cube) + (win_g - win_bg) * score.after(2 * cube) + win_bg * score.after(3 * cube)
    losses = (
        (1 - lose_g) * score.after(-cube)
        + (lose_g - lose_bg) * score.after(-2 * cube)
        + lose_bg * score.after(-3 * cube)
    )
    return wins, losses


def _match_cubeful(outcomes: Outcomes, score: MatchScore, cube: int, owner: Owner, x: float) -> float:
    p = outcomes.win
    shares = _shares(outcomes)
    win_mwc, loss_mwc = _averages(shares, score, cube)
    dead = p * win_mwc + (1 - p) * loss_mwc
    return (1 - x) * dead + x * _line(list(_live_line(shares, score, cube, owner)), p)


@lru_cache(maxsize=8192)
def _live_line(shares: Shares, score: MatchScore, cube: int, owner: Owner) -> tuple[tuple[float, float], ...]:
    """The anchors of the fully live line of the side on roll at this cube and owner."""
    win_mwc, loss_mwc = _averages(shares, score, cube)
    anchors = [(0.0, loss_mwc), (1.0, win_mwc)]
    if owner is not Owner.MINE and _can_double(score.flipped(), cube):
        anchors.append((_take_point(shares, score, cube), score.after(-cube)))
    if owner is not Owner.THEIRS and _can_double(score, cube):
        anchors.append((1.0 - _take_point(_flip(shares), score.flipped(), cube), score.after(cube)))
    return tuple(sorted(anchors))


def _take_point(shares: Shares, score: MatchScore, cube: int) -> float:
    """The side's fully live take point when the other doubles `cube` to twice as much:
    where its live line after taking (owning the cube at twice the value) meets the pass."""
    pass_mwc = score.after(-cube)
    line = _live_line(shares, score, 2 * cube, Owner.MINE)
    if line[0][1] >= pass_mwc:
        return 0.0
    for (p0, e0), (p1, e1) in pairwise(line):
        if e1 >= pass_mwc:
            return p1 if e1 == e0 else p0 + (pass_mwc - e0) * (p1 - p0) / (e1 - e0)
    return 1.0
