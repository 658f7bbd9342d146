"""Qwixx bot strength and speed: solo means against the table, win rates, decision times.

Run: `.venv/bin/python -m benchmarks.qwixx_bots [--games N] [--table-games N] [--jobs J]`.

1. Solo: each level's mean score over `--solo-games` seeded solo games, beside the
   exact table's expectation (the optimal bot should land within its CI of it).
2. Tables of 2, 3 and 4 players: win shares with 95% CIs over `--games` games, seats
   rotating from game to game (game i shifts the seats by i), ties shared.
3. Decision times of every level (p50, p95, max in ms, one process, one core).
4. Endings (`--parts endings`): how master's games against greedy end (four misthrows,
   whose, or two locked rows, and how many master locked), and master's wins in each.

`--jobs J` spreads the games over J processes; the results do not depend on J.
`--greedy-variants` adds the round robin of greedy settings that chose greedy's figures.
`--master-variants` adds master with other settings (`master:share=0.5`) against greedy,
the sweep that shows master's figures do not hinge on them; `--variant` picks settings,
`--sweep-players` and `--sweep-seed` the tables and seed of that sweep.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

import hraj
from hraj.bots.arena import Estimate
from hraj.core import play_game
from hraj.core.bot import Bot, make_bot
from hraj.core.game import Seat, State
from hraj.games.qwixx.bots import LEVELS, GreedyQwixxBot
from hraj.games.qwixx.rules import LAST, MAX_PENALTIES, QwixxState
from hraj.games.qwixx.solo_table import RISING_TABLE_PATH, solo_table
from hraj.games.qwixx.table_bots import SoloOptimalQwixxBot

T = TypeVar("T")
R = TypeVar("R")

VARIANTS = [(2.0, 0.3), (2.5, 1.5), (3.0, 1.0), (3.0, 2.0), (4.0, 1.0)]
MATCHES = [
    ("master", "greedy"),
    ("master", "greedy", "greedy"),
    ("master", "greedy", "greedy", "greedy"),
    ("master", "optimal"),
    ("master", "solo-optimal"),
    ("optimal", "greedy"),
    ("optimal", "greedy", "greedy"),
    ("optimal", "greedy", "greedy", "greedy"),
    ("solo-optimal", "greedy"),
]
#: The parts `--parts` may name, in the order they run.
PARTS = ("solo", "tables", "latency", "endings")
#: Bots measured here besides the levels: the solo optimum played blind to the others.
EXTRA: dict[str, type[Bot]] = {"solo-optimal": SoloOptimalQwixxBot}


#: Master with other settings (attribute=value), each against greedy with 2 and 3 players.
#: `searched=2` adds the search of the next seat's turn over 12 rolls.
MASTER_VARIANTS = [
    "master",
    "master:share=0.5",
    "master:share=0.7",
    "master:spread=0.6",
    "master:spread=1.3",
    "master:searched=2,rolls=12",
]
#: Master reading the table whose chance of the end rises with progress; it is not
#: shipped, so the sweep runs it only once `solo_table build --rising` has made it.
RISING_VARIANT = "master:rising=1"


def bot(name: str, seed: int) -> Bot:
    """The bot `name`; `level:attribute=value,...` sets its tunable figures (for sweeps)."""
    name, _, settings = name.partition(":")
    made = EXTRA[name](seed) if name in EXTRA else make_bot("qwixx", name, seed)
    for setting in filter(None, settings.split(",")):
        attribute, _, value = setting.partition("=")
        setattr(made, attribute, float(value))
    return made


class Timed:
    """A bot that records how long each of its decisions takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def __call__(self, state: State[Any, Any], seat: Seat) -> Any:
        start = time.perf_counter()
        action = self.bot.choose(state, seat)
        self.times.append(time.perf_counter() - start)
        return action


def play_chunk(names: Sequence[str], numbers: range, seed: int) -> tuple[list[list[float]], list[list[float]]]:
    """Games `numbers` of a match: per entrant, its win shares and its scores."""
    seats = len(names)
    game = hraj.game("qwixx", players=seats)
    wins: list[list[float]] = [[] for _ in names]
    scores: list[list[float]] = [[] for _ in names]
    for number in numbers:
        game_seed = seed * 1_000_003 + number
        order = [(number + seat) % seats for seat in range(seats)]  # order[seat] = entrant
        bots = [bot(names[entrant], game_seed * 31 + seat) for seat, entrant in enumerate(order)]
        outcome = play_game(game.new_state(), bots, random.Random(game_seed)).outcome
        assert outcome is not None
        for seat, entrant in enumerate(order):
            wins[entrant].append(1 / len(outcome.winners) if seat in outcome.winners else 0.0)
            scores[entrant].append(outcome.scores[seat])
    return wins, scores


