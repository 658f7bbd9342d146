"""Trefa, the six-dice "hit" game of seed 001, as a state machine.

A turn: the active seat throws all six dice; it may throw once more, and then every die
is thrown again except those showing 1; then it writes any non-empty set of the dice
that fit its current row (own colour's field, still empty, die at most the printed
number). When nothing fits, the leftmost empty field is crossed out instead: by itself
after the reroll, or when the seat says `stop` after the first throw. A full row is
scored and the seat moves to the next row down. The game ends at once when a seat fills
its fifth row; the others count the numbers written in their unfinished row (no bonus).

A row is a tuple of six fields, left to right: EMPTY, CROSSED or the value written. A
die's colour is its index in a roll (k w r y g b); sets of dice are bitmasks over those
indices.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Mapping, Sequence
from typing import ClassVar, NamedTuple

from hraj.core.errors import HrajError, IllegalAction, InvalidAction, InvalidOption
from hraj.core.game import FORFEIT, Game, Option, Outcome, Seat, State, int_in, winners_by_score
from hraj.core.jsondata import GameOptions
from hraj.core.position import join_position, split_position
from hraj.core.record import EventLog
from hraj.core.start import FIRST_OPTION, First, parse_first
from hraj.games.trefa.sheets import COLOURS, FIELDS, ROWS, SheetRow, Sheets, default_sheets, load_sheets
from hraj.games.trefa.view import RowView, SheetView, TrefaView

EMPTY = -1
CROSSED = 0

# Phases of a turn.
CHOOSE_FIRST, ROLL, FIRST_THROW, REROLL, SECOND_THROW, OVER = range(6)
PHASES = ("choose_first", "roll", "first_throw", "reroll", "second_throw", "over")


def colour_list(mask: int) -> list[int]:
    """The colours in a bitmask, in canonical order."""
    return [colour for colour in range(FIELDS) if mask >> colour & 1]


class Move(NamedTuple):
    """A decision of the active seat: `reroll`, `stop`, or `write k,y,b` (a mask of dice).

    `stop` exists only after the first throw when no die fits: the seat declines the
    reroll and takes the cross-out. When a die fits, writing it is the way to stop.
    """

    kind: str
    dice: int = 0

    def __str__(self) -> str:
        if self.kind == "write":
            return "write " + ",".join(COLOURS[colour] for colour in colour_list(self.dice))
        return self.kind


REROLL_MOVE = Move("reroll")
STOP = Move("stop")


def write(colours: str) -> Move:
    """`write("kyb")`: the move that writes those dice."""
    return Move("write", sum(1 << COLOURS.index(letter) for letter in colours))


class Roll(NamedTuple):
    """The six dice in canonical colour order. Printed `k6 w4 r3 y3 g1 b1`."""

    k: int
    w: int
    r: int
    y: int
    g: int
    b: int

    def __str__(self) -> str:
        return " ".join(f"{letter}{value}" for letter, value in zip(COLOURS, self, strict=True))

    def ones(self) -> int:
        """The mask of dice showing 1: the dice a reroll keeps."""
        return sum(1 << colour for colour, value in enumerate(self) if value == 1)


ChanceOutcome = Roll | First


@functools.cache
def _writes(mask: int) -> tuple[Move, ...]:
    """Every non-empty set of the dice in `mask`: most dice first, then colour order."""
    colours = colour_list(mask)
    moves = [
        Move("write", sum(1 << colour for colour in chosen))
        for size in range(len(colours), 0, -1)
        for chosen in itertools.combinations(colours, size)
    ]
    return tuple(moves)


@functools.cache
def _rolls(kept: int) -> tuple[tuple[ChanceOutcome, float], ...]:
    """Every throw with the dice in `kept` kept at 1 (a reroll keeps exactly the 1s)."""
    free = [colour for colour in range(FIELDS) if not kept >> colour & 1]
    probability = 1 / 6 ** len(free)
    base = [1] * FIELDS
    outcomes: list[tuple[ChanceOutcome, float]] = []
    for values in itertools.product(range(1, 7), repeat=len(free)):
        dice = base[:]
        for colour, value in zip(free, values, strict=True):
            dice[colour] = value
        outcomes.append((Roll(*dice), probability))
    return tuple(outcomes)


#: The colour letters of every bitmask of dice, in canonical order.
_LETTERS: tuple[tuple[str, ...], ...] = tuple(
    tuple(COLOURS[colour] for colour in colour_list(mask)) for mask in range(1 << FIELDS)
)


@functools.cache
def _legal_texts(phase: int, writable: int) -> tuple[str, ...]:
    """The notation of the legal actions of a throw phase (as `legal_actions` lists them),
    computed once per phase and mask of writable dice."""
    writes = [str(move) for move in _writes(writable)]
    if phase == SECOND_THROW:
        return tuple(writes)
    return ("reroll", *writes) if writable else ("reroll", "stop")


def row_points(row: tuple[int, ...], sheet_row: SheetRow, hit_bonus: tuple[int, ...], complete: bool) -> int:
    """Points of a row: the numbers written, plus the hit bonus once the row is complete."""
    written = sum(value for value in row if value > 0)
    return written + hit_bonus[hits(row, sheet_row)] if complete else written


def hits(row: tuple[int, ...], sheet_row: SheetRow) -> int:
    """Fields whose written number equals the printed one."""
    return sum(1 for value, printed in zip(row, sheet_row.numbers, strict=True) if value == printed)


#: Reasons per colour, so that each language can word the colour itself.
FIELD_FILLED = (
    "The black field of your current row is already filled.",
    "The white field of your current row is already filled.",
    "The red field of your current row is already filled.",
    "The yellow field of your current row is already filled.",
    "The green field of your current row is already filled.",
    "The blue field of your current row is already filled.",
)
DIE_TOO_HIGH = (
    "The black die shows {value}, more than the printed {printed}.",
    "The white die shows {value}, more than the printed {printed}.",
    "The red die shows {value}, more than the printed {printed}.",
    "The yellow die shows {value}, more than the printed {printed}.",
    "The green die shows {value}, more than the printed {printed}.",
    "The blue die shows {value}, more than the printed {printed}.",
)

_DIE = re.compile(r"([kwrygb])\s*([1-6])", re.IGNORECASE)
_WRITE = re.compile(r"^\s*(?:write|zapsat|zapiš|zapis|zapíš)\s+([a-z,;\s]+)$", re.IGNORECASE)
_REROLL_WORDS = {"reroll", "přehodit", "prehodit", "přehoď", "prehod"}
_STOP_WORDS = {"stop", "vyškrtnout", "vyskrtnout"}


def _check_sheet_file(value: object) -> str | None:
    """The `sheet_file` option: a path to a sheet file that loads and passes every check."""
    path = str(value).strip()
    if path.lower() in {"", "none", "default"}:
        return None
    load_sheets(path)  # raises SheetError (an InvalidOption) with the reason
    return path


def _check_sheet_letters(value: object) -> str | None:
    """The `sheets` option: one distinct sheet letter per seat, like `cab` or `c,a,b`."""
    letters = re.sub(r"[\s,;]", "", str(value)).lower()
    if letters in {"", "none", "default"}:
        return None
    if not letters.isalpha():
        raise ValueError(HrajError("expected one sheet letter per seat, like abc"))
    if len(set(letters)) != len(letters):
        raise ValueError(HrajError("each player gets a different sheet type"))
    return letters


#: Row views, and sheet views, a game keeps at most (each a few hundred bytes).
_ROW_VIEWS_KEPT = 4096


def _row_view(sheet_row: SheetRow, fields: tuple[int, ...], hit_bonus: tuple[int, ...]) -> RowView:
    complete = EMPTY not in fields
    return {
        "fields": [
            {
                "colour": COLOURS[colour],
                "printed": printed,
                "value": None if value == EMPTY else value,
                "crossed": value == CROSSED,
                "hit": value == printed,
            }
            for colour, printed, value in zip(sheet_row.colours, sheet_row.numbers, fields, strict=True)
        ],
        "complete": complete,
        "hits": hits(fields, sheet_row),
        "points": row_points(fields, sheet_row, hit_bonus, complete),
    }


class Trefa(Game[Move, ChanceOutcome]):
    """Trefa for 1 to 6 players, each on a different sheet type."""

    id = "trefa"
    order = 2
    name = "Trefa"
    options_spec: ClassVar[Mapping[str, Option]] = {
        "players": Option(2, "number of players, 1-6 (1 is solo play)", int_in(1, 6)),
        "first": FIRST_OPTION,
        "sheets": Option(
            None, "sheet letters by seat, like cab; the first ones of the file if not given", _check_sheet_letters
        ),
        "sheet_file": Option(
            None,
            "path to a sheet file of your own (JSON); the shipped sheets if not given",
            _check_sheet_file,
            local_only=True,
        ),
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        path = self.text_option("sheet_file")
        self.sheet_set: Sheets = default_sheets() if path is None else load_sheets(path)
        letters = self.text_option("sheets") or "".join(self.sheet_set.letters[: self.players])
        if len(letters) != self.players:
            raise InvalidOption(
                "Option sheets={letters} names {found} sheets for {players} players.",
                letters=letters,
                found=len(letters),
                players=self.players,
            )
        for letter in letters:
            if letter not in self.sheet_set.types:
                raise InvalidOption(
                    "There is no sheet {letter}; the sheets are {known}.",
                    letter=letter,
                    known=", ".join(self.sheet_set.letters),
                )
        #: The sheet letter of each seat, and its rows.
        self.letters: tuple[str, ...] = tuple(letters)
        self.seat_rows: tuple[tuple[SheetRow, ...], ...] = tuple(self.sheet_set.types[x] for x in letters)
        self.hit_bonus: tuple[int, ...] = self.sheet_set.hit_bonus
        self._row_views: dict[tuple[int, int, tuple[int, ...]], RowView] = {}
        self._sheet_views: dict[tuple[int, int, tuple[tuple[int, ...], ...]], SheetView] = {}

    def sheet_view(self, seat: int, current: int, fields: Sequence[tuple[int, ...]]) -> SheetView:
        """The view of a seat's sheet holding `fields`, its current row `current`. Only the
        active seat's sheet changes, once a turn, so sheet views are kept and shared like
        row views (to be read, never changed)."""
        key = (seat, current, tuple(fields))
        made = self._sheet_views.get(key)
        if made is None:
            if len(self._sheet_views) >= _ROW_VIEWS_KEPT:
                self._sheet_views.clear()
            rows = [self.row_view(seat, row, fields[row]) for row in range(ROWS)]
            made = self._sheet_views[key] = {
                "letter": self.letters[seat],
                "current_row": current if current < ROWS else None,
                "rows": rows,
                "score": sum(row["points"] for row in rows),
            }
        return made

    def row_view(self, seat: int, row: int, fields: tuple[int, ...]) -> RowView:
        """The view of one row of a seat's sheet holding `fields`. A row changes only when a
        turn ends, so views are kept and shared (and must be read, never changed); the
        store is emptied when it grows past a bound."""
        key = (seat, row, fields)
        made = self._row_views.get(key)
        if made is None:
            if len(self._row_views) >= _ROW_VIEWS_KEPT:
                self._row_views.clear()
            made = self._row_views[key] = _row_view(self.seat_rows[seat][row], fields, self.hit_bonus)
        return made

    @classmethod
    def conformance_options(cls) -> list[GameOptions]:
        counts: list[GameOptions] = [{"players": n} for n in range(1, 7)]
        return [*counts, {"players": 2, "first": 1}, {"players": 3, "sheets": "f,c,a"}]

    def new_state(self) -> TrefaState:
        return TrefaState(self)

    def parse_action(self, text: str) -> Move:
        if not isinstance(text, str):
            raise InvalidAction("An action must be text, like reroll, stop or write k,y,b.")
        word = text.strip().lower()
        if word in _REROLL_WORDS:
            return REROLL_MOVE
        if word in _STOP_WORDS:
            return STOP
        match = _WRITE.match(text)
        if match is not None:
            letters = re.sub(r"[\s,;]", "", match.group(1)).lower()
            if letters and all(letter in COLOURS for letter in letters):
                if len(set(letters)) != len(letters):
                    raise InvalidAction("{text} names a colour twice.", text=text.strip())
                return write(letters)
        raise InvalidAction(
            "{text} is not a Trefa action: type reroll, stop, or write and the colours, like write k,y,b.",
            text=text.strip(),
        )

    def parse_chance(self, text: str) -> ChanceOutcome:
        first = parse_first(text)
        if first is not None:
            return first
        dice: dict[str, int] = {}
        for letter, value in _DIE.findall(text):
            if letter.lower() in dice:
                raise InvalidAction("The roll {text} names a die twice.", text=text)
            dice[letter.lower()] = int(value)
        if _DIE.sub("", text).strip() or len(dice) != FIELDS:
            raise InvalidAction("{text} is not a Trefa roll; write it like k6 w4 r3 y3 g1 b1.", text=text)
        return Roll(*(dice[letter] for letter in COLOURS))


class TrefaState(State[Move, ChanceOutcome]):
    """A Trefa position; see the module docstring for the shape of a turn."""

    __slots__ = ("_log", "active", "dice", "end_reason", "fields", "game", "kept", "last", "phase", "players", "row")

    def __init__(self, game: Trefa) -> None:
        self.game: Trefa = game
        self._log: EventLog = None
        self.players = game.players
        #: fields[seat][row]: the six fields of that row, left to right.
        self.fields: list[list[tuple[int, ...]]] = [[(EMPTY,) * FIELDS] * ROWS for _ in range(self.players)]
        #: row[seat]: the index of that seat's current row (5 once its sheet is full).
        self.row = [0] * self.players
        first = game.first
        self.active: int = 0 if first is None else first
        self.phase = ROLL if first is not None or self.players == 1 else CHOOSE_FIRST
        self.dice: Roll | None = None
        #: The dice kept (showing 1) in this turn's reroll; 0 before a reroll.
        self.kept = 0
        #: What the previous turn did: (seat, dice text, "write k,y" or "cross w").
        self.last: tuple[int, str, str] | None = None
        self.end_reason = ""

    def copy(self) -> TrefaState:
        new = TrefaState.__new__(TrefaState)
        new.game = self.game
        new._log = self._log
        new.players = self.players
        new.fields = [rows[:] for rows in self.fields]
        new.row = self.row[:]
        new.active = self.active
        new.phase = self.phase
        new.dice = self.dice
        new.kept = self.kept
        new.last = self.last
        new.end_reason = self.end_reason
        return new

    # --- the contract ---------------------------------------------------------------

    @property
    def to_act(self) -> tuple[Seat, ...]:
        return (self.active,) if self.phase in (FIRST_THROW, SECOND_THROW) else ()

    @property
    def is_chance(self) -> bool:
        return self.phase in (CHOOSE_FIRST, ROLL, REROLL)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(float(self.score(seat)) for seat in range(self.players))
        rows = [[self.row_score(seat, row) for row in range(ROWS)] for seat in range(self.players)]
        return Outcome(scores, winners_by_score(scores), self.end_reason, {"finisher": self.active, "rows": rows})

    def _forfeit(self, seat: Seat) -> None:
        self.phase = OVER
        self.end_reason = FORFEIT

    def chance_outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        if self.phase == CHOOSE_FIRST:
            return [(First(seat), 1 / self.players) for seat in range(self.players)]
        if self.phase == ROLL:
            return list(_rolls(0))
        if self.phase == REROLL:
            return list(_rolls(self.kept))
        return []

    def sample_chance(self, rng: random.Random) -> ChanceOutcome:
        if self.phase == CHOOSE_FIRST:
            return First(rng.randrange(self.players))
        if self.phase == REROLL:
            assert self.dice is not None
            return Roll(*(1 if self.kept >> c & 1 else rng.randint(1, 6) for c in range(FIELDS)))
        return Roll(*(rng.randint(1, 6) for _ in range(FIELDS)))

    def _is_possible_chance(self, outcome: ChanceOutcome) -> bool:
        if isinstance(outcome, First):
            return self.phase == CHOOSE_FIRST and 0 <= outcome.seat < self.players
        if self.phase not in (ROLL, REROLL) or not all(1 <= value <= 6 for value in outcome):
            return False
        return self.phase == ROLL or outcome.ones() & self.kept == self.kept

    def legal_actions(self, seat: Seat) -> list[Move]:
        if seat != self.active or self.phase not in (FIRST_THROW, SECOND_THROW):
            return []
        writable = self.writable()
        if self.phase == SECOND_THROW:
            return list(_writes(writable))
        return [REROLL_MOVE, *_writes(writable)] if writable else [REROLL_MOVE, STOP]

    def writable(self) -> int:
        """The mask of dice the active seat may write into its current row now."""
        if self.dice is None:
            return 0
        sheet_row = self.game.seat_rows[self.active][self.row[self.active]]
        fields = self.fields[self.active][self.row[self.active]]
        mask = 0
        for colour, value in enumerate(self.dice):
            at = sheet_row.colours.index(colour)
            if fields[at] == EMPTY and value <= sheet_row.numbers[at]:
                mask |= 1 << colour
        return mask

    def _why_illegal(self, seat: Seat, action: Move) -> IllegalAction:
        if action.kind == "reroll":
            return IllegalAction("Only one reroll is allowed in a turn.")
        if action.kind == "stop":
            if self.writable():
                return IllegalAction("A die fits your current row, so you must write at least one number.")
            return IllegalAction("Nothing fits after the reroll; the field is crossed out by itself.")
        assert self.dice is not None
        sheet_row = self.game.seat_rows[seat][self.row[seat]]
        fields = self.fields[seat][self.row[seat]]
        for colour in colour_list(action.dice):
            at = sheet_row.colours.index(colour)
            if fields[at] != EMPTY:
                return IllegalAction(FIELD_FILLED[colour])
            if self.dice[colour] > sheet_row.numbers[at]:
                return IllegalAction(DIE_TOO_HIGH[colour], value=self.dice[colour], printed=sheet_row.numbers[at])
        return super()._why_illegal(seat, action)

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        if isinstance(outcome, First):
            self.active = outcome.seat
            self.phase = ROLL
            return
        self.dice = outcome
        if self.phase == ROLL:
            self.kept = 0
            self.phase = FIRST_THROW
            return
        self.phase = SECOND_THROW
        if not self.writable():
            self._cross_out()

    def _apply(self, seat: Seat, action: Move) -> None:
        assert self.dice is not None
        if action.kind == "reroll":
            self.kept = self.dice.ones()
            self.phase = REROLL
            return
        if action.kind == "stop":
            self._cross_out()
            return
        sheet_row = self.game.seat_rows[seat][self.row[seat]]
        fields = list(self.fields[seat][self.row[seat]])
        for colour in colour_list(action.dice):
            fields[sheet_row.colours.index(colour)] = self.dice[colour]
        self.fields[seat][self.row[seat]] = tuple(fields)
        self._end_turn(str(action))

    def _cross_out(self) -> None:
        """The forced step: cross out the leftmost empty field of the current row."""
        seat = self.active
        sheet_row = self.game.seat_rows[seat][self.row[seat]]
        fields = list(self.fields[seat][self.row[seat]])
        at = fields.index(EMPTY)
        fields[at] = CROSSED
        self.fields[seat][self.row[seat]] = tuple(fields)
        text = f"cross {COLOURS[sheet_row.colours[at]]}"
        self._record_auto(seat, text)
        self._end_turn(text)

    def _end_turn(self, what: str) -> None:
        seat = self.active
        assert self.dice is not None
        self.last = (seat, str(self.dice), what)
        self.dice = None
        self.kept = 0
        if EMPTY not in self.fields[seat][self.row[seat]]:
            self.row[seat] += 1
            if self.row[seat] == ROWS:
                self.phase = OVER
                self.end_reason = "five rows"
                return
        self.active = (seat + 1) % self.players
        self.phase = ROLL

    # --- scoring and views -------------------------------------------------------------

    def row_score(self, seat: int, row: int) -> int:
        """Points of a row so far: with the hit bonus if it is complete, else the numbers only."""
        fields = self.fields[seat][row]
        return row_points(fields, self.game.seat_rows[seat][row], self.game.hit_bonus, EMPTY not in fields)

    def score(self, seat: int) -> int:
        """The total as it would be written if the game ended now."""
        return sum(self.row_score(seat, row) for row in range(ROWS))

    def view(self, seat: Seat | None) -> TrefaView:
        """Everything is open in Trefa: every seat (and a spectator) sees every sheet."""
        throwing = self.phase in (FIRST_THROW, SECOND_THROW)
        dice = self.dice if throwing else None
        writable = self.writable() if dice is not None else 0
        last = self.last
        game = self.game
        return {
            "game": "trefa",
            "players": self.players,
            "active": self.active if self.phase != CHOOSE_FIRST else None,
            "phase": PHASES[self.phase],
            "to_act": [self.active] if throwing else [],
            "dice": None if dice is None else dict(zip(COLOURS, dice, strict=True)),
            "kept": list(_LETTERS[self.kept]),
            "rerolled": self.phase in (REROLL, SECOND_THROW),
            "writable": list(_LETTERS[writable]),
            "last": None if last is None else {"seat": last[0], "dice": last[1], "did": last[2]},
            "sheets": [self._sheet_view(s) for s in range(self.players)],
            "hit_bonus": list(game.hit_bonus),
            "sheets_verified": game.sheet_set.verified,
            "seat": seat,
            "legal": list(_legal_texts(self.phase, writable)) if throwing and seat == self.active else [],
            "outcome": self.outcome_json(),
        }

    def _sheet_view(self, seat: int) -> SheetView:
        return self.game.sheet_view(seat, self.row[seat], self.fields[seat])

    # --- position notation ------------------------------------------------------------

    def position(self) -> str:
        """Compact text of the sheets at the start of a turn: `1: a 5x4221 ..3... / b`.

        The number before the colon is the active seat; sheets are separated by `/`.
        Each sheet is its letter, then its rows from the top down to the current one,
        each as its six fields left to right: the number written, `x` crossed, `.` empty.
        Rows below the last one listed are empty.
        """
        sheets = []
        for seat in range(self.players):
            rows = self.fields[seat][: min(self.row[seat] + 1, ROWS)]
            texts = ["".join("." if v == EMPTY else "x" if v == CROSSED else str(v) for v in row) for row in rows]
            while texts and texts[-1] == "." * FIELDS:
                texts.pop()
            sheets.append(" ".join([self.game.letters[seat], *texts]))
        return join_position(self.active, sheets)

    @classmethod
    def from_position(cls, game: Trefa, text: str) -> TrefaState:
        """The state at the start of a turn (a roll is due) described by `position()` text."""
        active, sheet_texts = split_position(text, game.players, "Trefa")
        sheets = [part.split() for part in sheet_texts]
        state = cls(game)
        state.active = active
        state.phase = ROLL
        for seat, parts in enumerate(sheets):
            if not parts or parts[0] != game.letters[seat]:
                raise InvalidAction(
                    "Seat {seat} plays sheet {letter} in this game.", seat=seat, letter=game.letters[seat]
                )
            rows = parts[1:]
            if len(rows) > ROWS:
                raise InvalidAction("A sheet has 5 rows, not {found}.", found=len(rows))
            for index, row_text in enumerate(rows):
                sheet_row = game.seat_rows[seat][index]
                if len(row_text) != FIELDS or any(ch not in ".x123456" for ch in row_text):
                    raise InvalidAction("{row} is not a row: six of 1-6, x (crossed) or . (empty).", row=row_text)
                fields = tuple(EMPTY if ch == "." else CROSSED if ch == "x" else int(ch) for ch in row_text)
                if any(value > printed for value, printed in zip(fields, sheet_row.numbers, strict=True)):
                    raise InvalidAction("{row}: a number is higher than the one printed on its field.", row=row_text)
                if index < len(rows) - 1 and EMPTY in fields:
                    raise InvalidAction("{row}: rows are filled top to bottom; this one is not full.", row=row_text)
                state.fields[seat][index] = fields
            state.row[seat] = sum(1 for fields in state.fields[seat] if EMPTY not in fields)
            if state.row[seat] == ROWS:
                raise InvalidAction("Seat {seat} has filled all five rows: that game is over.", seat=seat)
        return state
