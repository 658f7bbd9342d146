"""What the cube decisions are worth: a bot against itself without them, money play.

Run `python -m benchmarks.backgammon_cube [PAIRS] [BOT] [MATCH_LENGTH]` (400 pairs,
`pubeval` and a money game by default; BOT is any backgammon bot name; a match length
plays matches instead of games). Both sides play the same checker play; one
makes its cube and resignation decisions (`decisions.decide` inside the bot), the
other never doubles, always takes, never resigns and declines every resignation.
Duplicate dice: each seed's dice are played twice with the sides swapped, and the
pair's average counts once. Money game with the cube, no Jacoby, no beavers.

Printed: the points a game the deciding side wins (in matches: its share of matches
won), with a 95% normal interval over the pairs, the number of games, and how the
games ended.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

import hraj
from hraj.core.bot import Bot, make_bot
from hraj.games.backgammon.notation import DECLINE, ROLL, TAKE
from hraj.games.backgammon.rules import CUBE, DOUBLED, MOVE, RESIGNED, BackgammonState


class NoCube(Bot):
    """The same checker play, with no cube or resignation decisions of its own."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.name = f"{inner.name} without cube"

    def choose(self, state: Any, seat: int) -> Any:
        assert isinstance(state, BackgammonState)
        if state.phase == MOVE:
            return self.inner.choose(state, seat)
        if state.phase == CUBE:
            return ROLL
        if state.phase == RESIGNED:
            return DECLINE
        assert state.phase == DOUBLED
        return TAKE


def play(seed: int, deciding_seat: int, bot_name: str, ends: Counter[str], match_length: int = 0) -> float:
    """One game (or match) with the dice of `seed`; the points the deciding side wins
    (in a match: 1 if it wins the match, else 0)."""
    deciding = make_bot("backgammon", bot_name, seed)
    plain = NoCube(make_bot("backgammon", bot_name, seed))
    bots: list[Bot] = [plain, plain]
    bots[deciding_seat] = deciding
    dice = random.Random(seed)
    state: Any = hraj.game("backgammon", match_length=match_length).new_state()
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(dice))
            continue
        seat = state.to_act[0]
        state.apply(seat, bots[seat].choose(state.copy(), seat))
    for _, points, how in state.games:
        ends[f"{how} x{points}"] += 1
    if match_length:
        return float(state.outcome.winners == (deciding_seat,))
    return float(state.outcome.scores[deciding_seat])


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    bot_name = sys.argv[2] if len(sys.argv) > 2 else "pubeval"
    length = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    ends: Counter[str] = Counter()
    start = time.perf_counter()
    results = [
        (play(seed, 0, bot_name, ends, length) + play(seed, 1, bot_name, ends, length)) / 2 for seed in range(pairs)
    ]
    mean = statistics.fmean(results)
    half = 1.96 * statistics.stdev(results) / math.sqrt(pairs)
    if length:
        figure = f"wins {mean:.1%} [{mean - half:.1%}, {mean + half:.1%}] (95%) of {2 * pairs} {length}-point matches"
    else:
        figure = f"{mean:+.3f} points a game [{mean - half:+.3f}, {mean + half:+.3f}] (95%) over {2 * pairs} games"
    print(
        f"{bot_name} with cube decisions against itself without: {figure} in {pairs} duplicate pairs, "
        f"{time.perf_counter() - start:.0f} s"
    )
    print("endings:", ", ".join(f"{what} {count}" for what, count in ends.most_common()))


if __name__ == "__main__":
    main()
