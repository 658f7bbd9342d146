"""Qwixx bots that read the exact solo table (`solo_table`), each valuing every legal option.

`OptimalQwixxBot` values an option by the expected final score of its own sheet and
takes the best: alone by the solo table (the exact optimum), with others by the duel
table below (with three players or more by the table of three). Deciding the white
sum, it already sees the coloured dice, so a white option is worth the best colour step
that can follow it.

`MasterQwixxBot` plays to win when others sit at the table. It estimates each seat's
final score by the duel table, solved like the solo one but with another seat's turn
after each own turn (a white sum to cross for free, then a chance that the game ends
and, if it goes on, a chance for each open row that the other seat locked it), or with
three players or more by the table of three, two other turns after each own; a row
another player locked counts as frozen with what it holds. It turns the
differences into a win probability whose spread shrinks as the game runs out, and
knows exactly who wins when an option ends the game. So it locks a row to freeze the
others' rows or to end a game it leads, and avoids ending one it trails. Two options
that were measured and did not win more stay off by default (docs/qwixx-bots.md): a
search one turn deeper (`searched`) and a table whose chance of the end rises with a
sheet's progress (`rising`, built on demand).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.games.qwixx.rules import (
    COLOUR,
    LAST,
    MAX_PENALTIES,
    ROLL,
    ROWS_LOCKED_TO_END,
    WHITE,
    Cross,
    QwixxState,
    Roll,
    number_index,
    row_points,
)
from hraj.games.qwixx.solo_table import (
    ROW_INDEX,
    ROW_POINTS,
    SoloTable,
    rising_table,
    solo_table,
    table_for,
)

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
        assert isinstance(state, QwixxState)
        options = self.scored(state, seat)
        return max(options, key=lambda option: option[1])[0]

    def values(self, state: QwixxState, seat: Seat) -> list[tuple[Cross, float]]:
        """Every legal option of `seat` with its value (see the subclass for its unit)."""
        return [(action, score[0]) for action, score in self.scored(state, seat)]

    def scored(self, state: QwixxState, seat: Seat) -> list[tuple[Cross, Score]]:
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
    """Plays for the most expected points of its own sheet: exactly so alone, by the duel table (or the
    table of three) with others."""

    name = "optimal"
    help = "plays the exact solo optimum for the most points"
    #: Read the solo table even with others at the table (the plain solo optimum).
    solo_only = False
    #: With others, the share of the duel table's expected gain credited to the sheet
    #: (see MasterQwixxBot.share; 0.6 won 60.6% against greedy in two-player arenas with
    #: frozen rows, 0.75 58.7%; before them 0.6 won 54%, 1.0 43%).
    share = 0.6

    def leaf(self, state: QwixxState, seat: int, sheet: Sheet) -> Score:
        locked = locks_after(state.locked, sheet)
        if state.players == 1 or self.solo_only:
            return solo_value(sheet, locked), 0.0
        now = sheet.score(locked)
        if is_over(locked, sheet):
            return float(now), 0.0
        return now + self.share * (sheet.value(table_for(state.players), locked) - now), 0.0


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
    #: Share of the duel table's expected gain credited to a seat with two players: real
    #: tables end sooner than the table's model (fitted by arenas against greedy: 0.6 and
    #: 0.9 won less than 0.75).
    share = 0.75
    #: The same with three players or more, read from the table of three (0.6 and 0.75
    #: won less than 0.9).
    crowd_share = 0.9
    #: Read the table whose chance of the game's end rises with a sheet's progress
    #: (`build --rising`) rather than the duel table's constant chance.
    rising = False
    #: Endings of the own turn searched one turn deeper, and rolls sampled for each.
    searched = 0
    rolls = 24

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.search_seed = self.rng.getrandbits(32)

    def leaf(self, state: QwixxState, seat: int, sheet: Sheet) -> Score:
        """(chance of winning, expected margin over the best other seat)."""
        locked = locks_after(state.locked, sheet)
        others = [s for s in range(state.players) if s != seat]
        if not others:  # solo: the most points is the only goal
            return solo_value(sheet, locked), 0.0
        table = rising_table() if self.rising else table_for(state.players)
        their = [Sheet(state.marks[s], state.penalties[s]) for s in others]
        if is_over(locked, sheet):
            mine, scores = sheet.score(locked), [other.score(locked) for other in their]
            best = max(scores)
            if mine != best:
                return (1.0 if mine > best else 0.0), float(mine - best)
            return 1.0 / (1 + scores.count(best)), 0.0
        share = self.share if len(others) == 1 else self.crowd_share
        mine_now = sheet.score(locked)
        mine_final = mine_now + share * (sheet.value(table, locked) - mine_now)
        chance, margin = 1.0, math.inf
        for other in their:
            now = other.score(locked)
            final = now + share * (other.value(table, locked) - now)
            room = max(mine_final - mine_now, 0.0) + max(final - now, 0.0)
            sigma = self.spread * math.sqrt(room + 1.0)
            chance *= 0.5 * math.erfc(-(mine_final - final) / (sigma * math.sqrt(2)))
            margin = min(margin, mine_final - final)
        return chance, margin

    def scored(self, state: QwixxState, seat: Seat) -> list[tuple[Cross, Score]]:
        """The leaf's values, sharpened on the seat's own turn by a look at the next turn.

        The few best sheets this turn can end with (by the leaf) are valued by the mean
        leaf after the next seat's turn over sampled rolls: the next seat answers as the
        greedy bot would, this seat takes the best white sum for itself, and a game that
        ends there is scored exactly. An option is worth its best searched ending; an
        option none of whose endings was searched keeps its leaf value, capped at the
        lowest searched one (the search ranked it no higher)."""
        result = super().scored(state, seat)
        assert isinstance(state, QwixxState)
        if state.players == 1 or seat != state.active or self.searched <= 0:
            return result
        sheet = Sheet(state.marks[seat], state.penalties[seat])
        endings: list[list[Sheet]] = []
        static: dict[tuple[tuple[int, ...], int], Score] = {}
        for action, _ in result:
            after = sheet if action.row < 0 else sheet.crossed(action.row, action.number)
            ends = self.endings(state, seat, after, crossed=action.row >= 0)
            endings.append(ends)
            for end in ends:
                key = (tuple(end.masks), end.penalties)
                if key not in static:
                    static[key] = self.leaf(state, seat, end)
        ranked = sorted(static, key=lambda key: static[key], reverse=True)[: int(self.searched)]
        # The rolls follow from the bot's seed and the position, so that `values` and
        # `choose` see the same ones and the bot stays deterministic.
        dice = (
            () if state.roll is None else (state.roll.white1, state.roll.white2, *(d or 0 for d in state.roll.colours))
        )
        position = (state.phase, dice, *(mask for sheet in state.marks for mask in sheet), *state.penalties)
        rng = random.Random(hash((self.search_seed, position)))
        rolls = [self.sample_roll(state, rng) for _ in range(int(self.rolls))]
        searched = {key: self.look_ahead(state, seat, Sheet(key[0], key[1]), rolls) for key in ranked}
        floor = (min(value[0] for value in searched.values()), -math.inf)
        valued = []
        for (action, _), ends in zip(result, endings, strict=True):
            values = [
                searched.get((tuple(end.masks), end.penalties), min(static[(tuple(end.masks), end.penalties)], floor))
                for end in ends
            ]
            valued.append((action, max(values)))
        return valued

    def endings(self, state: QwixxState, seat: int, sheet: Sheet, crossed: bool) -> list[Sheet]:
        """The sheets this seat's turn may end with once its choice has made `sheet`."""
        if state.phase == COLOUR:
            return [sheet if crossed or state.active_crossed else sheet.penalised()]
        locked = locks_after(state.locked, sheet)
        if is_over(locked, sheet):
            return [sheet]
        roll = state.roll
        assert roll is not None
        ends = [sheet if crossed else sheet.penalised()]
        for row, die in enumerate(roll.colours):
            if die is None or locked[row]:
                continue
            for number in sorted({roll.white1 + die, roll.white2 + die}):
                if sheet.may_cross(row, number, locked):
                    ends.append(sheet.crossed(row, number))
        return ends

    @staticmethod
    def sample_roll(state: QwixxState, rng: random.Random) -> Roll:
        """A roll of the dice still in play."""
        colours = tuple(None if state.locked[row] else rng.randint(1, 6) for row in range(4))
        return Roll(rng.randint(1, 6), rng.randint(1, 6), (colours[0], colours[1], colours[2], colours[3]))

    def look_ahead(self, state: QwixxState, seat: int, sheet: Sheet, rolls: Sequence[Roll]) -> Score:
        """Mean leaf after the next seat's turn, this seat having ended its turn with `sheet`."""
        locked = locks_after(state.locked, sheet)
        if is_over(locked, sheet):
            return self.leaf(state, seat, sheet)
        from hraj.games.qwixx.bots import GreedyQwixxBot

        model = GreedyQwixxBot(0)
        after = state.copy()
        after.marks[seat] = list(sheet.masks)
        after.penalties[seat] = sheet.penalties
        for row in range(4):
            if sheet.masks[row] >> LAST & 1:
                after.locks[seat][row] = True
        after.locked = locked
        after.phase, after.roll, after.waiting, after.answers = ROLL, None, (), {}
        after.active_crossed = False
        after.active = (seat + 1) % state.players
        total_chance = total_margin = 0.0
        for roll in rolls:
            rolled = after.copy()
            rolled.apply_chance(Roll(roll.white1, roll.white2, _in_play(roll.colours, locked)), check=False)
            theirs = {other: model.choose(rolled, other) for other in rolled.waiting if other != seat}
            mine = rolled.legal_actions(seat) if seat in rolled.waiting else [None]
            best: Score = (-1.0, -math.inf)
            for answer in mine:
                played = rolled.copy()
                for other, action in theirs.items():
                    played.apply(other, action, check=False)
                if answer is not None:
                    played.apply(seat, answer, check=False)
                while played.phase == COLOUR:
                    played.apply(played.active, model.choose(played, played.active), check=False)
                best = max(best, self.ended(played, seat))
            total_chance += best[0]
            total_margin += best[1]
        return total_chance / len(rolls), total_margin / len(rolls)

    def ended(self, state: QwixxState, seat: int) -> Score:
        """The leaf of a position at the start of a turn, or the result of a finished game."""
        if not state.is_over:
            return self.leaf(state, seat, Sheet(state.marks[seat], state.penalties[seat]))
        scores = [state.score(s) for s in range(state.players)]
        mine = scores.pop(seat)
        best = max(scores)
        if mine != best:
            return (1.0 if mine > best else 0.0), float(mine - best)
        return 1.0 / (1 + scores.count(best)), 0.0


def _in_play(
    colours: Sequence[int | None], locked: Sequence[bool]
) -> tuple[int | None, int | None, int | None, int | None]:
    """The coloured dice with those of locked rows taken out of play."""
    dice = [None if locked[row] else die for row, die in enumerate(colours)]
    return dice[0], dice[1], dice[2], dice[3]
