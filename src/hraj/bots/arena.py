"""The arena: seeded games between bots, with win rates and mean scores and their 95% CIs.

Seats rotate from game to game, so no bot profits from sitting first. A tied game
gives each winner an equal share of the win. Every bot decides by its budget of work
alone (`Bot.unhurried`), never by the clock, so an arena's results depend on its seed
only, not on the machine or how busy it is.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hraj.core.bot import Bot, make_bot
from hraj.core.driver import play_game
from hraj.core.game import Game

Z95 = 1.959963984540054

#: An entrant: a bot's name, or a maker that builds a bot from a seed (a trained agent).
BotSpec = str | Callable[[int], Bot]


@dataclass(frozen=True)
class Estimate:
    """A sample mean with the half-width of its 95% confidence interval."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        if not values:
            return cls(math.nan, math.nan)
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, math.inf)
        return cls(mean, Z95 * statistics.stdev(values) / math.sqrt(len(values)))

    def __str__(self) -> str:
        return f"{self.mean:.3f} ± {self.half_width:.3f}"


@dataclass
class Entrant:
    """One of the bots named for the arena, with its results so far."""

    label: str
    bot_name: str
    wins: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)


@dataclass
class ArenaResult:
    games: int
    entrants: list[Entrant]

    def win_rate(self, index: int) -> Estimate:
        return Estimate.of(self.entrants[index].wins)

    def mean_score(self, index: int) -> Estimate:
        return Estimate.of(self.entrants[index].scores)


def run_arena(
    game: Game[Any, Any],
    bot_names: Sequence[BotSpec],
    games: int,
    seed: int = 0,
    on_game: Callable[[int], None] | None = None,
    first: int = 0,
) -> ArenaResult:
    """Play `games` seeded games; the i-th game shifts the seats by i.

    `first` starts at game number `first` instead of 0, so a long arena can be split
    into chunks that together give exactly the games of one run.
    """
    seats = len(bot_names)
    labels = [spec if isinstance(spec, str) else str(getattr(spec, "name", "agent")) for spec in bot_names]
    entrants = [Entrant(f"{name} #{i + 1}", name) for i, name in enumerate(labels)]
    for number in range(first, first + games):
        game_seed = seed * 1_000_003 + number
        order = [(number + seat) % seats for seat in range(seats)]  # order[seat] = entrant index
        bots = [_make(game, bot_names[entrant], game_seed * 31 + seat) for seat, entrant in enumerate(order)]
        state = play_game(game.new_state(), bots, random.Random(game_seed))
        outcome = state.outcome
        assert outcome is not None
        for seat, entrant in enumerate(order):
            share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
            entrants[entrant].wins.append(share)
            entrants[entrant].scores.append(outcome.scores[seat])
        if on_game is not None:
            on_game(number - first + 1)
    return ArenaResult(games, entrants)


def _make(game: Game[Any, Any], spec: BotSpec, seed: int) -> Bot:
    return (make_bot(game.id, spec, seed) if isinstance(spec, str) else spec(seed)).unhurried()
