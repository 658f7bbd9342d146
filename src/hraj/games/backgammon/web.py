"""How backgammon looks in the browser: the board from a seat's view, built step by
step into a play, and its words."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, TypedDict

from hraj.core.forms import OptionForm
from hraj.games.backgammon.view import BackgammonView, CubeView, GameResultView, MatchView, ResignView
from hraj.i18n import t, tn

BAR, OFF = 25, 0

# Words (English msgids) for actions and phases.
WORDS = {
    "roll": "roll",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "accept": "accept",
    "decline": "decline",
    "no move": "no legal move",
}
RESIGN_LEVELS = {"1": "single game", "2": "gammon", "3": "backgammon"}
WIN_KINDS = ("single", "gammon", "backgammon")
#: How a finished game of a match ended, as the list of games says it.
GAME_ENDS = {
    "single": "single game",
    "gammon": "gammon",
    "backgammon": "backgammon",
    "drop": "double dropped",
    "resign": "resigned",
    "forfeit": "time ran out",
}
#: How a game ends that the cube multiplies (a single game, a gammon, a backgammon).
GAME_SCALES = ("single", "gammon", "backgammon")
HINTS = {
    "cube": "{who}: roll or double",
    "move": "{who}: move the checkers",
    "doubled": "{who}: take or drop the double",
    "beavered": "{who}: take or drop the beaver",
    "resigned": "{who}: accept or decline the resignation",
}


#: The option widgets of the start page (players is handled apart); a number's range
#: comes from the option's own check.
OPTION_FORMS: list[OptionForm] = [
    {
        "name": "variant",
        "label": "Rules",
        "kind": "select",
        "choices": [("standard", "standard (cube, gammons)"), ("seed", "the rulebook only")],
    },
    {"name": "match_length", "label": "Match to (points, 0 = one game)", "kind": "number"},
    {"name": "cube", "label": "Doubling cube", "kind": "check"},
    {"name": "jacoby", "label": "Jacoby rule", "kind": "check"},
    {"name": "beavers", "label": "Beavers", "kind": "check"},
]


def downloads() -> dict[str, Callable[[Mapping[str, object]], str]]:
    """Formats a finished game's record also downloads as: `.mat` (Jellyfish / gnubg)."""
    try:
        from hraj.games.backgammon import formats
    except ImportError:
        return {}
    export = getattr(formats, "export_mat", None)
    return {} if export is None else {"mat": lambda record: str(export(record))}


def describe(action: str, lang: str, names: Sequence[str] = ()) -> str:
    """An action's notation in words, for a button or a line of the log."""
    words = action.split()
    head = words[0] if words else ""
    if action in WORDS:
        return t(WORDS[action], lang)
    if head == "resign" and len(words) == 2:
        level = RESIGN_LEVELS.get(words[1], words[1])
        return t("resign ({level})", lang, level=t(level, lang))
    if head == "wins" and len(words) == 2 and words[1].isdigit():
        return tn("wins {count} point", "wins {count} points", int(words[1]), lang)
    return action


def describe_chance(text: str, names: Sequence[str], lang: str) -> str | None:
    """A roll in words for the log; None for the others (the first seat)."""
    if re.fullmatch(r"\d\d", text):
        return t("Dice: {dice}", lang, dice=f"{text[0]}–{text[1]}")
    return None


def status(view: BackgammonView, who: str, lang: str) -> str | None:
    """What the seat to act decides now; None: the shell's general line."""
    phase = view.get("phase")
    return t(HINTS[str(phase)], lang, who=who) if phase in HINTS else None


