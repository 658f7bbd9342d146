"""Many backgammon positions moved at once: every legal play of a whole batch as arrays.

`afterstates` in `afterstates.py` serves one position: the engine's play generator finds
the plays (in Python, memoised) and NumPy applies them. Rollouts, self-play and
benchmarks play thousands of games, where that Python work per position is what costs.
Here the plays of a whole batch of positions, each with its own roll, are generated
together, one die step at a time, as array operations on every partial play of every
position at once:

- a die step: for each partial play, the mask of points a checker may leave (checkers
  on the bar enter first; the target must not be held by two or more of the opponent's
  checkers; bearing off once all are home, exactly or from the highest point), then one
  row for each legal origin, with the checker moved and any blot hit sent to the bar;
- two different dice: both orders, two steps each; plays of both dice where there are
  any, else the larger die's single steps, else the smaller's, else no play;
- a double: up to four steps with origins never increasing (which reaches every result
  once), keeping the plays with the most steps;
- plays that end in the same position are one play: each row carries an additive hash
  of its counts, updated with each step, and one sort by (position index, hash) groups
  the rows by position and drops the repeats.

Positions are arrays of 52 counts, the mover's board then the opponent's (see
`evaluator`). A test checks the result against the engine's plays in thousands of
random positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.evaluator import Evaluator, cubeless_equity, flip
from hraj.games.backgammon.features import bit_rows
from hraj.games.backgammon.moves import BAR, CHECKERS, HOME_SIZE

SIDE = BAR + 1
POSITION = 2 * SIDE
THEIR_BAR = 2 * SIDE - 1
"""The opponent's bar in a position array."""
_HASH = np.random.default_rng(20240531).integers(0, 2**63, POSITION, dtype=np.uint64) | np.uint64(1)
"""Random odd weights: a position's hash is the sum of count x weight (mod 2**64)."""
_SOURCE_BITS = np.uint64(24)
_SOURCE_SHIFT = np.uint64(64 - 24)
"""Rows sort by one key: the index of their position (up to 2**24 positions) above the
hash's top 40 bits. Equal keys with different hashes (a 40-bit collision, rare among
the few hundred plays of a roll) may leave a play twice, never drop one."""

Positions = NDArray[np.int8]


def position_hash(positions: Positions) -> NDArray[np.uint64]:
    """The additive hash of each position (n,): the sum of its counts times `_HASH`."""
    return np.asarray((positions.astype(np.uint64) * _HASH).sum(axis=1, dtype=np.uint64))


@dataclass
class Frontier:
    """Partial plays: their positions, the index of the position they started from, their
    hashes and the origin of their last step (25 at the start: no limit for doubles)."""

    positions: Positions
    source: NDArray[np.intp]
    hashes: NDArray[np.uint64]
    last: NDArray[np.int8]

    def __len__(self) -> int:
        return len(self.source)

    def take(self, rows: NDArray[np.intp] | NDArray[np.bool_]) -> Frontier:
        return Frontier(self.positions[rows], self.source[rows], self.hashes[rows], self.last[rows])

    @staticmethod
    def join(parts: list[Frontier]) -> Frontier:
        return Frontier(
            np.concatenate([part.positions for part in parts]),
            np.concatenate([part.source for part in parts]),
            np.concatenate([part.hashes for part in parts]),
            np.concatenate([part.last for part in parts]),
        )


_HIGHEST = np.array([0] + [value.bit_length() - 1 for value in range(1, 1 << (HOME_SIZE + 1))], dtype=np.uint64)
"""The highest set bit of a home board's mask (bits 1-6), 0 for none."""
_BAR_BIT = np.uint64(1 << BAR)
_ONE = np.uint64(1)


def origin_bits(positions: Positions, dice: NDArray[np.int64]) -> NDArray[np.uint64]:
    """For each position, the mask of the mover's points (bit p for point p, bit 25 the
    bar) from which one checker may move by the row's die now: `moves._origins` for a
    whole batch."""
    occupied = bit_rows(positions[:, :SIDE] > 0) & ~_ONE
    blocked = bit_rows(positions[:, THEIR_BAR - 1 : SIDE : -1] >= 2) << _ONE  # their count on my points 1..24
    die = dice.astype(np.uint64)
    reachable = ~(blocked << die) & ~((np.uint64(2) << die) - _ONE)  # target a point 1..24, not blocked
    legal = occupied & reachable
    on_bar = (occupied & _BAR_BIT) != 0
    legal[on_bar] &= _BAR_BIT
    home = (occupied >> np.uint64(HOME_SIZE + 1)) == 0
    if home.any():
        # bear off: exactly, or from the highest point when the die is larger than it
        occupied_home, die_home = occupied[home], die[home]
        top = _HIGHEST[occupied_home]
        extra = occupied_home & (_ONE << die_home)
        extra |= np.where((top > 0) & (top < die_home), _ONE << top, np.uint64(0))
        legal[home] |= extra
    return legal


