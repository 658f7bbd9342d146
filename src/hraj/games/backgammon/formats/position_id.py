"""gnubg's Position ID: the checkers of both players in 14 Base64 characters.

The board is gnubg's `TanBoard`: two rows of 25 counts, first the player **not** on
roll, then the player on roll; in each row index i is that player's own point i+1
and index 24 is that player's bar. Borne-off checkers are not stored.

The key is a bit string: for each row in that order, for each of its 25 places,
one `1` per checker followed by a `0`; padded with `0`s to 80 bits and packed
little-endian (the first bit is the lowest bit of the first byte). The ID is the
Base64 of those 10 bytes without the `==` padding.

gnubg's manual words the order as "the player on roll first"; gnubg's own code and
every ID it prints put the player not on roll first (the manual's example, the
starting position, is symmetric and cannot tell). We follow the program.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from hraj.games.backgammon.formats.errors import FormatError

POINTS = 24
BAR = 24  # index of the bar in a row
PLACES = 25  # 24 points and the bar
CHECKERS = 15
KEY_BITS = 80
KEY_BYTES = 10

Row = tuple[int, ...]

_BASE64 = re.compile(r"^[A-Za-z0-9+/]+$")

#: Each side's starting checkers: 2 on the 24 point, 5 on 13, 3 on 8, 5 on 6.
START_ROW: Row = tuple({5: 5, 7: 3, 12: 5, 23: 2}.get(index, 0) for index in range(PLACES))


def check_row(row: Row, who: str) -> None:
    """Raise FormatError unless `row` is 25 counts of at most 15 checkers in all."""
    if len(row) != PLACES or any(not isinstance(count, int) or count < 0 for count in row):
        raise FormatError("The board of {who} must be 25 counts of checkers (24 points and the bar).", who=who)
    if sum(row) > CHECKERS:
        raise FormatError("{who} has {count} checkers on the board; at most 15 are allowed.", who=who, count=sum(row))


@dataclass(frozen=True, slots=True)
class TanBoard:
    """Both players' checkers as gnubg stores them (see the module's description)."""

    not_on_roll: Row
    on_roll: Row

    def __post_init__(self) -> None:
        check_row(self.not_on_roll, "the player not on roll")
        check_row(self.on_roll, "the player on roll")
        for index in range(POINTS):
            if self.on_roll[index] and self.not_on_roll[POINTS - 1 - index]:
                raise FormatError(
                    "Both players have checkers on the same point ({point} of the player on roll).", point=index + 1
                )
        if self.on_roll[BAR] and self.not_on_roll[BAR] and _closed(self.on_roll) and _closed(self.not_on_roll):
            raise FormatError("Both players are on the bar against closed boards; no game reaches that.")

    @classmethod
    def start(cls) -> TanBoard:
        return cls(START_ROW, START_ROW)

    def swapped(self) -> TanBoard:
        """The same checkers with the other player on roll."""
        return TanBoard(self.on_roll, self.not_on_roll)

    def off(self) -> tuple[int, int]:
        """Checkers borne off: (player not on roll, player on roll)."""
        return CHECKERS - sum(self.not_on_roll), CHECKERS - sum(self.on_roll)


def _closed(row: Row) -> bool:
    """Whether every point of a player's home board holds two or more of their checkers."""
    return all(count >= 2 for count in row[:6])


def position_key(board: TanBoard) -> bytes:
    """The 10-byte key of a board."""
    bits = 0
    position = 0
    for row in (board.not_on_roll, board.on_roll):
        for count in row:
            bits |= ((1 << count) - 1) << position
            position += count + 1
    return bits.to_bytes(KEY_BYTES, "little")


def board_from_key(key: bytes) -> TanBoard:
    """The board of a 10-byte key; raises FormatError for a key no board has."""
    if len(key) != KEY_BYTES:
        raise FormatError("A position key has 10 bytes, not {count}.", count=len(key))
    bits = int.from_bytes(key, "little")
    rows: list[list[int]] = [[], []]
    position = 0
    for row in rows:
        for _ in range(PLACES):
            count = 0
            while position < KEY_BITS and bits >> position & 1:
                count += 1
                position += 1
            if position >= KEY_BITS:
                raise FormatError("The position key has too many checkers.")
            row.append(count)
            position += 1  # the 0 that ends a place
    if bits >> position:
        raise FormatError("The position key has bits set after its last place.")
    return TanBoard(tuple(rows[0]), tuple(rows[1]))


def encode_position_id(board: TanBoard) -> str:
    """The 14-character Position ID of a board, e.g. `4HPwATDgc/ABMA` for the start."""
    return encode_unpadded(position_key(board))


def decode_position_id(text: str) -> TanBoard:
    """The board of a Position ID; raises FormatError for anything else."""
    position_id = text.strip()
    key = decode_unpadded(position_id, KEY_BYTES)
    if key is None:
        raise FormatError(
            "{text} is not a Position ID: it has 14 characters from A-Z, a-z, 0-9, + and /.", text=position_id
        )
    return board_from_key(key)


def encode_unpadded(key: bytes) -> str:
    """Base64 without the `=` padding, as gnubg writes its IDs."""
    return base64.b64encode(key).decode("ascii").rstrip("=")


def decode_unpadded(text: str, size: int) -> bytes | None:
    """The `size` bytes whose unpadded Base64 is exactly `text`, or None.

    Text with stray bits in its last character is refused, so that every ID has one
    spelling and decoding then encoding gives the text back.
    """
    if len(text) != (size * 8 + 5) // 6 or not _BASE64.match(text):
        return None
    try:
        key = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error:
        return None
    return key if encode_unpadded(key) == text else None
