"""Qwixx score sheets and dice for the terminal, drawn from a seat's view.

Each row carries its letter (r y g b, the letters people type) as well as its colour,
so the sheet reads the same without colour: crossed numbers stand in brackets, and
numbers that can no longer be crossed become a dash.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hraj.games.qwixx.view import QwixxView, SheetView, dice_values
from hraj.i18n import t

ROWS = ("r", "y", "g", "b")
ROW_NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
STYLES = {"r": "bold red", "y": "bold yellow", "g": "bold green", "b": "bold blue", "w": "bold white"}
NUMBERS = {"r": range(2, 13), "y": range(2, 13), "g": range(12, 1, -1), "b": range(12, 1, -1)}

NOTATION_HELP = (
    "Cross a number by typing its row letter and the number: r5 (red 5), y12, g2, b7. "
    "Type pass to cross nothing. First everyone may cross the sum of the white dice; "
    "then the active player may cross one white die plus one coloured die in that colour's row. "
    "The last number of a row needs 5 crosses in that row first and locks it. "
    "An active player who crosses nothing in the turn takes a penalty (-5)."
)


def describe(action: str, lang: str) -> str:
    """`r5` -> "red 5" in the player's language."""
    if action == "pass":
        return t("pass", lang)
    return f"{t(ROW_NAMES[action[0]], lang)} {action[1:]}"


def render(view: QwixxView, lang: str, names: Sequence[str]) -> RenderableType:
    parts: list[RenderableType] = []
    active = view["active"]
    if active is not None and view["phase"] != "over":
        step = {"white": "white sum: everyone may cross", "colour": "colour sum: only the active player"}
        status = t("Active player: {name}", lang, name=names[active])
        step_text = step.get(view["phase"])
        if step_text is not None:
            status += " — " + t(step_text, lang)
        parts.append(Text(status, style="bold"))
    if view["dice"] is not None:
        parts.append(render_dice(dice_values(view["dice"]), lang))
    for seat, sheet in enumerate(view["sheets"]):
        parts.append(render_sheet(sheet, names[seat], view["locked"], lang, is_active=seat == active))
    return Group(*parts)


def render_dice(dice: dict[str, int | None], lang: str) -> Text:
    text = Text(t("Dice", lang) + ": ")
    for key in ("w1", "w2", *ROWS):
        value = dice[key]
        if value is not None:
            text.append(f" {key[0]}{value} ", style=STYLES[key[0]])
    white = (dice["w1"] or 0) + (dice["w2"] or 0)
    text.append("  " + t("white sum {total}", lang, total=white), style="bold")
    return text


def render_sheet(sheet: SheetView, name: str, locked: Sequence[str], lang: str, *, is_active: bool) -> Table:
    """One sheet in at most 72 columns: row label, eleven 4-wide numbers, lock and points."""
    title = Text(f"{name}{' ◀' if is_active else ''} — {t('points', lang)}: {sheet['score']}")
    penalties = "".join("☒" if i < sheet["penalties"] else "☐" for i in range(4))
    table = Table(
        title=title,
        title_justify="left",
        caption=Text(f"{t('misthrows', lang)}: {penalties}"),
        caption_justify="left",
        show_header=False,
        box=None,
        padding=0,
    )
    for row in ROWS:
        data = sheet["rows"][row]
        crossed = set(data["crossed"])
        rightmost = max((list(NUMBERS[row]).index(n) for n in crossed), default=-1)
        cells: list[Text] = [Text(f"{row.upper()} {t(ROW_NAMES[row], lang):8} ", style=STYLES[row])]
        for index, number in enumerate(NUMBERS[row]):
            if number in crossed:
                cells.append(Text(f"[{number:>2}]", style="reverse " + STYLES[row]))
            elif index < rightmost or row in locked:
                cells.append(Text("  - ", style="dim"))
            else:
                cells.append(Text(f" {number:>2} ", style=STYLES[row].replace("bold ", "")))
        lock = "🔒" if data["lock"] else ("×" if row in locked else "🔓")
        cells.append(Text(f" {lock} {data['crosses']:>2}× = {data['points']:>2}"))
        table.add_row(*cells)
    return table
