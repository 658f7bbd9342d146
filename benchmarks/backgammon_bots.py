"""Backgammon bots: pubeval against a random player.

Run `python -m benchmarks.backgammon_bots [games]`. Two tables:

- checker play only: a money game without the cube; the random player picks a
  uniformly random legal play;
- money game with the cube: pubeval doubles, takes and drops by its own rules; the
  random player never doubles (a random player redoubling at random only inflates the
  cube without measuring anything) but takes or drops at random; nobody resigns.

Seats alternate; the opening roll and all dice are seeded. Printed: pubeval's win rate
with a 95% Wilson interval and the points pubeval wins per game (gammons and cube
included) with its 95% normal interval.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
from typing import Any

import hraj
from hraj.games.backgammon.bots import PubevalBot
from hraj.games.backgammon.notation import Decision


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def random_choice(state: Any, seat: int, rng: random.Random) -> Any:
    """Uniform over the legal actions, except resigning, doubling and beavering."""
    never = {"resign", "double", "beaver"}
    actions = [a for a in state.legal_actions(seat) if not (isinstance(a, Decision) and a.word in never)]
    return rng.choice(actions)


def table(games: int, **options: Any) -> None:
    wins = 0
    points: list[float] = []
    for number in range(games):
        seat = number % 2
        bot = PubevalBot(number)
        rng = random.Random(number)
        state: Any = hraj.game("backgammon", **options).new_state()
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            actor = state.to_act[0]
            action = bot.choose(state.copy(), actor) if actor == seat else random_choice(state, actor, rng)
            state.apply(actor, action)
        outcome = state.outcome
        wins += outcome.winners == (seat,)
        points.append(outcome.scores[seat])
    low, high = wilson(wins, games)
    mean = statistics.fmean(points)
    spread = 1.96 * statistics.stdev(points) / math.sqrt(games)
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "money game"
    print(
        f"{label:12}: pubeval wins {wins / games:6.1%} [{low:.1%}, {high:.1%}] of {games} games, "
        f"{mean:+.2f} ± {spread:.2f} points a game"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    table(games, cube=False)
    table(games)


if __name__ == "__main__":
    main()
