"""Qwixx bots that read the exact solo table (`solo_table`), each valuing every legal option.

`OptimalQwixxBot` values an option by the expected final score of its own sheet and
takes the best: alone by the solo table (the exact optimum), with others by the duel
table below. Deciding the white sum, it already sees the coloured dice, so a white
option is worth the best colour step that can follow it.

`MasterQwixxBot` plays to win when others sit at the table. It estimates each seat's
final score by the duel table, solved like the solo one but with another seat's turn
after each own turn (a white sum to cross for free, then a chance that the game ends);
a row another player locked counts as frozen with what it holds. It turns the
differences into a win probability whose spread shrinks as the game runs out, and
knows exactly who wins when an option ends the game. So it locks a row to freeze the
others' rows or to end a game it leads, and avoids ending one it trails.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.games.qwixx.rules import (
    COLOUR,
    LAST,
    MAX_PENALTIES,
    ROWS_LOCKED_TO_END,
    WHITE,
    Cross,
    QwixxState,
    number_index,
    row_points,
)
from hraj.games.qwixx.solo_table import ROW_INDEX, ROW_POINTS, SoloTable, duel_table, solo_table

#: A row someone else locked behaves like a locked row of ours, minus its points.
_FROZEN = ROW_INDEX[(LAST, 6)]


class Sheet:
    """One seat's sheet as the table sees it: four row masks and the penalties."""

    __slots__ = ("masks", "penalties")

    def __init__(self, masks: Sequence[int], penalties: int) -> None:
        self.masks = list(masks)
        self.penalties = penalties

    def crossed(self, row: int, number: int) -> Sheet:
        masks = self.masks[:]
        masks[row] |= 1 << number_index(row, number)
        return Sheet(masks, self.penalties)

    def penalised(self) -> Sheet:
        return Sheet(self.masks, self.penalties + 1)

    def may_cross(self, row: int, number: int, locked: Sequence[bool]) -> bool:
        mask, index = self.masks[row], number_index(row, number)
        if locked[row] or index < mask.bit_length():
            return False
        return index != LAST or mask.bit_count() >= 5

    def score(self, locked: Sequence[bool]) -> int:
        del locked  # a lock cross is the row's bit LAST: the mask alone tells it
        return sum(row_points(mask.bit_count() + (mask >> LAST & 1)) for mask in self.masks) - 5 * self.penalties

    def value(self, table: SoloTable, locked: Sequence[bool]) -> float:
        """Expected final score by the solo table, rows locked by others frozen."""
        rows, extra = [], 0
        for row, mask in enumerate(self.masks):
            if locked[row] and not mask >> LAST & 1:
                rows.append(_FROZEN)
                extra += row_points(mask.bit_count()) - int(ROW_POINTS[_FROZEN])
            else:
                rows.append(ROW_INDEX[(mask.bit_length() - 1, mask.bit_count())])
        return table.value(rows, self.penalties) + extra


def locks_after(locked: Sequence[bool], sheet: Sheet) -> list[bool]:
    """The rows locked once `sheet`'s crosses are made."""
    return [was or bool(mask >> LAST & 1) for was, mask in zip(locked, sheet.masks, strict=True)]


def is_over(locked: Sequence[bool], sheet: Sheet) -> bool:
    return sum(locked) >= ROWS_LOCKED_TO_END or sheet.penalties >= MAX_PENALTIES


#: An option's value and the tie-break among equal values.
Score = tuple[float, float]


def solo_value(sheet: Sheet, locked: Sequence[bool]) -> float:
    """Expected final score of `sheet` alone: its score once the game is over."""
    if is_over(locked, sheet):
        return float(sheet.score(locked))
    return sheet.value(solo_table(), locked)


