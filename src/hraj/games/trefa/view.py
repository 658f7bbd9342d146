"""The shape of a Trefa view: what `TrefaState.view(seat)` returns and what the terminal,
the browser, hints and the learning-agent codec read, checked by mypy on every side."""

from __future__ import annotations

from typing import TypedDict

from hraj.core.game import OutcomeJson


class FieldView(TypedDict):
    colour: str
    """The die colour the field takes: one of k w r y g b."""
    printed: int
    value: int | None
    """The number written; None while empty, 0 when crossed out."""
    crossed: bool
    hit: bool
    """The number written equals the printed one."""


class RowView(TypedDict):
    fields: list[FieldView]
    complete: bool
    hits: int
    points: int


class SheetView(TypedDict):
    letter: str
    current_row: int | None
    """The row the seat fills now; None once its sheet is full."""
    rows: list[RowView]
    score: int


class LastTurnView(TypedDict):
    """What the previous turn did."""

    seat: int
    dice: str
    did: str
    """`write k,y` or `cross w`."""


class TrefaView(TypedDict):
    game: str
    players: int
    active: int | None
    phase: str
    """choose_first, roll, first_throw, reroll, second_throw or over."""
    to_act: list[int]
    dice: dict[str, int] | None
    """The six dice by colour letter while they lie on the table."""
    kept: list[str]
    rerolled: bool
    writable: list[str]
    last: LastTurnView | None
    sheets: list[SheetView]
    hit_bonus: list[int]
    sheets_verified: bool
    seat: int | None
    legal: list[str]
    outcome: OutcomeJson | None
