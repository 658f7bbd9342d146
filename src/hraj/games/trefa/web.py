"""How Trefa looks in the browser: its sheets and dice from a seat's view, its words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from hraj.core.views import seat_order
from hraj.games.trefa.view import FieldView, TrefaView
from hraj.i18n import t

# Colour rows and dice carry a shape as well as a colour, for colour-blind players.
COLOUR_NAMES = {"k": "black", "w": "white", "r": "red", "y": "yellow", "g": "green", "b": "blue"}
SYMBOLS = {"k": "■", "w": "□", "r": "▲", "y": "★", "g": "♣", "b": "◆"}

COLOURS = ("k", "w", "r", "y", "g", "b")


def describe(action: str, lang: str, names: Sequence[str] = ()) -> str:
    """An action's notation in words, for a button or a line of the log."""
    words = action.split()
    head = words[0] if words else ""
    if action == "reroll":
        return t("reroll the dice", lang)
    if action == "stop":
        return t("stop (cross out a field)", lang)
    if head in ("write", "cross") and len(words) == 2:
        colours = ", ".join(t(COLOUR_NAMES.get(c, c), lang) for c in words[1].split(","))
        if head == "write":
            return t("write {dice}", lang, dice=colours)
        return t("cross out {dice}", lang, dice=colours)
    return action


def describe_chance(text: str, names: Sequence[str], lang: str) -> str | None:
    """A roll in words for the log."""
    dice = " ".join(f"{SYMBOLS.get(w[0], w[0])}{w[1:]}" for w in text.split())
    return t("Dice: {dice}", lang, dice=dice)


def status(view: TrefaView, who: str, lang: str) -> str | None:
    """What the seat to act decides now; None: the shell's general line."""
    if view.get("phase") == "first_throw":
        # Stop is offered only when no die fits; else writing is the way to stop.
        if view.get("writable"):
            return t("{who}: write dice, or reroll", lang, who=who)
        return t("{who}: reroll, or stop and cross out a field", lang, who=who)
    if view.get("phase") == "second_throw":
        return t("{who}: write dice after the reroll", lang, who=who)
    return None


class Die(TypedDict):
    colour: str
    order: int
    value: int
    symbol: str
    name: str
    kept: bool
    pick: bool
    """The viewer may click it into a write now."""


class Field(FieldView):
    symbol: str
    name: str


class Row(TypedDict):
    number: int
    current: bool
    fields: list[Field]
    complete: bool
    hits: int
    points: int


class Sheet(TypedDict):
    seat: int
    name: str
    letter: str
    rows: list[Row]
    score: int
    active: bool
    mine: bool


class TrefaTable(TypedDict):
    """What `table.html` draws: the dice and every sheet (the viewer's first)."""

    dice: list[Die]
    sheets: list[Sheet]
    writes: list[str]
    rerolled: bool
    bar: list[str]


def build(view: TrefaView, names: Sequence[str], lang: str, params: Mapping[str, str]) -> TrefaTable:
    legal = list(view.get("legal") or [])
    writes = [a for a in legal if a.startswith("write ")]
    writable = set(view.get("writable") or [])
    kept = set(view.get("kept") or [])
    dice: list[Die] = []
    raw = view.get("dice")
    if raw:
        for order, colour in enumerate(COLOURS):
            dice.append(
                {
                    "colour": colour,
                    "order": order,
                    "value": raw[colour],
                    "symbol": SYMBOLS[colour],
                    "name": t(COLOUR_NAMES[colour], lang),
                    "kept": colour in kept,
                    "pick": bool(writes) and colour in writable,
                }
            )
    sheets: list[Sheet] = []
    for seat in seat_order(view, len(view["sheets"])):
        sheet = view["sheets"][seat]
        rows: list[Row] = []
        for number, row in enumerate(sheet["rows"]):
            rows.append(
                {
                    "number": number + 1,
                    "current": number == sheet["current_row"],
                    "fields": [
                        {**field, "symbol": SYMBOLS[field["colour"]], "name": t(COLOUR_NAMES[field["colour"]], lang)}
                        for field in row["fields"]
                    ],
                    "complete": row["complete"],
                    "hits": row["hits"],
                    "points": row["points"],
                }
            )
        sheets.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat),
                "letter": sheet["letter"],
                "rows": rows,
                "score": sheet["score"],
                # No badge says whose turn it is once the game is over.
                "active": seat == view.get("active") and view.get("outcome") is None,
                "mine": seat == view.get("seat"),
            }
        )
    return {
        "dice": dice,
        "sheets": sheets,
        "writes": writes,
        "rerolled": view.get("rerolled"),
        "bar": [a for a in legal if not a.startswith("write ")],
    }


def breakdown(view: TrefaView, names: Sequence[str], lang: str) -> dict[str, list[str] | list[list[str]]]:
    """Each seat's score row by row (with the hits of each row), and the total."""
    sheets = view["sheets"]
    longest = max((len(sheet["rows"]) for sheet in sheets), default=0)
    columns = [
        t("Player", lang),
        *(t("Row {number}", lang, number=row + 1) for row in range(longest)),
        t("Total", lang),
    ]
    rows: list[list[str]] = []
    for seat, sheet in enumerate(sheets):
        name = names[seat] if seat < len(names) else str(seat + 1)
        cells = [str(row["points"]) for row in sheet["rows"]]
        cells += ["–"] * (longest - len(cells))
        rows.append([name, *cells, str(sheet["score"])])
    return {"columns": list(columns), "rows": rows}
