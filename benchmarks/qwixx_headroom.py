"""How much more master could win against greedy: measured in lockstep games.

Run: `.venv/bin/python -m benchmarks.qwixx_headroom [--parts agreement,sweep,offer] [--jobs J]`.

1. `agreement`: master against greedy in the rules engine and in lockstep games
   (`benchmarks/qwixx_lockstep.py`) side by side, win share and time per game, so that
   the lockstep's figures stand for the engine's.
2. `sweep`: master's estimate varied one setting at a time (`Leaf`), each over the same
   games as the shipped master: seats rotating, the same dice game for game. It prints
   each variation's win share and its paired difference to the shipped one.
3. `offer`: the best gain on offer. Let Q(s, a) be master's chance of winning against
   greedy when it takes option a in position s and plays on as master. By the
   performance-difference identity, what any policy wins beyond master is the sum over
   its decisions of Q(its choice) - Q(master's choice), expected along its own games;
   it cannot exceed the sum of max Q - Q(master's choice) along them. The part plays
   `--walkers` against greedy and adds up that bound at every decision of the walker's
   seat, Q measured by `--rollouts` lockstep games per option, played on with the same
   dice for every option. It gives two sums: with the best option by all the rollouts
   (their noise lifts it: an upper figure), and the gain of the option that the first
   half of the rollouts picks, measured on the second half (a lower figure). Options that
   master's own estimate puts more than `--near` below its best are not rolled out.

Every part is seeded; the results do not depend on `--jobs`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

import numpy as np

from benchmarks.qwixx_bots import bot, in_chunks, play_match
from benchmarks.qwixx_lockstep import Games, Leaf, Lockstep, Table, wins
from hraj.bots.arena import Estimate
from hraj.core import resolve_chance
from hraj.games.qwixx.bots import GreedyQwixxBot
from hraj.games.qwixx.rules import COLOUR, WHITE, Cross, Qwixx, QwixxState
from hraj.games.qwixx.solo_table import table_for
from hraj.games.qwixx.table_bots import MasterQwixxBot

PARTS = ("agreement", "sweep", "offer")
#: One change each to master's estimate (see `Leaf`) besides its shares: the sweep around
#: the shipped one.
VARIATIONS = [
    ("spread 0.6", Leaf(spread=0.6)),
    ("spread 1.3", Leaf(spread=1.3)),
    ("3 points a lock", Leaf(lock=3.0)),
    ("-3 points a lock", Leaf(lock=-3.0)),
    ("3 points off a penalty", Leaf(penalty=3.0)),
    ("-3 points off a penalty", Leaf(penalty=-3.0)),
    ("lead now weighed 0.1", Leaf(lead=0.1)),
    ("lead now weighed -0.1", Leaf(lead=-0.1)),
    ("share cut 0.2 a locked row", Leaf(locked_end=0.2)),
    ("share raised 0.2 a locked row", Leaf(locked_end=-0.2)),
    ("share cut 0.1 a lockable row", Leaf(threat_end=0.1)),
    ("share raised 0.1 a lockable row", Leaf(threat_end=-0.1)),
]


def variations(players: int) -> list[tuple[str, Leaf]]:
    """The sweep: the shipped share (0.75 with two players, 0.9 with more) 0.15 lower and
    higher, for every sheet or for the others' only, then `VARIATIONS`."""
    share, _ = Leaf().shares(players)
    shares = []
    for change in (-0.15, 0.15):
        shares.append((f"share {share + change:.2f}", Leaf(share=share + change)))
        shares.append((f"others' share {share + change:.2f}", Leaf(other_share=share + change)))
    return shares + VARIATIONS


def ci(values: np.ndarray) -> str:
    """The mean of `values` in percent with its 95% interval."""
    estimate = Estimate.of(values.tolist())
    return f"{100 * estimate.mean:5.2f} ± {100 * estimate.half_width:.2f} %"


