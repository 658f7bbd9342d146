"""What the learning-agent layer costs: decisions per second through each adapter,
next to the bare contract's random playouts and to what each library's API costs by
itself, measured in the same run.

Run: `.venv/bin/python -m benchmarks.rl_speed [--seconds S] [--rounds R] [--seed N]
[GAME ...]`. For each game (default options) it prints decisions per CPU second of

- `bare`: the contract's own random playout (`random_playout` with `every_action`: each
  decision a uniformly random legal action, doubles and resignations included, as an
  agent that samples its mask plays), chance drawn by the contract;
- `bare+view`: the same, asking the deciding seat's `view` at each decision, which is
  what an observation is made from;
- `pettingzoo`: the AEC environment as an agent loop drives it: `last()` (an
  observation and a mask), a uniformly random legal id from the mask, `step`;
- `gymnasium`: one seat against random bots: observation and mask, a random legal id,
  `step`; every decision of the game is counted (the bots' too, since they are decisions
  the environment makes and the contract's playout counts them as well);
- `openspiel`: the registered Python game through pyspiel, chance die by die, a random
  id from `legal_actions()` (no observation asked, as in OpenSpiel's random simulation);

then each adapter's cost against bare, `bare / adapter`: how many times slower a decision
is through it (the goal is at most 2); and, in a second table, the **floor** of each
library: the same agent loop through a null environment of that library's API with the
game's seats, observation size and number of action ids, and games as long as the
game's on average, but no game behind it (a constant observation and mask, copied
afresh for each observation as the real environments hand them out; a constant list of
legal ids for OpenSpiel, with as many chance steps of six outcomes as the game takes
there). A floor is what the library's own machinery and the agent's pick cost per
decision, whatever the game. Next to it, `best` is the least
`bare / adapter` that an adapter of that library can reach, `(1/bare+view + 1/floor) /
(1/bare)`: a decision through it costs at least a bare one with the view an observation
is made from (OpenSpiel asks none: a bare one), plus the floor. Where `best` is above 2,
no adapter can meet the goal unless the game's view gets cheaper. (Gymnasium's bots
decide without a round trip through the API, so its `best` overstates its least cost.)

Each column runs for S seconds of CPU time in R slices, the columns of a game taking
turns slice by slice, and shows its best slice: on a shared machine, other work slows a
slice down however CPU time is counted (caches and memory are shared), never speeds it
up, so the best slice is the least disturbed, and columns compared in a row met the
same spells of load. Every game of every column draws its chance from its own
generator, made from one seeded sequence in the same way (as the environments seed
theirs on `reset`), so all columns play games of the same distribution. The agent reads
its mask as booleans: `np.flatnonzero` on an int8 array takes a slow path, several
times the cost of a whole backgammon decision on its 24 436 ids.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

import hraj
from benchmarks.rl_floor import NullAEC, NullGym, NullSpielGame, Shape
from hraj.core import random_playout
from hraj.core.game import State


def rate(run_one: Callable[[], int], seconds: float) -> float:
    """Decisions per second of `run_one` (one game, returning its decisions) over `seconds`
    of this process's CPU time: on a shared machine, the time other work takes from it
    counts far less than in wall-clock time."""
    decisions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        decisions += run_one()
    return decisions / elapsed


def best_rates(runs: dict[str, Callable[[], int]], seconds: float, rounds: int) -> dict[str, float]:
    """The rate of each of `runs` over `seconds` of CPU time in all, measured in `rounds`
    slices taken in turn (so that each column meets the same spells of load), and the
    best slice of each kept: other work on a shared machine only ever slows a slice down
    (through the caches and memory it shares), so the fastest is the least disturbed."""
    best = dict.fromkeys(runs, 0.0)
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = max(best[name], rate(run, seconds / rounds))
    return best


def pick(mask: npt.NDArray[np.int8], rng: random.Random) -> int:
    """The agent of every adapter: a uniformly random legal id, read from the mask. It uses
    Python's generator, as the bare playout does: NumPy's `Generator.choice` alone costs
    more than a whole random move of the contract, which would hide what is measured."""
    legal = np.flatnonzero(mask.view(np.bool_))
    return int(legal[rng.randrange(len(legal))])


def decisions_of(state: State[Any, Any]) -> int:
    """The decisions of a finished game: its `move` events (a Qwixx answer of each seat counts)."""
    return sum(1 for kind, _, _ in state.events() if kind == "move")


def bare(game_id: str, seed: int) -> Callable[[], int]:
    game = hraj.game(game_id)
    seeder = random.Random(seed)

    def run() -> int:
        rng = random.Random(seeder.getrandbits(64))
        return decisions_of(random_playout(game.new_state(), rng, every_action=True))

    return run


def bare_view(game_id: str, seed: int) -> Callable[[], int]:
    """Random playouts that also ask the deciding seat's view at every decision: the
    least any agent-facing driver does, since an observation comes from the view."""
    game = hraj.game(game_id)
    seeder = random.Random(seed)

    def run() -> int:
        rng = random.Random(seeder.getrandbits(64))
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


def drive_aec(env: Any, rng: random.Random) -> Callable[[], int]:
    """The PettingZoo agent loop over one game of `env` (seeded before)."""

    def run() -> int:
        env.reset()
        decisions = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(pick(observation["action_mask"], rng))
            decisions += 1
        return decisions

    return run


def pettingzoo(game_id: str, seed: int) -> Callable[[], int]:
    from hraj.rl.pettingzoo_env import raw_env

    env = raw_env(game_id)
    env.reset(seed=seed)
    return drive_aec(env, random.Random(seed))


def drive_gym(env: Any, rng: random.Random, decisions: Callable[[], int]) -> Callable[[], int]:
    """The Gymnasium agent loop over one episode of `env` (seeded before); `decisions`
    counts those of the episode just played."""

    def run() -> int:
        _, info = env.reset()
        done = False
        while not done:
            _, _, done, _, info = env.step(pick(info["action_mask"], rng))
        return decisions()

    return run


def gymnasium(game_id: str, seed: int) -> Callable[[], int]:
    from hraj.rl.gymnasium_env import HrajGymEnv

    env = HrajGymEnv(game_id, opponents="random")
    env.reset(seed=seed)
    return drive_gym(env, random.Random(seed), lambda: decisions_of(env.state))


def drive_spiel(game: Any, rng: random.Random) -> Callable[[], int]:
    """OpenSpiel's random simulation over one game: chance and decisions by id."""

    def run() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0] if outcomes else 0)
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions

    return run


