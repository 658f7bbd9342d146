"""Qwixx score sheets and dice for the terminal, drawn from a seat's view.

Each row carries its letter (r y g b, the letters people type) as well as its colour,
so the sheet reads the same without colour: crossed numbers stand in brackets, and
numbers that can no longer be crossed become a dash. With more than two players the
other sheets take a line each, so that five fit an 80×24 terminal with the choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hraj.games.qwixx.view import QwixxView, SheetView, dice_values
from hraj.i18n import t, tn

ROWS = ("r", "y", "g", "b")
ROW_NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
STYLES = {"r": "bold red", "y": "bold yellow", "g": "bold green", "b": "bold blue", "w": "bold white"}
NUMBERS = {"r": range(2, 13), "y": range(2, 13), "g": range(12, 1, -1), "b": range(12, 1, -1)}
#: Sheets drawn in full however many play; with more, the others take one line each
#: (a person's own, or for a spectator the active player's, is always in full).
FULL_SHEETS = 2
NAME_WIDTH = 16

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
    focus = view["seat"] if view["seat"] is not None else active
    full = [seat for seat in range(len(view["sheets"])) if len(view["sheets"]) <= FULL_SHEETS or seat == focus]
    for seat in full:
        parts.append(render_sheet(view["sheets"][seat], names[seat], view["locked"], lang, is_active=seat == active))
    others = [seat for seat in range(len(view["sheets"])) if seat not in full]
    if others:
        parts.append(render_others(view, others, names, lang))
    return Group(*parts)


def render_others(view: QwixxView, seats: Sequence[int], names: Sequence[str], lang: str) -> Table:
    """The other sheets one line each: per row the crosses and the last number crossed
    (the next cross must lie right of it), a lock, then the misthrows."""
    table = Table.grid(padding=(0, 2, 0, 0))
    table.add_column(no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)
    table.add_column(justify="right", no_wrap=True)
    for _ in range(len(ROWS) + 1):
        table.add_column(no_wrap=True)
    for seat in seats:
        sheet = view["sheets"][seat]
        cells: list[Text] = []
        for row in ROWS:
            data = sheet["rows"][row]
            cell = Text(f"{row.upper()} ", style=STYLES[row])
            if data["crossed"]:
                last = data["crossed"][-1]
                cell.append(f"{last}{'🔒' if data['lock'] else ''} ({data['crosses']}×)")
            else:
                cell.append("×" if row in view["locked"] else "–", style="dim")
            cells.append(cell)
        mark = " ◀" if seat == view["active"] and view["phase"] != "over" else ""
        table.add_row(
            Text(names[seat] + mark),
            Text(tn("{count} point", "{count} points", sheet["score"], lang)),
            *cells,
            Text(_penalties(sheet)),
        )
    return table


def _penalties(sheet: SheetView) -> str:
    return "".join("☒" if i < sheet["penalties"] else "☐" for i in range(4))


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
    """One sheet in at most 72 columns: row label, eleven 4-wide numbers, lock and points;
    the misthrows in its title line."""
    title = Text(
        f"{name}{' ◀' if is_active else ''} — {t('points', lang)}: {sheet['score']}"
        f" — {t('misthrows', lang)}: {_penalties(sheet)}"
    )
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=0)
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
