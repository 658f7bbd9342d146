"""Trefa bot strength and engine speed: solo mean scores with 95% intervals, playouts per second.

Run `python benchmarks/trefa_bots.py --games 10000`. Every game is seeded (game i of
every bot uses seed i), so the figures repeat exactly; only the speed varies.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import hraj
from hraj.bots.base import Bot, make_bot
from hraj.core.driver import play_game, random_playout


def solo_scores(bot: Bot, games: int) -> list[float]:
    scores = []
    for seed in range(games):
        bot.rng.seed(seed)
        state = play_game(hraj.game("trefa", players=1).new_state(), [bot], random.Random(seed))
        assert state.outcome is not None
        scores.append(state.outcome.scores[0])
    return scores


def duel(first: str, second: str, games: int) -> tuple[float, float, float]:
    """Two-player games with seats swapped every game: `first`'s win share, mean scores."""
    wins = 0.0
    scores = {first: 0.0, second: 0.0}
    for seed in range(games):
        names = (first, second) if seed % 2 == 0 else (second, first)
        bots = [make_bot("trefa", name, seed=seed * 2 + seat) for seat, name in enumerate(names)]
        state = play_game(hraj.game("trefa", players=2, first=0).new_state(), bots, random.Random(seed))
        assert state.outcome is not None
        for seat, name in enumerate(names):
            scores[name] += state.outcome.scores[seat]
        seat_of_first = names.index(first)
        if seat_of_first in state.outcome.winners:
            wins += 1 / len(state.outcome.winners)
    return wins / games, scores[first] / games, scores[second] / games


def playouts_per_second(players: int, seconds: float) -> tuple[float, int]:
    game = hraj.game("trefa", players=players)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_playout(game.new_state(), random.Random(done))
        done += 1
    return done / (time.perf_counter() - start), done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500, help="solo games per bot (default 500)")
    parser.add_argument("--bots", default="random,greedy,expectimax", help="comma-separated bot names")
    parser.add_argument("--seconds", type=float, default=3.0, help="time for the playout-speed figure")
    args = parser.parse_args()

    print(f"Trefa solo, {args.games} seeded games per bot")
    print(f"{'bot':<12} {'mean':>8} {'95% CI':>18} {'sd':>7} {'min':>5} {'max':>5} {'games/s':>9}")
    for name in args.bots.split(","):
        bot = make_bot("trefa", name.strip(), seed=0)
        start = time.perf_counter()
        scores = solo_scores(bot, args.games)
        elapsed = time.perf_counter() - start
        mean = statistics.fmean(scores)
        sd = statistics.stdev(scores) if len(scores) > 1 else 0.0
        half = 1.96 * sd / math.sqrt(len(scores))
        interval = f"[{mean - half:.2f}, {mean + half:.2f}]"
        print(
            f"{name:<12} {mean:8.2f} {interval:>18} {sd:7.2f} {min(scores):5.0f} {max(scores):5.0f}"
            f" {len(scores) / elapsed:9.1f}"
        )
    duel_games = max(args.games // 5, 10)
    share, mean_a, mean_b = duel("expectimax", "greedy", duel_games)
    half = 1.96 * math.sqrt(share * (1 - share) / duel_games)
    print(
        f"2 players, expectimax vs greedy, {duel_games} games, seats alternating: expectimax wins"
        f" {100 * share:.1f}% (95% CI ±{100 * half:.1f}), mean scores {mean_a:.1f} vs {mean_b:.1f}"
    )
    for players in (1, 4):
        rate, done = playouts_per_second(players, args.seconds)
        print(f"random playouts, {players} player(s): {rate:.1f} games/s ({done} games)")


if __name__ == "__main__":
    main()
