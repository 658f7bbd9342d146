"""How Qwixx looks in the browser: its sheets and dice from a seat's view, its words.

Nothing here decides legality: a cell is clickable exactly when its cross is in
`view["legal"]`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from hraj.core.views import seat_order
from hraj.games.qwixx.view import QwixxView, dice_values
from hraj.i18n import t

# Colour rows and dice carry a shape as well as a colour, for colour-blind players.
COLOUR_NAMES = {"w": "white", "r": "red", "y": "yellow", "g": "green", "b": "blue"}
SYMBOLS = {"w": "□", "r": "▲", "y": "★", "g": "♣", "b": "◆"}

ROWS = ("r", "y", "g", "b")
NUMBERS = {"r": range(2, 13), "y": range(2, 13), "g": range(12, 1, -1), "b": range(12, 1, -1)}
MAX_PENALTIES = 4
#: What one misthrow costs.
PENALTY_POINTS = 5


def describe(action: str, lang: str, names: Sequence[str] = ()) -> str:
    """An action's notation in words, for a button or a line of the log."""
    if action == "pass":
        return t("pass", lang)
    if action == "penalty":
        return t("misthrow (penalty)", lang)
    if action[:1] in COLOUR_NAMES and action[1:].isdigit():
        return f"{SYMBOLS[action[0]]} {t(COLOUR_NAMES[action[0]], lang)} {action[1:]}"
    return action


def describe_chance(text: str, names: Sequence[str], lang: str) -> str | None:
    """A roll in words for the log."""
    dice = " ".join(f"{SYMBOLS.get(w[0], w[0])}{w[1:]}" for w in text.split())
    return t("Dice: {dice}", lang, dice=dice)


def status(view: QwixxView, who: str, lang: str) -> str | None:
    """What the seats to act decide now; None: the shell's general line."""
    dice = view["dice"]
    if view.get("phase") == "white":
        return t(
            "White sum {sum}: everyone may cross it or pass. Waiting for: {who}",
            lang,
            sum=dice["w1"] + dice["w2"] if dice is not None else 0,
            who=who,
        )
    if view.get("phase") == "colour":
        return t("{who}: a white die plus a coloured die, or pass", lang, who=who)
    return None


class Cell(TypedDict):
    number: int
    crossed: bool
    gone: bool
    """Left behind by a cross further on, or in a locked row: it can never be crossed."""
    action: str | None
    """The cross a click makes, where it is legal for the viewer now."""


class Row(TypedDict):
    key: str
    symbol: str
    name: str
    cells: list[Cell]
    lock: bool
    locked: bool
    crosses: int
    points: int


class Sheet(TypedDict):
    seat: int
    name: str
    rows: list[Row]
    penalties: int
    penalty_boxes: list[bool]
    score: int
    active: bool
    mine: bool


class Die(TypedDict):
    colour: str
    value: int
    symbol: str
    name: str


class Question(TypedDict):
    """A question before an action: its text and the two answers."""

    text: str
    yes: str
    no: str


class QwixxTable(TypedDict):
    """What `table.html` draws: every sheet (the viewer's first) and the dice."""

    sheets: list[Sheet]
    dice: list[Die]
    white_sum: int | None
    bar: list[str]
    confirm: dict[str, Question]
    """The actions that ask first, with their question."""
    answered: bool
    my_answer: str | None


def _misthrow_warning(lang: str) -> Question:
    return {
        "text": t("Careful: crossing nothing now records a misthrow, −5 points.", lang),
        "yes": t("Yes, take the misthrow (−5)", lang),
        "no": t("Back", lang),
    }


def build(view: QwixxView, names: Sequence[str], lang: str, params: Mapping[str, str]) -> QwixxTable:
    legal = set(view.get("legal") or [])
    locked = set(view.get("locked") or [])
    sheets: list[Sheet] = []
    for seat in seat_order(view, len(view["sheets"])):
        sheet = view["sheets"][seat]
        rows: list[Row] = []
        for row in ROWS:
            data = sheet["rows"][row]
            crossed = set(data["crossed"])
            numbers = list(NUMBERS[row])
            last_cross = max((i for i, n in enumerate(numbers) if n in crossed), default=-1)
            cells: list[Cell] = []
            for index, number in enumerate(numbers):
                action = f"{row}{number}"
                cells.append(
                    {
                        "number": number,
                        "crossed": number in crossed,
                        "gone": number not in crossed and (index < last_cross or row in locked),
                        "action": action if seat == view.get("seat") and action in legal else None,
                    }
                )
            rows.append(
                {
                    "key": row,
                    "symbol": SYMBOLS[row],
                    "name": t(COLOUR_NAMES[row], lang),
                    "cells": cells,
                    "lock": bool(data["lock"]),
                    "locked": row in locked,
                    "crosses": data["crosses"],
                    "points": data["points"],
                }
            )
        sheets.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat),
                "rows": rows,
                "penalties": sheet["penalties"],
                "penalty_boxes": [i < sheet["penalties"] for i in range(MAX_PENALTIES)],
                "score": sheet["score"],
                # No badge says whose turn it is once the game is over.
                "active": seat == view.get("active") and view.get("outcome") is None,
                "mine": seat == view.get("seat"),
            }
        )
    dice: list[Die] = []
    raw = view.get("dice")
    if raw:
        for key, value in dice_values(raw).items():  # w1, w2, then the rows' dice
            if value is not None:
                colour = "w" if key.startswith("w") else key
                dice.append(
                    {"colour": colour, "value": value, "symbol": SYMBOLS[colour], "name": t(COLOUR_NAMES[colour], lang)}
                )
    return {
        "sheets": sheets,
        "dice": dice,
        "white_sum": (raw["w1"] + raw["w2"]) if raw else None,
        "bar": [a for a in view.get("legal") or [] if a == "pass"],
        # A pass that records a misthrow asks first.
        "confirm": {"pass": _misthrow_warning(lang)} if view.get("pass_is_misthrow") else {},
        "answered": bool(view.get("answered")),
        "my_answer": describe(view["my_answer"], lang) if view.get("my_answer") else None,
    }


def breakdown(view: QwixxView, names: Sequence[str], lang: str) -> dict[str, list[str] | list[list[str]]]:
    """Each seat's score: the points of every colour row, the misthrows, the total."""
    columns = [t("Player", lang), *(f"{SYMBOLS[row]} {t(COLOUR_NAMES[row], lang)}" for row in ROWS)]
    columns += [t("Misthrows", lang), t("Total", lang)]
    rows: list[list[str]] = []
    for seat, sheet in enumerate(view["sheets"]):
        name = names[seat] if seat < len(names) else str(seat + 1)
        penalties = sheet["penalties"]
        misthrows = f"{penalties} × −{PENALTY_POINTS} = −{penalties * PENALTY_POINTS}" if penalties else "0"
        rows.append([name, *(str(sheet["rows"][row]["points"]) for row in ROWS), misthrows, str(sheet["score"])])
    return {"columns": list(columns), "rows": rows}
