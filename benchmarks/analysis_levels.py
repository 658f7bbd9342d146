"""What the analysis says of each bot level: the figures the rating words are calibrated on.

Run `python -m benchmarks.analysis_levels [games] [seed] [game ...]` (default 6 games,
seed 1, every game). For every level of a game, seeded games are played with that level
in seat 0 and the game's strongest level in every other seat, analysed as `hraj
analyze` does, and seat 0's figures printed with a 95 % interval over the games:

- `all`: the mean loss over every decision with a choice (what ratings read before
  the stake: it falls as a lost game goes on, since nothing is at stake any more);
- `counted`: the mean loss over the decisions with something at stake (the spread of
  the options at least the game's `stake`), which the rating words read now;
- the rating word that figure earns, and the share of decisions counted.

A random player must come out last and the strongest level first; the thresholds in
each game's `hints` module are set between the levels' figures (docs/analysis.md).
"""

from __future__ import annotations

import random
import statistics
import sys
from typing import Any

import hraj
from hraj.analysis.game import analyse
from hraj.core.bot import bot_names, make_bot, strongest_bot
from hraj.core.driver import play_game

CASES: list[tuple[str, dict[str, Any]]] = [
    ("qwixx", {"players": 1}),
    ("qwixx", {"players": 3}),
    ("trefa", {"players": 1}),
    ("trefa", {"players": 3}),
    ("backgammon", {}),
    ("abluxxen", {"players": 3}),
]


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, half


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    only = set(sys.argv[3:])
    print(f"seat 0's analysis by bot level, {games} games per level, seed {seed}; others: the strongest level")
    print(f"{'case':<14}{'level':<12}{'all':>18}{'counted':>18}{'share':>7}  ratings")
    for game_id, options in CASES:
        if only and game_id not in only:
            continue
        game = hraj.game(game_id, **options)
        strongest = strongest_bot(game_id)
        for level in bot_names(game_id):
            whole, counted, share, ratings = [], [], [], []
            for number in range(games):
                game_seed = seed * 1000 + number
                bots = [
                    make_bot(game_id, level if seat == 0 else strongest, game_seed + seat)
                    for seat in range(game.players)
                ]
                for bot in bots:
                    bot.unhurried()
                record = play_game(game.new_state(), bots, random.Random(game_seed)).record()
                result = analyse(game, record, seed=seed)
                mine = [d for d in result.decisions if d.seat == 0]
                player = result.players[0]
                whole.append(sum(d.loss for d in mine) / max(len(mine), 1))
                counted.append(player.mean_loss)
                share.append(player.counted / max(player.decisions, 1))
                ratings.append(player.rating)
            mean_all, half_all = interval(whole)
            mean_counted, half_counted = interval(counted)
            words = ", ".join(f"{word} {ratings.count(word)}" for word in sorted(set(ratings)))
            label = f"{game_id}-{game.players}"
            print(
                f"{label:<14}{level:<12}{mean_all:>10.4f} ±{half_all:.4f}{mean_counted:>10.4f} ±{half_counted:.4f}"
                f"{statistics.fmean(share):>7.2f}  {words}",
                flush=True,
            )


if __name__ == "__main__":
    main()