def in_chunks(work: Callable[[T, range, int], R], first: T, games: int, jobs: int, seed: int) -> list[R]:
    """`work(first, numbers, seed)` over games 0 to `games` - 1, split into `jobs` ranges and
    played in that many processes (in this one with a single job); the results in order."""
    step = math.ceil(games / max(jobs, 1))
    chunks = [range(lo, min(lo + step, games)) for lo in range(0, games, step)]
    if jobs <= 1:
        return [work(first, chunk, seed) for chunk in chunks]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(work, [first] * len(chunks), chunks, [seed] * len(chunks)))


def play_match(names: Sequence[str], games: int, jobs: int, seed: int = 0) -> tuple[list[Estimate], list[Estimate]]:
    """Win shares and mean scores of each entrant over `games` games on `jobs` processes."""
    wins: list[list[float]] = [[] for _ in names]
    scores: list[list[float]] = [[] for _ in names]
    for chunk_wins, chunk_scores in in_chunks(play_chunk, names, games, jobs, seed):
        for entrant in range(len(names)):
            wins[entrant] += chunk_wins[entrant]
            scores[entrant] += chunk_scores[entrant]
    return [Estimate.of(w) for w in wins], [Estimate.of(s) for s in scores]


def solo(games: int, jobs: int) -> None:
    print(f"solo, {games:,} seeded games per level (95% CI)")
    print(f"  exact table expectation: {solo_table().value([0, 0, 0, 0], 0):.3f}")
    for name in ("greedy", "optimal"):  # alone, master plays exactly as optimal does
        _, scores = play_match([name], games, jobs, seed=7)
        print(f"  {name:8} mean {scores[0]}")


def tables(games: int, jobs: int, only: str = "") -> None:
    print(f"win shares, {games:,} games per match, rotating seats (95% CI; an equal share is 1/players)")
    for names in MATCHES:
        if only and names[0] != only:
            continue
        wins, scores = play_match(names, games, jobs, seed=11)
        label = " vs ".join(names)
        print(f"  {label:28} {names[0]} wins {wins[0]}  score {scores[0]} vs {scores[1]}")


def ending_chunk(players: int, numbers: range, seed: int) -> list[tuple[str, float, float]]:
    """Games `numbers` of master against greedy: how each ended, master's win share, its margin."""
    game = hraj.game("qwixx", players=players)
    found = []
    for number in numbers:
        game_seed = seed * 1_000_003 + number
        hero = number % players
        bots = [bot("master" if seat == hero else "greedy", game_seed * 31 + seat) for seat in range(players)]
        state = play_game(game.new_state(), bots, random.Random(game_seed))
        assert isinstance(state, QwixxState) and state.outcome is not None
        if max(state.penalties) >= MAX_PENALTIES:
            how = "four misthrows, master's" if state.penalties[hero] >= MAX_PENALTIES else "four misthrows, greedy's"
        else:
            locks = sum(mask >> LAST & 1 for mask in state.marks[hero])
            how = f"rows locked, {locks} of them by master"
        share = 1 / len(state.outcome.winners) if hero in state.outcome.winners else 0.0
        best_other = max(state.outcome.scores[seat] for seat in range(players) if seat != hero)
        found.append((how, share, state.outcome.scores[hero] - best_other))
    return found


def endings(games: int, jobs: int) -> None:
    """How master's games against greedy end, and how often master wins each kind."""
    print(f"endings of master against greedy, {games:,} games per table, seats rotating (95% CI)")
    for players in (2, 3):
        found = [end for part in in_chunks(ending_chunk, players, games, jobs, 13) for end in part]
        print(f"  {players} players: master wins {Estimate.of([share for _, share, _ in found])}")
        for how in sorted({how for how, _, _ in found}):
            ended = [(share, margin) for kind, share, margin in found if kind == how]
            print(
                f"    {how:34} {len(ended) / len(found):6.1%} of games, master wins"
                f" {Estimate.of([share for share, _ in ended])}, margin {statistics.fmean(m for _, m in ended):+.1f}"
            )


