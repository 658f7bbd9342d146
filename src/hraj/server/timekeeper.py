"""A room's clock as the room's actor uses it: moved on by each commit, shown to clients.

The room computes the clock that a commit leaves (`moved`) before it commits, and the
store writes it in the same transaction as the events (`ClockChange`): a room read back
after any crash, on any process, has the clock that matches its log. Only once the
commit is stored does the room take the new clock (`committed`) and hand its deadlines
to the process's heap, which calls the room back when one comes due.

What clients see (`ClockView`) is what each seat has left at the moment the message
is made; a client counts down from there by its own clock, so the two machines'
clocks never need to agree.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import Any, TypedDict

from hraj.clocks.controls import ControlJson, TimeControl
from hraj.clocks.heap import DeadlineHeap
from hraj.clocks.timing import ClockJson, Deadline, RoomClock
from hraj.core.game import Game, State
from hraj.store.timekeeping import ClockChange, DueRow


class SeatTimeJson(TypedDict):
    """A seat's time as clients see it: seconds of the per-move time and of the reserve
    left, whether its turn runs now, and how often its time ran out."""

    move: float
    reserve: float
    running: bool
    timeouts: int


class ClockView(TypedDict):
    control: ControlJson
    seats: list[SeatTimeJson]


def new_clock(control: TimeControl, game: Game[Any, Any]) -> ClockJson:
    """The clock a new room of `game` starts with (every seat's full reserve)."""
    return RoomClock.new(control, game.players, game.match_points).to_json()


def absent_after(given: int | None, default: int, control: TimeControl | None) -> int:
    """Seconds before an absent player's seat is played by a stand-in: never in a
    correspondence game (only its time per move running out brings the stand-in), else
    the room's choice or the server's."""
    if control is not None and control.correspondence:
        return 0
    return default if given is None else given


def due_rows(clock: RoomClock, room_id: str) -> list[DueRow]:
    return [
        DueRow(room_id, d.seat, d.version, dt.datetime.fromtimestamp(d.due, dt.UTC)) for d in clock.deadlines(room_id)
    ]


class RoomTimer:
    """The clock of one room and the heap that watches its deadlines (None: not watched here)."""

    def __init__(self, room_id: str, clock: RoomClock, heap: DeadlineHeap | None = None) -> None:
        self.room_id = room_id
        self.clock = clock
        self.heap = heap

    @classmethod
    def of(cls, room_id: str, stored: object, game: Game[Any, Any], heap: DeadlineHeap | None) -> RoomTimer | None:
        """The timer of a room as stored (`RoomData.clock`), or None for an untimed room."""
        if stored is None:
            return None
        clock = RoomClock.from_json(stored, game.match_points)  # type: ignore[arg-type]
        return cls(room_id, clock, heap)

    @property
    def correspondence(self) -> bool:
        return self.clock.control.correspondence

    def moved(
        self,
        candidate: State[Any, Any],
        *,
        mover: int | None,
        timed: Collection[int],
        version: int,
        now: float,
        timed_out: int | None = None,
    ) -> tuple[RoomClock, ClockChange]:
        """The clock after a commit that makes `candidate` the room's state at `version`
        (`mover`'s decision, or none; `timed_out`: the seat whose time ran out), and what
        the store writes of it. The room's own clock is unchanged until `committed`."""
        new = self.clock.copy()
        if timed_out is not None:
            new.timed_out(timed_out)
        after = () if candidate.is_chance or candidate.is_over else candidate.to_act
        new.advance(
            after=after,
            mover=mover,
            now=now,
            version=version,
            timed=timed,
            game=candidate.match_game,
            over=candidate.is_over,
        )
        return new, ClockChange(new.to_json(), due_rows(new, self.room_id))

    def committed(self, clock: RoomClock) -> None:
        """The commit that carried `clock` is stored: it is the room's, and its deadlines watched."""
        self.clock = clock
        self.watch()

    def watch(self) -> None:
        if self.heap is not None:
            self.heap.set(self.room_id, self.clock.deadlines(self.room_id))

    def unwatch(self) -> None:
        if self.heap is not None:
            self.heap.drop(self.room_id)

    def applies(self, deadline: Deadline, version: int, to_act: Collection[int]) -> bool:
        """Whether a deadline that came due still holds: the seat's turn is the one it
        was set for (the room may have moved on meanwhile) and the seat must act."""
        current = self.clock.deadline(self.room_id, deadline.seat)
        return current == deadline and deadline.seat in to_act and version >= deadline.version

    def view(self, now: float) -> ClockView:
        seats: list[SeatTimeJson] = []
        for seat, clock in enumerate(self.clock.seats):
            move, reserve = self.clock.left(seat, now)
            seats.append(
                {
                    "move": round(move, 2),
                    "reserve": round(reserve, 2),
                    "running": clock.started is not None,
                    "timeouts": clock.timeouts,
                }
            )
        return {"control": self.clock.control.to_json(), "seats": seats}
