"""The screen at a person's turn fits the terminal, 80×24 included, with the last moves.

What a person reads before typing, from the bottom up: the prompt, the status lines
(a game clock would be one), the numbered choices, the table, and above the table the
log's newest lines, printed as the moves were made. The table is the game's renderer's
to keep small; the choices take what is left: laid out in as many columns as the width
allows and cut, with a note to type `all`, so that at least `LAST_MOVES` lines of the
log stay on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from hraj.i18n import t, tn

#: Lines of the log that stay visible above the table at a person's turn.
LAST_MOVES = 3
#: The prompt's own line.
PROMPT_LINES = 1
#: Space between the columns of the choices.
GAP = 2


def lines_of(console: Console, renderable: RenderableType) -> int:
    """How many lines `renderable` takes on `console` at its width."""
    return len(console.render_lines(renderable, console.options, pad=False))


@dataclass(frozen=True)
class Layout:
    """The lines of a screen: the terminal's height, and what the prompt and status take."""

    height: int
    status_lines: int = 0

    def choice_rows(self, table_lines: int) -> int:
        """Rows the choices may fill under a table of `table_lines`, below their heading,
        leaving LAST_MOVES lines of the log on screen; at least one."""
        rest = self.height - PROMPT_LINES - self.status_lines - LAST_MOVES - table_lines - 1
        return max(1, rest)


def _labels(actions: Sequence[object], describe: Callable[[object], str], *, words: bool) -> list[Text]:
    """Each action numbered: in words with its notation after it, or in notation alone."""
    labels = []
    for number, action in enumerate(actions, start=1):
        label = Text(f"{number:>2} ", style="cyan")
        description = describe(action) if words else str(action)
        label.append(description)
        if words and description != str(action):
            label.append(f" ({action})", style="dim")
        labels.append(label)
    return labels


def _fit(labels: Sequence[Text], width: int, rows: int | None) -> tuple[int, int]:
    """(columns, shown): as few columns as hold every label in `rows` rows, as many as
    the widest label allows at `width`; when they still do not hold them all, the last
    row gives way to the note of what is left out."""
    widest = max(label.cell_len for label in labels)
    most = max(1, (width + GAP) // (widest + GAP))
    if rows is None or len(labels) <= rows * most:
        wanted = 1 if rows is None else -(-len(labels) // rows)
        return min(most, wanted), len(labels)
    return most, max(1, rows - 1) * most


def _grid(labels: Sequence[Text], columns: int) -> Table:
    """`labels` down the columns first, as a list is read."""
    rows = -(-len(labels) // columns)
    grid = Table.grid(padding=(0, GAP, 0, 0))
    for _ in range(columns):
        grid.add_column(no_wrap=True)
    for row in range(rows):
        grid.add_row(*(labels[index] for index in range(row, len(labels), rows)))
    return grid


def choices(
    actions: Sequence[object], describe: Callable[[object], str], lang: str, width: int, rows: int | None
) -> Group:
    """The numbered choices under their heading, in at most `rows` rows (every one of them
    with None): in words where they all fit so, else in notation where that shows more."""
    heading = Text(t("Your choices (type the number or the move; ? for help, q to quit):", lang))
    if not actions:
        return Group(heading)
    labels = _labels(actions, describe, words=True)
    columns, shown = _fit(labels, width, rows)
    if shown < len(actions):
        short = _labels(actions, describe, words=False)
        short_columns, short_shown = _fit(short, width, rows)
        if short_shown > shown:
            labels, columns, shown = short, short_columns, short_shown
    parts: list[RenderableType] = [heading, _grid(labels[:shown], columns)]
    left = len(actions) - shown
    if left:
        parts.append(
            Text(
                tn(
                    "… and {count} more: type all to list them.",
                    "… and {count} more: type all to list them.",
                    left,
                    lang,
                ),
                style="dim",
            )
        )
    return Group(*parts)


#: Erase the terminal's scrollback (xterm's ED 3, which tmux and screen follow too).
ERASE_SCROLLBACK = "\x1b[3J"


def clear_all(console: Console) -> None:
    """Clear the screen and the terminal's scrollback, so that a person who takes over
    the keyboard cannot scroll up to what the one before saw (a hand of cards)."""
    console.clear()
    if console.is_terminal and not console.is_dumb_terminal:
        console.file.write(ERASE_SCROLLBACK)
        console.file.flush()