def lockstep_wins(players: int, leaf: Leaf, games: int, seed: int) -> np.ndarray:
    """Master's win shares in `games` lockstep games against greedy, master in each seat in
    turn (a block per seat, each block with the same dice whatever the leaf)."""
    tables = Table(table_for(players))
    start = Qwixx(players=players).new_state()
    shares = []
    for hero in range(players):
        seats = ["master" if seat == hero else "greedy" for seat in range(players)]
        batch = Games.of(start, games // players)
        scores = Lockstep(seats, tables, leaf).play(batch, 0, np.random.default_rng(seed * 1000 + hero))
        shares.append(wins(scores, hero))
    return np.concatenate(shares)


def agreement(games: int, lockstep_games: int, jobs: int, seed: int) -> None:
    print("Master against greedy in the rules engine and in lockstep games:")
    for players in (2, 3):
        started = time.perf_counter()
        engine_wins, _ = play_match(("master",) + ("greedy",) * (players - 1), games, jobs, seed)
        engine_time = (time.perf_counter() - started) * jobs / games
        started = time.perf_counter()
        shares = lockstep_wins(players, Leaf(), lockstep_games, seed)
        lockstep_time = (time.perf_counter() - started) / lockstep_games
        print(
            f"  {players} players: engine {100 * engine_wins[0].mean:.1f} ± {100 * engine_wins[0].half_width:.1f} %"
            f" over {games} games ({1000 * engine_time:.1f} ms a game);"
            f" lockstep {ci(shares)} over {lockstep_games} games ({1000 * lockstep_time:.2f} ms a game)"
        )


def sweep(players_list: Sequence[int], games: int, seed: int) -> None:
    for players in players_list:
        print(f"Master's estimate varied, {players} players against greedy, {games} lockstep games each (seed {seed}):")
        base = lockstep_wins(players, Leaf(), games, seed)
        print(f"  {'shipped':34s} {ci(base)}")
        for name, leaf in variations(players):
            shares = lockstep_wins(players, leaf, games, seed)
            print(f"  {name:34s} {ci(shares)}   difference {ci(shares - base)}")


def ending(state: QwixxState, seat: int, action: Cross, master: MasterQwixxBot, greedy: GreedyQwixxBot) -> QwixxState:
    """The position once `seat` has taken `action` and its turn is over: the other seats
    answer as greedy, and the colour step of `seat`'s own turn is master's."""
    after = state.copy()
    if after.phase == WHITE:
        for other in [s for s in after.waiting if s != seat]:
            after.apply(other, greedy.choose(after, other), check=False)
        after.apply(seat, action, check=False)
        while not after.is_over and after.phase == COLOUR:
            active = after.active
            after.apply(active, (master if active == seat else greedy).choose(after, active), check=False)
        return after
    after.apply(seat, action, check=False)
    return after


def option_values(
    state: QwixxState,
    seat: int,
    options: list[Cross],
    bots: tuple[MasterQwixxBot, GreedyQwixxBot],
    rollouts: int,
    rng: np.random.Generator,
    tables: Table,
) -> np.ndarray:
    """[options, 2]: master's chance of winning after each option, from each half of the rollouts."""
    master, greedy = bots
    ends = [ending(state, seat, action, master, greedy) for action in options]
    values = np.zeros((len(options), 2))
    going = [k for k, end in enumerate(ends) if not end.is_over]
    for k, end in enumerate(ends):
        if end.is_over:
            values[k] = wins(np.array([end.score(s) for s in range(state.players)]), seat)
    if going:
        batch = Games.concatenate([Games.of(ends[k], rollouts) for k in going])
        seats = ["master" if s == seat else "greedy" for s in range(state.players)]
        scores = Lockstep(seats, tables).play(batch, ends[going[0]].active, rng, blocks=len(going))
        shares = wins(scores, seat).reshape(len(going), rollouts)
        half = rollouts // 2
        for j, k in enumerate(going):
            values[k] = shares[j, :half].mean(), shares[j, half:].mean()
    return values


def offer_chunk(setup: tuple[str, int, int, float], numbers: range, seed: int) -> list[tuple[float, float, float, int]]:
    """Per game of the walker against greedy: its win share, the upper and the lower sum of
    the gain on offer over master's choices, and the decisions rolled out."""
    walker, players, rollouts, near = setup
    tables = Table(table_for(players))
    rows = []
    for number in numbers:
        game_seed = seed * 1_000_003 + number
        hero = number % players
        master, greedy = MasterQwixxBot(game_seed), GreedyQwixxBot(0)
        mover = bot(walker, game_seed)
        rng = random.Random(game_seed)
        dice = np.random.default_rng(game_seed)
        state = Qwixx(players=players).new_state()
        upper = lower = 0.0
        decisions = 0
        while True:
            resolve_chance(state, rng)
            if state.is_over:
                break
            seat = state.to_act[0]
            if seat != hero:
                state.apply(seat, greedy.choose(state, seat), check=False)
                continue
            scored = master.scored(state, seat)
            masters = max(scored, key=lambda option: option[1])[0]
            top = max(value[0] for _, value in scored)
            options = [action for action, value in scored if value[0] >= top - near]
            if len(options) > 1:
                values = option_values(state, seat, options, (master, greedy), rollouts, dice, tables)
                chosen = options.index(masters)
                both = values.mean(axis=1)
                upper += both.max() - both[chosen]
                picked = int(values[:, 0].argmax())
                lower += values[picked, 1] - values[chosen, 1]
                decisions += 1
            choice = mover.choose(state, seat)
            assert isinstance(choice, Cross)
            state.apply(seat, choice, check=False)
        scores = np.array([state.score(s) for s in range(players)])
        rows.append((float(wins(scores, hero)), upper, lower, decisions))
    return rows


def offer(walkers: Sequence[str], players: int, games: int, rollouts: int, near: float, jobs: int, seed: int) -> None:
    print(
        f"Best gain on offer over master's choices, {players} players against greedy"
        f" ({games} games per walker, {rollouts} lockstep games per option, options within {near} of master's best):"
    )
    for walker in walkers:
        started = time.perf_counter()
        rows = np.array(
            [
                row
                for chunk in in_chunks(offer_chunk, (walker, players, rollouts, near), games, jobs, seed)
                for row in chunk
            ]
        )
        print(
            f"  {walker:10s} its wins {ci(rows[:, 0])}; gain on offer per game: upper {ci(rows[:, 1])},"
            f" lower {ci(rows[:, 2])}; {rows[:, 3].mean():.1f} decisions rolled out a game"
            f" ({time.perf_counter() - started:.0f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", default="agreement,sweep", help=f"comma-separated: {', '.join(PARTS)}")
    parser.add_argument("--games", type=int, default=2000, help="engine games of the agreement part")
    parser.add_argument("--lockstep-games", type=int, default=20000, help="lockstep games per setting")
    parser.add_argument("--sweep-players", default="2,3", help="player counts of the sweep, comma-separated")
    parser.add_argument("--walkers", default="master,optimal,greedy", help="bots whose games the offer part follows")
    parser.add_argument("--offer-players", type=int, default=2, help="players in the offer part's games")
    parser.add_argument("--offer-games", type=int, default=24, help="games per walker in the offer part")
    parser.add_argument("--rollouts", type=int, default=4000, help="lockstep games per option in the offer part")
    parser.add_argument("--near", type=float, default=0.15, help="roll out options this close to master's best")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the engine games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    parts = set(filter(None, args.parts.split(",")))
    if parts - set(PARTS):
        parser.error(f"no such part: {', '.join(sorted(parts - set(PARTS)))}; choose from {', '.join(PARTS)}")
    walkers = [name for name in args.walkers.split(",") if name]
    for name in walkers:
        if name not in ("greedy", "optimal", "master"):
            parser.error(f"no such walker: {name}; choose from greedy, optimal, master")
    if "agreement" in parts:
        agreement(args.games, args.lockstep_games, args.jobs, args.seed)
    if "sweep" in parts:
        sweep([int(n) for n in args.sweep_players.split(",")], args.lockstep_games, args.seed)
    if "offer" in parts:
        offer(walkers, args.offer_players, args.offer_games, args.rollouts, args.near, args.jobs, args.seed)


if __name__ == "__main__":
    main()
