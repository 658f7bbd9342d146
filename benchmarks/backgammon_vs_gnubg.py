"""hraj's backgammon levels measured against GNU Backgammon, the yardstick players know.

    python -m benchmarks.backgammon_vs_gnubg games [--levels net,expert] [--pairs 500] [--jobs 4]
    python -m benchmarks.backgammon_vs_gnubg errors [--positions 2000] [--levels gnubg,net,expert]
    python -m benchmarks.backgammon_vs_gnubg curve FOLDER [--every GAMES] [--plies 0]

`games`: cubeless money games against gnubg 0-ply with duplicate dice (`duel`: each
dice sequence twice, the sides swapped; PAIRS pairs are 2 x PAIRS games); prints each
level's points a game with the 95% interval over the pairs.

`errors`: the mean equity a level's choice gives up per decision, judged by gnubg 2-ply
(its "World class" setting, cubeless), on a fixed set of positions from gnubg's own
games: games of gnubg 0-ply against itself on seeded dice, every checker play with more
than one legal play kept with chance 1/4, until there are POSITIONS. gnubg 2-ply values
every legal play of each position once; that reference goes to
`var/backgammon-gnubg/` and is reused. For each level: the mean error in millipoints
(thousandths of a point a game) with its 95% interval over the positions, and how often
it picks gnubg 2-ply's best play. `gnubg` is gnubg 0-ply itself.

`curve`: the same error for every training checkpoint in FOLDER (`train --work`), the
nets at `--plies`: the training curve.

`--net FILE` plays a net saved by the evaluator (a training checkpoint) in place of the
shipped one. Neither part is timed, nor run in CI; gnubg (Debian's `gnubg`) is only the
judge: nothing it says goes into hraj's training.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core per process, before NumPy loads
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from benchmarks.gnubg_player import Gnubg, available, gnubg_player
from hraj.bots.arena import Estimate
from hraj.games.backgammon.afterstates import afterstates, swap
from hraj.games.backgammon.bots import BOTS, NetBot
from hraj.games.backgammon.duel import Player, game_dice, net_player, play_game, pubeval_player, search_player
from hraj.games.backgammon.evaluator import OFF, SIDE, Evaluator, cubeless_equity, finished, flip
from hraj.games.backgammon.moves import CHECKERS, START
from hraj.games.backgammon.train import checkpoints

REFERENCE = Path("var/backgammon-gnubg")
KEEP = 4  # one decision in KEEP of gnubg's games goes into the reference set
JUDGE_PLIES = 2
CHUNK = 16  # positions a request when gnubg judges


def level_player(level: str, net_file: Path | None, gnubg: Gnubg | None) -> Player:
    """The checker player of a level: hraj's bots by name, or `gnubg` (gnubg 0-ply)."""
    if level == "gnubg":
        assert gnubg is not None
        return gnubg_player(gnubg, 0)
    if level == "pubeval":
        return pubeval_player
    bot = BOTS.get(level)
    if bot is None or not issubclass(bot, NetBot):
        raise SystemExit(f"Unknown level {level!r}: gnubg, pubeval or one of {', '.join(BOTS)}.")
    net = Evaluator.load(net_file) if net_file else bot().evaluator
    return net_player(net) if bot.plies == 0 else search_player(net, bot.plies)


# --- games ----------------------------------------------------------------------------------


def _pairs(job: tuple[str, Path | None, list[int], int]) -> list[float]:
    """Points a game of `level` in each duplicate pair (the mean of its two games)."""
    level, net_file, numbers, seed = job
    with Gnubg() as gnubg:
        player, opponent = level_player(level, net_file, None), gnubg_player(gnubg, 0)
        points = []
        for number in numbers:
            dice = game_dice(seed * 1_000_003 + number)
            points.append((play_game(player, opponent, dice) - play_game(opponent, player, dice)) / 2)
    return points


