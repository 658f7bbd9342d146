"""Backgammon notation: plays, cube and resignation decisions, and dice.

Plays are written from the mover's side, `24/18 13/11`, `bar/22`, `6/off`. The printer
lists every single-die step, highest origin first, without hit marks; the parser is
lenient: `13/11(2)`, `6/4*`, combined moves like `13/7` or `24/18/13`, `b/22`,
`25/22`, `6/0`, commas or spaces between moves, any case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from hraj.core.errors import InvalidAction
from hraj.core.start import First, parse_first
from hraj.games.backgammon.moves import BAR, OFF, Step, Steps

#: Resignation levels: what the resigning player offers to lose.
RESIGN_LEVELS = {1: "single", 2: "gammon", 3: "backgammon"}


def point_text(point: int) -> str:
    """A point in move notation: `bar`, `off` or the number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


class Play(NamedTuple):
    """A checker play: movements `(from, to)` in the mover's numbering.

    A play taken from `legal_actions` has one step per die, highest origin first. A
    play parsed from what a person typed may combine several dice in one movement
    (`13/7`) and may mark hits (`hits`, the points written with `*`); the state
    resolves it to the legal play with the same resulting position.
    """

    steps: Steps
    hits: tuple[int, ...] = ()

    def __str__(self) -> str:
        return steps_text(self.steps)


@lru_cache(maxsize=1 << 16)  # every play is printed into the record: the same few thousand recur
def steps_text(steps: Steps) -> str:
    """Movements in notation, as they are given: `24/18 13/11`."""
    return " ".join(f"{point_text(a)}/{point_text(b)}" for a, b in steps)


def plays_of(legal: Iterable[Steps]) -> list[Action]:
    """A `Play` for each legal list of steps (no hit marks), in a list of actions, built
    the fast way: this is the hot path of every playout, and `Play(steps)` would pass
    through Python argument handling."""
    new = tuple.__new__
    return [new(Play, (steps, ())) for steps in legal]


class Decision(NamedTuple):
    """Every action that is not a checker play: `roll`, `double`, `take`, `drop`,
    `beaver`, `resign 1|2|3` (single, gammon, backgammon), `accept`, `decline`."""

    word: str
    level: int = 0

    def __str__(self) -> str:
        return f"{self.word} {self.level}" if self.word == "resign" else self.word


ROLL = Decision("roll")
DOUBLE = Decision("double")
TAKE = Decision("take")
DROP = Decision("drop")
BEAVER = Decision("beaver")
ACCEPT = Decision("accept")
DECLINE = Decision("decline")

Action = Play | Decision

_WORDS = {
    "roll": ROLL,
    "double": DOUBLE,
    "take": TAKE,
    "drop": DROP,
    "pass": DROP,
    "beaver": BEAVER,
    "accept": ACCEPT,
    "decline": DECLINE,
    "reject": DECLINE,
}
_RESIGN = re.compile(r"^resign\s+(1|2|3|single|gammon|backgammon)$")
_MOVE = re.compile(r"^(bar|b|\d{1,2})((?:/(?:off|o|\d{1,2})\*?)+)(?:\((\d)\))?$")
_TARGET = re.compile(r"/(off|o|\d{1,2})(\*?)")


class Roll(NamedTuple):
    """Two dice. A normal roll prints high first (`31`); the opening roll prints the
    die of seat 0 then the die of seat 1 (`13`: seat 1 starts with 3-1)."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"{self.first}{self.second}"

    @property
    def high(self) -> int:
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        return min(self.first, self.second)


ChanceOutcome = Roll | First


def parse_action(text: str) -> Action:
    """An action from its notation; raises InvalidAction for anything else."""
    if not isinstance(text, str):
        raise InvalidAction("An action must be text, like 24/18 13/11, roll or double.")
    clean = " ".join(text.strip().lower().split())
    if clean in _WORDS:
        return _WORDS[clean]
    resign = _RESIGN.match(clean)
    if resign is not None:
        level = resign.group(1)
        number = int(level) if level.isdigit() else next(n for n, name in RESIGN_LEVELS.items() if name == level)
        return Decision("resign", number)
    return _parse_play(clean, text)


def _parse_play(clean: str, text: str) -> Play:
    tokens = [token for token in re.split(r"[\s,;]+", clean) if token]
    if not tokens:
        raise InvalidAction("An empty text is not a backgammon action.")
    steps: list[Step] = []
    hits: list[int] = []
    for token in tokens:
        match = _MOVE.match(token)
        if match is None:
            raise InvalidAction(
                "{text} is not a backgammon action: write moves like 24/18 13/11, bar/22 or 6/off, "
                "or roll, double, take, drop.",
                text=text.strip(),
            )
        origin = _point(match.group(1), is_origin=True, text=text)
        repeat = int(match.group(3) or 1)
        if not 1 <= repeat <= 4:
            raise InvalidAction("A move is repeated at most four times, not {times}.", times=repeat)
        chain: list[Step] = []
        current = origin
        for target_text, star in _TARGET.findall(match.group(2)):
            target = _point(target_text, is_origin=False, text=text)
            if target >= current:
                raise InvalidAction(
                    "{text}: checkers move from higher to lower points ({origin} to {target} goes backwards).",
                    text=text.strip(),
                    origin=point_text(current),
                    target=point_text(target),
                )
            chain.append((current, target))
            if star:
                hits.extend([target] * repeat)
            current = target
        steps.extend(chain * repeat)
    if len(steps) > 4:
        raise InvalidAction("{text} has more than four moves; a roll gives at most four.", text=text.strip())
    return Play(tuple(steps), tuple(hits))


def _point(word: str, *, is_origin: bool, text: str) -> int:
    if word in {"bar", "b"}:
        if not is_origin:
            raise InvalidAction("{text}: a checker enters from the bar, it never moves to it.", text=text.strip())
        return BAR
    if word in {"off", "o"}:
        if is_origin:
            raise InvalidAction("{text}: a checker borne off never comes back.", text=text.strip())
        return OFF
    number = int(word)
    if number == BAR and is_origin:
        return BAR
    if number == OFF and not is_origin:
        return OFF
    if not 1 <= number <= 24:
        raise InvalidAction("{text}: the points are numbered 1 to 24, not {number}.", text=text.strip(), number=number)
    return number


_DICE = re.compile(r"^\s*([1-6])\s*[-,]?\s*([1-6])\s*$")


def parse_chance(text: str) -> ChanceOutcome:
    """Dice (`31`, `3-1`, `3 1`) or the choice of the first player (`first 1`)."""
    if not isinstance(text, str):
        raise InvalidAction("A roll must be text, like 31.")
    first = parse_first(text)
    if first is not None and first.seat in (0, 1):
        return first
    dice = _DICE.match(text)
    if dice is None:
        raise InvalidAction("{text} is not a roll of two dice; write it like 31.", text=text.strip())
    return Roll(int(dice.group(1)), int(dice.group(2)))
