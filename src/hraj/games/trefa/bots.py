"""Trefa bots: greedy (most points now), expectimax (best expected row score) and racer.

Each reads only the position it is given (a copy; Trefa has no hidden information)
and returns one of its legal actions.
"""

from __future__ import annotations

from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.games.trefa.rowvalue import row_values
from hraj.games.trefa.rules import EMPTY, REROLL_MOVE, Move, TrefaState, colour_list


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

    def value(self, state: TrefaState, seat: Seat, move: Move) -> float:
        """The expected final score of `seat`'s current row if it plays `move` now,
        less `turn_cost` for every later turn the row is expected to take."""
        assert state.dice is not None
        row = state.row[seat]
        sheet_row = state.game.seat_rows[seat][row]
        fields = state.fields[seat][row]
        table = row_values(sheet_row.numbers, state.game.hit_bonus, self.turn_cost(state))
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


BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "expectimax": ExpectimaxBot, "racer": RacerBot}
