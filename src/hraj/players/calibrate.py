"""Calibrate the bots' fixed ratings: `python -m hraj.players.calibrate [--games N] [GAME...]`.

Every level of a game plays every other in two-player games through the arena
(`hraj.bots.arena`: seeded, seats alternating); a game rated only as a match plays
one-point matches. The results are fitted by maximum likelihood with the very models the
ratings use: for matches the FIBS formula's chance of winning an n-point match,
`1 / (1 + 10^(−D·√n/2000))`; for the others Plackett–Luce, which for two players is
`1 / (1 + e^(−Δμ/c))` with `c = β·√2` (the model's β, deviations settled), shown
on the 1500-centred scale. A tie counts half a win each.

One level is pinned at 1500, where a newcomer starts: the game's default level (the
bot a new seat gets, the stand-in for an absent player). So a newcomer is assumed as
strong as the opponent the site offers first, and a rating above 1500 means playing
better than that level. Each other level gets its rating and the half-width of its
95% interval (1.96 standard errors from the fit's information matrix). The result is
written to `bot_ratings.json` beside this file, the data the server reads. Each pair
also counts one virtual tie, so a level that won or lost every game stays finite.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import hraj
from hraj.bots.arena import run_arena
from hraj.core import game_class
from hraj.core.bot import bot_names, default_bot
from hraj.core.game import Game, RatedAs
from hraj.players.anchors import DATA
from hraj.players.rating import CENTRE, MODEL, SCALE

#: Two-player games per pair of levels (a game with the strongest bots costs seconds).
PER_PAIR = 40
SEED = 2026


@dataclass(frozen=True)
class Result:
    """One game between levels `a` and `b`: `a`'s share of the win (1, 0.5 or 0)."""

    a: int
    b: int
    score: float


def two_player_game(game_id: str) -> Game[Any, Any]:
    """The game as it is calibrated: two players, or (a game rated only as a match) a one-point match."""
    spec = game_class(game_id).options_spec
    game = hraj.game(game_id, **({"players": 2} if "players" in spec else {}))
    if game.rated_as() is None and "match_length" in spec:
        game = hraj.game(game_id, match_length=1)
    return game


def play(game_id: str, games: int, seed: int, adjacent: bool = False) -> tuple[list[str], list[Result]]:
    """Every pair of the game's levels (or, `adjacent`, each level and the next stronger
    one, in the order the game lists them), `games` two-player games each."""
    game = two_player_game(game_id)
    levels = bot_names(game_id)
    found: list[Result] = []
    pairs = list(itertools.combinations(enumerate(levels), 2))
    if adjacent:
        pairs = [(first, second) for first, second in pairs if second[0] == first[0] + 1]
    for (i, a), (j, b) in pairs:
        began = time.monotonic()
        arena = run_arena(game, [a, b], games, seed=seed * 1000 + i * 10 + j)
        found.extend(Result(i, j, share) for share in arena.entrants[0].wins)
        mean = sum(arena.entrants[0].wins) / games
        print(f"  {game_id}: {a} against {b}: {mean:.3f} over {games} ({time.monotonic() - began:.0f} s)", flush=True)
    return levels, found


def scale_of(how: RatedAs) -> float:
    """The logistic scale of the game's formula, in shown points: P = 1 / (1 + e^(−D/s))."""
    if how.kind == "match":
        return 2000 / (math.sqrt(how.points) * math.log(10))
    return SCALE * MODEL.beta * math.sqrt(2)


def fit(count: int, results: Sequence[Result], pinned: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Ratings (pinned level at `CENTRE`) maximising the results' likelihood, and their 95% half-widths.

    Each pair that played also gets one virtual tie (a prior of equal strength worth one
    game), so a level that won or lost every game gets a finite rating."""
    pairs = sorted({(r.a, r.b) for r in results})
    results = [*results, *(Result(a, b, 0.5) for a, b in pairs)]
    free = [level for level in range(count) if level != pinned]
    ratings = np.full(count, CENTRE)
    for _ in range(100):
        gradient = np.zeros(count)
        hessian = np.zeros((count, count))
        for r in results:
            p = 1 / (1 + math.exp(-(ratings[r.a] - ratings[r.b]) / scale))
            g = (r.score - p) / scale
            w = p * (1 - p) / scale**2
            gradient[r.a] += g
            gradient[r.b] -= g
            hessian[r.a, r.a] += w
            hessian[r.b, r.b] += w
            hessian[r.a, r.b] -= w
            hessian[r.b, r.a] -= w
        information = hessian[np.ix_(free, free)]
        step = np.linalg.solve(information, gradient[free])
        step = np.clip(step, -400, 400)
        ratings[free] += step
        if np.max(np.abs(step)) < 1e-6:
            break
    errors = np.zeros(count)
    errors[free] = np.sqrt(np.diag(np.linalg.inv(information)))
    return ratings, 1.96 * errors


def calibrate(game_id: str, games: int, seed: int, adjacent: bool = False) -> dict[str, object]:
    how = two_player_game(game_id).rated_as()
    assert how is not None
    levels, results = play(game_id, games, seed, adjacent)
    pinned = levels.index(default_bot(game_id))
    ratings, intervals = fit(len(levels), results, pinned, scale_of(how))
    return {
        "system": "fibs" if how.kind == "match" else "openskill",
        "pinned": levels[pinned],
        "games_per_pair": games,
        "seed": seed,
        "command": f"python -m hraj.players.calibrate --per-pair {games} --seed {seed}"
        + (" --adjacent" if adjacent else "")
        + f" {game_id}",
        "bots": {
            level: {"rating": round(float(ratings[i])), "interval": round(float(intervals[i]))}
            for i, level in enumerate(levels)
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(hraj.GAMES), help="the games to calibrate (all by default)")
    parser.add_argument("--per-pair", type=int, default=None, help=f"games per pair of levels ({PER_PAIR})")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--adjacent", action="store_true", help="only each level against the next one (fewer games with the strongest)"
    )
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    data = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    for game_id in args.games:
        if game_id not in hraj.GAMES:
            print(f"Chyba: no game {game_id}; choose from {', '.join(hraj.GAMES)}", file=sys.stderr)
            return 2
        count = args.per_pair or PER_PAIR
        data[game_id] = calibrate(game_id, count, args.seed, args.adjacent)
        print(json.dumps({game_id: data[game_id]}, ensure_ascii=False), flush=True)
        args.out.write_text(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
