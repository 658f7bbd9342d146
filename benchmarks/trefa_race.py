"""What decides a two-player Trefa race, and how much `winner` can gain over `racer`.

Run `python -m benchmarks.trefa_race --games 600 --advantage-games 150`; add
`--only-advantage --paces 0,4,8,14,24` to let `winner` play on at other prices of a
turn, and `--walkers racer@4,expectimax,greedy` to sum the best gain on offer along the
games of other policies too. Every game is seeded (game i uses seed i, seats turning),
so the figures repeat exactly.

1. Anatomy of the race between two equal players (`racer` against itself, then `winner`
   against `racer`): how often the player who fills the sheet first wins, the first
   seat's share, ties, the rows the other player had full when the game ended, margins.
2. Calibration of the exact race model (`racemodel`): its chance of winning for the
   racer's move in positions of racer games, against the share of seeded racer games
   played out from there.
3. Advantage over `racer`: in a game `winner` plays, each of its decisions gains
   Q(its move) - Q(racer's move), Q being the exact chance of winning when both seats
   play on as racers. Summed over a game, the mean is what the policy gains over the
   racer's win rate (the performance-difference identity), with far less noise than
   counting wins. The sum of the best gain on offer at each decision bounds what any
   one-step improvement over the racer can reach on those positions. Summed along the
   games of other policies (`--walkers`), it shows how much any steering of the game
   can find: a policy gains over the racer only what the positions it reaches offer.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

import hraj
from hraj.bots.arena import Z95
from hraj.core.bot import make_bot
from hraj.core.driver import play_game
from hraj.core.game import Seat, State
from hraj.games.trefa.bots import BOTS, RacerBot, WinnerBot
from hraj.games.trefa.rules import FIRST_THROW, TrefaState


def _interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{mean:.1%} ± {half:.1%}"


def anatomy(hero: str, games: int) -> None:
    """How two-player games between `hero` and `racer` end."""
    finisher_won, first_won, hero_won, hero_finished, ties = [], [], [], [], 0
    rows: Counter[int] = Counter()
    margins = []
    for seed in range(games):
        seat = seed % 2
        names = ["racer", "racer"]
        names[seat] = hero
        bots = [make_bot("trefa", name, seed=2 * seed + at) for at, name in enumerate(names)]
        state = play_game(hraj.game("trefa", players=2, first=0).new_state(), bots, random.Random(seed))
        outcome = state.outcome
        assert outcome is not None and isinstance(state, TrefaState)
        finisher = outcome.details["finisher"]
        assert isinstance(finisher, int)
        share = 1 / len(outcome.winners)
        ties += len(outcome.winners) > 1
        finisher_won.append(share if finisher in outcome.winners else 0.0)
        first_won.append(share if 0 in outcome.winners else 0.0)
        hero_won.append(share if seat in outcome.winners else 0.0)
        hero_finished.append(float(finisher == seat))
        rows[state.row[1 - finisher]] += 1
        margins.append(outcome.scores[finisher] - outcome.scores[1 - finisher])
    print(
        f"{hero} vs racer, {games} games: {hero} wins {_interval(hero_won)}, fills its sheet first in"
        f" {_interval(hero_finished)}"
    )
    print(
        f"  the first to fill the sheet wins {_interval(finisher_won)}; the first seat wins {_interval(first_won)};"
        f" ties {ties / games:.1%}"
    )
    spread = ", ".join(f"{full} rows {count / games:.1%}" for full, count in sorted(rows.items()))
    print(
        f"  the other had full: {spread}; the finisher's margin {statistics.fmean(margins):.1f}"
        f" (sd {statistics.stdev(margins):.1f})"
    )


def positions(count: int, seed: int) -> list[tuple[TrefaState, Seat]]:
    """First throws of seeded racer games, one from each game at a random turn."""
    found = []
    for number in range(count):
        rng = random.Random(seed + number)
        state = hraj.game("trefa", players=2, first=0).new_state()
        assert isinstance(state, TrefaState)
        bots = [RacerBot(2 * number), RacerBot(2 * number + 1)]
        stop = rng.randrange(30)
        decisions = 0
        while not state.is_over:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.to_act[0]
            if state.phase == FIRST_THROW:
                if decisions == stop:
                    found.append((state.copy(), seat))
                    break
                decisions += 1
            state.apply(seat, bots[seat].choose(state, seat))
    return found


def calibration(count: int, playouts: int) -> None:
    """The model's chance for the racer's move against racer games played out from there."""
    model, played = [], []
    for number, (state, seat) in enumerate(positions(count, 10_000)):
        move = RacerBot().choose(state, seat)
        valued = {option.action: option.win for option in WinnerBot(0).values(state, seat)}[move]
        wins = 0.0
        for game in range(playouts):
            after = state.copy()
            after.apply(seat, move)
            bots = [RacerBot(1000 * number + 2 * game), RacerBot(1000 * number + 2 * game + 1)]
            play_game(after, bots, random.Random(1000 * number + game))
            assert after.outcome is not None
            wins += (seat in after.outcome.winners) / len(after.outcome.winners)
        model.append(valued)
        played.append(wins / playouts)
    errors = [m - p for m, p in zip(model, played, strict=True)]
    noise = statistics.fmean(p * (1 - p) / playouts for p in played) ** 0.5
    print(
        f"model vs {playouts} racer playouts in {len(model)} positions: mean {statistics.fmean(model):.3f} vs"
        f" {statistics.fmean(played):.3f}, mean |difference| {statistics.fmean(abs(e) for e in errors):.3f}"
        f" (playout noise alone {noise * math.sqrt(2 / math.pi):.3f})"
    )


def advantage(games: int, paces: tuple[float, ...]) -> None:
    """`winner`'s gain over `racer` summed over its decisions, and the most one step could gain.

    With `paces`, `winner` may play on at those prices of a turn (the best for each option);
    the gains are still valued with both seats playing on as racers, as the identity asks.
    """

    def hero(seed: int) -> Callable[[TrefaState, Seat], Any]:
        bot = WinnerBot(seed)
        bot.PACES = paces
        return lambda state, seat: max(bot.values(state, seat), key=lambda option: (option.win, option.score)).action

    named = ", ".join(f"{pace:g}" for pace in paces)
    _gains(f"winner (paces {named})", hero, games)


def walker(name: str) -> Callable[[int], Callable[[TrefaState, Seat], Any]]:
    """A policy whose games the gains are summed along: a bot's name, or `racer@P` for a racer
    that prices a turn at P points."""
    if name.startswith("racer@"):
        try:
            price = float(name.removeprefix("racer@"))
        except ValueError:
            raise ValueError(f"{name}: racer@ takes a price of a turn in points, e.g. racer@4") from None

        def priced(seed: int) -> Callable[[TrefaState, Seat], Any]:
            bot = RacerBot(seed)
            bot.RACE_TURN_COST = price
            return bot.choose

        return priced
    if name not in BOTS:
        raise ValueError(f"{name}: no such Trefa bot; choose one of {', '.join(BOTS)} or racer@P")
    return lambda seed: make_bot("trefa", name, seed=seed).choose


def _gains(label: str, hero: Callable[[int], Callable[[TrefaState, Seat], Any]], games: int) -> None:
    """Along `games` seeded games of `hero` against `racer`: the hero's wins, the sum over its
    decisions of Q(its move) - Q(racer's move), and the sum of the best such gain on offer."""
    gains, bounds, wins = [], [], []
    racer = RacerBot()
    judge = WinnerBot(0)  # the racer's own pace only: Q as the identity asks
    for seed in range(games):
        seat = seed % 2
        choose = hero(2 * seed + seat)
        opponent = RacerBot(2 * seed + 1 - seat)
        total = [0.0, 0.0]

        def weighed(
            state: State[Any, Any],
            to_move: Seat,
            choose: Callable[[TrefaState, Seat], Any] = choose,
            total: list[float] = total,
        ) -> Any:
            assert isinstance(state, TrefaState)
            choice = choose(state, to_move)
            values = {option.action: option.win for option in judge.values(state, to_move)}
            if len(values) > 1:
                usual = values[racer.choose(state, to_move)]
                total[0] += values[choice] - usual
                total[1] += max(values.values()) - usual
            return choice

        bots: list[Callable[[State[Any, Any], Seat], Any]] = [weighed, opponent.choose]
        if seat == 1:
            bots.reverse()
        state = play_game(hraj.game("trefa", players=2, first=0).new_state(), bots, random.Random(seed))
        assert state.outcome is not None
        wins.append((seat in state.outcome.winners) / len(state.outcome.winners))
        gains.append(total[0])
        bounds.append(total[1])
    print(
        f"{label} vs racer, {games} games: wins {_interval(wins)}; its gain over racer's 50%"
        f" {_interval(gains)} a game, the best gain on offer {_interval(bounds)} a game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="games per anatomy table (default 500)")
    parser.add_argument("--positions", type=int, default=20, help="positions for the calibration (default 20)")
    parser.add_argument("--playouts", type=int, default=200, help="racer games per position (default 200)")
    parser.add_argument("--advantage-games", type=int, default=100, help="winner games for the advantage (default 100)")
    parser.add_argument("--paces", default="8", help="comma-separated prices of a turn winner may play on at")
    parser.add_argument("--only-advantage", action="store_true", help="skip the anatomy and the calibration")
    parser.add_argument(
        "--walkers",
        default="",
        help="comma-separated policies (bot names, or racer@P for a racer pricing a turn at P) along whose"
        " games the best gain on offer is summed as well",
    )
    args = parser.parse_args()
    try:
        walkers = [(name, walker(name)) for name in filter(None, args.walkers.split(","))]
    except ValueError as error:
        parser.error(str(error))
    if not args.only_advantage:
        anatomy("racer", args.games)
        anatomy("winner", args.games)
        calibration(args.positions, args.playouts)
    advantage(args.advantage_games, tuple(float(pace) for pace in args.paces.split(",")))
    for name, policy in walkers:
        _gains(name, policy, args.advantage_games)


if __name__ == "__main__":
    main()
