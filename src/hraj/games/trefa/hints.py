"""Trefa hints: the options the strongest bot, `winner`, weighs, with its values.

With others at the table a value is `winner`'s chance of winning the race (exact when
every seat plays on as a racer, see `racemodel`), with the expected final score beside
it; alone it is the exact expected final score. Every legal option is valued, so the
option a player chose is always among them, and `quick` analysis values the same.
"""

from __future__ import annotations

from typing import Any

from hraj.core.bot import make_bot, strongest_bot
from hraj.core.game import Seat, State
from hraj.core.hints import OptionValue, Reason, ScoreOrWinAdviser, Thresholds, rank
from hraj.core.marks import _, _n
from hraj.games.trefa.bots import WinnerBot
from hraj.games.trefa.rules import Move, TrefaState, colour_list

SOLO_THRESHOLDS = Thresholds(1.0, 3.0, 6.0, ratings=(0.2, 0.5, 1.0, 2.0))
RACE_THRESHOLDS = Thresholds(0.03, 0.06, 0.12, ratings=(0.003, 0.007, 0.015, 0.03), stake=0.0075)


def move_reasons(state: TrefaState, seat: int, move: Move) -> tuple[Reason, ...]:
    """What the move writes, and how many of the dice hit their printed number."""
    assert state.dice is not None
    if move.kind == "reroll":
        kept = sum(1 for die in state.dice if die == 1)
        thrown = len(state.dice) - kept
        return (Reason(*_n("throws {count} die again", "throws {count} dice again"), count=thrown),)
    if move.kind == "stop":
        return (Reason(_("declines the reroll and crosses out a field")),)
    sheet_row = state.game.seat_rows[seat][state.row[seat]]
    colours = colour_list(move.dice)
    hits = sum(1 for c in colours if state.dice[c] == sheet_row.numbers[sheet_row.colours.index(c)])
    written = Reason(*_n("writes {count} die", "writes {count} dice"), count=len(colours))
    if not hits:
        return (written,)
    return (written, Reason(*_n("{count} hit", "{count} hits"), count=hits))


class TrefaAdviser(ScoreOrWinAdviser):
    """Every option with `winner`'s values."""

    solo_thresholds = SOLO_THRESHOLDS
    table_thresholds = RACE_THRESHOLDS

    def values(
        self, state: State[Any, Any], seat: Seat, *, played: object = None, reasons: bool = True
    ) -> list[OptionValue]:
        assert isinstance(state, TrefaState)
        bot = make_bot(self.game.id, strongest_bot(self.game.id), self.seed)
        assert isinstance(bot, WinnerBot)
        # every legal option is valued, so the played one needs no extra weighing
        found = bot.values(state, seat)
        solo = state.players == 1
        options = [
            OptionValue(
                option.action,
                option.score if solo else option.win,
                self.unit,
                move_reasons(state, seat, option.action) if reasons else (),
                {} if solo else {"score": option.score},
            )
            for option in found
        ]
        # the bot plays the best (win, score); equal chances of winning: the better score first
        choice = max(found, key=lambda option: (option.win, option.score)).action
        return rank(options, choice, tiebreak="score")


ADVISER = TrefaAdviser
