"""A room's clock: each seat's reserve and running turn, moved on by what the room commits.

Pure arithmetic over wall-clock seconds (UTC epoch): the server passes the time, so
the same clock is exact in a test, after a restart and on another process. The clock
changes only with a commit of the room, and is stored with it (`ClockJson`): whatever
process holds the room next reads the very clock the previous one left.

A seat's **deadline** is `started + per_move + reserve`: the turn began at `started`,
the per-move time costs nothing, then the reserve runs. It is identified by the room's
version when the turn began, so a deadline that fires after the room moved on is
recognised as stale and does nothing (`Deadline`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from hraj.clocks.controls import ControlJson, TimeControl


@dataclass(frozen=True, slots=True, order=True)
class Deadline:
    """When a seat's turn runs out (epoch seconds), and the turn's identity: the room's
    version when it began. Ordered by `due` first (the heap's order)."""

    due: float
    room: str
    seat: int
    version: int


class SeatClockJson(TypedDict):
    reserve: float
    started: float | None
    version: int
    timeouts: int
    lapsed: NotRequired[int]


class ClockJson(TypedDict):
    """A room's clock as the store keeps it and the protocol shows it."""

    control: ControlJson
    game: int
    seats: list[SeatClockJson]


@dataclass(slots=True)
class SeatClock:
    """One seat: its reserve (as at the start of its running turn), when that turn began
    (None when it is not the seat's turn), the room's version then, and how often its
    time ran out."""

    reserve: float
    started: float | None = None
    version: int = 0
    timeouts: int = 0
    lapsed: int = -1
    """The version of the turn whose time ran out last (a turn's timeout counts once)."""

    def to_json(self) -> SeatClockJson:
        return {
            "reserve": self.reserve,
            "started": self.started,
            "version": self.version,
            "timeouts": self.timeouts,
            "lapsed": self.lapsed,
        }


@dataclass(slots=True)
class RoomClock:
    """The clocks of a room's seats under one time control; see the module."""

    control: TimeControl
    seats: list[SeatClock]
    game: int = 1
    """The game of the match the reserves were last filled for (`per_game` refills)."""
    match_points: int = field(default=1, compare=False)

    @classmethod
    def new(cls, control: TimeControl, players: int, match_points: int = 1) -> RoomClock:
        reserve = control.reserve_for(match_points)
        return cls(control, [SeatClock(reserve) for _ in range(players)], 1, match_points)

    # --- reading ---------------------------------------------------------------------

    def deadline(self, room: str, seat: int) -> Deadline | None:
        clock = self.seats[seat]
        if clock.started is None:
            return None
        return Deadline(clock.started + self.control.per_move + clock.reserve, room, seat, clock.version)

    def deadlines(self, room: str) -> list[Deadline]:
        return [d for seat in range(len(self.seats)) if (d := self.deadline(room, seat)) is not None]

    def left(self, seat: int, now: float) -> tuple[float, float]:
        """What the seat has left now: (per-move seconds, reserve seconds)."""
        clock = self.seats[seat]
        if clock.started is None:
            return self.control.per_move, clock.reserve
        used = max(0.0, now - clock.started)
        per_move = max(0.0, self.control.per_move - used)
        return per_move, max(0.0, clock.reserve - max(0.0, used - self.control.per_move))

    # --- moving on ---------------------------------------------------------------------

    def advance(
        self,
        *,
        after: Collection[int],
        mover: int | None,
        now: float,
        version: int,
        timed: Collection[int],
        game: int = 1,
        over: bool = False,
    ) -> None:
        """Move the clock on by a commit: the seats that must act `after` it (the room's
        `to_act`), the seat whose decision it carried (None: chance only, a new room),
        the time and the room's new `version`; only the seats in `timed` (played by
        people) run a clock. A seat whose turn ends pays its
        overrun from the reserve; a seat still to act keeps its turn (its own decisions
        in a row, or a decision asked of several seats at once); a seat that must act
        now and was not, begins a turn. A new game of the match refills per-game reserves."""
        if self.control.per_game and game != self.game:
            for clock in self.seats:
                self._stop(clock, now)
                clock.reserve = self.control.reserve_for(self.match_points)
            self.game = game
        for seat, clock in enumerate(self.seats):
            running = clock.started is not None
            if running and seat == mover and seat in after:
                continue  # its own decisions in a row: one turn
            due_now = seat in after and seat in timed and not over
            if running and not due_now:
                self._stop(clock, now)
            elif not running and due_now:
                self._begin(clock, now, version)

    def _stop(self, clock: SeatClock, now: float) -> None:
        if clock.started is None:
            return
        overrun = max(0.0, now - clock.started - self.control.per_move)
        clock.reserve = max(0.0, clock.reserve - overrun)
        clock.started = None

    @staticmethod
    def _begin(clock: SeatClock, now: float, version: int) -> None:
        clock.started = now
        clock.version = version

    def timed_out(self, seat: int) -> None:
        """The seat's time ran out: count it once per turn (the stand-in may make several
        decisions of that turn; its reserve is spent)."""
        clock = self.seats[seat]
        if clock.lapsed != clock.version:
            clock.lapsed = clock.version
            clock.timeouts += 1

    # --- storing -----------------------------------------------------------------------

    def to_json(self) -> ClockJson:
        return {"control": self.control.to_json(), "game": self.game, "seats": [s.to_json() for s in self.seats]}

    @classmethod
    def from_json(cls, data: ClockJson, match_points: int = 1) -> RoomClock:
        seats = [
            SeatClock(seat["reserve"], seat["started"], seat["version"], seat["timeouts"], seat.get("lapsed", -1))
            for seat in data["seats"]
        ]
        return cls(TimeControl.from_json(data["control"]), seats, data["game"], match_points)

    def copy(self) -> RoomClock:
        seats = [SeatClock(s.reserve, s.started, s.version, s.timeouts, s.lapsed) for s in self.seats]
        return RoomClock(self.control, seats, self.game, self.match_points)
