"""What the learning-agent layer costs: decisions per second through each adapter,
next to the bare contract's random playouts, measured in the same run.

Run: `.venv/bin/python -m benchmarks.rl_speed [--seconds S] [GAME ...]`. For each game
(default options) it prints decisions per second of

- `bare`: `random_playout`, the contract alone (legal actions, apply, chance);
- `bare+view`: the same, asking the deciding seat's `view` at each decision, which is
  what an observation is made from;
- `pettingzoo`: the AEC environment, with an observation and a mask at every decision
  and a random legal id picked from the mask;
- `gymnasium`: one seat against random bots (the bots' decisions not counted);
- `openspiel`: the registered Python game through pyspiel, chance die by die;

and the ratios bare / PettingZoo and bare+view / PettingZoo: how many times slower a
decision is through PettingZoo than through the contract alone, and than through the
contract and the seat's view.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import hraj
from hraj.core import random_playout


def rate(run_one: Callable[[], int], seconds: float) -> float:
    """Decisions per second of `run_one` (one game, returning its decisions) over `seconds`."""
    decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += run_one()
    return decisions / elapsed


def bare(game_id: str, seed: int) -> Callable[[], int]:
    game = hraj.game(game_id)
    rng = random.Random(seed)

    def run() -> int:
        state = random_playout(game.new_state(), rng)
        return sum(1 for kind, _, _ in state.events() if kind == "move")

    return run


def bare_view(game_id: str, seed: int) -> Callable[[], int]:
    """Random playouts that also ask the deciding seat's view at every decision: the
    least any agent-facing driver does, since an observation comes from the view."""
    game = hraj.game(game_id)
    rng = random.Random(seed)

    def run() -> int:
        state = game.new_state()
        decisions = 0
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng), check=False)
                continue
            seat = state.to_act[0]
            state.view(seat)
            state.apply(seat, rng.choice(state.legal_actions(seat)), check=False)
            decisions += 1
        return decisions

    return run


def pettingzoo(game_id: str, seed: int) -> Callable[[], int]:
    from hraj.rl.pettingzoo_env import raw_env

    env = raw_env(game_id)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def run() -> int:
        env.reset()
        decisions = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            decisions += 1
        return decisions

    return run


def gymnasium(game_id: str, seed: int) -> Callable[[], int]:
    from hraj.rl.gymnasium_env import HrajGymEnv

    env = HrajGymEnv(game_id, opponents="random")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def run() -> int:
        _, info = env.reset()
        decisions, done = 0, False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            decisions += 1
        return decisions

    return run


def openspiel(game_id: str, seed: int) -> Callable[[], int]:
    import pyspiel

    from hraj.rl.openspiel_game import short_name

    game = pyspiel.load_game(short_name(game_id))
    rng = np.random.default_rng(seed)

    def run() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0] if outcomes else 0)
                continue
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            decisions += 1
        return decisions

    return run


ADAPTERS: dict[str, Callable[[str, int], Callable[[], int]]] = {
    "bare": bare,
    "bare+view": bare_view,
    "pettingzoo": pettingzoo,
    "gymnasium": gymnasium,
    "openspiel": openspiel,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(hraj.GAMES))
    parser.add_argument("--seconds", type=float, default=3.0, help="per game and adapter")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = list(ADAPTERS)
    print(f"decisions per second, default options, {args.seconds:g} s each")
    print(f"{'game':12}" + "".join(f"{name:>12}" for name in names) + f"{'bare/pz':>9}{'view/pz':>9}")
    for game_id in args.games:
        rates: dict[str, Any] = {name: rate(ADAPTERS[name](game_id, args.seed), args.seconds) for name in names}
        cells = "".join(f"{rates[name]:12,.0f}" for name in names)
        ratios = f"{rates['bare'] / rates['pettingzoo']:9.2f}{rates['bare+view'] / rates['pettingzoo']:9.2f}"
        print(f"{game_id:12}{cells}{ratios}")


if __name__ == "__main__":
    main()
