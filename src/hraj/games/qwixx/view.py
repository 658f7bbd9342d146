"""The shape of a Qwixx view: what `QwixxState.view(seat)` returns and what the terminal
and the browser read, checked by mypy on both sides."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from hraj.core.game import OutcomeJson


class RowView(TypedDict):
    crossed: list[int]
    lock: bool
    crosses: int
    points: int


class SheetView(TypedDict):
    rows: dict[str, RowView]
    penalties: int
    score: int


class DiceView(TypedDict):
    """The two white dice and one die per colour row (None where the row is locked)."""

    w1: int
    w2: int
    r: int | None
    y: int | None
    g: int | None
    b: int | None


class QwixxView(TypedDict):
    game: str
    players: int
    active: int | None
    phase: str
    """choose_first, roll, white, colour or over."""
    to_act: list[int]
    dice: DiceView | None
    locked: list[str]
    sheets: list[SheetView]
    seat: int | None
    legal: list[str]
    answered: bool
    outcome: OutcomeJson | None
    my_answer: NotRequired[str]
    """The seat's own pending answer to the white sum."""
    pass_is_misthrow: NotRequired[bool]
    """For the active seat: passing now ends its turn without a cross, a misthrow."""


def dice_values(dice: DiceView) -> dict[str, int | None]:
    """The dice by key (w1, w2, r, y, g, b), for code that walks over them."""
    return {"w1": dice["w1"], "w2": dice["w2"], "r": dice["r"], "y": dice["y"], "g": dice["g"], "b": dice["b"]}
