"""Fit how much a point of pubeval's score is worth in chance of winning (backgammon hints).

pubeval's score ranks the plays of one roll but is not a chance of winning across
positions. So the hints start from the pip-count chance of the position after a play
(`winning_chance`, the opponent on roll) and add pubeval's score on the logistic scale:
logit p = logit(pip chance) + slope * score + intercept. This script plays pubeval
against itself without the cube, keeps every position after a play with its score and
whether the side that played went on to win, and fits (slope, intercept) by Newton's
method, one pair for race and one for contact positions. It prints the `CALIBRATION`
of `hraj/games/backgammon/hints.py`.

    .venv/bin/python scripts/calibrate_pubeval.py --games 2000 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np

import hraj
from hraj.games.backgammon.bots import WON, PubevalBot, pubeval, winning_chance
from hraj.games.backgammon.moves import is_contact
from hraj.games.backgammon.rules import MOVE, BackgammonState


def positions(games: int, seed: int) -> dict[bool, list[tuple[float, float, int]]]:
    """race? -> [(score after a play, logit of the pip chance after it, 1 if its player won)]"""
    rng = random.Random(seed)
    bot = PubevalBot(seed)
    game = hraj.game("backgammon", cube=False)
    found: dict[bool, list[tuple[float, float, int]]] = {True: [], False: []}
    for _ in range(games):
        state = game.new_state()
        assert isinstance(state, BackgammonState)
        seen: list[tuple[bool, float, float, int]] = []
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng), check=False)
                continue
            seat = state.to_act[0]
            if state.phase == MOVE and len(state.legal_actions(seat)) > 0:
                mine, theirs = state.boards[seat], state.boards[1 - seat]
                race = not is_contact(mine, theirs)
                action = bot.best_play(state)
                result = next(r for r in state.plays() if r.steps == action.steps)
                score = pubeval(result.mine, result.theirs, race)
                if score < WON:
                    chance = min(max(1 - winning_chance(result.theirs, result.mine), 1e-6), 1 - 1e-6)
                    seen.append((race, score, math.log(chance / (1 - chance)), seat))
                state.apply(seat, action, check=False)
            else:
                state.apply(seat, bot.choose(state, seat))
        outcome = state.outcome
        assert outcome is not None
        for race, score, offset, seat in seen:
            found[race].append((score, offset, int(seat in outcome.winners)))
    return found


def fit(points: list[tuple[float, float, int]]) -> tuple[float, float]:
    """Logistic regression of the outcome on the score, the pip chance as offset, by Newton's method."""
    x = np.array([score for score, _, _ in points])
    offset = np.array([offset for _, offset, _ in points])
    y = np.array([won for _, _, won in points], dtype=float)
    design = np.stack([x, np.ones_like(x)], axis=1)
    weights = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(design @ weights + offset)))
        gradient = design.T @ (y - p)
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        weights += step
        if np.abs(step).max() < 1e-10:
            break
    return float(weights[0]), float(weights[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = positions(args.games, args.seed)
    calibration = {name: fit(found[race]) for name, race in (("race", True), ("contact", False))}
    counts = {name: len(found[race]) for name, race in (("race", True), ("contact", False))}
    print(f"# {args.games} games, seed {args.seed}, positions {counts}")
    print("CALIBRATION = {" + ", ".join(f'"{k}": ({a:.4f}, {b:.4f})' for k, (a, b) in calibration.items()) + "}")


if __name__ == "__main__":
    main()
