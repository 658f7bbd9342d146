"""gnubg's Match ID: cube, turn, dice and score in 12 Base64 characters.

The key is 67 bits packed little-endian into 9 bytes; each field is stored lowest bit
first, in this order (bit numbers as in gnubg's manual):

| bits  | field                                                                |
|-------|----------------------------------------------------------------------|
| 1-4   | log2 of the cube value                                               |
| 5-6   | cube owner: 0 player 0, 1 player 1, 3 centred                        |
| 7     | the player on roll, or who did roll                                  |
| 8     | 1 in the Crawford game                                               |
| 9-11  | game state: 0 none, 1 playing, 2 over, 3 resigned, 4 ended by a drop |
| 12    | whose decision it is (the player on roll, or the one doubled)        |
| 13    | 1 while a double is offered                                          |
| 14-15 | resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon        |
| 16-18 | first die (0 = not rolled)                                           |
| 19-21 | second die                                                           |
| 22-36 | match length (0 = money game)                                        |
| 37-51 | score of player 0                                                    |
| 52-66 | score of player 1                                                    |
| 67    | 1 when the Jacoby rule is not in use (gnubg's extended Match ID)     |

gnubg's manual describes 66 bits; the program (1.07) also writes bit 67, set in every
match and in money play without the Jacoby rule. An ID without it is a money game
with the Jacoby rule as far as gnubg is concerned, so hraj writes and reads it as
gnubg does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.position_id import decode_unpadded, encode_unpadded

KEY_BYTES = 9
MAX_LOG_CUBE = 15
MAX_NUMBER = (1 << 15) - 1  # match length and scores
CENTRED = 3  # the cube owner field of a centred cube


class GameState(IntEnum):
    """Bits 9-11 of the Match ID."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(IntEnum):
    """Bits 14-15 of the Match ID: what a resigning player offers."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


#: (field name, width in bits), in key order.
FIELDS: tuple[tuple[str, int], ...] = (
    ("log_cube", 4),
    ("cube_owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


@dataclass(frozen=True, slots=True)
class MatchKey:
    """Every field of a Match ID. Players are gnubg's 0 and 1; `cube_owner` None is centred."""

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    scores: tuple[int, int] = (0, 0)
    jacoby: bool = False
    """The Jacoby rule is in use (bit 67 clear); gnubg clears it only in money play."""

    def __post_init__(self) -> None:
        value = self.cube_value
        if value < 1 or value & (value - 1) or value.bit_length() - 1 > MAX_LOG_CUBE:
            raise FormatError("The cube value {value} is not a power of two from 1 to 32768.", value=value)
        if self.cube_owner not in (None, 0, 1) or self.on_roll not in (0, 1) or self.turn not in (0, 1):
            raise FormatError("Players in a Match ID are 0 and 1.")
        first, second = self.dice
        if not (0 <= first <= 6 and 0 <= second <= 6) or (first == 0) != (second == 0):
            raise FormatError("The dice {dice} are neither two dice from 1 to 6 nor unrolled (0 0).", dice=self.dice)
        numbers = (self.match_length, *self.scores)
        if len(self.scores) != 2 or any(not 0 <= number <= MAX_NUMBER for number in numbers):
            raise FormatError("Match length and scores in a Match ID are whole numbers from 0 to 32767.")

    @property
    def money(self) -> bool:
        return self.match_length == 0

    def fields(self) -> dict[str, int]:
        """The raw numbers of the bit fields, by the names of FIELDS."""
        return {
            "log_cube": self.cube_value.bit_length() - 1,
            "cube_owner": CENTRED if self.cube_owner is None else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": int(self.resignation),
            "die1": self.dice[0],
            "die2": self.dice[1],
            "match_length": self.match_length,
            "score0": self.scores[0],
            "score1": self.scores[1],
            "no_jacoby": int(not self.jacoby),
        }

    @classmethod
    def from_fields(cls, raw: dict[str, int]) -> MatchKey:
        """A key from raw field numbers; raises FormatError for numbers no field allows."""
        if raw["cube_owner"] == 2:
            raise FormatError("The cube owner field of a Match ID is 0, 1 or 3 (centred), never 2.")
        if raw["game_state"] > max(GameState):
            raise FormatError("The game state field of a Match ID is 0 to 4, not {state}.", state=raw["game_state"])
        return cls(
            cube_value=1 << raw["log_cube"],
            cube_owner=None if raw["cube_owner"] == CENTRED else raw["cube_owner"],
            on_roll=raw["on_roll"],
            crawford=bool(raw["crawford"]),
            game_state=GameState(raw["game_state"]),
            turn=raw["turn"],
            double_offered=bool(raw["double_offered"]),
            resignation=Resignation(raw["resignation"]),
            dice=(raw["die1"], raw["die2"]),
            match_length=raw["match_length"],
            scores=(raw["score0"], raw["score1"]),
            jacoby=not raw["no_jacoby"],
        )


def match_key_bytes(key: MatchKey) -> bytes:
    """The 9-byte key."""
    bits = 0
    position = 0
    values = key.fields()
    for name, width in FIELDS:
        bits |= values[name] << position
        position += width
    return bits.to_bytes(KEY_BYTES, "little")


def match_key_from_bytes(data: bytes) -> MatchKey:
    """The key of 9 bytes; raises FormatError when it is not one."""
    if len(data) != KEY_BYTES:
        raise FormatError("A match key has 9 bytes, not {count}.", count=len(data))
    bits = int.from_bytes(data, "little")
    raw: dict[str, int] = {}
    for name, width in FIELDS:
        raw[name] = bits & ((1 << width) - 1)
        bits >>= width
    if bits:
        raise FormatError("The match key has bits set after its 67th.")
    return MatchKey.from_fields(raw)


def encode_match_id(key: MatchKey) -> str:
    """The 12-character Match ID, e.g. `QYkqASAAIAAA` (the manual's example)."""
    return encode_unpadded(match_key_bytes(key))


def decode_match_id(text: str) -> MatchKey:
    """The key of a Match ID; raises FormatError for anything else."""
    match_id = text.strip()
    data = decode_unpadded(match_id, KEY_BYTES)
    if data is None:
        raise FormatError("{text} is not a Match ID: it has 12 characters from A-Z, a-z, 0-9, + and /.", text=match_id)
    return match_key_from_bytes(data)
