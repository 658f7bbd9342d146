"""Strength and speed of the Abluxxen and Trefa bot levels against the level below.

Run `python -m benchmarks.bot_levels --games 2000 --jobs 16` for the full figures
(`--only abluxxen` or `--only trefa`, or `--tables` with table names, for a part).
Every table is one arena (`hraj.bots.arena.run_arena`): seeded games, seats turning
from game to game, shared wins shared, so the figures repeat exactly for a seed and
the same games are played whatever `--jobs` is. Each table prints the first bot's
win rate with its 95% confidence interval, an equal seat's share, and mean scores.

Then each level plays `--timing-games` games against the level below while every
decision is timed in CPU time of its process, i.e. on one core, and the script prints
the median, p95 and maximum. The search levels stop on wall-clock time, so on a machine
busier than one process per core they search less (and play weaker) than measured here.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import hraj
from hraj.bots.arena import ArenaResult, Estimate, run_arena
from hraj.core.bot import make_bot
from hraj.core.driver import play_game
from hraj.core.game import Seat, State


@dataclass(frozen=True)
class Table:
    """One measured match: a bot against copies of another in one game setting."""

    name: str
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]


def _abluxxen(level: str, players: int, variant: str) -> Table:
    return Table(
        f"abluxxen-{level}-{players}p-{variant}",
        "abluxxen",
        (("players", players), ("variant", variant)),
        (level, *["greedy"] * (players - 1)),
    )


TABLES = [
    *(
        _abluxxen(level, players, variant)
        for level in ("strategist", "planner")
        for players, variant in ((3, "base"), (4, "base"), (2, "base"), (3, "advanced"), (3, "expert"), (2, "expert"))
    ),
    Table("trefa-winner-2p", "trefa", (("players", 2),), ("winner", "racer")),
    Table("trefa-winner-4p", "trefa", (("players", 4),), ("winner", "racer", "racer", "racer")),
    Table("trefa-racer-2p", "trefa", (("players", 2),), ("racer", "expectimax")),
]

#: Each level timed against the level below it.
TIMED = [
    ("abluxxen", (("players", 3),), ("greedy", "greedy", "greedy")),
    ("abluxxen", (("players", 3),), ("planner", "greedy", "greedy")),
    ("abluxxen", (("players", 3),), ("strategist", "greedy", "greedy")),
    ("abluxxen", (("players", 2),), ("strategist", "greedy")),
    ("abluxxen", (("players", 5),), ("strategist", "greedy", "greedy", "greedy", "greedy")),
    ("trefa", (("players", 2),), ("racer", "racer")),
    ("trefa", (("players", 2),), ("winner", "racer")),
    ("trefa", (("players", 6),), ("winner", "racer", "racer", "racer", "racer", "racer")),
]


def _chunk(table: Table, first: int, games: int, seed: int) -> ArenaResult:
    game = hraj.game(table.game, **dict(table.options))
    return run_arena(game, table.seats, games, seed, first=first)


def play_table(table: Table, games: int, jobs: int, seed: int) -> ArenaResult:
    """The table's arena, split into `jobs` chunks of consecutive games."""
    size = math.ceil(games / jobs)
    starts = list(range(0, games, size))
    if jobs == 1:
        parts = [_chunk(table, 0, games, seed)]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(
                pool.map(
                    _chunk, [table] * len(starts), starts, [min(size, games - s) for s in starts], [seed] * len(starts)
                )
            )
    merged = parts[0]
    for part in parts[1:]:
        for mine, theirs in zip(merged.entrants, part.entrants, strict=True):
            mine.wins.extend(theirs.wins)
            mine.scores.extend(theirs.scores)
    return ArenaResult(games, merged.entrants)


def decision_times(game_id: str, options: tuple[tuple[str, Any], ...], seats: Sequence[str], games: int) -> list[float]:
    """CPU seconds per decision of the bot in seat 0 (the seats turning), over `games` games."""
    times: list[float] = []
    for number in range(games):
        players = len(seats)
        order = [(number + seat) % players for seat in range(players)]
        bots = [make_bot(game_id, seats[entrant], number * 31 + seat) for seat, entrant in enumerate(order)]

        def timed(state: State[Any, Any], seat: Seat, bot: Any) -> Any:
            start = time.process_time()  # this process's CPU time: one core, whatever else runs
            action = bot.choose(state, seat)
            times.append(time.process_time() - start)
            return action

        choosers = [
            (lambda state, seat, bot=bot: timed(state, seat, bot)) if order[seat] == 0 else bot
            for seat, bot in enumerate(bots)
        ]
        play_game(hraj.game(game_id, **dict(options)).new_state(), choosers, random.Random(number))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per table (default 200)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the arenas (default 0)")
    parser.add_argument("--only", choices=("abluxxen", "trefa"), help="one game's tables only")
    parser.add_argument("--tables", help="comma-separated table names (default all)")
    parser.add_argument("--timing-games", type=int, default=3, help="games per timed level (0 to skip)")
    args = parser.parse_args()
    chosen = [table for table in TABLES if args.only in (None, table.game)]
    if args.tables:
        names = set(args.tables.split(","))
        chosen = [table for table in chosen if table.name in names]
    for table in chosen:
        start = time.perf_counter()
        result = play_table(table, args.games, args.jobs, args.seed)
        win: Estimate = result.win_rate(0)
        score, other = result.mean_score(0), result.mean_score(1)
        print(
            f"{table.name:32} {table.seats[0]} vs {len(table.seats) - 1} {table.seats[1]}: wins {win.mean:6.1%} "
            f"± {win.half_width:.1%} (equal share {1 / len(table.seats):.1%}) in {args.games} games; "
            f"mean score {score.mean:.1f} vs {other.mean:.1f}; {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    for game_id, options, seats in TIMED if args.timing_games else []:
        if args.only not in (None, game_id):
            continue
        times = sorted(decision_times(game_id, options, seats, args.timing_games))
        p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
        players = dict(options)["players"]
        print(
            f"decision time {game_id} {players}p {seats[0]:13}: median {statistics.median(times) * 1000:6.1f} ms,"
            f" p95 {p95 * 1000:6.1f} ms, max {times[-1] * 1000:6.1f} ms over {len(times)} decisions",
            flush=True,
        )


if __name__ == "__main__":
    main()
