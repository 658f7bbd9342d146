"""Trefa bots: greedy (most points now) and expectimax (best expected row score).

Both read only the position they are given (a copy; Trefa has no hidden information)
and return one of its legal actions.
"""

from __future__ import annotations

from typing import Any

from hraj.bots.base import Bot
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

    @staticmethod
    def value(state: TrefaState, seat: Seat, move: Move) -> float:
        """The expected final score of `seat`'s current row if it plays `move` now."""
        assert state.dice is not None
        row = state.row[seat]
        sheet_row = state.game.seat_rows[seat][row]
        fields = state.fields[seat][row]
        table = row_values(sheet_row.numbers, state.game.hit_bonus)
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


BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "expectimax": ExpectimaxBot}
