"""Rollouts: the best options of one decision played out to the end, many times each.

A rollout is the ground truth of an evaluation (gnubg's and eXtreme Gammon's): from
the position where a move was made, each of the options the strongest bot ranks
highest (and the option played) is applied and the game is played on to its end by
the game's rollout level in every seat, `trials` times; an option's value is the mean
result in the analysis' unit, given with its standard error.

Variance reduction, as gnubg does it:

- **The same chance for every option.** The k-th chance event of trial i is drawn by
  a generator seeded with (seed, i, k), whatever the option. Options are compared on
  the same luck, so their difference is far steadier than their values.
- **Quasi-random first events** (a game whose adviser asks for it, `stratified_chance`:
  a game of two dice, whose 21 rolls are cheap to list). The first `STRATIFIED` chance events
  of the trials do not come from a generator but from a Latin hypercube: trial i's number for event
  k is (σ_k(i) + ½) / trials, σ_k a seeded permutation. With 36 trials a two-dice
  rollout meets every first roll exactly as often as its chance says (21 rolls, 1/36
  or 2/36 each), and the second rolls are spread as evenly.

Hidden cards: each trial deals what the deciding seat could not see anew
(`state.determinize`), the same deal for every option; the players of the playout each
choose from their own view, as a game does.

Nothing here names a game. A game's adviser says which level plays out
(`Adviser.rollout_bot`), when a playout ends and what it is worth
(`Adviser.rollout_value`: a game of a match may end at the end of the game being
played and count points per cube of the decision). A game may play the trials of one
option in lockstep (arrays) through `Adviser.play_outs`; by default each is played on
its own (`Adviser.play_out`).
Trials are spread over processes in chunks; a progress callback hears of each chunk
and a cancel check stops between chunks.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from hraj.core.errors import InvalidOption
from hraj.core.game import Game, Seat, State
from hraj.core.hints import Adviser, Trial, adviser
from hraj.core.record import MOVE, parse_record

#: Chance events of each trial drawn from the Latin hypercube (gnubg: the first rolls).
STRATIFIED = 2
#: Options rolled out: the best ones as the strongest bot ranks them, and the played one.
TOP = 3
#: Trials per option when none is asked for: every roll of two dice once.
TRIALS = 36
#: Trials a worker plays before it reports (the progress bar's grain).
CHUNK = 4

#: (trials done, trials in all) after each chunk.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RolledOption:
    """One option's rollout: its mean value, the standard error of that mean, the trials."""

    action: str
    mean: float
    error: float
    trials: int
    gap_error: float = 0.0
    """The standard error of the best option's mean less this one's, trial by trial: on
    the same luck it is far below the two errors together."""


@dataclass(frozen=True)
class Rollout:
    """The rollout of move `move`: each option's result, best mean first, in `unit`."""

    game: str
    move: int
    seat: Seat
    unit: str
    played: str
    trials: int
    seed: int
    bot: str
    options: list[RolledOption] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rollout:
        options = [RolledOption(**option) for option in data.get("options", [])]
        return cls(**{**data, "options": options})


class Chance:
    """The chance events of one trial, the same whatever the option: the k-th event of
    trial i is drawn by a generator seeded with (seed, i, k); with `stratify`, the first
    `STRATIFIED` events are picked from the Latin hypercube instead."""

    def __init__(self, trial: int, trials: int, seed: int, *, stratify: bool = False) -> None:
        self.trial = trial
        self.seed = seed
        self.first = [(_permutation(trials, seed, k)[trial] + 0.5) / trials for k in range(STRATIFIED)]
        self.stratify = stratify
        self.drawn = 0

    def resolve(self, state: State[Any, Any]) -> None:
        """Every pending chance event of `state`."""
        while state.is_chance:
            index, self.drawn = self.drawn, self.drawn + 1
            if self.stratify and index < len(self.first):
                outcomes = state.chance_outcomes()
                bounds = list(_cumulative(probability for _, probability in outcomes))
                picked = bisect.bisect_right(bounds, self.first[index] * bounds[-1])
                state.apply_chance(outcomes[min(picked, len(outcomes) - 1)][0], check=False)
            else:
                rng = random.Random(f"chance {self.seed} {self.trial} {index}")
                state.apply_chance(state.sample_chance(rng), check=False)


def _cumulative(values: Any) -> Any:
    total = 0.0
    for value in values:
        total += value
        yield total


def _permutation(size: int, seed: int, event: int) -> list[int]:
    order = list(range(size))
    random.Random(f"hypercube {seed} {event}").shuffle(order)
    return order


@dataclass(frozen=True)
class Task:
    """What a worker needs to play some trials: everything as plain data (it pickles)."""

    game: str
    options: dict[str, object]
    record: dict[str, object]
    event: int
    seat: Seat
    actions: tuple[str, ...]
    trials: tuple[int, ...]
    total: int
    seed: int
    same_luck: bool = True


