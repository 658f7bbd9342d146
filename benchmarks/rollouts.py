"""What a rollout costs and what the same luck for every option is worth.

Run `python -m benchmarks.rollouts [trials] [seed] [game ...]` (default 36 trials,
seed 1, every game). For each game a seeded game is played (a random player in seat 0
against the strongest level), its costliest decision is found by the analysis, and that
move is rolled out three ways, side by side:

- `same luck, 1 process`: as the review does it (each trial's chance the same for every
  option), on one process;
- `same luck, 2 processes`: the same trials spread over two processes (the same figures);
- `own luck, 1 process`: every option with luck of its own.

Printed per way: the wall-clock seconds, and for the runner-up option its mean, the
standard error of that mean and the standard error of its gap to the best option. The
gap's error with the same luck against its error with luck of its own is what the same
dice are worth: the ratio of the two squared is how many times as many trials the own
luck would need for the same precision.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import hraj
from hraj.analysis.game import analyse
from hraj.analysis.rollout import Rollout, rollout
from hraj.core.bot import make_bot, strongest_bot
from hraj.core.driver import play_game

CASES: list[tuple[str, dict[str, Any]]] = [
    ("qwixx", {"players": 2}),
    ("trefa", {"players": 2}),
    ("backgammon", {}),
    ("abluxxen", {"players": 3}),
]


def costly_move(game_id: str, options: dict[str, Any], seed: int) -> tuple[Any, dict[str, Any], int]:
    game = hraj.game(game_id, **options)
    other = "greedy" if game_id == "abluxxen" else strongest_bot(game_id)
    bots = [make_bot(game_id, "random" if seat == 0 else other, seed + seat) for seat in range(game.players)]
    record = dict(play_game(game.new_state(), bots, random.Random(seed)).record())
    worst = analyse(game, record, seed=seed).worst(1)
    return game, record, worst[0].move if worst else 1


def runner_up(result: Rollout | None) -> str:
    if result is None or len(result.options) < 2:
        return "–"
    second = result.options[1]
    return f"{second.mean:+.3f} ±{second.error:.3f}  gap ±{second.gap_error:.3f}"


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 36
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    only = set(sys.argv[3:])
    print(f"rollout of the costliest decision, {trials} trials per option, seed {seed}")
    print(f"{'game':<12}{'move':>5}  {'way':<24}{'seconds':>8}  runner-up: mean ±error, gap ±error")
    ways = [("same luck, 1 process", 1, True), ("same luck, 2 processes", 2, True), ("own luck, 1 process", 1, False)]
    for game_id, options in CASES:
        if only and game_id not in only:
            continue
        game, record, move = costly_move(game_id, options, seed)
        for label, workers, same in ways:
            start = time.perf_counter()
            result = rollout(game, record, move, trials=trials, seed=seed, workers=workers, same_luck=same)
            seconds = time.perf_counter() - start
            print(f"{game_id:<12}{move:>5}  {label:<24}{seconds:>8.1f}  {runner_up(result)}", flush=True)


if __name__ == "__main__":
    main()
