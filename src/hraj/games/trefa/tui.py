"""Trefa score sheets and dice for the terminal, drawn from a seat's view.

Every field shows its colour letter (k w r y g b, the letters people type) and its
printed number, then what is in it: the number written, `✗` crossed out, `·` empty;
a hit carries `!`. So a sheet reads the same without colour. The current row is
marked `▶`, and the corner letter of each row names the sheet type, as on paper.
With more than two players the other sheets show the row they fill, a line each, so
that six fit an 80×24 terminal with the choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hraj.games.trefa.view import FieldView, SheetView, TrefaView
from hraj.i18n import t

COLOURS = "kwrygb"
#: Colour words carry their letter, which is what people type.
COLOUR_LABELS = {
    "k": "black (k)",
    "w": "white (w)",
    "r": "red (r)",
    "y": "yellow (y)",
    "g": "green (g)",
    "b": "blue (b)",
}
STYLES = {
    "k": "bold white on grey23",
    "w": "bold black on white",
    "r": "bold white on red",
    "y": "bold black on yellow",
    "g": "bold black on green",
    "b": "bold white on blue",
}
#: Sheets drawn in full however many play; with more, the others take one line each
#: (a person's own, or for a spectator the active player's, is always in full).
FULL_SHEETS = 2
NAME_WIDTH = 16
PHASES = {
    "first_throw": "first throw: write, or reroll once",
    "second_throw": "after the reroll: write",
}

NOTATION_HELP = (
    "Type reroll to throw again once: every die is thrown except those showing 1. "
    "Type write and the colour letters to write those dice into your current row, like write k,y,b; "
    "a die fits its own colour's field if that field is empty and the die is at most the printed number. "
    "You must write at least one die if any fits. If none fits, type stop: the leftmost empty field is "
    "crossed out (after the reroll that happens by itself). "
    "Colours: k black, w white, r red, y yellow, g green, b blue."
)


def colour_word(letter: str, lang: str) -> str:
    return t(COLOUR_LABELS[letter], lang)


def describe(action: str, lang: str) -> str:
    """`write k,y` -> "write: black, yellow" in the player's language."""
    if action == "reroll":
        return t("reroll the dice", lang)
    if action == "stop":
        return t("stop and cross out a field", lang)
    if action.startswith("write "):
        colours = action.removeprefix("write ").split(",")
        return t("write: {colours}", lang, colours=", ".join(colour_word(c, lang) for c in colours))
    if action.startswith("cross "):
        return t("crossed out: {colour}", lang, colour=colour_word(action.removeprefix("cross "), lang))
    return action


def render(view: TrefaView, lang: str, names: Sequence[str]) -> RenderableType:
    parts: list[RenderableType] = []
    active = view["active"]
    playing = view["phase"] != "over"
    if active is not None and playing:
        status = t("Active player: {name}", lang, name=names[active])
        phase = PHASES.get(view["phase"])
        if phase is not None:
            status += " — " + t(phase, lang)
        parts.append(Text(status, style="bold"))
    if view["dice"] is not None:
        parts.append(render_dice(view["dice"], view["kept"], view["writable"], lang))
    sheets = view["sheets"]
    focus = view["seat"] if view["seat"] is not None else active
    full = [seat for seat in range(len(sheets)) if len(sheets) <= FULL_SHEETS or seat == focus]
    for seat in full:
        parts.append(render_sheet(sheets[seat], names[seat], lang, is_active=seat == active and playing))
    others = [seat for seat in range(len(sheets)) if seat not in full]
    if others:
        parts.append(render_others(view, others, names, lang))
    bonus = " · ".join(f"{hits}×{points}" for hits, points in enumerate(view["hit_bonus"]) if hits)
    parts.append(Text(t("Hit bonus (hits × points): {table}", lang, table=bonus), style="dim"))
    untouched = all(sheet["score"] == 0 and sheet["current_row"] == 0 for sheet in sheets)
    if not view["sheets_verified"] and (untouched or not playing):  # said at the start and the end
        parts.append(
            Text(
                t("The sheet layouts are placeholders, not checked against the printed pad.", lang), style="dim italic"
            )
        )
    return Group(*parts)


def render_dice(dice: dict[str, int], kept: Sequence[str], writable: Sequence[str], lang: str) -> Text:
    """The six dice, a kept one starred, then the ones that fit the current row."""
    text = Text(t("Dice", lang) + ":")
    for letter in COLOURS:
        text.append(" ")
        text.append(f"{letter}{dice[letter]}{'*' if letter in kept else ''}", style=STYLES[letter])
    fits = " ".join(f"{c}{dice[c]}" for c in writable) or t("no die", lang)
    text.append(" — " + t("fits: {dice}", lang, dice=fits))
    if kept:
        text.append("  * " + t("kept (showed 1)", lang), style="dim")
    return text


def field_text(field: FieldView) -> Text:
    letter, printed, value = field["colour"], field["printed"], field["value"]
    content = "·" if value is None else "✗" if field["crossed"] else str(value)
    cell = Text()
    cell.append(f"{letter}{printed}", style=STYLES[letter])
    cell.append(f":{content}{'!' if field['hit'] else ' '}", style="bold" if field["hit"] else "")
    return cell


def render_sheet(sheet: SheetView, name: str, lang: str, *, is_active: bool) -> Group:
    title = (
        f"{name}{' ◀' if is_active else ''} — {t('score sheet {letter}', lang, letter=sheet['letter'])}"
        f" — {t('total score', lang)}: {sheet['score']}"
    )
    table = Table(show_header=False, box=None, padding=(0, 1))
    for number, row in enumerate(sheet["rows"]):
        current = number == sheet["current_row"]
        marker = Text("▶" if current else " ", style="bold")
        corner = Text(f"{sheet['letter']}{number + 1}", style="dim")
        cells = [field_text(field) for field in row["fields"]]
        if row["complete"]:
            score = Text(f"= {row['points']:>3}  " + t("({count} hits)", lang, count=row["hits"]), style="bold")
        elif row["points"] or current:
            score = Text(f"  ({row['points']})", style="dim")
        else:
            score = Text("")
        table.add_row(marker, corner, *cells, score)
    return Group(Text(title), table)


def render_others(view: TrefaView, seats: Sequence[int], names: Sequence[str], lang: str) -> Table:
    """The other sheets one line each: the row being filled, its fields, the total (Σ)."""
    table = Table.grid(padding=(0, 1, 0, 0))
    table.add_column(no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)
    table.add_column(no_wrap=True)
    for _ in range(6):
        table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    for seat in seats:
        sheet = view["sheets"][seat]
        row = sheet["current_row"]
        shown = sheet["rows"][row if row is not None else -1]
        mark = " ◀" if seat == view["active"] and view["phase"] != "over" else ""
        where = f"▶ {sheet['letter']}{row + 1}" if row is not None else f"  {sheet['letter']}✓"
        table.add_row(
            Text(names[seat] + mark),
            Text(where, style="dim"),
            *(field_text(field) for field in shown["fields"]),
            Text(f"Σ {sheet['score']}", style="bold"),
        )
    return table