def legal_origins(positions: Positions, dice: NDArray[np.int64]) -> NDArray[np.bool_]:
    """(n, 26): True at each index of the mover's board (1-24 points, 25 the bar) from
    which one checker may move by the row's die now."""
    return _flags(origin_bits(positions, dice))


def _flags(bits: NDArray[np.uint64]) -> NDArray[np.bool_]:
    unpacked = np.unpackbits(bits.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    return unpacked[:, :SIDE].astype(np.bool_)


def step(
    frontier: Frontier, dice: NDArray[np.int64], limit: bool = False, skip: NDArray[np.uint64] | None = None
) -> Frontier:
    """Every partial play one die further: `dice` is each row's die; with `limit`, no
    origin above the row's last one (a double's steps in order); `skip` (a mask per
    source position) leaves out origins that are known to add nothing new."""
    legal = origin_bits(frontier.positions, dice)
    if limit:
        legal &= (np.uint64(2) << frontier.last.astype(np.uint64)) - _ONE
    if skip is not None:
        legal &= ~skip[frontier.source]
    rows, origins = np.nonzero(_flags(legal))
    targets = np.maximum(origins - dice[rows], 0)
    after = frontier.positions[rows]
    index = np.arange(len(rows))
    after[index, origins] -= 1
    after[index, targets] += 1
    hashes = frontier.hashes[rows] + _HASH[targets] - _HASH[origins]
    blot = THEIR_BAR - targets  # the opponent's count on the target point
    hit = (targets > 0) & (after[index, np.minimum(blot, THEIR_BAR)] == 1)
    hit_rows, hit_columns = index[hit], blot[hit]
    after[hit_rows, hit_columns] = 0
    after[hit_rows, THEIR_BAR] += 1
    hashes[hit] += _HASH[THEIR_BAR] - _HASH[hit_columns]
    return Frontier(after, frontier.source[rows], hashes, origins.astype(np.int8))


@dataclass
class Afterstates:
    """The positions after every legal play of a batch (mover first, not swapped), grouped
    by the position they came from (`before`): rows `starts[i]:starts[i + 1]` belong to
    position i, which has at least one row (its own position when it cannot move)."""

    positions: Positions
    source: NDArray[np.intp]
    starts: NDArray[np.intp]
    before: Positions

    def counts(self) -> NDArray[np.intp]:
        return np.diff(self.starts)

    def subset(self, sources: NDArray[np.intp]) -> tuple[Afterstates, NDArray[np.intp]]:
        """The plays of some of the positions (`sources`, increasing), as a batch of their
        own, and each of its rows' row here."""
        rows = np.flatnonzero(np.isin(self.source, sources))
        source = np.searchsorted(sources, self.source[rows])
        starts = np.searchsorted(source, np.arange(len(sources) + 1))
        return Afterstates(self.positions[rows], source, starts, self.before[sources]), rows


def _distinct(found: Frontier, before: Positions) -> Afterstates:
    """One row per distinct position of each source, grouped by source."""
    keys = (found.source.astype(np.uint64) << _SOURCE_SHIFT) | (found.hashes >> _SOURCE_BITS)
    order = np.argsort(keys)
    keys, hashes = keys[order], found.hashes[order]
    keep = np.ones(len(order), dtype=np.bool_)
    keep[1:] = (keys[1:] != keys[:-1]) | (hashes[1:] != hashes[:-1])
    chosen = order[keep]
    source = found.source[chosen]
    starts = np.searchsorted(source, np.arange(len(before) + 1))
    return Afterstates(found.positions[chosen], source, starts, before)


def _deepest(levels: list[Frontier], count: int) -> Frontier:
    """From frontiers after 0, 1, ... steps, each source's rows of its deepest level."""
    depth = np.zeros(count, dtype=np.intp)
    for level, frontier in enumerate(levels):
        depth[frontier.source] = level
    return Frontier.join([frontier.take(depth[frontier.source] == level) for level, frontier in enumerate(levels)])


def batch_afterstates(positions: Positions, dice: NDArray[np.int64]) -> Afterstates:
    """Every legal play's resulting position for each of `positions` (n, 52) with its roll
    `dice` (n, 2), one row per distinct result (see the module's text)."""
    count = len(positions)
    positions = np.ascontiguousarray(positions, dtype=np.int8)
    start = Frontier(positions, np.arange(count), position_hash(positions), np.full(count, BAR, dtype=np.int8))
    high, low = dice.max(axis=1), dice.min(axis=1)
    double = high == low
    parts: list[Frontier] = []
    if double.any():
        levels = [start.take(double)]
        while len(levels) < 5 and len(levels[-1]):
            last = levels[-1]
            levels.append(step(last, high[last.source], limit=True))
        parts.append(_deepest(levels, count))
    if (~double).any():
        plain = start.take(~double)
        high_now = np.zeros(count, dtype=np.uint64)
        high_now[plain.source] = origin_bits(plain.positions, high[plain.source])
        high_first = step(plain, high[plain.source])
        low_first = step(plain, low[plain.source])
        # the smaller die first, then the larger from a point it could leave at once: the
        # larger die first reaches the same position (no block appears, the all-home and
        # highest-point conditions only get easier), so only the other origins are new
        both = Frontier.join(
            [step(high_first, low[high_first.source]), step(low_first, high[low_first.source], skip=high_now)]
        )
        # one die only when no play uses both: the larger where it can be played
        single = Frontier.join([low_first.take(~np.isin(low_first.source, high_first.source)), high_first])
        parts.append(_deepest([plain, single, both], count))
    return _distinct(Frontier.join(parts), positions)


def finished(positions: Positions) -> NDArray[np.bool_]:
    """Has the mover borne off all its checkers (after its play)?"""
    return np.asarray(positions[:, 0] == CHECKERS)


# --- games in lockstep ------------------------------------------------------------------------

Policy = Callable[[Afterstates], NDArray[np.intp]]
"""Chooses a play for every position of a batch: the row of `Afterstates.positions` (one per
position, in order)."""


def best_of_segments(values: NDArray[np.float64], afterstates: Afterstates) -> NDArray[np.intp]:
    """For each position, the row of its play with the highest value (the first on ties)."""
    best = np.maximum.reduceat(values, afterstates.starts[:-1])
    rows = np.flatnonzero(values == best[afterstates.source])
    first = np.ones(len(rows), dtype=np.bool_)
    first[1:] = afterstates.source[rows[1:]] != afterstates.source[rows[:-1]]
    return rows[first]


def random_policy(rng: np.random.Generator) -> Policy:
    """Uniformly one of the distinct plays of each position."""

    def choose(afterstates: Afterstates) -> NDArray[np.intp]:
        counts = afterstates.counts()
        return afterstates.starts[:-1] + (rng.random(len(counts)) * counts).astype(np.intp)

    return choose


def net_policy(net: Evaluator) -> Policy:
    """The play whose position the evaluator likes best for the mover (0-ply): the whole
    batch's positions after a play, seen by the other side on roll, scored at once."""

    def choose(afterstates: Afterstates) -> NDArray[np.intp]:
        return best_of_segments(-cubeless_equity(net.probabilities(swap(afterstates.positions))), afterstates)

    return choose


class Dice:
    """The rolls of many games by turn, drawn in blocks as they are needed. Games that
    share a `trial` number share their rolls (duplicate dice, or the same dice for every
    candidate of a rollout); `fixed` gives the first rolls of each trial instead."""

    BLOCK = 64

    def __init__(self, trials: int, rng: np.random.Generator, fixed: NDArray[np.int64] | None = None) -> None:
        self.trials = trials
        self.rng = rng
        self.rolls = np.zeros((trials, 0, 2), dtype=np.int64) if fixed is None else fixed.astype(np.int64)

    def roll(self, turn: int, trials: NDArray[np.intp]) -> NDArray[np.int64]:
        while turn >= self.rolls.shape[1]:
            block = self.rng.integers(1, 7, (self.trials, self.BLOCK, 2))
            self.rolls = np.concatenate([self.rolls, block], axis=1)
        return np.asarray(self.rolls[trials, turn])


def opening_rolls(count: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """`count` opening rolls (count, 2): two different dice, each pair equally likely."""
    first = rng.integers(1, 7, count)
    second = rng.integers(1, 6, count)
    second += second >= first
    return np.stack([first, second], axis=1)


def game_points(finished_positions: Positions) -> NDArray[np.float64]:
    """Points the mover wins with its last checker off: 1, 2 for a gammon (the other side
    has none off), 3 for a backgammon (and a checker on the bar or in the mover's home)."""
    return np.asarray(_outcomes(finished_positions)[:, :3].sum(axis=1))


def _outcomes(finished_positions: Positions) -> NDArray[np.float64]:
    """The mover's five outcomes (won, gammon, backgammon, 0, 0) once it is off."""
    theirs = finished_positions[:, SIDE:]
    gammon = theirs[:, 0] == 0
    backgammon = gammon & (theirs[:, BAR - HOME_SIZE : BAR + 1] > 0).any(axis=1)
    outcomes = np.zeros((len(finished_positions), 5))
    outcomes[:, 0], outcomes[:, 1], outcomes[:, 2] = 1.0, gammon, backgammon
    return outcomes


@dataclass
class Played:
    """How games in lockstep ended, each for the side on roll at its start: its five
    outcomes (win, gammon win, backgammon win, gammon loss, backgammon loss; chances
    where `settle` ended a game early, 0 where cut off), points won (negative: lost),
    and the turns played."""

    outcomes: NDArray[np.float64]
    turns: NDArray[np.intp]

    @property
    def points(self) -> NDArray[np.float64]:
        o = self.outcomes
        return np.asarray(2 * o[:, 0] - 1 + o[:, 1] - o[:, 3] + o[:, 2] - o[:, 4])


Settle = Callable[[Positions], tuple[NDArray[np.bool_], NDArray[np.float64]]]
"""For positions before a roll: which it can value without playing on, and their five
outcomes (m, 5) for the side on roll (e.g. exact bear-offs)."""


def _choose(after: Afterstates, policies: Sequence[Policy], who: NDArray[np.intp]) -> NDArray[np.intp]:
    """Each position's play by the policy of the side on roll there (`who`, an index of `policies`)."""
    if len(policies) == 1:
        return policies[0](after)
    chosen = np.empty(len(who), dtype=np.intp)
    for index, policy in enumerate(policies):
        sources = np.flatnonzero(who == index)
        if len(sources):
            part, rows = after.subset(sources)
            chosen[sources] = rows[policy(part)]
    return chosen


def play(
    positions: Positions,
    policy: Policy | Sequence[Policy],
    dice: Dice,
    trials: NDArray[np.intp] | None = None,
    max_turns: int = 2000,
    settle: Settle | None = None,
    seats: NDArray[np.intp] | None = None,
) -> Played:
    """Play every game from its position (side on roll first, before its roll) to the end,
    all of them a turn at a time. `trials[i]` is the dice trial game i follows (its own
    index by default). `settle`, where given, ends games early. With two policies, game
    i's side on roll at the start plays `policy[seats[i]]` and the other side the other."""
    policies = [policy] if callable(policy) else list(policy)
    count = len(positions)
    trials = np.arange(count) if trials is None else trials
    seats = np.zeros(count, dtype=np.intp) if seats is None else seats
    outcomes = np.zeros((count, 5))
    outcomes[:, 0] = 0.5  # a game cut off counts as even
    turns = np.full(count, max_turns, dtype=np.intp)
    alive = np.arange(count)
    current = np.ascontiguousarray(positions, dtype=np.int8)
    for turn in range(max_turns):
        starter = turn % 2 == 0  # the side on roll now is the one that started
        if settle is not None:
            settled, values = settle(current)
            if settled.any():
                outcomes[alive[settled]] = values if starter else flip(values)
                turns[alive[settled]] = turn
                alive, current = alive[~settled], current[~settled]
        if not len(alive):
            break
        after = batch_afterstates(current, dice.roll(turn, trials[alive]))
        chosen = after.positions[_choose(after, policies, (seats[alive] + turn) % len(policies))]
        won = finished(chosen)
        if won.any():
            mover = _outcomes(chosen[won])
            outcomes[alive[won]] = mover if starter else flip(mover)
            turns[alive[won]] = turn + 1
        alive, current = alive[~won], swap(chosen[~won])
    return Played(outcomes, turns)


def swap(positions: Positions) -> Positions:
    """The same positions seen from the other side (its board first)."""
    return np.ascontiguousarray(np.concatenate([positions[:, SIDE:], positions[:, :SIDE]], axis=1))


__all__ = [
    "Afterstates",
    "Dice",
    "Played",
    "Policy",
    "Settle",
    "batch_afterstates",
    "best_of_segments",
    "finished",
    "game_points",
    "legal_origins",
    "net_policy",
    "opening_rolls",
    "origin_bits",
    "play",
    "position_hash",
    "random_policy",
    "swap",
]
