"""Abluxxen bots: greedy against random, and the speed of random playouts.

Run `python -m benchmarks.abluxxen_bots [games per table]`. In 2- to 5-player games
one greedy bot sits against random bots, taking every seat in turn; the script prints
the greedy seat's win rate (shared wins count as wins) with a 95% Wilson interval next
to the rate of an equal seat, and the mean scores. Then greedy meets greedy bots that
lack one heuristic, to show what each adds.
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Any

import hraj
from hraj.core import Seat, State, play_game, random_playout
from hraj.core.bot import Bot, RandomBot
from hraj.games.abluxxen.bots import GreedyBot
from hraj.games.abluxxen.rules import LEAVE, TAKE, AbluxxenState, Move


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


class BlindGreedy(GreedyBot):
    """Greedy without the estimate of how exposed a new top layer is."""

    name = "greedy-blind"

    def _risk(self, state: AbluxxenState, seat: int, size: int, value: int) -> float:
        return 0.0


class GreedyNeverTakes(GreedyBot):
    """Greedy that always leaves captured cards to their victim."""

    name = "greedy-never-takes"

    def choose(self, state: State[Any, Any], seat: Seat) -> Move:
        legal = state.legal_actions(seat)
        return LEAVE if LEAVE in legal and TAKE in legal else super().choose(state, seat)


def greedy_against(others: type[Bot], players: int, games: int, variant: str = "base") -> None:
    wins = 0
    greedy_scores: list[float] = []
    other_scores: list[float] = []
    for number in range(games):
        seat = number % players
        choosers: list[Bot] = [others(number * 10 + s) for s in range(players)]
        choosers[seat] = GreedyBot(number)
        state = hraj.game("abluxxen", players=players, variant=variant, first=number % players).new_state()
        play_game(state, choosers, random.Random(number))
        outcome = state.outcome
        assert outcome is not None
        wins += seat in outcome.winners
        greedy_scores.append(outcome.scores[seat])
        other_scores.extend(score for s, score in enumerate(outcome.scores) if s != seat)
    low, high = wilson(wins, games)
    print(
        f"{players} players {variant:8} against {others.name:18}: "
        f"greedy wins {wins / games:6.1%} [{low:.1%}, {high:.1%}] "
        f"(an equal seat: {1 / players:.1%}) in {games} games; mean score greedy "
        f"{sum(greedy_scores) / games:+.1f}, others {sum(other_scores) / len(other_scores):+.1f}"
    )


def playouts_per_second(players: int, seconds: float = 3.0) -> None:
    rng = random.Random(players)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_playout(hraj.game("abluxxen", players=players).new_state(), rng)
        done += 1
    rate = done / (time.perf_counter() - start)
    print(f"{players} players: {rate:,.0f} random playouts per second (deal included)")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    for players in (3, 4, 5):
        greedy_against(RandomBot, players, games)
    greedy_against(RandomBot, 2, games)
    greedy_against(RandomBot, 4, games, "expert")
    # what the heuristics add: greedy against greedy bots lacking one of them
    greedy_against(BlindGreedy, 3, games)
    greedy_against(GreedyNeverTakes, 3, games)
    for players in (2, 3, 4, 5):
        playouts_per_second(players)


if __name__ == "__main__":
    main()
