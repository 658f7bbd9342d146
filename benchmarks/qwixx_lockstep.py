"""Qwixx games in lockstep: thousands of games of greedy and master seats at once, in NumPy.

The rules engine plays one game at a time in Python, about 13 ms for a two-player game of
master against greedy. This module plays the same games as arrays, every game of a batch
taking its turn at once, in well under a millisecond a game. That makes two
measurements possible that the engine cannot afford (`benchmarks/qwixx_headroom.py`,
which also times both): sweeps of master's estimate over 20,000 games each, and the
chance of winning after every option of a decision, from thousands of games played on
from it.

It follows hraj's rules (`docs/rules/qwixx.md`) and the two bots exactly:

- a turn: every seat answers the white sum at once, the crosses are made together, a
  second locked row ends the game before the colour step; then the active seat's colour
  step, and its penalty if it crossed nothing; a fourth penalty ends the game;
- `greedy` as `GreedyQwixxBot`: the same row values, thresholds and end-of-game rule;
- `master` as `MasterQwixxBot.leaf` with its default settings (no search): each option
  valued by the estimated chance of winning from every sheet, the colour step planned
  with the white sum on the active seat's turn.

`tests/benchmarks/test_qwixx_lockstep.py` checks, on positions of seeded games of the
engine, that both bots choose here what the engine's bots choose. `Leaf` holds master's
settings and the variations of its estimate the sweep measures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hraj.games.qwixx import solo_table as table
from hraj.games.qwixx.bots import SUM_WEIGHT, GreedyQwixxBot
from hraj.games.qwixx.rules import (
    CROSSES_TO_LOCK,
    LAST,
    MAX_PENALTIES,
    PENALTY_POINTS,
    ROWS_LOCKED_TO_END,
    QwixxState,
)
from hraj.games.qwixx.table_bots import MasterQwixxBot

#: A NumPy array; shapes are given where each is made or taken.
Array = Any

#: Points of a row by its crosses (a lock counts one more); long enough for any index.
ROW_POINTS = np.array([c * (c + 1) // 2 for c in range(40)], dtype=np.int64)
#: Greedy's worth of the numbers still open from a position on (the same in every row).
OPEN = np.array([sum(SUM_WEIGHT[2 + i] for i in range(start, LAST + 1)) for start in range(LAST + 2)])
#: Row-state index of the table by (last crossed position + 1, crosses).
ROW_STATE = np.zeros((LAST + 2, 13), dtype=np.int64)
for (_last, _crossed), _index in table.ROW_INDEX.items():
    ROW_STATE[_last + 1, _crossed] = _index
#: A row another seat locked is valued as the table's locked row with the fewest crosses.
FROZEN = table.ROW_INDEX[(LAST, 6)]
FROZEN_POINTS = int(table.ROW_POINTS[FROZEN])
#: The colour options of a roll: row, and which white die (0, 1) joins its coloured die.
COLOUR_ROWS = np.array([0, 0, 1, 1, 2, 2, 3, 3])
COLOUR_WHITE = np.array([0, 1, 0, 1, 0, 1, 0, 1])
NOT_CHOSEN = -np.inf


def erfc(x: Array) -> Array:
    """The complementary error function, vectorised (relative error below 1.2e-7).

    The rational approximation of Numerical Recipes (`erfcc`); NumPy has no erfc of its own."""
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -z * z - 1.26551223
    coefficients = (1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223)
    inner: Array = np.full_like(t, 0.17087277)
    for c in reversed(coefficients):
        inner = c + t * inner
    result = t * np.exp(poly + t * inner)
    return np.where(x >= 0, result, 2.0 - result)


def four(a: Array) -> Array:
    """Sum over the last axis of length 4 (faster than `sum(axis=-1)` on short rows)."""
    return a[..., 0] + a[..., 1] + a[..., 2] + a[..., 3]


def rows_end(locked: Array) -> Array:
    """Whether enough rows are locked [..., 4] to end the game."""
    return four(locked.astype(np.int64)) >= ROWS_LOCKED_TO_END


def row_scores(last: Array, crossed: Array) -> Array:
    """Points of rows from their last position and crossed numbers (a lock adds one)."""
    return ROW_POINTS[crossed + (last == LAST)]


def sheet_scores(last: Array, crossed: Array, penalties: Array) -> Array:
    return four(row_scores(last, crossed)) - PENALTY_POINTS * penalties


class Table:
    """A solo-table file (`solo_table.SoloTable`) read for arrays of sheets at once."""

    def __init__(self, source: table.SoloTable) -> None:
        self.values = source.quantised.astype(np.float64) * table.STEP + table.LOW

    def value(self, rows: Array, penalties: Array, points: Array) -> Array:
        """Expected final scores of sheets: row states [M, 4], penalties [M], row points [M]."""
        a = table.PAIR_INDEX[rows[:, 0], rows[:, 1]]
        b = table.PAIR_INDEX[rows[:, 2], rows[:, 3]]
        low, high = np.minimum(a, b), np.maximum(a, b)
        flat = low * table.N_PAIRS - low * (low - 1) // 2 + (high - low)
        locks = table.ROW_LOCKED[rows]
        ended = (penalties >= MAX_PENALTIES) | rows_end(locks)
        looked = self.values[np.minimum(penalties, 3), np.where(ended, 0, flat)]
        return np.where(ended, points - PENALTY_POINTS * penalties, looked)

    def estimate(self, last: Array, crossed: Array, penalties: Array, locked: Array) -> tuple[Array, Array]:
        """(score now, table value) of sheets [M, 4], rows in `locked` [M, 4] frozen unless their own."""
        frozen = locked & (last != LAST)
        rows = np.where(frozen, FROZEN, ROW_STATE[last + 1, np.minimum(crossed, 12)])
        points = row_scores(last, crossed)
        total = four(points)
        extra = four(np.where(frozen, points - FROZEN_POINTS, 0))
        now = total - PENALTY_POINTS * penalties
        return now, self.value(rows, penalties, total - extra) + extra


@dataclass(frozen=True)
class Leaf:
    """Master's estimate, and variations of it measured by the sweep (zero: none).

    `share` and `spread` default to the bot's; `other_share` credits the other seats' gains
    differently; `lock` adds points per own lock, `penalty` subtracts points per penalty;
    `lead` weighs the difference of the scores now; `locked_end` and `threat_end` cut the
    credited share per locked row and per row another seat could lock now."""

    share: float | None = None
    other_share: float | None = None
    spread: float = MasterQwixxBot.spread
    lock: float = 0.0
    penalty: float = 0.0
    lead: float = 0.0
    locked_end: float = 0.0
    threat_end: float = 0.0

    def shares(self, players: int) -> tuple[float, float]:
        own = self.share
        if own is None:
            own = MasterQwixxBot.share if players == 2 else MasterQwixxBot.crowd_share
        return own, own if self.other_share is None else self.other_share


@dataclass
class Games:
    """A batch of games at the start of a turn: per game, per seat, per row."""

    last: Array  # [N, P, 4] last crossed position, -1 for none, 10 for an own lock
    crossed: Array  # [N, P, 4] crossed numbers (the lock's number included)
    penalties: Array  # [N, P]
    locked: Array  # [N, 4] rows locked for everyone
    done: Array = field(init=False)  # [N] games that have ended

    def __post_init__(self) -> None:
        self.done = rows_end(self.locked) | (self.penalties >= MAX_PENALTIES).any(axis=1)

    @classmethod
    def of(cls, state: QwixxState, count: int) -> Games:
        """`count` copies of the sheets of `state`."""
        players = state.players
        last = np.array([[m.bit_length() - 1 for m in state.marks[s]] for s in range(players)], dtype=np.int64)
        crossed = np.array([[m.bit_count() for m in state.marks[s]] for s in range(players)], dtype=np.int64)
        return cls(
            np.tile(last, (count, 1, 1)),
            np.tile(crossed, (count, 1, 1)),
            np.tile(np.array(state.penalties, dtype=np.int64), (count, 1)),
            np.tile(np.array(state.locked, dtype=bool), (count, 1)),
        )

    @classmethod
    def concatenate(cls, batches: list[Games]) -> Games:
        return cls(
            np.concatenate([b.last for b in batches]),
            np.concatenate([b.crossed for b in batches]),
            np.concatenate([b.penalties for b in batches]),
            np.concatenate([b.locked for b in batches]),
        )

    def scores(self) -> Array:
        return sheet_scores(self.last, self.crossed, self.penalties)


@dataclass
class Roll:
    """One roll per game: white dice [N, 2] and coloured dice [N, 4]."""

    white: Array
    colours: Array

    def white_positions(self) -> Array:
        """[N, 4]: where the white sum lies in each row."""
        total = self.white[:, 0] + self.white[:, 1]
        return np.stack([total - 2, total - 2, 12 - total, 12 - total], axis=1)

    def colour_positions(self) -> Array:
        """[N, 8]: where each colour option (COLOUR_ROWS, COLOUR_WHITE) lies in its row."""
        totals = self.white[:, COLOUR_WHITE] + self.colours[:, COLOUR_ROWS]
        return np.where(COLOUR_ROWS < 2, totals - 2, 12 - totals)


def may_cross(last: Array, crossed: Array, locked: Array, position: Array) -> Array:
    """The marking rule, elementwise: an open row, right of every cross, 5 crosses before the last."""
    return ~locked & (position > last) & ((position != LAST) | (crossed >= CROSSES_TO_LOCK))


class Lockstep:
    """Plays batches of games to their end, each seat `greedy` or `master`."""

    def __init__(self, seats: str | list[str], tables: Table, leaf: Leaf | None = None) -> None:
        self.kinds = [{"g": "greedy", "m": "master"}.get(kind, kind) for kind in seats]
        self.players = len(self.kinds)
        self.table = tables
        self.leaf = leaf or Leaf()
        self.share, self.other_share = self.leaf.shares(self.players)

    # -- greedy ------------------------------------------------------------------------

    def greedy_gains(self, games: Games, seat: int, rows: Array, positions: Array) -> Array:
        """[N, K]: greedy's gain for crossing `positions[:, k]` in row `rows[k]`."""
        last = games.last[:, seat][:, rows]
        crosses = games.crossed[:, seat][:, rows]
        before = ROW_POINTS[crosses] + GreedyQwixxBot.open_weight * (crosses + 1) * OPEN[last + 1]
        locks = positions == LAST
        start = np.clip(positions + 1, 0, LAST + 1)
        after = ROW_POINTS[crosses + 1 + locks] + np.where(
            locks, 0.0, GreedyQwixxBot.open_weight * (crosses + 2) * OPEN[start]
        )
        gain = after - before
        second = locks & (four(games.locked.astype(np.int64))[:, None] + 1 >= ROWS_LOCKED_TO_END)
        if second.any():
            scores = games.scores()
            mine = scores[:, seat][:, None] + ROW_POINTS[crosses + 2] - ROW_POINTS[crosses]
            others = np.delete(scores, seat, axis=1).max(axis=1)[:, None]
            gain = gain + np.where(second, np.where(mine > others, 100.0, -100.0), 0.0)
        return gain

    def greedy_pick(self, gains: Array, legal: Array, threshold: Array | float) -> Array:
        """The first best legal option whose gain beats `threshold`, or -1."""
        gains = np.where(legal, gains, NOT_CHOSEN)
        best = gains.argmax(axis=1)
        return np.where(gains[np.arange(len(best)), best] > threshold, best, -1)

    # -- master ------------------------------------------------------------------------

    def master_values(self, games: Games, seat: int, last: Array, crossed: Array, penalties: Array, of: Array) -> Array:
        """Master's leaf for candidate sheets [M, 4] of `seat`, each in game `of[m]`: its
        chance of winning, plus a tie-break by the estimated margin far below any chance step."""
        leaf = self.leaf
        others = [s for s in range(self.players) if s != seat]
        locked = games.locked[of]
        own_lock = last == LAST
        locked_after = locked | own_lock
        locked_count = four(locked_after.astype(np.int64))
        cut = 1.0
        if leaf.locked_end or leaf.threat_end:
            threats = (games.crossed[:, others] >= CROSSES_TO_LOCK) & ~games.locked[:, None, :]
            threat = four(threats.astype(np.int64)).max(axis=1)[of]
            cut = np.clip(1.0 - leaf.locked_end * locked_count - leaf.threat_end * threat, 0.1, 2.0)
        # The others' sheets change only where the option locks a row (it freezes theirs).
        now_all, value_all = [], []
        for other in others:
            now, value = self.table.estimate(
                games.last[:, other], games.crossed[:, other], games.penalties[:, other], games.locked
            )
            now_all.append(now[of])
            value_all.append(value[of])
        newly = np.nonzero((locked_after != locked).any(axis=1))[0]
        if len(newly):
            where = of[newly]
            for j, other in enumerate(others):
                now, value = self.table.estimate(
                    games.last[where, other],
                    games.crossed[where, other],
                    games.penalties[where, other],
                    locked_after[newly],
                )
                now_all[j][newly], value_all[j][newly] = now, value
        mine_now, mine_value = self.table.estimate(last, crossed, penalties, locked_after)
        mine = mine_now + self.share * cut * (mine_value - mine_now)
        if leaf.lock:
            mine = mine + leaf.lock * four(own_lock.astype(np.int64))
        if leaf.penalty:
            mine = mine - leaf.penalty * penalties
        chance = np.ones(len(of))
        margin = np.full(len(of), np.inf)
        for now, value in zip(now_all, value_all, strict=True):
            theirs = now + self.other_share * cut * (value - now)
            room = np.maximum(mine - mine_now, 0) + np.maximum(theirs - now, 0)
            difference = mine - theirs + leaf.lead * (mine_now - now)
            chance = chance * 0.5 * erfc(-difference / (leaf.spread * np.sqrt(room + 1.0) * math.sqrt(2)))
            margin = np.minimum(margin, difference)
        ended = (locked_count >= ROWS_LOCKED_TO_END) | (penalties >= MAX_PENALTIES)
        if ended.any():
            best = np.max(np.stack(now_all, axis=1), axis=1)
            ties = sum((now == best).astype(np.int64) for now in now_all)
            exact = np.where(mine_now > best, 1.0, np.where(mine_now < best, 0.0, 1.0 / (1 + ties)))
            chance = np.where(ended, exact, chance)
            margin = np.where(ended, mine_now - best, margin)
        return chance + 1e-9 * np.tanh(margin / 50.0)

    def master_best(
        self, games: Games, seat: int, last: Array, crossed: Array, penalties: Array, legal: Array
    ) -> Array:
        """[K, N] candidate sheets ([K, N, 4] rows) valued by the leaf where `legal`, else -inf."""
        options, count = legal.shape
        kept, of = np.nonzero(legal)
        values = np.full((options, count), NOT_CHOSEN)
        if len(kept):
            values[kept, of] = self.master_values(
                games, seat, last[kept, of], crossed[kept, of], penalties[kept, of], of
            )
        return values

    def master_white(self, games: Games, seat: int, active: int, roll: Roll, legal: Array) -> Array:
        """Master's answer to the white sum: the row crossed, or -1. On its own turn a white
        option is worth the best colour step that can follow it."""
        count = len(legal)
        positions = roll.white_positions()
        last0, crossed0 = games.last[:, seat], games.crossed[:, seat]
        last = np.repeat(last0[None], 5, axis=0)
        crossed = np.repeat(crossed0[None], 5, axis=0)
        for row in range(4):
            last[row + 1, :, row] = np.where(legal[:, row], positions[:, row], last0[:, row])
            crossed[row + 1, :, row] += 1
        white_legal = np.concatenate([np.ones((1, count), bool), legal.T])
        penalties = np.repeat(games.penalties[None, :, seat], 5, axis=0)
        if seat != active:
            return self.master_best(games, seat, last, crossed, penalties, white_legal).argmax(axis=0) - 1
        # Own turn: 5 white choices x (no colour cross, 8 colour options).
        colour = roll.colour_positions()
        locks_now = games.locked[None] | (last == LAST)
        over = rows_end(locks_now)
        plan_last = np.repeat(last[:, None], 9, axis=1)
        plan_crossed = np.repeat(crossed[:, None], 9, axis=1)
        plan_penalties = np.repeat(penalties[:, None], 9, axis=1)
        plan_legal = np.zeros((5, 9, count), bool)
        plan_legal[:, 0] = white_legal
        # Crossing nothing at all costs a penalty, unless the white step already ended the game.
        plan_penalties[0, 0] = np.where(over[0], penalties[0], penalties[0] + 1)
        for option in range(8):
            row = COLOUR_ROWS[option]
            position = colour[:, option][None]
            allowed = (
                white_legal & ~over & may_cross(last[:, :, row], crossed[:, :, row], locks_now[:, :, row], position)
            )
            plan_legal[:, option + 1] = allowed
            plan_last[:, option + 1, :, row] = np.where(allowed, position, last[:, :, row])
            plan_crossed[:, option + 1, :, row] += 1
        values = self.master_best(
            games,
            seat,
            plan_last.reshape(45, count, 4),
            plan_crossed.reshape(45, count, 4),
            plan_penalties.reshape(45, count),
            plan_legal.reshape(45, count),
        ).reshape(5, 9, count)
        return values.max(axis=1).argmax(axis=0) - 1

    def master_colour(self, games: Games, seat: int, positions: Array, legal: Array, crossed_white: Array) -> Array:
        """Master's colour step: the option (index into COLOUR_ROWS) taken, or -1."""
        count = len(legal)
        last = np.repeat(games.last[None, :, seat], 9, axis=0)
        crossed = np.repeat(games.crossed[None, :, seat], 9, axis=0)
        penalties = np.repeat(games.penalties[None, :, seat], 9, axis=0)
        penalties[0] = games.penalties[:, seat] + ~crossed_white
        for option in range(8):
            row = COLOUR_ROWS[option]
            last[option + 1, :, row] = np.where(legal[:, option], positions[:, option], last[option + 1, :, row])
            crossed[option + 1, :, row] += 1
        options_legal = np.concatenate([np.ones((1, count), bool), legal.T])
        return self.master_best(games, seat, last, crossed, penalties, options_legal).argmax(axis=0) - 1

    # -- a turn ------------------------------------------------------------------------

    def white_answers(self, games: Games, active: int, roll: Roll) -> Array:
        """[N, P]: the row each seat crosses the white sum in, or -1 (games that ended: -1)."""
        positions = roll.white_positions()
        answers = np.full((len(positions), self.players), -1)
        for seat, kind in enumerate(self.kinds):
            legal = (
                may_cross(games.last[:, seat], games.crossed[:, seat], games.locked, positions) & ~games.done[:, None]
            )
            if kind == "greedy":
                gains = self.greedy_gains(games, seat, np.arange(4), positions)
                answers[:, seat] = self.greedy_pick(gains, legal, GreedyQwixxBot.margin)
            else:
                answers[:, seat] = self.master_white(games, seat, active, roll, legal)
        return answers

    def colour_answer(self, games: Games, active: int, roll: Roll, crossed_white: Array) -> Array:
        """[N]: the colour option the active seat takes, or -1."""
        positions = roll.colour_positions()
        rows = COLOUR_ROWS
        legal = (
            may_cross(
                games.last[:, active][:, rows], games.crossed[:, active][:, rows], games.locked[:, rows], positions
            )
            & ~games.done[:, None]
        )
        if self.kinds[active] == "greedy":
            gains = self.greedy_gains(games, active, rows, positions)
            return self.greedy_pick(
                gains, legal, np.where(crossed_white, GreedyQwixxBot.margin, -float(PENALTY_POINTS))
            )
        return self.master_colour(games, active, positions, legal, crossed_white)

    def turn(self, games: Games, active: int, roll: Roll) -> None:
        """Play one turn of `active` in every game that goes on; `games` changes in place."""
        live = ~games.done
        answers = self.white_answers(games, active, roll)
        positions = roll.white_positions()
        crossed_white = answers[:, active] >= 0
        for seat in range(self.players):
            row = answers[:, seat]
            where = np.nonzero(row >= 0)[0]
            games.last[where, seat, row[where]] = positions[where, row[where]]
            games.crossed[where, seat, row[where]] += 1
        games.locked |= (games.last == LAST).any(axis=1)
        games.done |= live & rows_end(games.locked)
        choice = self.colour_answer(games, active, roll, crossed_white)
        where = np.nonzero((choice >= 0) & ~games.done)[0]
        rows = COLOUR_ROWS[choice[where]]
        games.last[where, active, rows] = roll.colour_positions()[where, choice[where]]
        games.crossed[where, active, rows] += 1
        crossed = crossed_white.copy()
        crossed[where] = True
        games.locked |= (games.last == LAST).any(axis=1)
        going = live & ~games.done
        games.penalties[:, active] += going & ~crossed
        games.done |= going & (rows_end(games.locked) | (games.penalties[:, active] >= MAX_PENALTIES))

    def play(self, games: Games, active: int, rng: np.random.Generator, blocks: int = 1) -> Array:
        """Play every game to its end from the start of `active`'s turn; the final scores [N, P].

        With `blocks` > 1 the batch is that many equal blocks that see the same dice, game
        for game (common random numbers: blocks that start from different options differ
        only by the options)."""
        count = len(games.done)
        size = count // blocks
        while not games.done.all():
            white = np.tile(rng.integers(1, 7, (size, 2)), (blocks, 1))
            colours = np.tile(rng.integers(1, 7, (size, 4)), (blocks, 1))
            self.turn(games, active, Roll(white, colours))
            active = (active + 1) % self.players
        return games.scores()


def wins(scores: Array, seat: int) -> Array:
    """Each game's win share of `seat` (ties shared) from final scores [..., P]."""
    mine = scores[..., seat]
    others = np.delete(scores, seat, axis=-1)
    best = others.max(axis=-1)
    ties = (others == best[..., None]).sum(axis=-1)
    return np.where(mine > best, 1.0, np.where(mine < best, 0.0, 1.0 / (1 + ties)))