def _point_text(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _point_number(text: str) -> int | None:
    text = text.strip().lower()
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    return int(text) if text.isdigit() and 1 <= int(text) <= 24 else None


def _steps_of(play: str) -> list[str]:
    """`24/18 13/11` -> ["24/18", "13/11"]; a play is a list of single-die steps."""
    return [step for step in play.split() if "/" in step]


def _has_checker(mine: list[int], point_text: str) -> bool:
    point = _point_number(point_text)
    return point is not None and point != OFF and mine[point] > 0


def _step(mine: list[int], theirs: list[int], step: str) -> bool:
    """Move one of my checkers along `step` on the boards (hitting a blot); False, and
    the boards untouched, when the step's point holds none of my checkers."""
    origin_text, _, target_text = step.partition("/")
    origin, target = _point_number(origin_text), _point_number(target_text)
    if origin is None or target is None or origin == OFF or mine[origin] == 0:
        return False
    mine[origin] -= 1
    mine[target] += 1
    if target not in (OFF, BAR) and theirs[BAR - target] == 1:
        theirs[BAR - target] = 0
        theirs[BAR] += 1
    return True


class Place(TypedDict):
    """How a point, the bar or the tray reacts to a click: the address it leads to and its role."""

    nav: str | None
    role: Literal["target", "origin", "selected"] | None


class PointCell(Place):
    point: int
    mine: int
    theirs: int
    top: bool


class GameEnd(GameResultView):
    """A finished game of the match, with how it ended in words."""

    how_text: str


class BackgammonTable(TypedDict):
    """What `table.html` draws: the board from the viewer's side, the play built so far."""

    me: int
    them: int
    my_name: str
    their_name: str
    top: list[PointCell]
    bottom: list[PointCell]
    my_bar: int
    their_bar: int
    my_off: int
    their_off: int
    bar_point: Place
    off: Place
    dice: list[int]
    cube: CubeView
    match: MatchView
    pips: list[int]
    turn: int | None
    plays: list[str]
    bar: list[str]
    resigns: list[tuple[str, str]]
    chosen: list[str]
    complete: str | None
    undo: str | None
    selected: str | None
    resign: ResignView | None
    games: list[GameEnd]


def build(view: BackgammonView, names: Sequence[str], lang: str, params: Mapping[str, str]) -> BackgammonTable:
    viewer = view.get("seat")
    me = viewer if viewer in (0, 1) else 0
    them = 1 - me
    mine = list(view["boards"][me])
    theirs = list(view["boards"][them])
    legal = list(view.get("legal") or [])
    plays = [a for a in legal if "/" in a]
    others = [a for a in legal if "/" not in a]

    # The steps chosen so far (display only; legality comes from `plays`).
    chosen = [s for s in (params.get("steps") or "").split(",") if s]
    candidates = [p for p in plays if not Counter(chosen) - Counter(_steps_of(p))]
    if chosen and not candidates:
        chosen, candidates = [], plays
    # The steps are made one after another: a step whose point holds none of my
    # checkers at that moment (a typed or stale list) drops the whole list.
    if not all(_step(mine, theirs, step) for step in chosen):
        mine, theirs = list(view["boards"][me]), list(view["boards"][them])
        chosen, candidates = [], plays
    complete = [p for p in candidates if Counter(_steps_of(p)) == Counter(chosen)]
    remaining: set[str] = set()
    for play in candidates:
        remaining |= set((Counter(_steps_of(play)) - Counter(chosen)).keys())
    # A step of a legal play starts where a checker stands now: in 6-4 from the
    # opening, "24/18 18/14" offers 18/14 only once 24/18 has put a checker on 18.
    remaining = {step for step in remaining if _has_checker(mine, step.partition("/")[0])}
    origins = {step.partition("/")[0] for step in remaining}
    selected = params.get("sel") if params.get("sel") in origins else None
    targets = {step.partition("/")[2] for step in remaining if step.partition("/")[0] == selected}

    def nav(steps: list[str], sel: str | None) -> str:
        query = "steps=" + ",".join(steps)
        return query + (f"&sel={sel}" if sel else "")

    def place(key: str) -> Place:
        """How a point, the bar or the tray reacts to a click."""
        if selected is not None and key in targets:
            return {"nav": nav([*chosen, f"{selected}/{key}"], None), "role": "target"}
        if key in origins and key != selected:
            return {"nav": nav(chosen, key), "role": "origin"}
        if key == selected:
            return {"nav": nav(chosen, None), "role": "selected"}
        return {"nav": None, "role": None}

    points: list[PointCell] = []
    for point in range(1, 25):
        points.append(
            {
                "point": point,
                "mine": mine[point],
                "theirs": theirs[BAR - point],
                "top": point >= 13,
                **place(str(point)),
            }
        )
    # Screen columns: the top row runs 13..24 left to right, the bottom row 12..1.
    top = [points[p - 1] for p in range(13, 25)]
    bottom = [points[p - 1] for p in range(12, 0, -1)]
    dice = view.get("dice")
    return {
        "me": me,
        "them": them,
        "my_name": names[me] if me < len(names) else "0",
        "their_name": names[them] if them < len(names) else "1",
        "top": top,
        "bottom": bottom,
        "my_bar": mine[BAR],
        "their_bar": theirs[BAR],
        "my_off": mine[OFF],
        "their_off": theirs[OFF],
        "bar_point": place("bar"),
        "off": place("off"),
        "dice": dice or [],
        "cube": view["cube"],
        "match": view["match"],
        "pips": view.get("pips") or [0, 0],
        "turn": view.get("turn") if view.get("outcome") is None else None,
        "plays": plays,
        # Resigning is offered apart, so that it is never clicked by accident.
        "bar": [a for a in others if not a.startswith("resign ")],
        "resigns": [(a, describe(a, lang)) for a in others if a.startswith("resign ")],
        "chosen": chosen,
        "complete": complete[0] if complete else None,
        "undo": nav(chosen[:-1], None) if chosen else None,
        "selected": selected,
        "resign": view.get("resign"),
        "games": [
            {**game, "how_text": t(GAME_ENDS.get(str(game.get("how")), str(game.get("how"))), lang)}
            for game in view.get("games") or []
        ],
    }


def breakdown(view: BackgammonView, names: Sequence[str], lang: str) -> dict[str, list[str] | list[list[str]]]:
    """Each game of the match: who won it, how (single game, gammon, backgammon, a
    dropped double, a resignation), the cube and the points it brought."""
    columns = [t("Game", lang), t("Winner", lang), t("How", lang), t("Cube", lang), t("Points", lang)]
    rows: list[list[str]] = []
    for number, game in enumerate(view.get("games") or [], start=1):
        winner = game.get("winner")
        name = names[winner] if isinstance(winner, int) and winner < len(names) else "–"
        how = str(game.get("how"))
        points = game.get("points")
        multiple = {"gammon": 2, "backgammon": 3}.get(how, 1)
        cube = points // multiple if isinstance(points, int) and how in GAME_SCALES else None
        rows.append(
            [str(number), name, t(GAME_ENDS.get(how, how), lang), "–" if cube is None else str(cube), str(points)]
        )
    return {"columns": columns, "rows": rows}
