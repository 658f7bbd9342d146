"""Option values: what every legal option of a seat is worth, for hints and analysis.

Each game that can advise puts a module `hints` in its own folder with an `ADVISER`: a
subclass of `Adviser` that values every legal option of a seat in the game's natural
unit (expected final score, chance of winning, equity in points a game),
ranked best first, with one line of reason a player understands where it can give one.
Its best option is what the game's strongest bot plays in the same position with the
same seed: the adviser asks that bot, never a second opinion.

Nothing here names a game; `adviser(game, ...)` finds the game's own through the
registry. The core imports nothing of hraj beyond itself, so reasons are kept as English
message ids with their parameters and translated where they are shown.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hraj.core.bot import Bot, make_bot, strongest_bot
from hraj.core.game import Game, Seat, State
from hraj.core.registry import game_part

#: The units an option's value is given in.
POINTS = "points"  # expected final score (a game without winning chances, e.g. played alone)
WIN = "win"  # chance of winning, 0..1 (a shared win counts as a share)
EQUITY = "equity"  # points a game, cube value 1, from the mover's side


@dataclass(frozen=True, slots=True)
class Reason:
    """One line of reason, as an English message id (a plural pair when `count` is
    set) with its parameters; translated where it is shown."""

    text: str
    plural: str | None = None
    count: int | None = None
    params: Mapping[str, int | float | str] = field(default_factory=dict)
    """Numbers (an `Equity` or a `Percent` reads as one) and words to fill in."""


class Equity(float):
    """A reason's parameter that reads as an equity (`+0,042`) in the player's language."""


class Percent(float):
    """A reason's parameter that reads as a percentage (`57,3 %`) in the player's language."""


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One legal option with its value in `unit` (higher is better for the seat).

    `detail` holds further figures in the game's own words (an expected score beside a
    chance of winning, the number of deals searched, an estimate flag); `reasons` are
    the lines that say why, most telling first."""

    action: object
    """The game's own action, as its state lists it."""
    value: float
    unit: str
    reasons: tuple[Reason, ...] = ()
    detail: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """When a lost value counts as a doubtful move, a mistake and a blunder (gnubg's
    doubtful / bad / very bad), and the mean loss per decision below which a player
    earns each rating word, best first (master, expert, advanced, intermediate; above
    the last: beginner), calibrated against the game's own bot levels
    (`benchmarks.analysis_levels`). All in the adviser's unit."""

    doubtful: float
    bad: float
    very_bad: float
    ratings: tuple[float, float, float, float]
    stake: float = 0.0
    """The least spread between the best and the worst option valued for a decision to
    count in a player's mean loss: once a game is decided every option is worth about
    the same, and counting those decisions would make any play look good."""


def rank(values: Sequence[OptionValue], first: object = None, tiebreak: str | None = None) -> list[OptionValue]:
    """Best first; among equal values the higher `detail[tiebreak]` where it is given (a
    figure by which the bot itself orders them), then the bot's own choice `first`, then
    the order given."""
    order = {id(option): index for index, option in enumerate(values)}

    def key(option: OptionValue) -> tuple[float, float, bool, int]:
        second = -option.detail.get(tiebreak, 0.0) if tiebreak is not None else 0.0
        return (-option.value, second, option.action != first, order[id(option)])

    return sorted(values, key=key)


