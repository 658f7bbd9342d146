"""`.mat` match files (Jellyfish's text format, as gnubg reads and writes it).

```
; [Site "hraj"]
; [Player 1 "Alice"]

 5 point match

 Game 1
 Alice : 0                       Bob : 0
  1)                             52: 13/8 13/11
  2) 31: 8/5 6/5                 64: 24/18 18/14
  3)  Doubles => 2                Takes
  ...
                                  Wins 1 point
```

The format has no specification; this follows what gnubg writes and what its
importer accepts. Header comments `; [Key "Value"]` come before the line
`N point match` (0 = money session). Each game starts with `Game k` and a line with
both names and scores; then numbered lines hold one cell per player, the first
player (gnubg's player 0) on the left. A cell is a roll and its play (`52: 13/8
13/11`, a bare `52:` when nothing can move), `Doubles => 2`, `Takes`, `Drops`, or
`Wins 2 points` (usually on a line of its own, in the winner's column).

Plays are read leniently: `13/8*` hits, `bar/22` or `25/22` from the bar, `6/off` or
`6/0` bears off, `13/8(2)` repeats a move, `24/18/13` joins one checker's moves.
They are written as gnubg does: every single-die step, `25` for the bar, `0` for off,
`*` on a step that hits.

This module only reads and writes the text; turning it into a game record is the
job of `hraj.games.backgammon.formats.mat_record`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from hraj.games.backgammon.formats.errors import FormatError

ROLL, DOUBLE, BEAVER, TAKE, DROP, WIN = "roll", "double", "beaver", "take", "drop", "win"
BAR_POINT = 25
OFF_POINT = 0
#: Width of the left column (number, roll and play) in gnubg's files.
LEFT_WIDTH = 33
#: A cell that starts past this column of its line belongs to the right player.
RIGHT_FROM = 22


@dataclass(frozen=True, slots=True)
class MatAction:
    """One cell: `side` 0 is the left player, 1 the right one.

    roll: `dice` and the play as written (`moves`, "" when nothing moved);
    double, beaver (`Beavers =>`, `Raccoons =>`; gnubg writes every redouble as
    `Doubles =>`): `value` is the cube after it; take, drop: nothing more;
    win: `value` is the points won as gnubg counts them (the cube times 1, 2 or 3).
    """

    side: int
    kind: str
    dice: tuple[int, int] = (0, 0)
    moves: str = ""
    value: int = 0

    def cell(self) -> str:
        """The cell's text as gnubg writes it (without column padding)."""
        if self.kind == ROLL:
            # gnubg ends each of the first three steps with a space, so a play of
            # fewer than four steps keeps a trailing space; a bare roll is `52: `.
            moves = self.moves.split()
            trailing = " " if 0 < len(moves) < 4 else ""
            return f"{self.dice[0]}{self.dice[1]}: " + " ".join(moves) + trailing
        if self.kind == DOUBLE:
            return f" Doubles => {self.value}"
        if self.kind == BEAVER:
            return f" Beavers => {self.value}"
        if self.kind == TAKE:
            return " Takes"
        if self.kind == DROP:
            return " Drops"
        return wins_text(self.value)


@dataclass(slots=True)
class MatGame:
    number: int
    names: tuple[str, str]
    scores: tuple[int, int]
    actions: list[MatAction] = field(default_factory=list)

    @property
    def result(self) -> MatAction | None:
        """The `Wins` cell that ends the game, if any."""
        wins = [action for action in self.actions if action.kind == WIN]
        return wins[-1] if wins else None


@dataclass(slots=True)
class MatMatch:
    length: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    """`; [Key "Value"]` lines in order."""
    comments: list[str] = field(default_factory=list)
    """Other comment lines before the match line, without the `;`."""
    games: list[MatGame] = field(default_factory=list)

    def header(self, key: str) -> str | None:
        """The value of the first header named `key` (case-insensitive)."""
        for name, value in self.headers:
            if name.lower() == key.lower():
                return value
        return None


def wins_text(points: int) -> str:
    return f"Wins {points} point{'' if points == 1 else 's'}"


# --- plays -------------------------------------------------------------------------

_STEP_POINT = re.compile(r"^(bar|off|\d{1,2})(\*?)$", re.IGNORECASE)
_REPEAT = re.compile(r"^(.*?)\((\d)\)$")


