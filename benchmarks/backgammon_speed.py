"""Backgammon random playouts per second: hraj against OpenSpiel, in the same run.

Run `python -m benchmarks.backgammon_speed [seconds per engine] [--batch N]`. The
engines play the same kind of game: whole games without the cube, uniformly random
checker play to the last checker borne off (gammons and backgammons count), seeded
dice.

- `hraj` plays one game at a time through `hraj.core.random_playout` on
  `Backgammon(cube=False)`, the path `hraj bench` measures: before each roll the player
  chooses `roll` (resigning is never chosen by a random playout), then a random legal
  play.
- `hraj lockstep` plays N games at once (`lockstep.play`, 2,000 by default): every
  legal play of every game generated as arrays, a uniformly random distinct play each.
- OpenSpiel (`pyspiel.load_game("backgammon")`) goes through `legal_actions`,
  `apply_action` and `chance_outcomes`; it splits a double into two half-turns, so it
  takes more steps per game for the same play.
- `hraj lockstep, net 0-ply` plays N games at once with the shipped net choosing every
  play: no OpenSpiel counterpart.
- `hraj rollout, net 0-ply` rolls out the four plays the net likes best after an
  opening 3-1, N / 4 games each (`rollout.rollout_positions`: shared dice, bear-offs
  settled from the database), as analysis rolls out a decision.

The engines take turns in rounds (the same load for all; a lockstep round is at least
one batch); the script prints games per second of each and the ratios to OpenSpiel.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before NumPy loads

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import hraj
from hraj.core import random_playout
from hraj.games.backgammon import lockstep
from hraj.games.backgammon.afterstates import afterstates
from hraj.games.backgammon.evaluator import shipped
from hraj.games.backgammon.moves import START, play_cache_info
from hraj.games.backgammon.rollout import rollout_positions
from hraj.games.backgammon.search import rank_plays

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


def lockstep_games(batch: int, policy: Callable[[np.random.Generator], lockstep.Policy]) -> Callable[..., int]:
    """Plays `batch` games at once per call (the rng seeds the batch's dice and choices);
    returns the games and counts their turns as steps."""
    start = np.tile(np.array(START + START, dtype=np.int8), (batch, 1))

    def run(rng: random.Random) -> int:
        generator = np.random.default_rng(rng.getrandbits(64))
        dice = lockstep.Dice(batch, generator, lockstep.opening_rolls(batch, generator)[:, np.newaxis])
        return int(lockstep.play(start, policy(generator), dice).turns.sum())

    return run


def rollout_games(games: int) -> Callable[..., int]:
    """Rolls out the four plays the net likes best after an opening 3-1, `games` games
    each on shared dice (`rollout.rollout_positions`, bear-offs settled exactly)."""
    start = np.array(START + START, dtype=np.int8)
    plays, after = afterstates(start, (3, 1))
    ranked = rank_plays(shipped(), start, (3, 1), 0)[:4]
    candidates = after[[plays.index(play.steps) for play in ranked]]

    def run(rng: random.Random) -> int:
        rollout_positions(candidates, games, seed=rng.getrandbits(32))
        return 0

    return run


def net_policy(_: np.random.Generator) -> lockstep.Policy:
    return lockstep.net_policy(shipped())


class Meter:
    """Games, steps and seconds of one engine, summed over its rounds."""

    def __init__(self, name: str, play: Any, batch: int = 1, unit: str = "steps") -> None:
        self.name, self.play, self.batch, self.unit = name, play, batch, unit
        self.rng = random.Random(1)
        self.games = self.steps = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        """Plays for `seconds`, at least once."""
        start = time.perf_counter()
        while True:
            self.steps += self.play(self.rng)
            self.games += self.batch
            if time.perf_counter() - start >= seconds:
                break
        self.elapsed += time.perf_counter() - start

    def report(self) -> float:
        rate = self.games / self.elapsed
        print(
            f"{self.name:28}: {self.games:6} games in {self.elapsed:5.1f} s = {rate:8.1f} games/s"
            + (f" ({self.steps / self.games:.0f} {self.unit} a game)" if self.unit else "")
        )
        return rate


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backgammon_speed")
    parser.add_argument("seconds", type=float, nargs="?", default=10.0, help="seconds per engine")
    parser.add_argument("--batch", type=int, default=2000, help="games a lockstep batch")
    args = parser.parse_args()
    batched = [
        Meter("hraj lockstep", lockstep_games(args.batch, lockstep.random_policy), args.batch, "turns"),
        Meter("hraj lockstep, net 0-ply", lockstep_games(args.batch, net_policy), args.batch, "turns"),
        Meter("hraj rollout, net 0-ply", rollout_games(args.batch // 4), 4 * (args.batch // 4), ""),
    ]
    single = [Meter("hraj", hraj_game)]
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel==2.0.2): no ratio")
    else:
        game = pyspiel.load_game("backgammon")
        single.append(Meter("OpenSpiel (from Python)", lambda rng: openspiel_game(game, rng)))
    # the engines take turns in rounds, so a change in the machine's load hits all: a
    # round is one batch of each lockstep meter, then as long as the random batch took
    # for each single-game engine
    while batched[0].elapsed < args.seconds:
        before = batched[0].elapsed
        for meter in batched:
            meter.run(0.0)
        for meter in single:
            meter.run(batched[0].elapsed - before)
    rates = {meter.name: meter.report() for meter in [*single, *batched]}
    info = play_cache_info()
    print(f"  hraj play cache: {info.hits} hits, {info.misses} misses, {info.currsize} positions kept")
    if "OpenSpiel (from Python)" in rates:
        for name in ("hraj", "hraj lockstep"):
            print(f"ratio {name} / OpenSpiel: {rates[name] / rates['OpenSpiel (from Python)']:.2f}")


if __name__ == "__main__":
    main()