def games(levels: list[str], pairs: int, jobs: int, seed: int, net_file: Path | None) -> None:
    for level in levels:
        started = time.perf_counter()
        shares = [(level, net_file, list(range(job, pairs, jobs)), seed) for job in range(jobs)]
        with Pool(jobs) as pool:
            points = [value for share in pool.map(_pairs, shares) for value in share]
        result = Estimate.of(points)
        low, high = result.mean - result.half_width, result.mean + result.half_width
        print(
            f"{level:8} vs gnubg 0-ply: {result.mean:+.3f} points a game [{low:+.3f}, {high:+.3f}] "
            f"over {2 * pairs} games ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


# --- errors ---------------------------------------------------------------------------------


class Reference:
    """Positions with a roll, and gnubg 2-ply's equity of every legal play of each (the
    mover's, points a game): `after[starts[i]:starts[i + 1]]` are position i's plays."""

    def __init__(
        self,
        positions: NDArray[np.int8],
        dice: NDArray[np.int64],
        after: NDArray[np.int8],
        starts: NDArray[np.intp],
        equities: NDArray[np.float64],
    ) -> None:
        self.positions, self.dice, self.after, self.starts, self.equities = positions, dice, after, starts, equities

    def plays(self, index: int) -> slice:
        return slice(int(self.starts[index]), int(self.starts[index + 1]))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            path, positions=self.positions, dice=self.dice, after=self.after, starts=self.starts, equities=self.equities
        )

    @classmethod
    def load(cls, path: Path) -> Reference:
        with np.load(path) as data:
            return cls(data["positions"], data["dice"], data["after"], data["starts"], data["equities"])


def gnubg_positions(count: int, seed: int) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
    """Positions and rolls with a choice from games of gnubg 0-ply against itself."""
    rng = np.random.default_rng(seed)
    positions: list[NDArray[np.int8]] = []
    rolls: list[tuple[int, int]] = []
    game = 0
    with Gnubg() as gnubg:
        while len(positions) < count:
            dice = game_dice(seed * 1_000_003 + game)
            position = np.array((*START, *START), dtype=np.int8)
            for turn in range(len(dice)):
                roll = (int(dice[turn, 0]), int(dice[turn, 1]))
                plays, after = afterstates(position, roll)
                if len(plays) > 1 and rng.random() < 1 / KEEP and len(positions) < count:
                    positions.append(position)
                    rolls.append(roll)
                chosen = after[gnubg_player(gnubg, 0)(position, roll, plays, after) if len(plays) > 1 else 0]
                if chosen[OFF] == CHECKERS:
                    break
                position = swap(chosen)
            game += 1
    return np.array(positions), np.array(rolls)


def judge(after: NDArray[np.int8], jobs: int) -> NDArray[np.float64]:
    """gnubg 2-ply's cubeless equity of each position after a play, for the side that played."""
    equities = np.empty(len(after))
    done = (after[:, OFF] == CHECKERS) | (after[:, SIDE + OFF] == CHECKERS)
    equities[done] = cubeless_equity(finished(after[done]))
    open_ = np.flatnonzero(~done)
    chunks = [open_[start : start + CHUNK] for start in range(0, len(open_), CHUNK)]
    processes = [Gnubg() for _ in range(jobs)]

    def work(job: int) -> None:
        for chunk in chunks[job::jobs]:
            seen = processes[job].evaluate(swap(after[chunk]), JUDGE_PLIES)
            equities[chunk] = cubeless_equity(flip(seen))

    try:
        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(work, range(jobs)))
    finally:
        for process in processes:
            process.close()
    return equities


def reference(count: int, seed: int, jobs: int) -> Reference:
    path = REFERENCE / f"reference-{count}-seed{seed}.npz"
    if path.exists():
        return Reference.load(path)
    started = time.perf_counter()
    positions, dice = gnubg_positions(count, seed)
    groups = [afterstates(position, (int(a), int(b)))[1] for position, (a, b) in zip(positions, dice, strict=True)]
    starts = np.zeros(len(groups) + 1, dtype=np.intp)
    np.cumsum([len(group) for group in groups], out=starts[1:])
    after = np.concatenate(groups)
    print(f"gnubg {JUDGE_PLIES}-ply judges {len(after)} plays of {count} positions...", flush=True)
    found = Reference(positions, dice, after, starts, judge(after, jobs))
    found.save(path)
    print(f"reference written to {path} ({time.perf_counter() - started:.0f} s)", flush=True)
    return found