def _point(text: str) -> int:
    match = _STEP_POINT.match(text)
    if match is None:
        raise FormatError("{text} is not a point of a play (1-24, bar, off).", text=text)
    word = match.group(1).lower()
    if word == "bar":
        return BAR_POINT
    if word == "off":
        return OFF_POINT
    number = int(word)
    if not OFF_POINT <= number <= BAR_POINT:
        raise FormatError("{text} is not a point of a play (1-24, bar, off).", text=text)
    return number


def parse_play(text: str) -> list[tuple[int, int]]:
    """The moves of a play as (from, to) pairs, from the mover's side; 25 is the bar, 0 off.

    A chain `24/18/13` gives (24, 18) and (18, 13); `13/8(2)` gives (13, 8) twice.
    A move that spans two dice (`24/13` for a 65) stays one pair: splitting it needs the
    position. Hit marks are dropped; the position tells who is hit.
    """
    pairs: list[tuple[int, int]] = []
    for token in text.split():
        move, repeat = token, 1
        match = _REPEAT.match(token)
        if match is not None:
            move, repeat = match.group(1), int(match.group(2))
        parts = move.split("/")
        if len(parts) < 2 or not 1 <= repeat <= 4:
            raise FormatError("{text} is not a move like 13/8, bar/22 or 6/off.", text=token)
        chain = list(itertools.pairwise(_point(part) for part in parts))
        for start, end in chain:
            if not start > end or start == OFF_POINT or end == BAR_POINT:
                raise FormatError("{text} does not move towards home.", text=token)
        pairs.extend(chain * repeat)
    if len(pairs) > 8:
        raise FormatError("{text} has more moves than a roll allows.", text=text)
    return pairs


def format_play(steps: Sequence[tuple[int, int]], hits: Sequence[bool]) -> str:
    """A play in gnubg's plain style: `13/8 13/11`, `25/22*`, `6/0`; one step per die."""
    return " ".join(f"{start}/{end}{'*' if hit else ''}" for (start, end), hit in zip(steps, hits, strict=True))


# --- reading -------------------------------------------------------------------------

_HEADER = re.compile(r'^\[\s*([^"\]]+?)\s+"(.*)"\s*\]$')
_MATCH_LINE = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME_LINE = re.compile(r"^\s*game\s+(\d+)\s*$", re.IGNORECASE)
_SCORES = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^(\s*\d+\))(.*)$")
_CELL_START = re.compile(
    r"(?<![\w/])(?:[1-6][1-6]:|(?:doubles?|beavers?|raccoons?|takes?|drops?|wins?)\b)", re.IGNORECASE
)
_ROLL_CELL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_CUBE_CELL = re.compile(r"^(doubles?|beavers?|raccoons?)\s*=>\s*(\d+)$", re.IGNORECASE)
_WIN_CELL = re.compile(r"^wins\s+(\d+)\s+points?\b", re.IGNORECASE)
_NO_MOVE = re.compile(r"^(?:cannot move|\?+)$", re.IGNORECASE)


def _parse_cell(text: str, side: int, line_number: int) -> MatAction:
    cell = text.strip()
    roll = _ROLL_CELL.match(cell)
    if roll is not None:
        moves = roll.group(3).strip()
        if _NO_MOVE.match(moves):
            moves = ""
        try:
            parse_play(moves)
        except FormatError as error:
            raise FormatError("Line {line}: {why}", line=line_number, why=error) from None
        return MatAction(side, ROLL, dice=(int(roll.group(1)), int(roll.group(2))), moves=moves)
    cube = _CUBE_CELL.match(cell)
    if cube is not None:
        word = cube.group(1).lower()
        kind = DOUBLE if word.startswith("double") else BEAVER
        return MatAction(side, kind, value=int(cube.group(2)))
    lower = cell.lower()
    if lower.startswith("take"):
        return MatAction(side, TAKE)
    if lower.startswith("drop"):
        return MatAction(side, DROP)
    win = _WIN_CELL.match(cell)
    if win is not None:
        return MatAction(side, WIN, value=int(win.group(1)))
    raise FormatError("Line {line}: {text} is not a roll, cube action or result.", line=line_number, text=cell)


