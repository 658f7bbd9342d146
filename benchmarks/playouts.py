"""Random-playout speed of every registered game, in games per second.

Run: `.venv/bin/python -m benchmarks.playouts [--seconds S] [--every-action] [GAME ...]`.
It prints, per game and option set, the games played, games per second and mean
decisions per game; the figures are what the contract costs a search bot (copying,
applying, listing moves). Random playouts choose from `playout_actions`: in backgammon
they never double, beaver or resign, so every game is played out to the last checker;
`--every-action` chooses from every legal action instead (most random backgammon games
then end at once in a random resignation).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import hraj
from hraj.core import game_class, random_playout


def measure(
    game_id: str, options: dict[str, Any], seconds: float, every_action: bool = False
) -> tuple[int, float, float]:
    game = hraj.game(game_id, **options)
    rng = random.Random(0)
    played = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = random_playout(game.new_state(), rng, every_action=every_action)
        played += 1
        decisions += sum(1 for kind, _, _ in state.events() if kind == "move")
    return played, played / elapsed, decisions / played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(hraj.GAMES))
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--every-action", action="store_true", help="also random doubles and resignations")
    args = parser.parse_args()
    print(f"{'game':12} {'options':34} {'games':>8} {'games/s':>10} {'moves/game':>10}")
    for game_id in args.games:
        for options in game_class(game_id).conformance_options():
            played, rate, moves = measure(game_id, options, args.seconds, args.every_action)
            print(f"{game_id:12} {options!s:34} {played:8d} {rate:10,.0f} {moves:10.1f}")


if __name__ == "__main__":
    main()
