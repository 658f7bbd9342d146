"""Qwixx bot strength: greedy vs random, and a round robin of greedy settings.

Run: `.venv/bin/python -m benchmarks.qwixx_bots [--games N]`. The round robin seats five
variants of the greedy bot (open-number weight, crossing margin) at one table, rotating
seats, and prints win shares and mean scores; it is how the shipped settings were chosen.
"""

from __future__ import annotations

import argparse
import random

import hraj
from hraj.bots.arena import Estimate, run_arena
from hraj.core import play_game
from hraj.games.qwixx.bots import GreedyQwixxBot

VARIANTS = [(2.0, 0.3), (2.5, 1.5), (3.0, 1.0), (3.0, 2.0), (4.0, 1.0)]


def variant(open_weight: float, margin: float, seed: int) -> GreedyQwixxBot:
    bot = GreedyQwixxBot(seed)
    bot.open_weight, bot.margin = open_weight, margin
    return bot


def round_robin(games: int) -> None:
    game = hraj.game("qwixx", players=len(VARIANTS))
    wins: list[list[float]] = [[] for _ in VARIANTS]
    scores: list[list[float]] = [[] for _ in VARIANTS]
    for number in range(games):
        order = [(number + seat) % len(VARIANTS) for seat in range(len(VARIANTS))]
        bots = [variant(*VARIANTS[v], seed=number * 10 + seat) for seat, v in enumerate(order)]
        outcome = play_game(game.new_state(), bots, random.Random(number)).outcome
        assert outcome is not None
        for seat, v in enumerate(order):
            wins[v].append(1 / len(outcome.winners) if seat in outcome.winners else 0.0)
            scores[v].append(outcome.scores[seat])
    print(f"round robin of greedy settings, {games} five-player games")
    for v, (weight, margin) in enumerate(VARIANTS):
        print(f"  weight {weight:.1f} margin {margin:.1f}: wins {Estimate.of(wins[v])}  score {Estimate.of(scores[v])}")


def against_random(games: int) -> None:
    for players in (2, 3, 4):
        seats = ["greedy"] + ["random"] * (players - 1)
        result = run_arena(hraj.game("qwixx", players=players), seats, games)
        print(
            f"greedy vs {players - 1} random, {games} games: wins {result.win_rate(0)}, "
            f"score {result.mean_score(0)} vs {result.mean_score(1)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()
    against_random(args.games)
    round_robin(args.games)


if __name__ == "__main__":
    main()
