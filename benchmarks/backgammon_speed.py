"""Backgammon random playouts per second: hraj against OpenSpiel, in the same run.

Run `python -m benchmarks.backgammon_speed [seconds per engine]`. Both engines play the
same kind of game: whole games without the cube, uniformly random checker play to the
last checker borne off (gammons and backgammons count), seeded dice. hraj plays them
through `hraj.core.random_playout` on `Backgammon(cube=False)`, the path `hraj bench`
measures: before each roll the player chooses `roll` (resigning is never chosen by a
random playout), then a random legal play. OpenSpiel (`pyspiel.load_game("backgammon")`)
goes through `legal_actions`, `apply_action` and `chance_outcomes`; it splits a double
into two half-turns, so it takes more steps per game for the same play. The engines
take turns in half-second rounds (the same load for both); the script prints games per
second of each and the ratio hraj / OpenSpiel.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import hraj
from hraj.core import random_playout
from hraj.games.backgammon.moves import play_cache_info

ROUND_SECONDS = 0.5


GAME = hraj.game("backgammon", cube=False)


def hraj_game(rng: random.Random) -> int:
    """One random game in hraj, as `hraj bench` plays it; returns the number of steps."""
    state = random_playout(GAME.new_state(), rng)
    return len(state.events())


def openspiel_game(game: Any, rng: random.Random) -> int:
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        steps += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return steps


class Meter:
    """Games, steps and seconds of one engine, summed over its rounds."""

    def __init__(self, name: str, play: Any) -> None:
        self.name, self.play = name, play
        self.rng = random.Random(1)
        self.games = self.steps = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.steps += self.play(self.rng)
            self.games += 1
        self.elapsed += time.perf_counter() - start

    def report(self) -> float:
        rate = self.games / self.elapsed
        print(
            f"{self.name:28}: {self.games:6} games in {self.elapsed:5.1f} s = {rate:8.1f} games/s "
            f"({self.steps / self.games:.0f} steps a game)"
        )
        return rate


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    meters = [Meter("hraj", hraj_game)]
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel==2.0.2): no ratio")
    else:
        game = pyspiel.load_game("backgammon")
        meters.append(Meter("OpenSpiel (from Python)", lambda rng: openspiel_game(game, rng)))
    # the engines take turns in short rounds, so a change in the machine's load hits both
    rounds = max(1, round(seconds / ROUND_SECONDS))
    for _ in range(rounds):
        for meter in meters:
            meter.run(seconds / rounds)
    rates = [meter.report() for meter in meters]
    info = play_cache_info()
    print(f"  hraj play cache: {info.hits} hits, {info.misses} misses, {info.currsize} positions kept")
    if len(rates) == 2:
        print(f"ratio hraj / OpenSpiel: {rates[0] / rates[1]:.2f}")


if __name__ == "__main__":
    main()
