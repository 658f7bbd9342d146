"""eXtreme Gammon's XGID: a whole position in one line of text.

`XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10` holds ten fields split by `:`:

1. the checkers, 26 characters seen from the bottom player: character 0 is the top
   player's bar, characters 1-24 the bottom player's points 1-24, character 25 the
   bottom player's bar; `-` is empty, `A`-`O` are 1-15 checkers of the bottom
   player and `a`-`o` of the top player;
2. the cube value as a power of two (0 is a cube of 1);
3. the cube: 1 owned by the bottom player, 0 centred, -1 owned by the top player;
4. the player on roll: 1 bottom, -1 top; while a cube answer is due, the player who
   doubled (XG's specification, and gnubg reads it so);
5. the dice: `00` before the roll, two digits once rolled, or `D` (the player on roll
   doubled), `B` (and the opponent beavered), `R` (and the doubler raccooned) while a
   cube answer is due;
6. and 7. the points won so far by the bottom and the top player;
8. in a match 1 in the Crawford game, else 0; in a money game the Jacoby rule (+1)
   plus beavers allowed (+2);
9. the match length (0 for a money game);
10. the maximum cube as a power of two (some older XGIDs leave this field out).
"""

from __future__ import annotations

from dataclasses import dataclass

from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.position_id import BAR, CHECKERS, PLACES, POINTS, Row, TanBoard

PREFIX = "XGID="
#: Letters of the cube-answer states in the dice field.
CUBE_ACTIONS = ("D", "B", "R")
BOTTOM, TOP = 1, -1
MAX_LOG_CUBE = 15


@dataclass(frozen=True, slots=True)
class Xgid:
    """Every field of an XGID. Rows are as in TanBoard: index i is the owner's point i+1, 24 the bar."""

    bottom: Row
    top: Row
    cube_value: int = 1
    cube_owner: int = 0
    turn: int = BOTTOM
    """The player on roll (who doubled, while a cube answer is due)."""
    dice: tuple[int, int] = (0, 0)
    cube_action: str = ""
    scores: tuple[int, int] = (0, 0)
    """Points won by (bottom, top)."""
    rules: int = 0
    """Field 8: Crawford flag in a match; Jacoby (+1) and beavers (+2) in money play."""
    match_length: int = 0
    max_cube: int | None = 1 << 10
    """None when the XGID had no tenth field."""

    def __post_init__(self) -> None:
        TanBoard(self.top, self.bottom)  # checks counts and shared points
        for value in (self.cube_value, self.max_cube or 1):
            if value < 1 or value & (value - 1) or value.bit_length() - 1 > MAX_LOG_CUBE:
                raise FormatError("The cube value {value} is not a power of two from 1 to 32768.", value=value)
        if self.cube_owner not in (-1, 0, 1) or self.turn not in (BOTTOM, TOP):
            raise FormatError("An XGID's cube owner is 1, 0 or -1 and its turn 1 or -1.")
        if self.cube_action not in ("", *CUBE_ACTIONS):
            raise FormatError("The cube action of an XGID is D, B or R, not {action}.", action=self.cube_action)
        first, second = self.dice
        if not (0 <= first <= 6 and 0 <= second <= 6) or (first == 0) != (second == 0):
            raise FormatError("The dice {dice} are neither two dice from 1 to 6 nor unrolled (0 0).", dice=self.dice)
        if self.cube_action and first:
            raise FormatError("An XGID cannot show dice while a cube answer is due.")
        if self.match_length < 0 or any(score < 0 for score in self.scores) or not 0 <= self.rules <= 3:
            raise FormatError("Scores, match length and rules of an XGID cannot be negative.")

    @property
    def money(self) -> bool:
        return self.match_length == 0

    @property
    def crawford(self) -> bool:
        return not self.money and bool(self.rules & 1)

    @property
    def jacoby(self) -> bool:
        return self.money and bool(self.rules & 1)

    @property
    def beavers(self) -> bool:
        return self.money and bool(self.rules & 2)


