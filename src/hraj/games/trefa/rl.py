"""Trefa for learning agents: 65 action ids, and an observation of one seat's view.

Action ids: 0 `reroll`, 1 `stop`, `1 + mask` for `write` of the dice in `mask` (bit i
is the i-th colour of k w r y g b), so 2..64. Chance ids: one die per chance step (id =
pips - 1; a reroll draws only the dice not kept at 1), or the starting seat. The
observation layout is documented in docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from hraj.core.codec import ActionTableCodec, DiceCodec, SharedParts, Writer, seen_from
from hraj.games.trefa.rules import CHOOSE_FIRST, PHASES, REROLL, Move, Roll, Trefa, TrefaState
from hraj.games.trefa.sheets import COLOURS, FIELDS, ROWS
from hraj.games.trefa.view import RowView, SheetView, TrefaView

NUM_ACTIONS = 2 + (1 << FIELDS) - 1
_FIELD = len(COLOURS) + 5  # colour one-hot, printed, empty, crossed, value, hit
_ROW = FIELDS * _FIELD + 3  # fields, complete, hits, points
_SEAT = (ROWS + 1) + ROWS * _ROW + 1  # current row (or done), rows, score
#: A field's colour by its letter: the one cell of six that is 1.
_COLOUR_INDEX = {letter: number for number, letter in enumerate(COLOURS)}


def move_id(action: Move) -> int:
    if action.kind == "reroll":
        return 0
    if action.kind == "stop":
        return 1
    return 1 + action.dice


#: The id of every action, worked out once.
MOVE_IDS: dict[Move, int] = {
    move: move_id(move)
    for move in (Move("reroll"), Move("stop"), *(Move("write", dice) for dice in range(1, 1 << FIELDS)))
}


def _kept(state: TrefaState) -> int:
    """The dice a pending reroll keeps at 1 (none on a turn's first throw)."""
    return state.kept if state.phase == REROLL else 0


class TrefaCodec(ActionTableCodec[TrefaView, TrefaState], DiceCodec[TrefaView, TrefaState]):
    """Trefa for 1-6 seats; the observation grows with the number of seats."""

    ids = MOVE_IDS
    perfect_information = True

    def __init__(self, game: Trefa) -> None:
        super().__init__(game)
        assert isinstance(game, Trefa)
        #: The most a row can score (six 6s and the top hit bonus of the sheet set in play).
        self.row_max = FIELDS * 6 + max(game.hit_bonus)
        self._row_cells = SharedParts(self._write_row, _ROW)
        self._sheet_cells = SharedParts(self._write_sheet, _SEAT)

    @property
    def observation_size(self) -> int:
        players = self.game.players
        return len(PHASES) + players + 6 * FIELDS + 2 * FIELDS + 1 + _SEAT * players

    def encode(self, view: TrefaView, put: Writer) -> None:
        players = self.game.players
        me = view["seat"]
        put.one_hot(PHASES.index(view["phase"]), len(PHASES))
        put.seat(view["active"], me, players)
        dice = view["dice"]
        if dice is None:
            put.skip(6 * len(COLOURS))
        else:
            put.one_hots([pips - 1 for pips in dice.values()], 6)
        put.members(view["kept"], COLOURS)
        put.members(view["writable"], COLOURS)
        put.value(float(view["rerolled"]))
        for sheet in seen_from(view["sheets"], me):
            # a sheet is shared by every view until a turn changes it (see Trefa.sheet_view)
            put.block(self._sheet_cells(sheet))

    def _write_sheet(self, sheet: SheetView, put: Writer) -> None:
        """A sheet: its current row (one-hot, the last cell once it is full), its rows, its score."""
        current = sheet["current_row"]
        put.one_hot(ROWS if current is None else current, ROWS + 1)
        for row in sheet["rows"]:
            put.block(self._row_cells(row))
        put.value(sheet["score"] / (ROWS * self.row_max))

    def _write_row(self, row: RowView, put: Writer) -> None:
        """A row: per field its colour, printed number, empty, crossed, value and hit;
        then complete, hits and points."""
        for field in row["fields"]:
            value = field["value"]
            put.one_hot(_COLOUR_INDEX[field["colour"]], len(COLOURS))
            put.values(
                (
                    field["printed"] / 6,
                    float(value is None),
                    float(field["crossed"]),
                    (value or 0) / 6,
                    float(field["hit"]),
                )
            )
        put.values((float(row["complete"]), row["hits"] / FIELDS, row["points"] / self.row_max))

    # --- chance: the first seat, or one die per step --------------------------------------

    def draws_first(self, state: TrefaState) -> bool:
        return state.phase == CHOOSE_FIRST

    def dice_thrown(self, state: TrefaState) -> int:
        return FIELDS - _kept(state).bit_count()

    def throw(self, state: TrefaState, pips: Sequence[int]) -> Roll:
        kept = _kept(state)
        dice = iter(pips)
        return Roll(*(1 if kept >> colour & 1 else next(dice) for colour in range(FIELDS)))

    # --- bounds -----------------------------------------------------------------------------

    def max_game_length(self) -> int:
        """Every turn fills or crosses at least one of a seat's 30 fields."""
        turns = self.game.players * ROWS * FIELDS
        return 1 + turns * (2 * FIELDS + 2)

    def score_range(self) -> tuple[float, float]:
        return (0.0, float(ROWS * self.row_max))


CODEC = TrefaCodec
