"""Qwixx for learning agents: 45 action ids, and an observation of one seat's view.

Action ids: 0 is `pass`; `1 + 11 * row + (number - 2)` crosses `number` in `row`
(rows r y g b). Chance ids: one die per chance step (id = pips - 1), or the starting
seat. The observation layout is documented in docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from hraj.core.codec import ActionTableCodec, DiceCodec, SharedParts, Writer, seen_from
from hraj.games.qwixx.rules import (
    CHOOSE_FIRST,
    LAST,
    MAX_PENALTIES,
    ROWS,
    Cross,
    Qwixx,
    QwixxState,
    Roll,
    number_index,
)
from hraj.games.qwixx.view import QwixxView, SheetView, dice_values

NUMBERS = LAST + 1  # 11 numbers per row
PHASES = ("choose_first", "roll", "white", "colour", "over")
DICE = ("w1", "w2", *ROWS)
NUM_ACTIONS = 1 + len(ROWS) * NUMBERS
#: The best sheet: every row full and locked (78 points each).
MAX_SCORE = 4 * 78


def cross_id(action: Cross) -> int:
    return 0 if action.row < 0 else 1 + NUMBERS * action.row + action.number - 2


#: The cells of one seat's sheet.
SHEET_CELLS = len(ROWS) * (NUMBERS + 1) + MAX_PENALTIES + 1 + 1


def _write_sheet(sheet: SheetView, put: Writer) -> None:
    """A sheet: per row its 11 numbers left to right (1 = crossed) and the lock, then
    the penalties (one-hot) and the score."""
    for row_index, row in enumerate(sheet["rows"].values()):
        put.ones([number_index(row_index, number) for number in row["crossed"]], NUMBERS)
        put.value(float(row["lock"]))
    put.one_hot(sheet["penalties"], MAX_PENALTIES + 1)
    put.value(sheet["score"] / MAX_SCORE)


#: The id of every action, worked out once.
CROSS_IDS: dict[Cross, int] = {Cross(-1, 0): 0} | {
    Cross(row, number): cross_id(Cross(row, number)) for row in range(len(ROWS)) for number in range(2, 13)
}
#: The id of each answer to the white sum as a view writes it (`my_answer`).
_ANSWER_IDS = {"pass": 0} | {
    f"{row}{number}": cross_id(Cross(row_index, number))
    for row_index, row in enumerate(ROWS)
    for number in range(2, 13)
}


class QwixxCodec(ActionTableCodec[QwixxView, QwixxState], DiceCodec[QwixxView, QwixxState]):
    """Qwixx for 1-5 seats; the observation grows with the number of seats."""

    ids = CROSS_IDS

    def __init__(self, game: Qwixx) -> None:
        super().__init__(game)
        self._sheet_cells = SharedParts(_write_sheet, SHEET_CELLS)

    @property
    def observation_size(self) -> int:
        players = self.game.players
        return len(PHASES) + 2 * players + 1 + NUM_ACTIONS + 6 * len(DICE) + len(ROWS) + SHEET_CELLS * players

    def encode(self, view: QwixxView, put: Writer) -> None:
        players = self.game.players
        me = view["seat"]
        put.one_hot(PHASES.index(view["phase"]), len(PHASES))
        put.seat(view["active"], me, players)
        put.seats(view["to_act"], me, players)
        put.value(float(view["answered"]))
        answer = view.get("my_answer")
        put.one_hot(None if answer is None else _ANSWER_IDS[answer], NUM_ACTIONS)
        dice = view["dice"]
        if dice is None:
            put.skip(6 * len(DICE))
        else:
            put.one_hots([None if pips is None else pips - 1 for pips in dice_values(dice).values()], 6)
        put.members(view["locked"], ROWS)
        for sheet in seen_from(view["sheets"], me):
            # the rows are shared by every view until a cross changes one (see QwixxState.view)
            put.block(self._sheet_cells(sheet, (*map(id, sheet["rows"].values()), sheet["penalties"])))

    # --- chance: the first seat, or one die per step --------------------------------------

    def draws_first(self, state: QwixxState) -> bool:
        return state.phase == CHOOSE_FIRST

    def dice_thrown(self, state: QwixxState) -> int:
        return 2 + sum(not locked for locked in state.locked)

    def throw(self, state: QwixxState, pips: Sequence[int]) -> Roll:
        dice = iter(pips)
        white1, white2 = next(dice), next(dice)
        colours = [None if locked else next(dice) for locked in state.locked]
        return Roll(white1, white2, (colours[0], colours[1], colours[2], colours[3]))

    # --- bounds -----------------------------------------------------------------------------

    def max_game_length(self) -> int:
        """Each turn the active seat crosses (44 numbers a sheet) or takes a penalty (4 end it)."""
        players = self.game.players
        turns = players * (len(ROWS) * NUMBERS + MAX_PENALTIES)
        return 1 + turns * (len(DICE) + players + 1)

    def score_range(self) -> tuple[float, float]:
        return (-5.0 * MAX_PENALTIES, float(MAX_SCORE))


CODEC = QwixxCodec
