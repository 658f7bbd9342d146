"""Qwixx (NSV, Steffen Benndorf) as a state machine, after seeds 000/002.

A turn: the active seat rolls the dice still in play; every seat answers the white
sum at once (a cross or `pass`); then the active seat answers the colour sum; then the
active seat takes a penalty if it crossed nothing. The game ends at once on a fourth
penalty or when a second row is locked.

Sheets are bitmasks: bit i of a row is the i-th number from the left, so "right of
every cross" is `index >= mask.bit_length()` and counting crosses is `bit_count`.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from typing import ClassVar, NamedTuple

from hraj.core.errors import IllegalAction, InvalidAction
from hraj.core.game import FORFEIT, Game, Option, Outcome, Seat, State, int_in, winners_by_score
from hraj.core.jsondata import GameOptions
from hraj.core.position import join_position, split_position
from hraj.core.record import HIDDEN, Event, EventLog
from hraj.core.start import FIRST_OPTION, First, parse_first
from hraj.games.qwixx.view import QwixxView, RowView, SheetView

ROWS = ("r", "y", "g", "b")
ROW_NAMES = ("red", "yellow", "green", "blue")
RED, YELLOW, GREEN, BLUE = range(4)
#: The numbers of each row, left to right.
ROW_NUMBERS = (tuple(range(2, 13)),) * 2 + (tuple(range(12, 1, -1)),) * 2
LAST = 10  # index of the rightmost number, the one that locks
CROSSES_TO_LOCK = 5
MAX_PENALTIES = 4
ROWS_LOCKED_TO_END = 2
PENALTY_POINTS = 5

# Phases of a turn.
CHOOSE_FIRST, ROLL, WHITE, COLOUR, OVER = range(5)


def number_index(row: int, number: int) -> int:
    """Position of `number` in `row`, counted from the left (0-10)."""
    return number - 2 if row < GREEN else 12 - number


_PHASE_NAMES = ("choose_first", "roll", "white", "colour", "over")


@functools.cache  # at most 4 rows x 2,048 masks x 2: shared by every view, to be read only
def _row_view(row: int, mask: int, lock: bool) -> RowView:
    crosses = mask.bit_count() + lock
    return {
        "crossed": [ROW_NUMBERS[row][i] for i in range(11) if mask >> i & 1],
        "lock": lock,
        "crosses": crosses,
        "points": row_points(crosses),
    }


def row_points(crosses: int) -> int:
    """Points for a row with `crosses` crosses (lock included): 1, 3, 6, ... 78."""
    return crosses * (crosses + 1) // 2


class Cross(NamedTuple):
    """Cross `number` in `row`, or pass (row -1). Printed `r5`, `g12`, `pass`."""

    row: int
    number: int

    def __str__(self) -> str:
        return "pass" if self.row < 0 else f"{ROWS[self.row]}{self.number}"


PASS = Cross(-1, 0)


class Roll(NamedTuple):
    """The dice of one roll; a locked row's die is None. Printed `w4 w1 r3 y2 g6 b6`."""

    white1: int
    white2: int
    colours: tuple[int | None, int | None, int | None, int | None]

    def __str__(self) -> str:
        parts = [f"w{self.white1}", f"w{self.white2}"]
        parts += [f"{ROWS[row]}{die}" for row, die in enumerate(self.colours) if die is not None]
        return " ".join(parts)


ChanceOutcome = Roll | First

_CROSS = re.compile(r"^\s*([rygb])\s*(\d{1,2})\s*$", re.IGNORECASE)
_DIE = re.compile(r"([wrygb])\s*([1-6])", re.IGNORECASE)