def play_trials(task: Task) -> list[list[float]]:
    """The worker: for each trial of the task, the value of every option (in order)."""
    import hraj

    game = hraj.game(task.game, **task.options)
    _, _, events = parse_record(task.record)
    before = game.replay_events(events[: task.event], whole=False)
    advice = _adviser(game, task.seed)
    deals = [before.determinize(task.seat, random.Random(f"deal {task.seed} {trial}")) for trial in task.trials]
    columns: list[list[float]] = []
    for column, action in enumerate(task.actions):
        luck = task.seed if task.same_luck else task.seed * 101 + column + 1
        trials = [
            Trial(
                state=_applied(deal, task.seat, action),
                start=deal,
                players=advice.rollout_players(seed=task.seed * 7919 + trial),
                chance=Chance(trial, task.total, luck, stratify=advice.stratified_chance),
                unseen=random.Random(trial),
            )
            for trial, deal in zip(task.trials, deals, strict=True)
        ]
        ends = advice.play_outs(trials)
        values = [advice.rollout_value(end, task.seat, deal) for end, deal in zip(ends, deals, strict=True)]
        columns.append([0.0 if value is None else value for value in values])
    return [list(row) for row in zip(*columns, strict=True)]


def _applied(state: State[Any, Any], seat: Seat, action: str) -> State[Any, Any]:
    after = state.copy()
    after.apply(seat, action)
    return after


def _adviser(game: Game[Any, Any], seed: int) -> Adviser:
    found = adviser(game, seed, quick=True)
    if found is None:
        raise InvalidOption("{game} has no hints or analysis yet.", game=game.id)
    return found


def candidates(
    game: Game[Any, Any], record: object, move: int, *, top: int = TOP, seed: int = 0
) -> tuple[int, Seat, str, list[str]]:
    """The event index, seat and played option of move `move`, and the options to roll
    out: the `top` best by the strongest bot, then the played one if it is not among them."""
    game.replay(record)
    _, _, events = parse_record(record)
    moves = [index for index, (kind, _, _) in enumerate(events) if kind == MOVE]
    if not 1 <= move <= len(moves):
        raise InvalidOption("There is no move {move}; the game has moves 1 to {last}.", move=move, last=len(moves))
    index = moves[move - 1]
    _, seat, played = events[index]
    assert seat is not None
    state = game.replay_events(events[:index], whole=False)
    legal = state.legal_actions(seat)
    if len(legal) < 2:
        raise InvalidOption("Move {move} had only one option: there is nothing to roll out.", move=move)
    seen = state.determinize(seat, random.Random(seed * 1_000_003 + index + 1))
    valued = _adviser(game, seed + index + 1).values(seen, seat, played=played, reasons=False)
    chosen = [str(option.action) for option in valued[:top]]
    if played not in chosen:
        chosen.append(played)
    return index, seat, played, chosen


def rollout(
    game: Game[Any, Any],
    record: dict[str, object],
    move: int,
    *,
    trials: int = TRIALS,
    top: int = TOP,
    seed: int = 0,
    workers: int = 1,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    executor: Executor | None = None,
    same_luck: bool = True,
) -> Rollout | None:
    """Roll out move `move` of `record`; None if `cancelled` said stop before the end.

    `workers` > 1 spreads the chunks over that many processes (or `executor`, kept by
    a server between rollouts). `same_luck=False` gives every option luck of its own (to
    measure what the same luck is worth). Raises InvalidOption for a move that is not
    there or had a single option."""
    if trials < 2:
        raise InvalidOption("A rollout needs at least 2 trials.")
    index, seat, played, actions = candidates(game, record, move, top=top, seed=seed)
    advice = _adviser(game, seed)
    chunks = [tuple(range(start, min(start + CHUNK, trials))) for start in range(0, trials, CHUNK)]
    tasks = [
        Task(game.id, dict(game.options), dict(record), index, seat, tuple(actions), chunk, trials, seed, same_luck)
        for chunk in chunks
    ]
    values: list[list[float]] = []
    done = 0

    def take(rows: list[list[float]]) -> None:
        nonlocal done
        values.extend(rows)
        done += len(rows)
        if progress is not None:
            progress(done, trials)

    if executor is None and workers <= 1:
        for task in tasks:
            if cancelled is not None and cancelled():
                return None
            take(play_trials(task))
    else:
        pool = executor or ProcessPoolExecutor(max_workers=workers)
        try:
            futures: list[Future[list[list[float]]]] = [pool.submit(play_trials, task) for task in tasks]
            for future in futures:
                while True:
                    if cancelled is not None and cancelled():
                        for other in futures:
                            other.cancel()
                        return None
                    try:
                        take(future.result(timeout=0.2))
                        break
                    except TimeoutError:
                        continue
        finally:
            if executor is None:
                pool.shutdown(wait=False, cancel_futures=True)
    columns = [[row[column] for row in values] for column in range(len(actions))]
    means = [sum(column) / len(column) for column in columns]
    top_column = columns[means.index(max(means))]
    rolled = [_summary(action, column, top_column) for action, column in zip(actions, columns, strict=True)]
    rolled.sort(key=lambda option: -option.mean)
    return Rollout(game.id, move, seat, advice.unit, played, trials, seed, advice.rollout_bot, rolled)


def standard_error(results: Sequence[float]) -> float:
    """The standard error of the mean of `results` (0 for fewer than two)."""
    count = len(results)
    if count < 2:
        return 0.0
    mean = sum(results) / count
    return math.sqrt(sum((value - mean) ** 2 for value in results) / (count - 1) / count)


def _summary(action: str, results: Sequence[float], best: Sequence[float]) -> RolledOption:
    gaps = [top - mine for top, mine in zip(best, results, strict=True)]
    return RolledOption(
        action, sum(results) / len(results), standard_error(results), len(results), standard_error(gaps)
    )