def _letter(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    letter = chr(ord("A") + count - 1)
    return letter if upper else letter.lower()


def _count(char: str, upper: bool) -> int:
    """Checkers in one character: `-` 0, `A`-`O` (or `a`-`o`) 1-15."""
    if char == "-":
        return 0
    base = "A" if upper else "a"
    count = ord(char) - ord(base) + 1
    if not 1 <= count <= CHECKERS:
        raise ValueError(char)
    return count


def encode_position(bottom: Row, top: Row) -> str:
    """The 26 characters of field 1."""
    chars = [_letter(top[BAR], upper=False)]
    for point in range(1, POINTS + 1):
        own = bottom[point - 1]
        theirs = top[POINTS - point]
        chars.append(_letter(own, upper=True) if own else _letter(theirs, upper=False))
    chars.append(_letter(bottom[BAR], upper=True))
    return "".join(chars)


def decode_position(text: str) -> tuple[Row, Row]:
    """(bottom, top) rows from the 26 characters of field 1."""
    if len(text) != PLACES + 1:
        raise FormatError("The checkers of an XGID take 26 characters, not {count}.", count=len(text))
    bottom = [0] * PLACES
    top = [0] * PLACES
    try:
        top[BAR] = _count(text[0], upper=False)
        bottom[BAR] = _count(text[PLACES], upper=True)
        for point in range(1, POINTS + 1):
            char = text[point]
            if char.isupper():
                bottom[point - 1] = _count(char, upper=True)
            else:
                top[POINTS - point] = _count(char, upper=False)
    except ValueError as error:
        raise FormatError("{char} is not a checker count in an XGID.", char=str(error)) from None
    return tuple(bottom), tuple(top)


def encode_xgid(xgid: Xgid) -> str:
    """The XGID text, starting with `XGID=`."""
    log_cube = xgid.cube_value.bit_length() - 1
    dice = xgid.cube_action or f"{xgid.dice[0]}{xgid.dice[1]}"
    fields = [
        encode_position(xgid.bottom, xgid.top),
        str(log_cube),
        str(xgid.cube_owner),
        str(xgid.turn),
        dice,
        str(xgid.scores[0]),
        str(xgid.scores[1]),
        str(xgid.rules),
        str(xgid.match_length),
    ]
    if xgid.max_cube is not None:
        fields.append(str(xgid.max_cube.bit_length() - 1))
    return PREFIX + ":".join(fields)


def _integer(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise FormatError("The {name} field of an XGID is a whole number, not {text}.", name=name, text=text) from None


def decode_xgid(text: str) -> Xgid:
    """The fields of an XGID (with or without `XGID=`); raises FormatError for anything else."""
    body = text.strip()
    if body[: len(PREFIX)].upper() == PREFIX:
        body = body[len(PREFIX) :]
    fields = body.split(":")
    if len(fields) not in (9, 10):
        raise FormatError("An XGID has 9 or 10 fields split by colons, not {count}.", count=len(fields))
    bottom, top = decode_position(fields[0])
    log_cube = _integer(fields[1], "cube")
    dice_text = fields[4].strip().upper()
    if dice_text in CUBE_ACTIONS:
        dice, action = (0, 0), dice_text
    elif len(dice_text) == 2 and dice_text.isdigit():
        dice, action = (int(dice_text[0]), int(dice_text[1])), ""
    else:
        raise FormatError("The dice field of an XGID is 00, two dice or D, B, R; not {text}.", text=fields[4])
    max_cube = None
    if len(fields) == 10:
        log_max = _integer(fields[9], "maximum cube")
        if not 0 <= log_max <= MAX_LOG_CUBE:
            raise FormatError("The maximum cube of an XGID is a power of two up to 2^15.")
        max_cube = 1 << log_max
    if not 0 <= log_cube <= MAX_LOG_CUBE:
        raise FormatError("The cube of an XGID is a power of two up to 2^15.")
    return Xgid(
        bottom=bottom,
        top=top,
        cube_value=1 << log_cube,
        cube_owner=_integer(fields[2], "cube owner"),
        turn=_integer(fields[3], "turn"),
        dice=dice,
        cube_action=action,
        scores=(_integer(fields[5], "score"), _integer(fields[6], "score")),
        rules=_integer(fields[7], "rules"),
        match_length=_integer(fields[8], "match length"),
        max_cube=max_cube,
    )
