"""Abluxxen bots: greedy against random, and the speed of random playouts.

Run `python -m benchmarks.abluxxen_bots [games per table]`. In 3-, 4- and 5-player
games one greedy bot sits against random bots, taking every seat in turn; the script
prints the greedy seat's win rate (shared wins count as wins) with a 95% Wilson
interval next to the rate a seat of a random table would have, and the mean scores.
"""

from __future__ import annotations

import math
import random
import sys
import time

import hraj
from hraj.bots.base import Bot, RandomBot
from hraj.core import play_game, random_playout
from hraj.games.abluxxen.bots import GreedyBot


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def greedy_against_random(players: int, games: int, variant: str = "base") -> None:
    wins = 0
    greedy_scores: list[float] = []
    random_scores: list[float] = []
    for number in range(games):
        seat = number % players
        choosers: list[Bot] = [RandomBot(number * 10 + s) for s in range(players)]
        choosers[seat] = GreedyBot(number)
        state = hraj.game("abluxxen", players=players, variant=variant, first=number % players).new_state()
        play_game(state, choosers, random.Random(number))
        outcome = state.outcome
        assert outcome is not None
        wins += seat in outcome.winners
        greedy_scores.append(outcome.scores[seat])
        random_scores.extend(score for s, score in enumerate(outcome.scores) if s != seat)
    low, high = wilson(wins, games)
    print(
        f"{players} players {variant:8}: greedy wins {wins / games:6.1%} [{low:.1%}, {high:.1%}] "
        f"(a random seat: {1 / players:.1%}) in {games} games; mean score greedy "
        f"{sum(greedy_scores) / games:+.1f}, random {sum(random_scores) / len(random_scores):+.1f}"
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
        greedy_against_random(players, games)
    greedy_against_random(2, games)
    greedy_against_random(4, games, "expert")
    for players in (2, 3, 4, 5):
        playouts_per_second(players)


if __name__ == "__main__":
    main()