class Qwixx(Game[Cross, ChanceOutcome]):
    """Qwixx for 1 to 5 players (1 is solo practice, active every turn)."""

    id = "qwixx"
    order = 1
    name = "Qwixx"
    options_spec: ClassVar[dict[str, Option]] = {
        "players": Option(3, "number of players, 1-5 (1 is solo practice)", int_in(1, 5)),
        "first": FIRST_OPTION,
    }

    @classmethod
    def conformance_options(cls) -> list[GameOptions]:
        counts: list[GameOptions] = [{"players": n} for n in range(1, 6)]
        return [*counts, {"players": 2, "first": 1}]

    def new_state(self) -> QwixxState:
        return QwixxState(self)

    def parse_action(self, text: str) -> Cross:
        if not isinstance(text, str):
            raise InvalidAction("An action must be text, like r5 or pass.")
        if text.strip().lower() in {"pass", "-", "x", "nic"}:
            return PASS
        match = _CROSS.match(text)
        if match is None:
            raise InvalidAction(
                "{text} is not a Qwixx action: write a row letter and a number (r5, y12, g2, b7) or pass.",
                text=text.strip(),
            )
        row = ROWS.index(match.group(1).lower())
        number = int(match.group(2))
        if not 2 <= number <= 12:
            raise InvalidAction("Qwixx rows hold the numbers 2 to 12, not {number}.", number=number)
        return Cross(row, number)

    def parse_chance(self, text: str) -> ChanceOutcome:
        first = parse_first(text)
        if first is not None:
            return first
        rest = _DIE.sub("", text)
        dice = _DIE.findall(text)
        whites = [int(value) for colour, value in dice if colour.lower() == "w"]
        colours: list[int | None] = [None] * 4
        for colour, value in dice:
            if colour.lower() != "w":
                row = ROWS.index(colour.lower())
                if colours[row] is not None:
                    raise InvalidAction("The roll {text} names the {row} die twice.", text=text, row=ROW_NAMES[row])
                colours[row] = int(value)
        if rest.strip() or len(whites) != 2:
            raise InvalidAction("{text} is not a Qwixx roll; write it like w4 w1 r3 y2 g6 b6.", text=text)
        return Roll(whites[0], whites[1], (colours[0], colours[1], colours[2], colours[3]))


