"""The backgammon net: strength against pubeval, the training curve, and decision latency.

    python -m benchmarks.backgammon_net strength [PAIRS] [--plies N]  # the shipped net (default 500 pairs)
    python -m benchmarks.backgammon_net curve FOLDER [PAIRS] [--every N]  # checkpoints in FOLDER (default 100)
    python -m benchmarks.backgammon_net latency [DECISIONS]           # 0-, 1- and 2-ply, one core
    python -m benchmarks.backgammon_net compare NET.npz... [--pairs N] [--plies N]  # beside the shipped net
    python -m benchmarks.backgammon_net versus NET.npz... [--pairs N] [--plies N]  # head to head with the shipped net

Strength is cubeless money play with duplicate dice (`duel`): each dice sequence is
played twice with the sides swapped, so PAIRS pairs are 2 x PAIRS games. Printed: the
net's points a game against hraj's pubeval with a 95% interval over the pairs.

Versus plays each net head to head against the shipped net, both at the same ply: at
0-ply every game in lockstep, deeper one game at a time.

Compare plays the shipped net and each other net (weights saved by `Evaluator.save`,
e.g. a candidate from training) against pubeval on the same dice, side by side in one
run, so that a new net is judged against the old one on the same games.

Latency: the time of `choose` on positions met in games of the net against itself
(checker plays with more than one legal play), median and 95th percentile, in CPU
seconds of one core and in wall-clock time. The benchmark holds NumPy to one thread.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before NumPy loads
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hraj.games.backgammon.bots import NetBot
from hraj.games.backgammon.duel import (
    duel,
    game_dice,
    lockstep_duel,
    play_game,
    pubeval_player,
    pubeval_policy,
    search_player,
    summary,
)
from hraj.games.backgammon.evaluator import Evaluator, shipped
from hraj.games.backgammon.lockstep import net_policy
from hraj.games.backgammon.notation import Decision
from hraj.games.backgammon.rules import MOVE, Backgammon, BackgammonState
from hraj.games.backgammon.train import checkpoints


def against_pubeval(net: Evaluator, pairs: int, plies: int, seed: int) -> list[float]:
    """The net's points a game against pubeval in each duplicate pair: at 0-ply every game
    in lockstep, deeper one game at a time."""
    if plies == 0:
        return lockstep_duel(net_policy(net), pubeval_policy, pairs, seed)
    player = search_player(net, plies)
    points = []
    for number in range(pairs):
        dice = game_dice(seed * 1_000_003 + number)
        points.append((play_game(player, pubeval_player, dice) - play_game(pubeval_player, player, dice)) / 2)
    return points


def strength(pairs: int, plies: int, seed: int) -> None:
    net = shipped()
    started = time.perf_counter()
    result = summary(against_pubeval(net, pairs, plies, seed))
    seconds = time.perf_counter() - started
    print(f"net {plies}-ply ({net.config.get('games')} games trained) vs pubeval: {result} ({seconds:.0f} s)")


def compare(paths: list[Path], pairs: int, plies: int, seed: int) -> None:
    """Each net's points a game against pubeval on the same dice, and each one's gain over
    the shipped net with a 95% interval over the pairs (paired: the same dice for both)."""
    nets = [("shipped", shipped()), *((str(path), Evaluator.load(path)) for path in paths)]
    baseline: list[float] = []
    for name, net in nets:
        started = time.perf_counter()
        points = against_pubeval(net, pairs, plies, seed)
        seconds = time.perf_counter() - started
        print(
            f"{name} {plies}-ply vs pubeval: {_interval(points)} over {2 * pairs} games ({seconds:.0f} s)", flush=True
        )
        if baseline:
            gains = [mine - theirs for mine, theirs in zip(points, baseline, strict=True)]
            print(f"    gain over the shipped net: {_interval(gains)}", flush=True)
        else:
            baseline = points


def versus(paths: list[Path], pairs: int, plies: int, seed: int) -> None:
    """Each net head to head against the shipped net, both `plies` deep: at 0-ply every
    game in lockstep, deeper one game at a time."""
    for path in paths:
        started = time.perf_counter()
        net = Evaluator.load(path)
        if plies == 0:
            result = summary(lockstep_duel(net_policy(net), net_policy(shipped()), pairs, seed))
        else:
            result = duel(search_player(net, plies), search_player(shipped(), plies), pairs, seed)
        print(
            f"{path} against the shipped net, both {plies}-ply: {result} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


def _interval(points: list[float]) -> str:
    mean = statistics.fmean(points)
    half = 1.96 * statistics.stdev(points) / math.sqrt(len(points)) if len(points) > 1 else math.inf
    return f"{mean:+.3f} points a game [{mean - half:+.3f}, {mean + half:+.3f}]"


def curve(folder: Path, pairs: int, seed: int, every: int) -> None:
    print(f"{'games':>8} {'points a game vs pubeval, 95% CI':>40} {'games played':>13}")
    for trained, path in checkpoints(folder, every):
        net = Evaluator.load(path)
        result = summary(against_pubeval(net, pairs, 0, seed))
        low, high = result.points - result.half_width, result.points + result.half_width
        print(f"{trained:8d} {result.points:+18.3f} [{low:+.3f}, {high:+.3f}] {result.games:13d}", flush=True)


def decision_states(count: int, seed: int) -> list[BackgammonState]:
    """Checker-play states with a choice, met in cubeless games of the net against itself."""
    rng = random.Random(seed)
    bot = NetBot()
    found: list[BackgammonState] = []
    while len(found) < count:
        state = Backgammon(cube=False).new_state()
        while not state.is_over and len(found) < count:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            if state.phase == MOVE and len(state.play_steps()) > 1:
                found.append(state.copy())
            action = bot.choose(state, seat)
            if isinstance(action, Decision) and action.word != "roll":
                break  # it resigns a lost game (cubeless play has no doubles): on to the next game
            state.apply(seat, action)
    return found


def latency(decisions: int, seed: int) -> None:
    """CPU seconds of one core per decision (`time.process_time`, NumPy held to one
    thread), which a busy machine does not inflate as it does the wall clock: checker
    plays searched 0, 1 and 2 plies deep, and the cube's evaluation of the position
    before the roll 0 and 1 ply deep."""
    states = decision_states(decisions, seed)
    net = shipped()
    for plies in (0, 1, 2):
        bot = NetBot(evaluator=net)
        bot.plies = plies
        _report(f"checker play, {plies}-ply", states, partial(_play, bot))
    for plies in (0, 1):
        cube = NetBot(evaluator=net)
        cube.cube_plies = plies
        _report(f"cube, {plies}-ply", states, partial(_cube, cube))


def _play(bot: NetBot, state: BackgammonState) -> object:
    return bot.choose(state, state.turn)


def _cube(bot: NetBot, state: BackgammonState) -> object:
    return bot.probabilities(tuple(state.boards[state.turn]), tuple(state.boards[1 - state.turn]))


def _report(label: str, states: list[BackgammonState], call: Callable[[BackgammonState], object]) -> None:
    cpu: list[float] = []
    wall: list[float] = []
    for state in states:
        started, started_cpu = time.perf_counter(), time.process_time()
        call(state)
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    for clock, times in (("CPU", cpu), ("wall clock", wall)):
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"{label:22} {clock:10}: median {statistics.median(times) * 1000:7.1f} ms, "
            f"p95 {p95 * 1000:7.1f} ms, max {times[-1] * 1000:7.1f} ms over {len(times)} decisions",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backgammon_net")
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("strength")
    one.add_argument("pairs", type=int, nargs="?", default=500)
    one.add_argument("--plies", type=int, default=0)
    one.add_argument("--seed", type=int, default=0)
    many = sub.add_parser("curve")
    many.add_argument("folder", type=Path)
    many.add_argument("pairs", type=int, nargs="?", default=100)
    many.add_argument("--seed", type=int, default=0)
    many.add_argument("--every", type=int, default=1, help="only checkpoints after a multiple of this many games")
    beside = sub.add_parser("compare")
    beside.add_argument("nets", type=Path, nargs="+")
    beside.add_argument("--pairs", type=int, default=500)
    beside.add_argument("--plies", type=int, default=0)
    beside.add_argument("--seed", type=int, default=0)
    head = sub.add_parser("versus")
    head.add_argument("nets", type=Path, nargs="+")
    head.add_argument("--pairs", type=int, default=500)
    head.add_argument("--plies", type=int, default=0)
    head.add_argument("--seed", type=int, default=0)
    timing = sub.add_parser("latency")
    timing.add_argument("decisions", type=int, nargs="?", default=200)
    timing.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.what == "strength":
        strength(args.pairs, args.plies, args.seed)
    elif args.what == "compare":
        compare(args.nets, args.pairs, args.plies, args.seed)
    elif args.what == "versus":
        versus(args.nets, args.pairs, args.plies, args.seed)
    elif args.what == "curve":
        curve(args.folder, args.pairs, args.seed, args.every)
    else:
        latency(args.decisions, args.seed)


if __name__ == "__main__":
    main()
