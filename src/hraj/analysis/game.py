"""Analysis of a finished game: every decision of every seat against the best option.

The record is replayed event by event. At each decision with more than one legal option
the game's adviser values the options, seeing the position only as that seat saw it
then (`state.determinize(seat, rng)`: a hidden card of another seat is dealt anew,
never read), and the loss is the best option's value less that of the option played,
in the game's unit. Decisions are named by their move number, the one numbering the
replay, the log and every link use. Every figure is seeded from `seed` and the event
number, so the same record always gives the same analysis.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypedDict

from hraj.core.errors import InvalidOption
from hraj.core.game import Game, Seat, State
from hraj.core.hints import EQUITY, Adviser, OptionValue, Thresholds, adviser
from hraj.core.record import CHANCE, MOVE, Event, parse_record

#: Grades of a decision by its loss, gnubg's words: doubtful, bad, very bad.
GRADES = ("doubtful", "bad", "very_bad")
#: Rating words by the mean loss per decision, best first.
RATINGS = ("master", "expert", "advanced", "intermediate", "beginner")

#: Called after each decision analysed: (decisions done, decisions in all).
Progress = Callable[[int, int], None]


#: Options a decision keeps with their values, best first (the played one is added).
TOP = 5
#: The PR of an equity unit: XG's scale, 500 × the equity lost per decision.
PR_SCALE = 500.0


@dataclass(frozen=True)
class Option:
    """One option of a decision as the strongest bot valued it, in the analysis' unit."""

    action: str
    value: float


