"""Trefa bots: greedy (most points now), expectimax (best expected row score), racer
(expected row score, paying for time) and winner (the best chance of winning the race).

Each reads only the position it is given (a copy; Trefa has no hidden information)
and returns one of its legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.core.marks import _
from hraj.games.trefa.racemodel import Grid, RowChain, Step, race_value, sheet_model
from hraj.games.trefa.rowvalue import row_values
from hraj.games.trefa.rules import EMPTY, REROLL_MOVE, Move, TrefaState, colour_list
from hraj.games.trefa.sheets import ROWS


def _trefa(state: State[Any, Any]) -> TrefaState:
    if not isinstance(state, TrefaState):
        raise TypeError("a Trefa bot plays Trefa positions only")
    return state


class GreedyBot(Bot):
    """Writes every die that fits (the most points this turn); rerolls only when none fits."""

    name = "greedy"
    help = "writes every die that fits, rerolls only when nothing fits"

    def choose(self, state: State[Any, Any], seat: Seat) -> Move:
        legal = _trefa(state).legal_actions(seat)
        writes = [move for move in legal if move.kind == "write"]
        if writes:
            return max(writes, key=lambda move: move.dice.bit_count())
        return REROLL_MOVE if REROLL_MOVE in legal else legal[0]


class ExpectimaxBot(Bot):
    """Maximises the expected final score of its current row.

    Each action is valued as points now plus the exact expected rest of the row under
    best play (`rowvalue.RowValues`); a reroll is valued by the exact expectation over
    every outcome of the dice thrown again. Optimal in solo play; with several players
    it ignores the race to finish first.
    """

    name = "expectimax"
    help = "maximises the expected score of the current row (exact over every reroll)"

    def choose(self, state: State[Any, Any], seat: Seat) -> Move:
        trefa = _trefa(state)
        legal = trefa.legal_actions(seat)
        return max(legal, key=lambda move: self.value(trefa, seat, move))

    def turn_cost(self, state: TrefaState) -> float:
        """Points a turn spent on the row is worth to this bot: none, time is free."""
        return 0.0

    def value(self, state: TrefaState, seat: Seat, move: Move, turn_cost: float | None = None) -> float:
        """The expected final score of `seat`'s current row if it plays `move` now, less
        `turn_cost` (this bot's own by default) for every later turn the row is expected to take."""
        assert state.dice is not None
        row = state.row[seat]
        sheet_row = state.game.seat_rows[seat][row]
        fields = state.fields[seat][row]
        cost = self.turn_cost(state) if turn_cost is None else turn_cost
        table = row_values(sheet_row.numbers, state.game.hit_bonus, cost)
        mask = sum(1 << at for at, value in enumerate(fields) if value == EMPTY)
        hits = sum(1 for value, printed in zip(fields, sheet_row.numbers, strict=True) if value == printed)
        written = sum(value for value in fields if value > 0)
        if move.kind == "reroll":
            ones = sum(1 << sheet_row.colours.index(c) for c, die in enumerate(state.dice) if die == 1)
            return written + table.reroll_value(mask, hits, ones)
        if move.kind == "stop":
            return written + table.cross_value(mask, hits)
        chosen = {sheet_row.colours.index(c): state.dice[c] for c in colour_list(move.dice)}
        return written + table.write_value(mask, hits, chosen)


class RacerBot(ExpectimaxBot):
    """Expectimax that also pays for time: with other players, every turn costs points.

    The game ends when the first player fills five rows, so a slow perfect row can
    lose to fast good ones. The racer prices each turn at `RACE_TURN_COST` points
    (the figure that won most two- and four-player games in `benchmarks/trefa_bots.py`);
    alone at the table it plays exactly like expectimax.
    """

    name = "racer"
    help = "like expectimax, but with other players it also pays for every turn a row takes"

    RACE_TURN_COST = 8.0

    def turn_cost(self, state: TrefaState) -> float:
        return self.RACE_TURN_COST if state.players > 1 else 0.0


@dataclass(frozen=True)
class OptionValue:
    """An option with its estimated chance of winning (a shared win counts as a share)
    and the expected final score of the seat's whole sheet."""

    action: Move
    win: float
    score: float


class WinnerBot(RacerBot):
    """Plays the option with the best chance of winning the race, not the best score.

    Every sheet's future is exact (`racemodel`): each opponent is modelled as a racer,
    and after this turn the bot follows a racer's policy at a price of a turn from
    `PACES` (the one that wins most from there). Every legal option is valued by its
    exact chance of winning, so a seat far ahead plays safe and fast, and a seat behind
    takes the risks it needs. The values are exact for that model: no sampling, no noise.
    """

    name = "winner"
    help = "plays for the best chance of winning against every sheet on the table; wins 52% of 2-player games vs racer"

    #: The prices of a turn the bot may follow after this turn. More paces gained no more
    #: (`benchmarks/trefa_race.py --paces`): the racer's own price is nearly always the best.
    PACES: tuple[float, ...] = (RacerBot.RACE_TURN_COST,)

    def choose(self, state: State[Any, Any], seat: Seat) -> Move:
        trefa = _trefa(state)
        legal = trefa.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]  # nothing to weigh
        return max(self.values(trefa, seat), key=lambda option: (option.win, option.score)).action

    def values(self, state: TrefaState, seat: Seat) -> list[OptionValue]:
        """Every legal option with its chance of winning and expected final score, best first.

        Values are exact for the model, the same for any seed, and one option's value
        does not depend on what else is weighed.
        """
        trefa = _trefa(state)
        legal = trefa.legal_actions(seat)
        if trefa.players == 1:
            ranked = sorted(legal, key=lambda move: self.value(trefa, seat, move), reverse=True)
            return [OptionValue(move, 1.0, trefa.score(seat) + self.value(trefa, seat, move)) for move in ranked]
        numbers = trefa.game.seat_rows[seat][trefa.row[seat]].numbers
        bonus = trefa.game.hit_bonus
        others = [self._sheet(trefa, (seat + offset) % trefa.players) for offset in range(1, trefa.players)]
        row = trefa.row[seat]
        values = []
        for move in legal:
            best = (-1.0, 0.0)
            for pace in self.PACES:
                model = sheet_model(numbers, bonus, pace)
                done, still = model.chain.after(self._ends(trefa, seat, move, model.chain))
                mine = model.sheet(done, still, ROWS - 1 - row, trefa.score(seat))
                best = max(best, race_value(mine, others))
            values.append(OptionValue(move, *best))
        return sorted(values, key=lambda option: (option.win, option.score), reverse=True)

    def _sheet(self, state: TrefaState, seat: int) -> tuple[Grid, Grid]:
        """A waiting seat's whole-sheet distributions, the seat playing as a racer."""
        row, mask, hits = self._row_state(state, seat)
        numbers = state.game.seat_rows[seat][row].numbers
        model = sheet_model(numbers, state.game.hit_bonus, RacerBot.RACE_TURN_COST)
        done, still = model.chain.done(mask, hits), model.chain.open(mask, hits)
        return model.sheet(done, still, ROWS - 1 - row, state.score(seat))

    def _row_state(self, state: TrefaState, seat: int) -> tuple[int, int, int]:
        """The seat's current row as (row index, empty-field mask, hits)."""
        row = state.row[seat]
        numbers = state.game.seat_rows[seat][row].numbers
        fields = state.fields[seat][row]
        mask = sum(1 << at for at, value in enumerate(fields) if value == EMPTY)
        hits = sum(1 for value, printed in zip(fields, numbers, strict=True) if value == printed)
        return row, mask, hits

    def _ends(self, state: TrefaState, seat: Seat, move: Move, chain: RowChain) -> dict[Step, float]:
        """Where this turn leaves the seat's current row if it plays `move`."""
        assert state.dice is not None
        row, mask, hits = self._row_state(state, seat)
        sheet_row = state.game.seat_rows[seat][row]
        if move.kind == "reroll":
            ones = sum(1 << sheet_row.colours.index(c) for c, die in enumerate(state.dice) if die == 1)
            return chain.reroll(mask, hits, ones & mask)
        if move.kind == "stop":
            return {(mask & (mask - 1), hits, 0): 1.0}
        written = {sheet_row.colours.index(c): state.dice[c] for c in colour_list(move.dice)}
        new_hits = hits + sum(1 for field, value in written.items() if value == sheet_row.numbers[field])
        return {(mask & ~sum(1 << field for field in written), new_hits, sum(written.values())): 1.0}


BOTS: dict[str, type[Bot]] = {
    "greedy": GreedyBot,
    "expectimax": ExpectimaxBot,
    "racer": RacerBot,
    "winner": WinnerBot,
}


#: The bot a new seat gets in the web and the terminal: the middle level.
DEFAULT_BOT = "racer"
#: Each level, easiest first: its name and what it does (the bot's own description,
#: with its measured strength). `expectimax` is the best solo player and has no level.
LEVELS: dict[str, tuple[str, str]] = {
    "greedy": (_("Beginner"), GreedyBot.help),
    "racer": (_("Advanced"), RacerBot.help),
    "winner": (_("Master"), WinnerBot.help),
}