def judged(ref: Reference, player: Player) -> tuple[Estimate, float]:
    """The mean equity (millipoints) a player's choices give up against the reference's
    best, with its interval, and the share of its choices that are the best."""
    lost: list[float] = []
    best = 0
    for index in range(len(ref.positions)):
        position, (a, b) = ref.positions[index], ref.dice[index]
        plays, after = afterstates(position, (int(a), int(b)))
        values = ref.equities[ref.plays(index)]
        if not np.array_equal(after, ref.after[ref.plays(index)]):
            raise SystemExit(f"position {index}: the plays differ from the reference; delete {REFERENCE}")
        chosen = player(position, (int(a), int(b)), plays, after)
        lost.append(1000 * float(values.max() - values[chosen]))
        best += bool(values[chosen] == values.max())
    return Estimate.of(lost), best / len(ref.positions)


def _judged_line(label: str, result: Estimate, best: float, seconds: float) -> str:
    low, high = result.mean - result.half_width, result.mean + result.half_width
    return (
        f"{label:8}: {result.mean:5.2f} millipoints a decision [{low:.2f}, {high:.2f}], "
        f"gnubg {JUDGE_PLIES}-ply's best play {100 * best:.1f}% ({seconds:.0f} s)"
    )


def errors(levels: list[str], count: int, seed: int, jobs: int, net_file: Path | None) -> None:
    ref = reference(count, seed, jobs)
    print(f"{count} positions from gnubg 0-ply self-play (seed {seed}), judged by gnubg {JUDGE_PLIES}-ply:")
    for level in levels:
        started = time.perf_counter()
        with Gnubg() as gnubg:
            result, best = judged(ref, level_player(level, net_file, gnubg))
        print(_judged_line(level, result, best, time.perf_counter() - started), flush=True)


def curve(folder: Path, count: int, seed: int, jobs: int, every: int, plies: int) -> None:
    """The error per decision of each training checkpoint in `folder`, at `plies`."""
    ref = reference(count, seed, jobs)
    print(f"{count} positions from gnubg 0-ply self-play (seed {seed}), judged by gnubg {JUDGE_PLIES}-ply:")
    for games, path in checkpoints(folder, every):
        net = Evaluator.load(path)
        started = time.perf_counter()
        result, best = judged(ref, net_player(net) if plies == 0 else search_player(net, plies))
        print(_judged_line(f"{games} games", result, best, time.perf_counter() - started), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backgammon_vs_gnubg")
    sub = parser.add_subparsers(dest="what", required=True)
    played = sub.add_parser("games", help="duplicate cubeless games against gnubg 0-ply")
    played.add_argument("--levels", default="net,expert")
    played.add_argument("--pairs", type=int, default=500)
    judging = sub.add_parser("errors", help="error per decision judged by gnubg 2-ply")
    judging.add_argument("--levels", default="gnubg,net,expert")
    trained = sub.add_parser("curve", help="error per decision of each training checkpoint")
    trained.add_argument("folder", type=Path)
    trained.add_argument("--every", type=int, default=1, help="only checkpoints after a multiple of this many games")
    trained.add_argument("--plies", type=int, default=0)
    for one in (judging, trained):
        one.add_argument("--positions", type=int, default=2000)
    for one in (played, judging, trained):
        one.add_argument("--jobs", type=int, default=4, help="gnubg processes (they mostly wait)")
        one.add_argument("--seed", type=int, default=0)
        one.add_argument("--net", type=Path, default=None, help="a saved net in place of the shipped one")
    args = parser.parse_args()
    if not available():
        raise SystemExit("gnubg is not installed (apt-get install gnubg).")
    if args.what == "curve":
        curve(args.folder, args.positions, args.seed, args.jobs, args.every, args.plies)
        return
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    if args.what == "games":
        games(levels, args.pairs, args.jobs, args.seed, args.net)
    else:
        errors(levels, args.positions, args.seed, args.jobs, args.net)


if __name__ == "__main__":
    main()
