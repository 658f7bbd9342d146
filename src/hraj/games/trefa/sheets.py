"""Trefa score sheets as data: which colour sits on which field, and what is printed there.

The pad has six sheet types, each of five rows; every row holds one field per die colour
with a printed number. The real layouts are unknown (see `sheets.json`, marked
unverified), so they live in a data file that anyone can replace with their own:
`load_sheets(path)` reads and checks such a file and says exactly what is wrong with it.

A sheet file is a JSON object:

    {"format": "hraj-trefa-sheets", "version": 1, "verified": false,
     "source_note": "where the layouts come from",
     "numbers": [6, 5, 4, 3, 2, 1],            printed left to right in every row
     "hit_bonus": [0, 1, 3, 6, 10, 15, 21],     points for 0 to 6 hits in a row
     "sheets": {"a": ["yrgbwk", ...five rows], ..., "f": [...]}}

A row is its colour letters left to right (k black, w white, r red, y yellow, g green,
b blue), or an object `{"colours": "yrgbwk", "numbers": [...]}` whose numbers replace
the default ones for that row.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

from hraj.core.errors import InvalidOption, file_reason

#: Die colours in canonical order; a colour's index is its die's index in a roll.
COLOURS = "kwrygb"
COLOUR_NAMES = ("black", "white", "red", "yellow", "green", "blue")
FIELDS = 6
ROWS = 5
SHEET_TYPES = 6
SHEET_FORMAT = "hraj-trefa-sheets"
SHEET_VERSION = 1


class SheetError(InvalidOption):
    """A sheet file that cannot be read or does not describe valid Trefa sheets."""


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One row of a sheet: the colour and the printed number of each field, left to right."""

    colours: tuple[int, ...]
    numbers: tuple[int, ...]

    @property
    def position(self) -> tuple[int, ...]:
        """The field (0 = leftmost) of each colour, in canonical colour order."""
        return tuple(self.colours.index(colour) for colour in range(FIELDS))

    def printed(self, colour: int) -> int:
        """The number printed on the field of `colour`."""
        return self.numbers[self.colours.index(colour)]

    def __str__(self) -> str:
        return "".join(COLOURS[colour] for colour in self.colours)


@dataclass(frozen=True, slots=True)
class Sheets:
    """A set of sheet types (letter -> five rows) with the hit bonus that goes with them."""

    types: Mapping[str, tuple[SheetRow, ...]]
    hit_bonus: tuple[int, ...]
    verified: bool
    source_note: str
    path: str | None = None

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(self.types)


def _fail(where: str, template: str, **params: object) -> SheetError:
    return SheetError("Sheet file {where}: " + template, where=where, **params)


def _numbers(where: str, value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != FIELDS
        or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 6 for n in value)
    ):
        raise _fail(where, "printed numbers must be 6 whole numbers from 1 to 6, not {found}.", found=value)
    return tuple(value)


def _colours(where: str, value: object) -> tuple[int, ...]:
    text = value.strip().lower() if isinstance(value, str) else None
    if text is None or len(text) != FIELDS or sorted(text) != sorted(COLOURS):
        raise _fail(
            where,
            "a row must list each of the six colours k w r y g b once, left to right, not {found}.",
            found=value,
        )
    return tuple(COLOURS.index(letter) for letter in text)


def parse_sheets(data: object, where: str) -> Sheets:
    """Check the decoded JSON of a sheet file; `where` names it in error messages."""
    if not isinstance(data, dict):
        raise _fail(where, "the file must hold a JSON object.")
    if data.get("format") != SHEET_FORMAT or data.get("version") != SHEET_VERSION:
        raise _fail(
            where,
            'it must start with "format": "{format}" and "version": {version}.',
            format=SHEET_FORMAT,
            version=SHEET_VERSION,
        )
    unknown = sorted(set(data) - {"format", "version", "verified", "source_note", "numbers", "hit_bonus", "sheets"})
    if unknown:
        raise _fail(where, "unknown field {field}.", field=unknown[0])
    verified = data.get("verified", False)
    if not isinstance(verified, bool):
        raise _fail(where, "verified must be true or false.")
    note = data.get("source_note", "")
    if not isinstance(note, str):
        raise _fail(where, "source_note must be text.")
    default_numbers = _numbers(where + " numbers", data.get("numbers"))
    bonus = data.get("hit_bonus")
    if (
        not isinstance(bonus, list)
        or len(bonus) != FIELDS + 1
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in bonus)
    ):
        raise _fail(
            where, "hit_bonus must list 7 whole numbers of at least 0 (for 0 to 6 hits), not {found}.", found=bonus
        )
    raw_sheets = data.get("sheets")
    if not isinstance(raw_sheets, dict) or len(raw_sheets) != SHEET_TYPES:
        found = len(raw_sheets) if isinstance(raw_sheets, dict) else 0
        raise _fail(where, "sheets must map 6 sheet letters to their rows; found {found}.", found=found)
    types: dict[str, tuple[SheetRow, ...]] = {}
    for letter, rows in raw_sheets.items():
        if len(letter) != 1 or not letter.isalpha() or not letter.islower():
            raise _fail(where, "a sheet is named by one lower-case letter, not {letter}.", letter=letter)
        if not isinstance(rows, list) or len(rows) != ROWS:
            found = len(rows) if isinstance(rows, list) else 0
            raise _fail(where, "sheet {letter} must have 5 rows, not {found}.", letter=letter, found=found)
        parsed: list[SheetRow] = []
        for number, row in enumerate(rows, start=1):
            at = f"{where} sheet {letter} row {number}"
            if isinstance(row, dict):
                extra = sorted(set(row) - {"colours", "numbers"})
                if extra:
                    raise _fail(at, "unknown field {field}.", field=extra[0])
                colours = _colours(at, row.get("colours"))
                numbers = _numbers(at, row["numbers"]) if "numbers" in row else default_numbers
            else:
                colours, numbers = _colours(at, row), default_numbers
            parsed.append(SheetRow(colours, numbers))
        types[letter] = tuple(parsed)
    return Sheets(types, tuple(bonus), verified, note, where)


def load_sheets(path: str) -> Sheets:
    """Read and check a sheet file; raises SheetError saying what is wrong."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise SheetError("Cannot read the sheet file {path}: {why}.", path=path, why=file_reason(error)) from None
    return _decode(text, path)


def _decode(text: str, where: str) -> Sheets:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SheetError(
            "The sheet file {path} is not valid JSON (line {line}).", path=where, line=error.lineno
        ) from None
    return parse_sheets(data, where)


@functools.cache
def default_sheets() -> Sheets:
    """The sheets shipped with hraj (placeholders, marked unverified)."""
    text = resources.files("hraj.games.trefa").joinpath("sheets.json").read_text(encoding="utf-8")
    return _decode(text, "sheets.json")
