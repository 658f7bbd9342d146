"""Trefa bots: greedy (most points now), expectimax (best expected row score), racer
(expected row score, paying for time) and winner (the best chance of winning the race).

Each reads only the position it is given (a copy; Trefa has no hidden information)
and returns one of its legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.games.trefa.race import race_share, reroll_pool, row_pool
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


@dataclass(frozen=True)
class OptionValue:
    """An option with its estimated chance of winning (a shared win counts as a share)
    and the expected final score of the seat's whole sheet."""

    action: Move
    win: float
    score: float


class WinnerBot(RacerBot):
    """Plays the option with the best chance of winning the race, not the best score.

    The racer's best few options are the candidates, with the write of the most dice
    (the fastest) and the reroll (the gamble). Each is tried against the same
    `SAMPLES` futures of every sheet (`race.row_pool`): the seat's own rows and the
    opponents' rows, all played on by the racer's policy from where they stand. The
    option that wins the largest share of those races is played, so a seat far ahead
    plays safe and fast, and a seat behind takes the risks it needs.
    """

    name = "winner"
    help = "plays for the best chance of winning against every sheet on the table; wins 51% of 2-player games vs racer"

    CANDIDATES = 4
    SAMPLES = 400

    def choose(self, state: State[Any, Any], seat: Seat) -> Move:
        legal = _trefa(state).legal_actions(seat)
        if len(legal) == 1:
            return legal[0]  # nothing to weigh
        return max(self.values(state, seat), key=lambda option: (option.win, option.score)).action

    def values(
        self, state: State[Any, Any], seat: Seat, every: bool = False, extra: Sequence[Move] = ()
    ) -> list[OptionValue]:
        """The candidate options, each with its chance of winning and expected score, best first.

        With `every`, each legal option is a candidate (slower). `extra` options are
        weighed too (the move a player made, for analysis); each option is valued on the
        same draws whatever else is weighed, so adding one changes no other's value.
        """
        trefa = _trefa(state)
        legal = trefa.legal_actions(seat)
        ranked = sorted(legal, key=lambda move: self.value(trefa, seat, move), reverse=True)
        if trefa.players == 1:
            return [OptionValue(move, 1.0, trefa.score(seat) + self.value(trefa, seat, move)) for move in ranked]
        candidates = ranked if every else ranked[: self.CANDIDATES]
        writes = [move for move in legal if move.kind == "write"]
        for always in (max(writes, key=lambda move: move.dice.bit_count(), default=None), REROLL_MOVE):
            if always is not None and always in legal and always not in candidates:
                candidates.append(always)  # the fastest option and the gamble are always weighed
        candidates += [move for move in dict.fromkeys(extra) if move in legal and move not in candidates]
        rng = random.Random(self.rng.getrandbits(32))
        futures: list[list[list[int]]] = []
        for other in range(trefa.players):
            row, mask, hits = self._row_state(trefa, other)
            if other == seat:  # what follows this row is the same whatever this turn does
                row, mask, hits = row + 1, _full(trefa, seat, row + 1), 0
            futures.append([self._rest(trefa, other, row, mask, hits, rng) for _ in range(self.SAMPLES)])
        scores = [trefa.score(other) for other in range(trefa.players)]
        values = []
        for move in candidates:
            wins = total = 0.0
            for sample, now in enumerate(self._this_row(trefa, seat, move)):
                table = [futures[other][sample] for other in range(trefa.players)]
                table[seat] = now + table[seat]
                share, final = race_share(table, scores, seat)
                wins += share
                total += final
            values.append(OptionValue(move, wins / self.SAMPLES, total / self.SAMPLES))
        return sorted(values, key=lambda option: (option.win, option.score), reverse=True)

    def _row_state(self, state: TrefaState, seat: int) -> tuple[int, int, int]:
        """The seat's current row as (row index, empty-field mask, hits)."""
        row = state.row[seat]
        numbers = state.game.seat_rows[seat][row].numbers
        fields = state.fields[seat][row]
        mask = sum(1 << at for at, value in enumerate(fields) if value == EMPTY)
        hits = sum(1 for value, printed in zip(fields, numbers, strict=True) if value == printed)
        return row, mask, hits

    def _rest(self, state: TrefaState, seat: int, row: int, mask: int, hits: int, rng: random.Random) -> list[int]:
        """Points of each later turn of the seat, from this row state to the end of its sheet."""
        rows = state.game.seat_rows[seat]
        bonus = state.game.hit_bonus
        cost = self.turn_cost(state)
        turns = list(rng.choice(row_pool(rows[row].numbers, bonus, cost, mask, hits))) if row < ROWS else []
        for later in range(row + 1, ROWS):
            full = (1 << len(rows[later].numbers)) - 1
            turns.extend(rng.choice(row_pool(rows[later].numbers, bonus, cost, full, 0)))
        return turns

    def _this_row(self, state: TrefaState, seat: int, move: Move) -> list[list[int]]:
        """Sampled points of the seat's turns from this one to the end of its current row
        if it plays `move` now; the same draws for every candidate."""
        assert state.dice is not None
        row, mask, hits = self._row_state(state, seat)
        sheet_row = state.game.seat_rows[seat][row]
        bonus = state.game.hit_bonus
        cost = self.turn_cost(state)
        table = row_values(sheet_row.numbers, bonus, cost)
        rng = random.Random(row * 64 + mask)
        outcomes: Sequence[tuple[int, int, int]]
        if move.kind == "reroll":
            ones = sum(1 << sheet_row.colours.index(c) for c, die in enumerate(state.dice) if die == 1)
            outcomes = reroll_pool(sheet_row.numbers, bonus, cost, mask, hits, ones & mask)
        elif move.kind == "stop":
            outcomes = [(mask & -mask, 0, hits)]
        else:
            written = {sheet_row.colours.index(c): state.dice[c] for c in colour_list(move.dice)}
            new_hits = hits + sum(1 for field, value in written.items() if value == table.numbers[field])
            outcomes = [(sum(1 << field for field in written), sum(written.values()), new_hits)]
        rows = []
        for _ in range(self.SAMPLES):
            chosen, gain, new_hits = outcomes[0] if len(outcomes) == 1 else rng.choice(outcomes)
            left = mask ^ chosen
            if not left:
                rows.append([gain + bonus[new_hits]])
            else:
                rows.append([gain, *rng.choice(row_pool(sheet_row.numbers, bonus, cost, left, new_hits))])
        return rows


def _full(state: TrefaState, seat: int, row: int) -> int:
    """The mask of every field of a row (none if the sheet has no such row)."""
    rows = state.game.seat_rows[seat]
    return (1 << len(rows[row].numbers)) - 1 if row < ROWS else 0


BOTS: dict[str, type[Bot]] = {
    "greedy": GreedyBot,
    "expectimax": ExpectimaxBot,
    "racer": RacerBot,
    "winner": WinnerBot,
}


def _(text: str) -> str:
    """Marks a text for the catalogs; it is translated where it is shown."""
    return text


#: The bot a new seat gets in the web and the terminal: the middle level.
DEFAULT_BOT = "racer"
#: Each level, easiest first: its name and what it does (the bot's own description,
#: with its measured strength). `expectimax` is the best solo player and has no level.
LEVELS: dict[str, tuple[str, str]] = {
    "greedy": (_("Beginner"), GreedyBot.help),
    "racer": (_("Advanced"), RacerBot.help),
    "winner": (_("Master"), WinnerBot.help),
}