@dataclass(frozen=True)
class Decision:
    """One analysed decision: its `move` number (the one numbering of moves,
    `hraj.core.record.move_events`) and the index `event` of its event in the record."""

    move: int
    event: int
    seat: Seat
    played: str
    best: str
    played_value: float
    best_value: float
    loss: float
    grade: str | None
    options: int
    """How many legal options the seat had."""
    values: tuple[Option, ...] = ()
    """The best options valued (at most `TOP`) and the played one, best first."""
    spread: float = 0.0
    """The best value less the worst of the options valued: what was at stake."""


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's decisions in sum.

    `decisions` had a choice; `counted` of them had something at stake (a spread of at
    least the thresholds' `stake`) and make the mean loss and the rating. For an equity
    unit, `error_rate` is gnubg's (thousandths of a point lost per decision with a
    choice) and `pr` is XG's performance rating (500 × the equity lost per counted
    decision); None in other units."""

    seat: Seat
    decisions: int
    counted: int
    total_loss: float
    mean_loss: float
    doubtful: int
    bad: int
    very_bad: int
    rating: str
    error_rate: float | None = None
    pr: float | None = None


class AnalysisJson(TypedDict):
    """An analysis as `hraj analyze --json` prints it: the dataclasses below as objects."""

    game: str
    unit: str
    estimate: bool
    thresholds: dict[str, object]
    players: list[dict[str, object]]
    decisions: list[dict[str, object]]
    worst: list[int]
    """The move numbers of the costliest decisions, biggest loss first."""


@dataclass
class Analysis:
    """The analysis of one game, in the adviser's `unit`; `moves` is how many moves the
    game had (decisions without a choice included)."""

    game: str
    unit: str
    estimate: bool
    thresholds: Thresholds
    decisions: list[Decision] = field(default_factory=list)
    players: list[PlayerSummary] = field(default_factory=list)
    moves: int = 0

    def worst(self, count: int = 5) -> list[Decision]:
        """The costliest decisions (any loss at all), biggest first, earlier first on ties."""
        return sorted((d for d in self.decisions if d.loss > 0), key=lambda d: (-d.loss, d.move))[:count]

    def decision(self, move: int) -> Decision | None:
        """The analysed decision of move number `move` (None for a move without a choice)."""
        return next((d for d in self.decisions if d.move == move), None)

    def curve(self, seat: Seat) -> list[tuple[int, float]]:
        """(move, value of the best option) at each decision of `seat`: its outlook through the game."""
        return [(d.move, d.best_value) for d in self.decisions if d.seat == seat]

    def to_json(self) -> AnalysisJson:
        return {
            "game": self.game,
            "unit": self.unit,
            "estimate": self.estimate,
            "thresholds": asdict(self.thresholds),
            "players": [asdict(player) for player in self.players],
            "decisions": [asdict(decision) for decision in self.decisions],
            "worst": [decision.move for decision in self.worst()],
        }


def grade(loss: float, thresholds: Thresholds) -> str | None:
    """doubtful, bad, very_bad, or None for a loss below every threshold."""
    if loss >= thresholds.very_bad:
        return "very_bad"
    if loss >= thresholds.bad:
        return "bad"
    if loss >= thresholds.doubtful:
        return "doubtful"
    return None


def rating(mean_loss: float, thresholds: Thresholds) -> str:
    """The rating word for a mean loss per decision (gnubg's idea: master … beginner)."""
    for word, bound in zip(RATINGS, thresholds.ratings, strict=False):
        if mean_loss < bound:
            return word
    return RATINGS[-1]


def _adviser(game: Game[Any, Any], seed: int, quick: bool) -> Adviser:
    found = adviser(game, seed, quick=quick)
    if found is None:
        raise InvalidOption("{game} has no hints or analysis yet.", game=game.id)
    return found


def hint(
    state: State[Any, Any], seat: Seat, *, seed: int = 0, rng: random.Random | None = None
) -> tuple[list[OptionValue], Adviser]:
    """The options of `seat` ranked by the game's strongest bot, seen as that seat sees them."""
    advice = _adviser(state.game, seed, quick=False)
    seen = state.determinize(seat, rng or random.Random(seed))
    return advice.values(seen, seat), advice


def decisions_to_analyse(game: Game[Any, Any], events: Sequence[Event]) -> int:
    """How many decisions of the record had a choice (for a progress bar's total)."""
    state, count = game.new_state(), 0
    for kind, seat, text in events:
        if kind == MOVE:
            assert seat is not None
            count += len(state.legal_actions(seat)) > 1
            state.apply(seat, text)
        elif kind == CHANCE:
            state.apply_chance(text)
    return count


def analyse(
    game: Game[Any, Any],
    record: object,
    *,
    seed: int = 0,
    quick: bool = True,
    progress: Progress | None = None,
) -> Analysis:
    """Every decision of the record (as read: replay checks it) valued against the best
    option; raises InvalidRecord for a record that does not replay and InvalidOption for a game without an adviser."""
    game.replay(record)  # the whole record must replay before anything is valued
    _, _, events = parse_record(record)
    advice = _adviser(game, seed, quick)
    result = Analysis(game.id, advice.unit, advice.is_estimate(), advice.thresholds)
    total = decisions_to_analyse(game, events)
    state = game.new_state()
    move = 0
    for index, (kind, seat, text) in enumerate(events):
        if kind == CHANCE:
            state.apply_chance(text)
            continue
        if kind != MOVE:
            continue
        assert seat is not None
        move += 1
        legal = state.legal_actions(seat)
        played = next((action for action in legal if str(action) == text), None)
        if played is None:  # a record holds canonical notation; replay checked it is legal
            played = game.parse_action(text)
        if len(legal) > 1:
            # seeded by the event's index, as before the moves were numbered: the same figures
            rng = random.Random(seed * 1_000_003 + index + 1)
            seen = state.determinize(seat, rng)
            values = _adviser(game, seed + index + 1, quick).values(seen, seat, played=played, reasons=False)
            decision = _decision(move, index, seat, text, played, values, len(legal), advice.thresholds)
            if decision is not None:
                result.decisions.append(decision)
            if progress is not None:
                progress(len(result.decisions), total)
        state.apply(seat, played)
    result.moves = move
    result.players = [_summary(seat, result) for seat in range(game.players)]
    return result


def _decision(
    move: int,
    index: int,
    seat: Seat,
    text: str,
    played: object,
    values: Sequence[OptionValue],
    legal: int,
    thresholds: Thresholds,
) -> Decision | None:
    """The decision with its loss and the options kept; None where the adviser did not value the played option."""
    chosen = next((option for option in values if option.action == played), None)
    if chosen is None or not values:
        return None
    best = values[0]
    loss = max(best.value - chosen.value, 0.0)
    kept = list(values[:TOP])
    if chosen not in kept:
        kept.append(chosen)
    return Decision(
        move,
        index,
        seat,
        text,
        str(best.action),
        chosen.value,
        best.value,
        loss,
        grade(loss, thresholds),
        legal,
        tuple(Option(str(option.action), option.value) for option in kept),
        best.value - min(option.value for option in values),
    )


def _summary(seat: Seat, analysis: Analysis) -> PlayerSummary:
    mine = [d for d in analysis.decisions if d.seat == seat]
    stake = analysis.thresholds.stake
    counted = [d for d in mine if d.spread >= stake and d.spread > 0] if stake > 0 else mine
    total = sum(d.loss for d in mine)
    mean = sum(d.loss for d in counted) / len(counted) if counted else 0.0
    grades = [d.grade for d in mine]
    error_rate = pr = None
    if analysis.unit == EQUITY:
        error_rate = 1000 * total / len(mine) if mine else 0.0
        pr = PR_SCALE * sum(d.loss for d in counted) / len(counted) if counted else 0.0
    return PlayerSummary(
        seat,
        len(mine),
        len(counted),
        total,
        mean,
        grades.count("doubtful"),
        grades.count("bad"),
        grades.count("very_bad"),
        rating(mean, analysis.thresholds),
        error_rate,
        pr,
    )
