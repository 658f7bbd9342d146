"""Qwixx hints: every legal cross (and the pass) valued by the strongest bot, `master`.

Alone, a value is the expected final score under optimal play (the exact solo table);
with others at the table, `master`'s chance of winning. Both are cheap (table look-ups),
so hints and analysis value every option with the very settings the bot plays by.
"""

from __future__ import annotations

from typing import Any

from hraj.core.bot import make_bot, strongest_bot
from hraj.core.game import Seat, State
from hraj.core.hints import OptionValue, Reason, ScoreOrWinAdviser, Thresholds, rank
from hraj.core.marks import _, _n
from hraj.games.qwixx.rules import COLOUR, LAST, MAX_PENALTIES, ROWS_LOCKED_TO_END, WHITE, Cross, QwixxState
from hraj.games.qwixx.rules import number_index as _index
from hraj.games.qwixx.table_bots import TableBot

#: Expected points lost (alone) and chance of winning lost (with others).
SOLO_THRESHOLDS = Thresholds(1.0, 3.0, 6.0, ratings=(0.05, 0.15, 0.35, 0.7))
TABLE_THRESHOLDS = Thresholds(0.02, 0.05, 0.10, ratings=(0.002, 0.005, 0.01, 0.02), stake=0.005)


def cross_reasons(state: QwixxState, seat: int, action: Cross) -> tuple[Reason, ...]:
    """What the option does to the seat's sheet, in a player's words."""
    if action.row < 0:
        penalty = state.penalties[seat] + 1
        if state.phase == COLOUR and seat == state.active and not state.active_crossed:
            if penalty >= MAX_PENALTIES:
                return (Reason(_("takes the fourth penalty and ends the game")),)
            return (Reason(_("takes penalty {n} of 4"), params={"n": penalty}),)
        if state.phase == WHITE and seat == state.active:
            return (Reason(_("risks penalty {n} of 4 if no colour cross follows"), params={"n": penalty}),)
        return (Reason(_("waits for a better number")),)
    mask = state.marks[seat][action.row]
    index = _index(action.row, action.number)
    if index == LAST:
        if sum(state.locked) + 1 >= ROWS_LOCKED_TO_END:
            return (Reason(_("locks the row and ends the game")),)
        return (Reason(_("locks the row")),)
    skipped = index - mask.bit_length()
    if skipped == 0:
        return (Reason(_("skips no number")),)
    return (Reason(*_n("skips {count} number", "skips {count} numbers"), count=skipped),)


class QwixxAdviser(ScoreOrWinAdviser):
    """Every option valued by `master` (the table bot's own values)."""

    solo_thresholds = SOLO_THRESHOLDS
    table_thresholds = TABLE_THRESHOLDS

    def values(
        self, state: State[Any, Any], seat: Seat, *, played: object = None, reasons: bool = True
    ) -> list[OptionValue]:
        assert isinstance(state, QwixxState)
        bot = make_bot(self.game.id, strongest_bot(self.game.id), self.seed)
        assert isinstance(bot, TableBot)
        scored = bot.scored(state, seat)
        choice = max(scored, key=lambda option: option[1])[0]
        options = [
            OptionValue(
                action,
                score[0],
                self.unit,
                cross_reasons(state, seat, action) if reasons else (),
                {"tiebreak": score[1]} if score[1] else {},
            )
            for action, score in scored
        ]
        # equal values: the bot's tie-break (its margin) orders them, as the bot does
        return rank(options, choice, tiebreak="tiebreak")


ADVISER = QwixxAdviser
