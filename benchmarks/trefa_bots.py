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
from hraj.core.bot import Bot, make_bot
from hraj.core.driver import play_game, random_playout


def solo_scores(bot: Bot, games: int) -> list[float]:
    scores = []
    for seed in range(games):
        bot.rng.seed(seed)
        state = play_game(hraj.game("trefa", players=1).new_state(), [bot], random.Random(seed))
        assert state.outcome is not None
        scores.append(state.outcome.scores[0])
    return scores


def table_games(hero: str, villain: str, players: int, games: int) -> tuple[float, float, float]:
    """`hero` against `players - 1` copies of `villain`, the hero's seat turning every game.

    Returns the hero's share of wins (ties shared), its mean score and the villains' mean.
    """
    wins = 0.0
    hero_total = villain_total = 0.0
    for seed in range(games):
        names = [villain] * players
        seat = seed % players
        names[seat] = hero
        bots = [make_bot("trefa", name, seed=seed * players + at) for at, name in enumerate(names)]
        state = play_game(hraj.game("trefa", players=players, first=0).new_state(), bots, random.Random(seed))
        assert state.outcome is not None
        if seat in state.outcome.winners:
            wins += 1 / len(state.outcome.winners)
        hero_total += state.outcome.scores[seat]
        villain_total += (sum(state.outcome.scores) - state.outcome.scores[seat]) / (players - 1)
    return wins / games, hero_total / games, villain_total / games


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
    games = max(args.games // 5, 10)
    print(f"Tables, {games} seeded games each, the first bot's seat turning (fair share = 1/players)")
    for hero, villain, players in [
        ("expectimax", "greedy", 2),
        ("racer", "greedy", 2),
        ("racer", "expectimax", 2),
        ("racer", "greedy", 4),
        ("racer", "expectimax", 4),
    ]:
        share, hero_mean, villain_mean = table_games(hero, villain, players, games)
        half = 1.96 * math.sqrt(share * (1 - share) / games)
        print(
            f"{hero} vs {players - 1} {villain}: wins {100 * share:.1f}% (95% CI ±{100 * half:.1f}),"
            f" mean scores {hero_mean:.1f} vs {villain_mean:.1f}"
        )
    for players in (1, 4):
        rate, done = playouts_per_second(players, args.seconds)
        print(f"random playouts, {players} player(s): {rate:.1f} games/s ({done} games)")


if __name__ == "__main__":
    main()