def latencies(games: int) -> None:
    print(f"decision times, ms, over {games} games of 3 players (one process)")
    for name in LEVELS:
        timed = [Timed(make_bot("qwixx", name, seat)) for seat in range(3)]
        for number in range(games):
            play_game(hraj.game("qwixx", players=3).new_state(), timed, random.Random(number))
        times = sorted(t * 1000 for bot in timed for t in bot.times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"  {name:8} p50 {statistics.median(times):6.2f}  p95 {p95:6.2f}  max {times[-1]:6.2f}  "
            f"({len(times):,} decisions)"
        )


def variant(open_weight: float, margin: float, seed: int) -> GreedyQwixxBot:
    bot = GreedyQwixxBot(seed)
    bot.open_weight, bot.margin = open_weight, margin
    return bot


def round_robin(games: int) -> None:
    game = hraj.game("qwixx", players=len(VARIANTS))
    wins: list[list[float]] = [[] for _ in VARIANTS]
    scores: list[list[float]] = [[] for _ in VARIANTS]
    for number in range(games):
        order = [(number + seat) % len(VARIANTS) for seat in range(len(VARIANTS))]
        bots = [variant(*VARIANTS[v], seed=number * 10 + seat) for seat, v in enumerate(order)]
        outcome = play_game(game.new_state(), bots, random.Random(number)).outcome
        assert outcome is not None
        for seat, v in enumerate(order):
            wins[v].append(1 / len(outcome.winners) if seat in outcome.winners else 0.0)
            scores[v].append(outcome.scores[seat])
    print(f"round robin of greedy settings, {games} five-player games")
    for v, (weight, margin) in enumerate(VARIANTS):
        print(f"  weight {weight:.1f} margin {margin:.1f}: wins {Estimate.of(wins[v])}  score {Estimate.of(scores[v])}")


def master_sweep(
    games: int, jobs: int, names: Sequence[str] = (), seats: Sequence[int] = (2, 3), seed: int = 11
) -> None:
    print(f"master settings against greedy, {games:,} games per match, rotating seats, seed {seed} (95% CI)")
    names = names or MASTER_VARIANTS + ([RISING_VARIANT] if RISING_TABLE_PATH.exists() else [])
    for name in names:
        for players in seats:
            wins, _ = play_match([name] + ["greedy"] * (players - 1), games, jobs, seed=seed)
            print(f"  {name:26} {players} players: wins {wins[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--solo-games", type=int, default=2000, help="solo games per level (100000 for the full check)")
    parser.add_argument("--games", type=int, default=500, help="games per multiplayer match (2000 for the full check)")
    parser.add_argument("--latency-games", type=int, default=20, help="games timed per level")
    parser.add_argument("--jobs", type=int, default=1, help="processes to spread the games over")
    parser.add_argument(
        "--parts",
        default="solo,tables,latency",
        help="which parts to run, comma-separated: solo, tables, latency, endings, or none",
    )
    parser.add_argument("--only", default="", help="run only the matches whose first bot is this one")
    parser.add_argument("--greedy-variants", action="store_true", help="also run the round robin of greedy settings")
    parser.add_argument("--master-variants", action="store_true", help="also run master with other settings")
    parser.add_argument("--variant", action="append", default=[], help="sweep only these master settings (repeatable)")
    parser.add_argument("--sweep-players", default="2,3", help="player counts of the sweep, comma-separated")
    parser.add_argument("--sweep-seed", type=int, default=11, help="seed of the sweep's games")
    args = parser.parse_args()
    parts = set(filter(None, args.parts.split(",")))
    unknown = parts - set(PARTS) - {"none"}
    if unknown:
        parser.error(f"no such part: {', '.join(sorted(unknown))}; choose from {', '.join(PARTS)} (or none)")
    if "solo" in parts:
        solo(args.solo_games, args.jobs)
    if "tables" in parts:
        tables(args.games, args.jobs, args.only)
    if "latency" in parts:
        latencies(args.latency_games)
    if "endings" in parts:
        endings(args.games, args.jobs)
    if args.greedy_variants:
        round_robin(args.games)
    if args.master_variants:
        seats = [int(n) for n in args.sweep_players.split(",")]
        master_sweep(args.games, args.jobs, args.variant, seats, args.sweep_seed)


if __name__ == "__main__":
    main()