def openspiel(game_id: str, seed: int) -> Callable[[], int]:
    import pyspiel

    from hraj.rl.openspiel_game import short_name

    return drive_spiel(pyspiel.load_game(short_name(game_id)), random.Random(seed))


ADAPTERS: dict[str, Callable[[str, int], Callable[[], int]]] = {
    "bare": bare,
    "bare+view": bare_view,
    "pettingzoo": pettingzoo,
    "gymnasium": gymnasium,
    "openspiel": openspiel,
}
WRAPPERS = ("pettingzoo", "gymnasium", "openspiel")


def shape(game_id: str, seed: int, games: int = 20) -> Shape:
    """The shape of a game's null environments: its seats and sizes, and its mean
    decisions and OpenSpiel chance steps (one per die) per game over `games` seeded
    random playouts."""
    from hraj.rl.codec import codec_for

    game = hraj.game(game_id)
    codec = codec_for(game_id)
    rng = random.Random(seed)
    decisions = chance = 0
    for _ in range(games):
        state = game.new_state()
        while not state.is_over:
            if state.is_chance:
                chance += codec.chance_steps(state)
                state.apply_chance(state.sample_chance(rng), check=False)
                continue
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)), check=False)
            decisions += 1
    return Shape(
        game.players, codec.observation_size, codec.num_actions, round(decisions / games), round(chance / games)
    )


def floors(shape: Shape, seed: int) -> dict[str, Callable[[], int]]:
    """The agent loops of `WRAPPERS`, each through its library's null environment."""
    aec = NullAEC(shape)
    aec.reset(seed=seed)
    gym = NullGym(shape)
    gym.reset(seed=seed)
    return {
        "pettingzoo": drive_aec(aec, random.Random(seed)),
        "gymnasium": drive_gym(gym, random.Random(seed), lambda: shape.length),
        "openspiel": drive_spiel(NullSpielGame(shape), random.Random(seed)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(hraj.GAMES))
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per game and column")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=5, help="slices per column, taken in turn; the best is kept")
    args = parser.parse_args()
    names = list(ADAPTERS)
    print(
        f"decisions per CPU second, default options, {args.seconds:g} s each in {args.rounds} rounds"
        f" (the best round), seed {args.seed}"
    )
    print(
        f"{'game':12}"
        + "".join(f"{name:>12}" for name in names)
        + "   "
        + "".join(f"{'bare/' + name[:2]:>9}" for name in WRAPPERS)
    )
    floor_rows = []
    for game_id in args.games:
        rates = best_rates({name: ADAPTERS[name](game_id, args.seed) for name in names}, args.seconds, args.rounds)
        cells = "".join(f"{rates[name]:12,.0f}" for name in names)
        ratios = "".join(f"{rates['bare'] / rates[name]:9.2f}" for name in WRAPPERS)
        print(f"{game_id:12}{cells}   {ratios}")
        game_shape = shape(game_id, args.seed)
        floor = best_rates(floors(game_shape, args.seed), args.seconds, args.rounds)
        best = {
            name: (1 / rates["bare" if name == "openspiel" else "bare+view"] + 1 / floor[name]) * rates["bare"]
            for name in WRAPPERS
        }
        floor_rows.append((game_id, game_shape, floor, best))
    print()
    print("floor: the same agent loops through null environments of each library (no game)")
    print(
        f"{'game':12}{'seats':>6}{'obs':>6}{'ids':>7}{'length':>7}{'chance':>7}"
        + "".join(f"{'floor ' + name[:2]:>12}" for name in WRAPPERS)
        + "   "
        + "".join(f"{'best ' + name[:2]:>9}" for name in WRAPPERS)
    )
    for game_id, game_shape, floor, best in floor_rows:
        print(
            f"{game_id:12}{game_shape.players:6}{game_shape.observation_size:6}{game_shape.num_actions:7}"
            f"{game_shape.length:7}{game_shape.chance:7}"
            + "".join(f"{floor[name]:12,.0f}" for name in WRAPPERS)
            + "   "
            + "".join(f"{best[name]:9.2f}" for name in WRAPPERS)
        )


if __name__ == "__main__":
    main()