class TableBot(Bot):
    """A bot that values each legal option by where it leads; it plays the best value."""

    def choose(self, state: State[Any, Any], seat: Seat) -> Cross:
        """The best-valued option; among equal values, the better tie-break (see `leaf`)."""
        options = self.scored(state, seat)
        return max(options, key=lambda option: option[1])[0]

    def values(self, state: State[Any, Any], seat: Seat) -> list[tuple[Cross, float]]:
        """Every legal option of `seat` with its value (see the subclass for its unit)."""
        return [(action, score[0]) for action, score in self.scored(state, seat)]

    def scored(self, state: State[Any, Any], seat: Seat) -> list[tuple[Cross, Score]]:
        """Every legal option with its (value, tie-break)."""
        assert isinstance(state, QwixxState)
        sheet = Sheet(state.marks[seat], state.penalties[seat])
        active = seat == state.active
        roll = state.roll
        assert roll is not None
        result = []
        for action in state.legal_actions(seat):
            after = sheet if action.row < 0 else sheet.crossed(action.row, action.number)
            if state.phase == WHITE and active:
                value = self.best_colour_step(state, seat, after, crossed=action.row >= 0)
            elif state.phase == COLOUR:
                crossed = state.active_crossed or action.row >= 0
                value = self.leaf(state, seat, after if crossed else after.penalised())
            else:
                value = self.leaf(state, seat, after)
            result.append((action, value))
        return result

    def best_colour_step(self, state: QwixxState, seat: int, sheet: Sheet, crossed: bool) -> Score:
        """The best the active seat can do in the colour step after its white-sum choice."""
        locked = locks_after(state.locked, sheet)
        if is_over(locked, sheet):
            return self.leaf(state, seat, sheet)
        roll = state.roll
        assert roll is not None
        best = self.leaf(state, seat, sheet if crossed else sheet.penalised())
        for row, die in enumerate(roll.colours):
            if die is None or locked[row]:
                continue
            for number in {roll.white1 + die, roll.white2 + die}:
                if sheet.may_cross(row, number, locked):
                    best = max(best, self.leaf(state, seat, sheet.crossed(row, number)))
        return best

    def leaf(self, state: QwixxState, seat: int, sheet: Sheet) -> Score:
        """(value, tie-break) of the position where this seat's sheet has become `sheet`."""
        raise NotImplementedError


class OptimalQwixxBot(TableBot):
    """Plays for the most expected points of its own sheet: exactly so alone, by the duel table with others."""

    name = "optimal"
    help = "plays the exact solo optimum for the most points"
    #: Read the solo table even with others at the table (the plain solo optimum).
    solo_only = False
    #: With others, the share of the duel table's expected gain credited to the sheet
    #: (see MasterQwixxBot.share; 0.6 won 54% against greedy in two-player arenas, 1.0 43%).
    share = 0.6

    def leaf(self, state: QwixxState, seat: int, sheet: Sheet) -> Score:
        locked = locks_after(state.locked, sheet)
        if state.players == 1 or self.solo_only:
            return solo_value(sheet, locked), 0.0
        now = sheet.score(locked)
        if is_over(locked, sheet):
            return float(now), 0.0
        return now + self.share * (sheet.value(duel_table(), locked) - now), 0.0


class SoloOptimalQwixxBot(OptimalQwixxBot):
    """The solo optimum played at any table, blind to the others: the yardstick of the benchmark."""

    name = "solo-optimal"
    solo_only = True


class MasterQwixxBot(TableBot):
    """Plays to win: solo values of every sheet turned into a probability of winning."""

    name = "master"
    help = "plays to win: weighs every sheet at the table, races to lock and ends games it leads"

    #: Spread of a seat's final score per point it may still gain (fitted by arenas).
    spread = 0.9
    #: Share of the duel table's expected gain credited to a seat: real tables end sooner
    #: than the table's model (measured by arenas against greedy; 1.0 lost a third of the
    #: three-player wins).
    share = 0.6

    def leaf(self, state: QwixxState, seat: int, sheet: Sheet) -> Score:
        """(chance of winning, expected margin over the best other seat)."""
        locked = locks_after(state.locked, sheet)
        others = [s for s in range(state.players) if s != seat]
        if not others:  # solo: the most points is the only goal
            return solo_value(sheet, locked), 0.0
        table = duel_table()
        their = [Sheet(state.marks[s], state.penalties[s]) for s in others]
        if is_over(locked, sheet):
            mine, scores = sheet.score(locked), [other.score(locked) for other in their]
            best = max(scores)
            if mine != best:
                return (1.0 if mine > best else 0.0), float(mine - best)
            return 1.0 / (1 + scores.count(best)), 0.0
        mine_now = sheet.score(locked)
        mine_final = mine_now + self.share * (sheet.value(table, locked) - mine_now)
        chance, margin = 1.0, math.inf
        for other in their:
            now = other.score(locked)
            final = now + self.share * (other.value(table, locked) - now)
            room = max(mine_final - mine_now, 0.0) + max(final - now, 0.0)
            sigma = self.spread * math.sqrt(room + 1.0)
            chance *= 0.5 * math.erfc(-(mine_final - final) / (sigma * math.sqrt(2)))
            margin = min(margin, mine_final - final)
        return chance, margin