class QwixxState(State[Cross, ChanceOutcome]):
    """A Qwixx position; see the module docstring for the shape of a turn."""

    __slots__ = (
        "_log",
        "active",
        "active_crossed",
        "answers",
        "end_reason",
        "game",
        "locked",
        "locks",
        "marks",
        "penalties",
        "phase",
        "players",
        "roll",
        "waiting",
    )

    def __init__(self, game: Qwixx) -> None:
        self.game = game
        self._log: EventLog = None
        self.players = game.players
        #: marks[seat][row]: bitmask of crossed numbers (bit = index from the left).
        self.marks = [[0, 0, 0, 0] for _ in range(self.players)]
        #: locks[seat][row]: whether that seat crossed the lock box of that row.
        self.locks = [[False] * 4 for _ in range(self.players)]
        self.penalties = [0] * self.players
        self.locked = [False] * 4
        first = game.first
        self.active: int = 0 if first is None else first
        self.phase = ROLL if first is not None or self.players == 1 else CHOOSE_FIRST
        self.roll: Roll | None = None
        self.waiting: tuple[int, ...] = ()
        self.answers: dict[int, Cross] = {}
        self.active_crossed = False
        self.end_reason = ""

    def copy(self) -> QwixxState:
        new = QwixxState.__new__(QwixxState)
        new.game = self.game
        new._log = self._log
        new.players = self.players
        new.marks = [row[:] for row in self.marks]
        new.locks = [row[:] for row in self.locks]
        new.penalties = self.penalties[:]
        new.locked = self.locked[:]
        new.active = self.active
        new.phase = self.phase
        new.roll = self.roll
        new.waiting = self.waiting
        new.answers = dict(self.answers)
        new.active_crossed = self.active_crossed
        new.end_reason = self.end_reason
        return new

    # --- the contract ---------------------------------------------------------------

    @property
    def to_act(self) -> tuple[Seat, ...]:
        if self.phase == WHITE:
            return self.waiting
        if self.phase == COLOUR:
            return (self.active,)
        return ()

    @property
    def is_chance(self) -> bool:
        return self.phase in (ROLL, CHOOSE_FIRST)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(float(self.score(seat)) for seat in range(self.players))
        return Outcome(scores, winners_by_score(scores), self.end_reason)

    def _forfeit(self, seat: Seat) -> None:
        self.phase = OVER
        self.end_reason = FORFEIT

    def chance_outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        if self.phase == CHOOSE_FIRST:
            return [(First(seat), 1 / self.players) for seat in range(self.players)]
        if self.phase != ROLL:
            return []
        in_play = [row for row in range(4) if not self.locked[row]]
        count = 6 ** (2 + len(in_play))
        outcomes: list[tuple[ChanceOutcome, float]] = []
        for dice in itertools.product(range(1, 7), repeat=2 + len(in_play)):
            outcomes.append((self._make_roll(dice, in_play), 1 / count))
        return outcomes

    def _make_roll(self, dice: tuple[int, ...], in_play: list[int]) -> Roll:
        colours: list[int | None] = [None] * 4
        for row, value in zip(in_play, dice[2:], strict=True):
            colours[row] = value
        return Roll(dice[0], dice[1], (colours[0], colours[1], colours[2], colours[3]))

    def sample_chance(self, rng: random.Random) -> ChanceOutcome:
        if self.phase == CHOOSE_FIRST:
            return First(rng.randrange(self.players))
        in_play = [row for row in range(4) if not self.locked[row]]
        return self._make_roll(tuple(rng.randint(1, 6) for _ in range(2 + len(in_play))), in_play)

    def _is_possible_chance(self, outcome: ChanceOutcome) -> bool:
        if isinstance(outcome, First):
            return self.phase == CHOOSE_FIRST and 0 <= outcome.seat < self.players
        if self.phase != ROLL:
            return False
        dice = [outcome.white1, outcome.white2, *(d for d in outcome.colours if d is not None)]
        return all(1 <= d <= 6 for d in dice) and all(
            (die is None) == self.locked[row] for row, die in enumerate(outcome.colours)
        )

    def legal_actions(self, seat: Seat) -> list[Cross]:
        if self.phase == WHITE:
            if seat not in self.waiting:
                return []
            return [PASS, *self._white_crosses(seat)]
        if self.phase == COLOUR and seat == self.active:
            return [PASS, *self._colour_crosses()]
        return []

    def _may_cross(self, seat: int, row: int, index: int) -> bool:
        """The marking rule: unlocked row, right of every cross, 5 crosses before the last."""
        mask = self.marks[seat][row]
        if self.locked[row] or index < mask.bit_length():
            return False
        return index != LAST or mask.bit_count() >= CROSSES_TO_LOCK

    def _white_crosses(self, seat: int) -> list[Cross]:
        assert self.roll is not None
        total = self.roll.white1 + self.roll.white2
        return [Cross(row, total) for row in range(4) if self._may_cross(seat, row, number_index(row, total))]

    def _colour_crosses(self) -> list[Cross]:
        assert self.roll is not None
        crosses: list[Cross] = []
        for row, die in enumerate(self.roll.colours):
            if die is None or self.locked[row]:
                continue
            for total in sorted({self.roll.white1 + die, self.roll.white2 + die}):
                if self._may_cross(self.active, row, number_index(row, total)):
                    crosses.append(Cross(row, total))
        return crosses

    def _has_colour_cross(self) -> bool:
        """Whether `_colour_crosses()` has any, found without listing them."""
        roll = self.roll
        assert roll is not None
        for row, die in enumerate(roll.colours):
            if die is None or self.locked[row]:
                continue
            for total in (roll.white1 + die, roll.white2 + die):
                if self._may_cross(self.active, row, number_index(row, total)):
                    return True
        return False

    def _why_illegal(self, seat: Seat, action: Cross) -> IllegalAction:
        if action.row < 0 or self.roll is None:
            return super()._why_illegal(seat, action)
        row, index = action.row, number_index(action.row, action.number)
        mask = self.marks[seat][row]
        name = ROW_NAMES[row]
        if self.locked[row]:
            return IllegalAction("The {row} row is locked.", row=name)
        white = self.roll.white1 + self.roll.white2
        if self.phase == WHITE and action.number != white:
            return IllegalAction("The white dice show {total}; only {total} may be crossed now.", total=white)
        if self.phase == COLOUR and action.number not in {
            self.roll.white1 + (self.roll.colours[row] or 0),
            self.roll.white2 + (self.roll.colours[row] or 0),
        }:
            return IllegalAction("No white die plus the {row} die makes {number}.", row=name, number=action.number)
        if index < mask.bit_length():
            return IllegalAction(
                "Numbers are crossed left to right: {number} lies left of a cross in the {row} row.",
                number=action.number,
                row=name,
            )
        if index == LAST and mask.bit_count() < CROSSES_TO_LOCK:
            return IllegalAction("The last number of a row needs at least 5 crosses in that row first.", row=name)
        return super()._why_illegal(seat, action)

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        if isinstance(outcome, First):
            self.active = outcome.seat
            self.phase = ROLL
            return
        self.roll = outcome
        self.active_crossed = False
        self.answers = {}
        self.waiting = tuple(seat for seat in range(self.players) if self._white_crosses(seat))
        self.phase = WHITE
        if not self.waiting:
            self._resolve_white()

    def _apply(self, seat: Seat, action: Cross) -> None:
        if self.phase == WHITE:
            self.answers[seat] = action
            self.waiting = tuple(s for s in self.waiting if s != seat)
            if not self.waiting:
                self._resolve_white()
            return
        # colour step of the active seat
        if action.row >= 0:
            self._cross(self.active, action)
            self.active_crossed = True
            if self._rows_locked() >= ROWS_LOCKED_TO_END:
                self._end("locks")
                return
        self._finish_turn()

    def _cross(self, seat: int, action: Cross) -> None:
        index = number_index(action.row, action.number)
        self.marks[seat][action.row] |= 1 << index
        if index == LAST:
            self.locks[seat][action.row] = True
            self.locked[action.row] = True

    def _rows_locked(self) -> int:
        return sum(self.locked)

    def _resolve_white(self) -> None:
        """Apply every answer to the white sum together, then lock and check the end."""
        for seat, action in sorted(self.answers.items()):
            if action.row >= 0:
                self._cross(seat, action)
                if seat == self.active:
                    self.active_crossed = True
        self.answers = {}
        if self._rows_locked() >= ROWS_LOCKED_TO_END:
            self._end("locks")
            return
        self.phase = COLOUR
        if not self._colour_crosses():
            self._finish_turn()

    def _finish_turn(self) -> None:
        if not self.active_crossed:
            self.penalties[self.active] += 1
            self._record_auto(self.active, "penalty")
            if self.penalties[self.active] >= MAX_PENALTIES:
                self._end("penalties")
                return
        self.active = (self.active + 1) % self.players
        self.phase = ROLL

    def _end(self, reason: str) -> None:
        self.phase = OVER
        self.end_reason = reason
        self.waiting = ()

    # --- scoring and views -------------------------------------------------------------

    def crosses(self, seat: int, row: int) -> int:
        """Crosses of `seat` in `row`, the lock cross included."""
        return self.marks[seat][row].bit_count() + self.locks[seat][row]

    def score(self, seat: int) -> int:
        rows = sum(row_points(self.crosses(seat, row)) for row in range(4))
        return rows - PENALTY_POINTS * self.penalties[seat]

    def crossed_numbers(self, seat: int, row: int) -> list[int]:
        mask = self.marks[seat][row]
        return [ROW_NUMBERS[row][i] for i in range(11) if mask >> i & 1]

    def view(self, seat: Seat | None) -> QwixxView:
        phase = self.phase
        roll = self.roll if phase in (WHITE, COLOUR) else None
        legal = self.legal_actions(seat) if seat is not None else []
        answered = seat is not None and seat in self.answers
        sheets: list[SheetView] = []
        for s in range(self.players):
            marks, locks = self.marks[s], self.locks[s]
            rows = {ROWS[row]: _row_view(row, marks[row], locks[row]) for row in range(4)}
            sheets.append(
                {
                    "rows": rows,
                    "penalties": self.penalties[s],
                    "score": sum(row["points"] for row in rows.values()) - PENALTY_POINTS * self.penalties[s],
                }
            )
        view: QwixxView = {
            "game": "qwixx",
            "players": self.players,
            "active": self.active if phase != CHOOSE_FIRST else None,
            "phase": _PHASE_NAMES[phase],
            "to_act": list(self.to_act),
            "dice": None
            if roll is None
            else {
                "w1": roll.white1,
                "w2": roll.white2,
                "r": roll.colours[0],
                "y": roll.colours[1],
                "g": roll.colours[2],
                "b": roll.colours[3],
            },
            "locked": [ROWS[row] for row in range(4) if self.locked[row]],
            "sheets": sheets,
            "seat": seat,
            "legal": [str(action) for action in legal],
            "answered": answered,
            "outcome": self.outcome_json(),
        }
        if answered:
            assert seat is not None
            view["my_answer"] = str(self.answers[seat])
        if seat is not None and seat == self.active and PASS in legal:
            # Colour step with nothing crossed yet, or a white sum after which no coloured
            # die could be crossed: a pass records the misthrow.
            view["pass_is_misthrow"] = not self.active_crossed and not (phase == WHITE and self._has_colour_cross())
        return view

    def _hide_pending(self, events: list[Event], seat: Seat | None) -> list[Event]:
        """Answers to the white sum are secret until every seat has answered: while they
        are pending they are the newest events, and only their own seat reads them."""
        if self.phase == WHITE and self.answers:
            for index in range(len(events) - len(self.answers), len(events)):
                kind, who, _ = events[index]
                if who != seat:
                    events[index] = (kind, who, HIDDEN)
        return events

    def determinize(self, seat: Seat, rng: random.Random) -> QwixxState:
        """Others' pending answers to the white sum are secret: forget them."""
        state = self.copy()
        hidden = [s for s in state.answers if s != seat]
        if hidden:
            for s in hidden:
                del state.answers[s]
            state.waiting = tuple(sorted({*state.waiting, *hidden}))
        return state

    # --- position notation ------------------------------------------------------------

    def position(self) -> str:
        """Compact text of the sheets at the start of a turn: `0: r2,3 g12 p1 / b4`.

        The number before the colon is the active seat; sheets are separated by `/`;
        each row lists its crossed numbers and ends with `+` if that seat locked it;
        `p<n>` counts penalties. Empty rows are left out.
        """
        sheets = []
        for s in range(self.players):
            parts = []
            for row in range(4):
                numbers = self.crossed_numbers(s, row)
                if numbers:
                    parts.append(ROWS[row] + ",".join(map(str, numbers)) + ("+" if self.locks[s][row] else ""))
            if self.penalties[s]:
                parts.append(f"p{self.penalties[s]}")
            sheets.append(" ".join(parts) or "-")
        return join_position(self.active, sheets)

    @classmethod
    def from_position(cls, game: Qwixx, text: str) -> QwixxState:
        """The state at the start of a turn (a roll is due) described by `position()` text."""
        active, sheets = split_position(text, game.players, "Qwixx")
        state = cls(game)
        state.active = active
        state.phase = ROLL
        for seat, sheet in enumerate(sheets):
            for part in sheet.split():
                if part == "-":
                    continue
                if part[0] == "p" and part[1:].isdigit():
                    state.penalties[seat] = int(part[1:])
                    continue
                if part[0] not in ROWS:
                    raise InvalidAction("{part} is not a row of a Qwixx sheet.", part=part)
                row = ROWS.index(part[0])
                numbers = part[1:].rstrip("+")
                for number in (int(n) for n in numbers.split(",") if n):
                    if not 2 <= number <= 12:
                        raise InvalidAction("{part}: rows hold 2 to 12.", part=part)
                    state.marks[seat][row] |= 1 << number_index(row, number)
                if part.endswith("+"):
                    if not state.marks[seat][row] >> LAST & 1:
                        raise InvalidAction("{part}: a lock needs the row's last number.", part=part)
                    state.locks[seat][row] = True
                    state.locked[row] = True
        return state