class Adviser(ABC):
    """Values the options of one game with its strongest bot.

    `seed` seeds the bot exactly as a bot of that seed would play, so the hint's best
    option is the bot's choice. `quick` asks for the cheaper settings that analysis of
    a whole game uses (each game says which in its `hints` module)."""

    def __init__(self, game: Game[Any, Any], seed: int = 0, *, quick: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.quick = quick

    @property
    @abstractmethod
    def unit(self) -> str:
        """POINTS, WIN or EQUITY (may depend on the game's options, e.g. the players)."""

    @property
    @abstractmethod
    def thresholds(self) -> Thresholds: ...

    def is_estimate(self) -> bool:
        """The values are rough estimates, not the bot's own (said beside them)."""
        return False

    @abstractmethod
    def values(
        self, state: State[Any, Any], seat: Seat, *, played: object = None, reasons: bool = True
    ) -> list[OptionValue]:
        """The options of `seat` in `state` (already seen through that seat), best first.

        Every legal option where the bot can value them all cheaply; a searching bot
        may give only those it weighs, but always includes `played` when given (the
        option a player chose, for analysis). `reasons=False` skips the reasons."""

    # --- rollouts (hraj.analysis.rollout) -------------------------------------------------

    @property
    def rollout_bot(self) -> str:
        """The bot level that plays every seat of a rollout: the strongest, unless the
        game names a faster one that plays the same way (its hints module says why)."""
        return strongest_bot(self.game.id)

    #: A rollout's first chance events come from a Latin hypercube over the outcomes
    #: (`chance_outcomes`): for a game whose outcomes are few (two dice: 21 rolls).
    stratified_chance = False

    def rollout_players(self, seed: int) -> list[Bot]:
        """One `rollout_bot` per seat, seeded, without any clock."""
        return [make_bot(self.game.id, self.rollout_bot, seed + seat).unhurried() for seat in range(self.game.players)]

    def play_outs(self, trials: Sequence[Trial]) -> list[State[Any, Any]]:
        """The trials of one option played on, their positions at the end, in order. A
        game that can play many positions at once (arrays in lockstep) overrides this;
        it must draw each trial's chance from its `chance` for the same luck to hold."""
        return [self.play_out(trial) for trial in trials]

    def play_out(self, trial: Trial) -> State[Any, Any]:
        """One trial played on until `rollout_value` has a value: chance from the
        trial's numbers, each seat's choice from its own view."""
        state, start = trial.state, trial.start
        while self.rollout_value(state, 0, start) is None:
            if state.is_chance:
                trial.chance.resolve(state)
                continue
            seat = state.to_act[0]
            state.apply(seat, trial.players[seat].choose(state.determinize(seat, trial.unseen), seat))
        return state

    def rollout_value(self, state: State[Any, Any], seat: Seat, start: State[Any, Any]) -> float | None:
        """What a played-out position is worth to `seat` in `unit`, None while it plays on:
        by default at the game's end, its score (points), its share of the win (win)."""
        outcome = state.outcome
        if outcome is None:
            return None
        if self.unit == WIN:
            return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
        return float(outcome.scores[seat])


class ChanceSource(Protocol):
    """Resolves a state's pending chance events (a rollout's same-luck numbers)."""

    def resolve(self, state: State[Any, Any]) -> None: ...


@dataclass
class Trial:
    """One trial of a rollout: the position after the option (`state`), the one before
    it (`start`), a player per seat, the trial's chance and the generator that deals
    what each player cannot see when it chooses."""

    state: State[Any, Any]
    start: State[Any, Any]
    players: Sequence[Bot]
    chance: ChanceSource
    unseen: random.Random


def adviser(game: Game[Any, Any], seed: int = 0, *, quick: bool = False) -> Adviser | None:
    """The game's own adviser (its `hints` module's `ADVISER`), or None if it has none."""
    module = game_part(game.id, "hints")
    cls: object = getattr(module, "ADVISER", None) if module is not None else None
    if cls is None:
        return None
    if not (isinstance(cls, type) and issubclass(cls, Adviser)):
        raise TypeError(f"ADVISER of {game.id}'s hints is no Adviser subclass")
    return cls(game, seed, quick=quick)


class ScoreOrWinAdviser(Adviser):
    """An adviser whose values are expected final scores (POINTS) where a seat plays
    alone, and chances of winning (WIN) with others at the table; the subclass gives the
    thresholds of each."""

    solo_thresholds: Thresholds
    table_thresholds: Thresholds

    @property
    def unit(self) -> str:
        return POINTS if self.game.players == 1 else WIN

    @property
    def thresholds(self) -> Thresholds:
        return self.solo_thresholds if self.game.players == 1 else self.table_thresholds