def _cells(line: str, line_number: int) -> list[MatAction]:
    """The cells of one line of a game, each with its side."""
    numbered = _NUMBERED.match(line)
    offset = len(numbered.group(1)) if numbered else 0
    body = numbered.group(2) if numbered else line
    starts = [match.start() for match in _CELL_START.finditer(body)]
    if not starts:
        if body.strip():
            raise FormatError("Line {line}: {text} is not a roll, cube action or result.", line=line_number, text=line)
        return []
    if len(starts) > 2:
        raise FormatError("Line {line} has more than two cells: {text}", line=line_number, text=line.strip())
    texts = [body[start:end] for start, end in zip(starts, [*starts[1:], len(body)], strict=False)]
    if len(texts) == 2:
        # Two cells: the left player's and the right player's. gnubg also writes the
        # winner's `Wins` on the line where the left player drops, in the right column.
        return [_parse_cell(texts[0], 0, line_number), _parse_cell(texts[1], 1, line_number)]
    side = 1 if offset + starts[0] >= RIGHT_FROM else 0
    return [_parse_cell(texts[0], side, line_number)]


def parse_mat(text: str) -> MatMatch:
    """Read a `.mat` file's text (its first match). Raises FormatError naming the line that does not fit."""
    return parse_matches(text)[0]


def parse_matches(text: str) -> list[MatMatch]:
    """Every match of a `.mat` text; some programs put several in one file."""
    matches: list[MatMatch] = []
    match: MatMatch | None = None
    headers: list[tuple[str, str]] = []
    comments: list[str] = []
    game: MatGame | None = None
    expect_scores = False
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            if match is None or not match.games:
                comment = stripped[1:].strip()
                header = _HEADER.match(comment)
                if header is not None:
                    headers.append((header.group(1), header.group(2)))
                elif comment:
                    comments.append(comment)
            continue
        found = _MATCH_LINE.match(stripped)
        if found is not None:
            match = MatMatch(int(found.group(1)), headers, comments)
            matches.append(match)
            headers, comments, game = [], [], None
            continue
        if match is None:
            raise FormatError("Line {line}: expected `N point match`, found {text}", line=number, text=stripped)
        game_line = _GAME_LINE.match(stripped)
        if game_line is not None:
            game = MatGame(int(game_line.group(1)), ("", ""), (0, 0))
            match.games.append(game)
            expect_scores = True
            continue
        if game is None:
            raise FormatError("Line {line}: expected `Game 1`, found {text}", line=number, text=stripped)
        if expect_scores:
            scores = _SCORES.match(stripped)
            if scores is None:
                raise FormatError(
                    "Line {line}: expected the names and scores, found {text}", line=number, text=stripped
                )
            game.names = (scores.group(1), scores.group(3))
            game.scores = (int(scores.group(2)), int(scores.group(4)))
            expect_scores = False
            continue
        game.actions.extend(_cells(line, number))
    if not matches:
        raise FormatError("This is not a .mat file: it has no `N point match` line.")
    return matches


# --- writing ---------------------------------------------------------------------------


def format_mat(match: MatMatch) -> str:
    """The text of a match, laid out as gnubg writes `.mat` files."""
    parts = [f'; [{key} "{value}"]\n' for key, value in match.headers]
    parts += [f"; {comment}\n" for comment in match.comments]
    if parts:
        parts.append("\n")
    parts.append(f" {match.length} point match\n\n")
    parts += [_game_text(game) for game in match.games]
    return "".join(parts)


def _game_text(game: MatGame) -> str:
    """One game as gnubg lays it out: each line numbered, the left player's cell first.

    A cell goes into its player's column; when the two players do not alternate (a
    beaver taken, then the doubler rolls) the other column of that line stays empty.
    """
    left = f"{game.names[0]} : {game.scores[0]}"
    parts = [f" Game {game.number}\n", f" {left:<31}{game.names[1]} : {game.scores[1]}\n"]
    actions = [action for action in game.actions if action.kind != WIN]
    result = game.result
    lines = 0
    open_line = False  # a left cell is written and its line waits for the right one
    for position, action in enumerate(actions):
        text = action.cell()
        ends_game = action.kind == DROP and result is not None and position == len(actions) - 1
        if ends_game:
            assert result is not None
            text = " Drops" + ("\n      " if action.side == 1 else " " * 23) + wins_text(result.value)
        if action.side == 0:
            if open_line:
                parts.append("\n")
            lines += 1
            parts.append(f"{lines:3d}) {text:<27} ")
            open_line = True
        else:
            if not open_line:
                lines += 1
                parts.append(f"{lines:3d})" + " " * (LEFT_WIDTH - 4))
            parts.append(text + "\n")
            open_line = False
        if ends_game:
            parts.append("\n" if action.side == 1 else "\n\n")
            return "".join(parts)
    if open_line:
        parts.append("\n")
    if result is not None:
        parts.append((" " * 34 if result.side == 1 else " " * 6) + wins_text(result.value) + "\n\n")
    return "".join(parts)
