"""Cubeless money games between two checker players, with duplicate dice: the yardstick.

Each dice sequence is played twice with the sides swapped (the same roll on the same
turn), so that luck largely cancels out and a few hundred games tell bots apart. The
games run on the fast path (`afterstates`), without the engine's state, since only
checker play is measured: no cube, no resignations, a game counts 1, 2 or 3 points.

A player is a function of the position before the roll (52 counts, its board first),
the dice, the legal plays and the positions after them; it returns the index of its play.
`lockstep_duel` plays the same games with every game in lockstep (`lockstep`), for
players that choose for a whole batch at once (`lockstep.Policy`): far faster where
the players are the nets at 0-ply or pubeval.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from hraj.games.backgammon.afterstates import afterstates, swap
from hraj.games.backgammon.bots import pubeval, pubeval_scores
from hraj.games.backgammon.evaluator import (
    OFF,
    SIDE,
    Evaluator,
    contact,
    cubeless_equity,
    flip,
    outcome_probabilities,
)
from hraj.games.backgammon.lockstep import Afterstates, Dice, Policy, best_of_segments, play
from hraj.games.backgammon.moves import CHECKERS, START, Steps, is_contact
from hraj.games.backgammon.search import rank_plays

Player = Callable[[NDArray[np.int8], tuple[int, int], tuple[Steps, ...], NDArray[np.int8]], int]
MAX_TURNS = 2000


def net_player(net: Evaluator) -> Player:
    """0-ply: the play whose position the net likes best for the mover."""

    def choose(
        position: NDArray[np.int8], dice: tuple[int, int], plays: tuple[Steps, ...], after: NDArray[np.int8]
    ) -> int:
        return int(np.argmax(cubeless_equity(flip(net.probabilities(swap(after))))))

    return choose


def search_player(net: Evaluator, plies: int) -> Player:
    """1- or 2-ply with the move filter, as the `expert` bot plays."""

    def choose(
        position: NDArray[np.int8], dice: tuple[int, int], plays: tuple[Steps, ...], after: NDArray[np.int8]
    ) -> int:
        return plays.index(rank_plays(net, position, dice, plies)[0].steps)

    return choose


def pubeval_player(
    position: NDArray[np.int8], dice: tuple[int, int], plays: tuple[Steps, ...], after: NDArray[np.int8]
) -> int:
    """Tesauro's pubeval, as the `pubeval` bot plays."""
    race = not is_contact(position[:SIDE].tolist(), position[SIDE:].tolist())
    scores = [pubeval(tuple(row[:SIDE].tolist()), tuple(row[SIDE:].tolist()), race) for row in after]
    return int(np.argmax(scores))


def play_game(first: Player, second: Player, dice: NDArray[np.int64]) -> float:
    """Points `first` wins (negative: loses) in one cubeless game; `first` moves first.
    `dice` holds the rolls by turn; the opening roll must not be a double."""
    players = (first, second)
    position = np.array((*START, *START), dtype=np.int8)
    for turn in range(MAX_TURNS):
        roll = (int(dice[turn % len(dice), 0]), int(dice[turn % len(dice), 1]))
        plays, after = afterstates(position, roll)
        index = players[turn % 2](position, roll, plays, after) if len(plays) > 1 else 0
        chosen = after[index]
        if chosen[OFF] == CHECKERS:
            probabilities = outcome_probabilities(chosen[:SIDE], chosen[SIDE:])
            points = 1.0 + float(probabilities[1] + probabilities[2])
            return points if turn % 2 == 0 else -points
        position = swap(chosen)
    return 0.0


def game_dice(seed: int) -> NDArray[np.int64]:
    """The rolls of one duplicate pair: a non-double opening roll, then random rolls."""
    rng = np.random.default_rng(seed)
    dice = rng.integers(1, 7, (400, 2))
    dice[0] = rng.choice(6, 2, replace=False) + 1
    return dice


@dataclass(frozen=True)
class DuelResult:
    """Points a game for the first player over `games` games (pairs of duplicate games)."""

    games: int
    points: float
    half_width: float

    def __str__(self) -> str:
        low, high = self.points - self.half_width, self.points + self.half_width
        return f"{self.points:+.3f} points a game [{low:+.3f}, {high:+.3f}] over {self.games} games"


def duel(player: Player, opponent: Player, pairs: int, seed: int = 0) -> DuelResult:
    """`pairs` duplicate pairs: each dice sequence once with `player` moving first, once
    with `opponent` first. The 95% interval is over the pairs (independent units)."""
    pair_points: list[float] = []
    for number in range(pairs):
        dice = game_dice(seed * 1_000_003 + number)
        pair_points.append((play_game(player, opponent, dice) - play_game(opponent, player, dice)) / 2)
    return summary(pair_points)


# --- many games at once -----------------------------------------------------------------------


def pubeval_policy(after: Afterstates) -> NDArray[np.intp]:
    """`pubeval_player` for games in lockstep (race or contact weights by the position before the play)."""
    race = ~contact(after.before)
    return best_of_segments(pubeval_scores(after.positions, race[after.source]), after)


def lockstep_duel(player: Policy, opponent: Policy, pairs: int, seed: int = 0) -> list[float]:
    """`duel` with every game in lockstep: the same dice (`game_dice`), each pair's two
    games with the sides swapped; returns `player`'s points a game in each pair."""
    rolls = np.array([game_dice(seed * 1_000_003 + number) for number in range(pairs)])
    start = np.tile(np.array((*START, *START), dtype=np.int8), (2 * pairs, 1))
    trials = np.repeat(np.arange(pairs), 2)
    seats = np.tile([0, 1], pairs)  # in a pair's first game `player` moves first, then `opponent`
    dice = Dice(pairs, np.random.default_rng(seed), rolls)
    played = play(start, (player, opponent), dice, trials, max_turns=len(rolls[0]), seats=seats)
    points = np.where(seats == 0, played.points, -played.points)
    return [float(value) for value in points.reshape(pairs, 2).mean(axis=1)]


def summary(pair_points: list[float]) -> DuelResult:
    """The points a game over the pairs, with the 95% interval over the pairs."""
    mean = statistics.fmean(pair_points)
    spread = statistics.stdev(pair_points) if len(pair_points) > 1 else math.inf
    return DuelResult(2 * len(pair_points), mean, 1.96 * spread / math.sqrt(len(pair_points)))
