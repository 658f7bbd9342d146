"""Time controls: what a room's clock grants each seat, and the presets a room offers.

One shape serves every clock. A seat's **turn** is its decisions in a row that no other
seat's decision interrupts (chance and forced steps do not): the roll or double
and then the play of a match game are one turn, as at a club's clock. Each turn first grants
`per_move` seconds that cost nothing (the *delay* of match play); beyond them the seat's
**reserve** runs down, and what it used is gone for the rest of the game. The reserve is
`reserve` seconds, times the match's points where `per_point` (USBGF: 2 minutes per
match point), refilled at each new game of a match where `per_game` (online servers:
75 s a game). A **correspondence** control gives days per move and no reserve.

Games choose among presets by their `clock_family` ("moves" or "match"); the presets
follow the established practice quoted in docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypedDict

from hraj.core.errors import HrajError

DAY = 86_400
#: Days per move a correspondence room may give.
CORRESPONDENCE_DAYS = (1, 2, 3, 7)


class ClockError(HrajError):
    """A time control that cannot be used (a translatable template)."""


class ControlJson(TypedDict):
    """A time control as rooms store it and clients send and receive it."""

    kind: Literal["live", "correspondence"]
    per_move: float
    """Seconds granted each turn before the reserve runs (correspondence: days × 86,400)."""
    reserve: float
    per_point: bool
    per_game: bool


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time a room's seats have; see the module."""

    per_move: float
    reserve: float = 0
    per_point: bool = False
    per_game: bool = False
    correspondence: bool = False

    def reserve_for(self, match_points: int) -> float:
        """The reserve a seat starts with (and, per game, gets again at each new game)."""
        return self.reserve * (max(1, match_points) if self.per_point else 1)

    @property
    def days(self) -> int:
        """Days per move of a correspondence control (0 for a live one)."""
        return round(self.per_move / DAY) if self.correspondence else 0

    def scaled(self, factor: float) -> TimeControl:
        """The same control with every time multiplied by `factor` (short clocks for tests)."""
        return TimeControl(
            self.per_move * factor, self.reserve * factor, self.per_point, self.per_game, self.correspondence
        )

    def to_json(self) -> ControlJson:
        return {
            "kind": "correspondence" if self.correspondence else "live",
            "per_move": self.per_move,
            "reserve": self.reserve,
            "per_point": self.per_point,
            "per_game": self.per_game,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> TimeControl:
        """A control as `to_json` wrote it; raises ClockError for anything else."""
        kind = data.get("kind")
        per_move, reserve = data.get("per_move"), data.get("reserve", 0)
        per_point, per_game = data.get("per_point", False), data.get("per_game", False)
        if (
            kind not in ("live", "correspondence")
            or not _seconds(per_move)
            or not _seconds(reserve)
            or not isinstance(per_point, bool)
            or not isinstance(per_game, bool)
        ):
            raise ClockError("This time control is not valid.")
        assert isinstance(per_move, int | float) and isinstance(reserve, int | float)
        if kind == "live" and per_move <= 0:
            raise ClockError("This time control is not valid.")
        return cls(per_move, reserve, per_point, per_game, kind == "correspondence")


def _seconds(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 30 * DAY


@dataclass(frozen=True, slots=True)
class Preset:
    """A named time control as the room's form offers it; `words` is its English label
    (translated on the page; a correspondence control's counts its days, in the plural
    forms of "{count} day a move"), `source` whose practice it follows."""

    id: str
    control: TimeControl
    words: str
    source: str = ""


#: Match play's clocks (family "match"): a delay per move and a reserve per match point
#: (USBGF's tournament rules: 12 s delay and 2 minutes per point), or per game (an
#: online server's rated games: 30 s per move and 75 s a game).
MATCH_PRESETS = (
    Preset("usbgf", TimeControl(12, 120, per_point=True), "12 s a move + 2 min per match point", "USBGF"),
    Preset("online", TimeControl(30, 75, per_game=True), "30 s a move + 75 s a game", "online servers"),
    Preset("quick", TimeControl(8, 60, per_point=True), "8 s a move + 1 min per match point"),
)
#: Qwixx, Trefa and Abluxxen (family "moves"): a time per move and a small reserve.
MOVE_PRESETS = (
    Preset("quick", TimeControl(10, 60), "10 s a move + 1 min"),
    Preset("normal", TimeControl(20, 120), "20 s a move + 2 min"),
    Preset("calm", TimeControl(45, 300), "45 s a move + 5 min"),
)
CORRESPONDENCE_PRESETS = tuple(
    Preset(f"days-{days}", TimeControl(days * DAY, correspondence=True), "{count} days a move")
    for days in CORRESPONDENCE_DAYS
)
FAMILIES = {"moves": MOVE_PRESETS, "match": MATCH_PRESETS}


def presets(family: str) -> tuple[Preset, ...]:
    """The live presets of a game's clock family, then the correspondence ones."""
    return (*FAMILIES.get(family, MOVE_PRESETS), *CORRESPONDENCE_PRESETS)


def preset(family: str, preset_id: str) -> TimeControl:
    """The control of a preset by its id; raises ClockError naming those there are."""
    for offered in presets(family):
        if offered.id == preset_id:
            return offered.control
    known = ", ".join(p.id for p in presets(family))
    raise ClockError("There is no time control {name}; there are: {known}.", name=preset_id, known=known)


def custom(per_move: float, reserve: float) -> TimeControl:
    """A live control chosen by hand: 1 s to a day per move, at most a day of reserve."""
    if not 1 <= per_move <= DAY or not 0 <= reserve <= DAY:
        raise ClockError("A clock gives 1 s to a day per move and at most a day of reserve.")
    return TimeControl(per_move, reserve)
