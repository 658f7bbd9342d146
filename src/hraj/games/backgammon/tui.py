"""The backgammon board for the terminal, drawn from a seat's view in plain ASCII.

The board is seen from the viewer's side (a spectator sees seat 0's side): points
13-24 along the top, 12-1 along the bottom, the viewer's home board bottom right.
The viewer's checkers are `O`, the opponent's `X`; a point with more than five shows
the count in its fifth place. Beside the board, within 80 columns: whose turn, bar,
borne off, pips, dice, cube and the match score, so that the whole takes the board's
15 lines and an 80×24 terminal keeps room for the choices and the last moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hraj.games.backgammon.view import BackgammonView
from hraj.i18n import t, tn

NOTATION_HELP = (
    "Type a play as moves from the point you leave to the point you land on, counted from your side: "
    "24/18 13/11. Enter from the bar with bar/22 and bear off with 6/off. "
    "A checker that uses both dice may be written 13/7 or 13/10/7; a repeated move 13/11(2). "
    "Hits need no mark (6/4* is accepted). Before rolling you may type double (if you may use the cube) "
    "or roll; when doubled, take or drop. resign 1, resign 2 or resign 3 offers to give up a single game, "
    "a gammon or a backgammon; the opponent answers accept or decline."
)

TOP = list(range(13, 25))
BOTTOM = list(range(12, 0, -1))
HEIGHT = 5
MARKS = ("O", "X")
#: Columns of the text beside the board: with the board's 44 and the gap, 80 in all.
PANEL_WIDTH = 34
GAP = 2

WORDS = {
    "roll": "roll",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "accept": "accept",
    "decline": "decline",
}
LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def describe(action: str, lang: str) -> str:
    """Decisions in the player's language; checker plays stay in notation."""
    if action in WORDS:
        return t(WORDS[action], lang)
    if action.startswith("resign "):
        return t("resign {what}", lang, what=t(LEVELS[int(action.split()[1])], lang))
    return action


def _cell(count: int, mark: str, row: int) -> str:
    """What a point shows `row` places from the edge (0 = at the edge)."""
    if count > row:
        if row == HEIGHT - 1 and count > HEIGHT:
            return f"{count:>2}"
        return f" {mark}"
    return " ."


def board_lines(view: BackgammonView, viewer: int) -> list[str]:
    """The board as lines of text from `viewer`'s side."""
    mine, theirs = view["boards"][viewer], view["boards"][1 - viewer]

    def occupant(point: int) -> tuple[int, str]:
        if mine[point]:
            return mine[point], MARKS[0]
        return theirs[25 - point], MARKS[1]

    def half(points: list[int], rows: range, bar: tuple[int, str]) -> list[str]:
        lines = []
        for row in rows:
            cells = [_cell(*occupant(p), row) for p in points]
            middle = _cell(*bar, row).replace(".", " ")
            lines.append(" |" + " ".join(cells[:6]) + " |" + middle + " |" + " ".join(cells[6:]) + " |")
        return lines

    def numbers(points: list[int]) -> str:
        labels = [f"{p:>2}" for p in points]
        return "  " + " ".join(labels[:6]) + "   BAR  " + " ".join(labels[6:])

    edge = " +" + "-" * 18 + "+---+" + "-" * 18 + "+"
    lines = [numbers(TOP), edge]
    # the opponent's checkers on the bar wait at the top, the viewer's at the bottom
    lines += half(TOP, range(HEIGHT), (theirs[25], MARKS[1]))
    lines.append(" |" + " " * 18 + "|   |" + " " * 18 + "|")
    lines += half(BOTTOM, range(HEIGHT - 1, -1, -1), (mine[25], MARKS[0]))
    lines += [edge, numbers(BOTTOM)]
    return lines


def render(view: BackgammonView, lang: str, names: Sequence[str]) -> RenderableType:
    """The board with what goes with it (whose turn, pips, dice, cube, match) beside it,
    so that the whole fits 15 lines of an 80-column terminal."""
    viewer = view["seat"] if view["seat"] is not None else 0
    beside = Table.grid(padding=(0, GAP, 0, 0))
    beside.add_column(no_wrap=True)
    beside.add_column(width=PANEL_WIDTH)
    beside.add_row(Text("\n".join(board_lines(view, viewer))), Group(*panel(view, viewer, lang, names)))
    return beside


def panel(view: BackgammonView, viewer: int, lang: str, names: Sequence[str]) -> list[Text]:
    """The lines beside the board: the turn, each side's pips, the dice, cube and match."""
    other = 1 - viewer
    parts: list[Text] = []
    turn = view["turn"]
    if view["phase"] != "over" and turn is not None:
        status = {
            "cube": t("{name}: roll or double?", lang, name=names[turn]),
            "move": t("{name} to play", lang, name=names[turn]),
            "doubled": t("{name} doubles: {other}, take or drop?", lang, name=names[turn], other=names[1 - turn]),
            "beavered": t("{other} beavers: {name}, take or drop?", lang, name=names[turn], other=names[1 - turn]),
            "dice": t("{name} rolls", lang, name=names[turn]),
        }.get(view["phase"])
        if view["resign"] is not None:
            status = t(
                "{name} offers to resign {what}: accept or decline?",
                lang,
                name=names[view["resign"]["by"]],
                what=t(LEVELS[view["resign"]["level"]], lang),
            )
        if status:
            parts.append(Text(status, style="bold"))
    boards, pips = view["boards"], view["pips"]
    for seat in (viewer, other):
        mark = MARKS[0] if seat == viewer else MARKS[1]
        parts.append(
            Text(
                t(
                    "{mark} {name}: pips {pips}, on the bar {bar}, borne off {off}",
                    lang,
                    mark=mark,
                    name=names[seat],
                    pips=pips[seat],
                    bar=boards[seat][25],
                    off=boards[seat][0],
                )
            )
        )
    if view["dice"] is not None and turn is not None:
        parts.append(Text(t("Dice of {name}: {a} {b}", lang, name=names[turn], a=view["dice"][0], b=view["dice"][1])))
    cube = view["cube"]
    if cube["in_play"]:
        owner = t("in the middle", lang) if cube["owner"] is None else names[cube["owner"]]
        parts.append(Text(t("Cube: {value} ({owner})", lang, value=cube["value"], owner=owner)))
    match = view["match"]
    if match["length"]:
        line = t(
            "Match to {length}: {a} {sa}, {b} {sb}",
            lang,
            length=match["length"],
            a=names[0],
            sa=match["score"][0],
            b=names[1],
            sb=match["score"][1],
        )
        if match["crawford"]:
            line += " — " + t("Crawford game: no doubling", lang)
        parts.append(Text(line))
    if view["games"]:
        last = view["games"][-1]
        won = tn(
            "Last game: {name} won {count} point",
            "Last game: {name} won {count} points",
            last["points"],
            lang,
            name=names[last["winner"]],
        )
        parts.append(Text(won))
    return parts
