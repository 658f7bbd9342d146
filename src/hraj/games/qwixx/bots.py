"""Qwixx bots in three levels, and the greedy player, the easiest of them.

Levels, easiest first (`LEVELS`; measured by `python -m benchmarks.qwixx_bots`):
`greedy` (beginner) crosses what pays now; `optimal` (advanced) plays the exact solo
optimum for its own points; `master` plays to win against the others at the table.
The last two read the solo value table and value every option (`table_bots`).

The greedy bot values a sheet as its row points plus the chance-weighted worth of the
numbers still open in each row (a 7 comes up six times as often as a 2, so skipping
it costs more). It crosses when that value rises enough, takes a penalty only when
every cross would cost more than the five points it saves, and ends the game with
a lock only when it is ahead.
"""

from __future__ import annotations

from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.core.marks import _
from hraj.games.qwixx.rules import (
    COLOUR,
    LAST,
    PASS,
    PENALTY_POINTS,
    ROWS_LOCKED_TO_END,
    Cross,
    QwixxState,
    number_index,
    row_points,
)
from hraj.games.qwixx.table_bots import MasterQwixxBot, OptimalQwixxBot

#: How often the two white dice (or a white and a coloured die) sum to n, out of 36.
SUM_WEIGHT = {n: (6 - abs(7 - n)) / 36 for n in range(2, 13)}
ROW_NUMBERS = (tuple(range(2, 13)),) * 2 + (tuple(range(12, 1, -1)),) * 2


def row_value(mask: int, crosses: int, row: int, locked: bool, open_weight: float) -> float:
    """Points of a row now plus the worth of the numbers still open to its right."""
    value = float(row_points(crosses))
    if locked:
        return value
    start = mask.bit_length()
    open_chances = sum(SUM_WEIGHT[ROW_NUMBERS[row][i]] for i in range(start, LAST + 1))
    return value + open_weight * (crosses + 1) * open_chances


class GreedyQwixxBot(Bot):
    """Crosses what pays, skips little, avoids penalties, locks only to win."""

    name = "greedy"
    help = "weighs points against the numbers a cross skips; a fair opponent"

    open_weight = 2.5
    #: How much a cross must gain before a non-forced cross is worth it. Both figures were
    #: chosen by round-robin arenas of variants (benchmarks/qwixx_bots.py).
    margin = 1.5

    def choose(self, state: State[Any, Any], seat: Seat) -> Cross:
        assert isinstance(state, QwixxState)
        legal = state.legal_actions(seat)
        must_avoid_penalty = state.phase == COLOUR and seat == state.active and not state.active_crossed
        threshold = -PENALTY_POINTS if must_avoid_penalty else self.margin
        best, best_gain = PASS, threshold
        for action in legal:
            if action.row < 0:
                continue
            gain = self.gain(state, seat, action)
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def gain(self, state: QwixxState, seat: int, action: Cross) -> float:
        row = action.row
        mask = state.marks[seat][row]
        crosses = state.crosses(seat, row)
        index = number_index(row, action.number)
        before = row_value(mask, crosses, row, False, self.open_weight)
        locks = index == LAST
        after = row_value(mask | 1 << index, crosses + 1 + locks, row, locks, self.open_weight)
        gain = after - before
        if locks and sum(state.locked) + 1 >= ROWS_LOCKED_TO_END:
            mine = state.score(seat) + row_points(crosses + 2) - row_points(crosses)
            best_other = max((state.score(s) for s in range(state.players) if s != seat), default=mine - 1)
            gain += 100 if mine > best_other else -100
        return gain


BOTS: dict[str, type[Bot]] = {"greedy": GreedyQwixxBot, "optimal": OptimalQwixxBot, "master": MasterQwixxBot}
#: The bot a new seat gets in the web and the terminal: the middle level.
DEFAULT_BOT = "optimal"
#: Each level: its name and what it does, with its measured strength (benchmarks/qwixx_bots.py).
LEVELS: dict[str, tuple[str, str]] = {
    "greedy": (
        _("Beginner"),
        _("crosses what pays at once; about 74 points alone"),
    ),
    "optimal": (
        _("Advanced"),
        _("plays the exact solo optimum for its own points; about 115 points alone"),
    ),
    "master": (
        _("Master"),
        _("plays to win: watches every sheet, races to lock rows; wins 62% of 2-player games vs the Beginner"),
    ),
}
