"""What a room does with its clock: time each commit, enforce deadlines, show the time.

`ClockHands` is the part of `Room` that keeps time; the room calls it at its commit,
after each job and when a connection joins. A deadline that comes due (the process's
heap calls `Rooms`, which posts `time_out` as a job of the room's actor) is enforced by a
commit at the deadline's version, so it takes effect once even if another process
enforces the same deadline: the store refuses the second commit.

When time runs out the stand-in bot plays that turn, as for an absent player, and the
person keeps the seat (their next turn has its per-move time again, and no reserve).
In a rated game the time is part of the result, as on established servers: with two
seats the person loses by forfeit (the move `forfeit`, which each game scores by its
own rules, `State._forfeit`); with three or more the
stand-in plays the seat for good and its person finishes last for the rating.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from hraj.clocks.controls import ControlJson
from hraj.clocks.heap import DeadlineHeap
from hraj.clocks.timing import ClockJson, Deadline, RoomClock
from hraj.core.bot import make_bot
from hraj.core.game import FORFEIT, State
from hraj.server.committer import store_call
from hraj.server.connection import Connection, dumps
from hraj.server.protocol import ServerError
from hraj.server.seats import PERSON, stand_in_bot
from hraj.server.timekeeper import RoomTimer
from hraj.store.timekeeping import ClockChange, set_clock

if TYPE_CHECKING:
    from hraj.server.room import Room


class ClockHands:
    """The room's time: see the module. `room` is the room it belongs to."""

    def __init__(self, room: Room, timer: RoomTimer | None) -> None:
        self.room = room
        self.timer = timer
        self.mover: int | None = None
        self.moved_at: float | None = None
        self.timed_out: int | None = None
        self._pending: RoomClock | None = None
        self.watched = False
        self.heap: DeadlineHeap | None = None
        #: Told of a correspondence turn that began for a seat whose player is away
        #: (room id, seat, game name): the process's Web Push reminders.
        self.on_turn: Callable[[str, int, str], Coroutine[Any, Any, int]] | None = None
        self._reminders: set[asyncio.Task[int]] = set()
        #: When the room last moved or someone joined it (monotonic seconds).
        self.touched = time.monotonic()

    # --- commits -------------------------------------------------------------------------

    def refuse_forfeit(self, action: str) -> None:
        """A player cannot send the clock's own move."""
        if action.strip().lower() == FORFEIT:
            raise ServerError("illegal_action", "A game is lost by forfeit only when its time runs out.")

    def moving(self, seat: int | None) -> None:
        """A decision of `seat` reached the room now (the time its turn is charged to)."""
        self.mover = seat
        self.moved_at = time.time()

    def change(self, candidate: State[Any, Any], version: int) -> ClockChange | None:
        """What the commit that makes `candidate` the state at `version` changes of the clock."""
        if self.timer is None:
            return None
        now = self.moved_at if self.moved_at is not None else time.time()
        self._pending, change = self.timer.moved(
            candidate, mover=self.mover, timed=self.timed_seats(), version=version, now=now, timed_out=self.timed_out
        )
        return change

    def committed(self) -> None:
        self.touched = time.monotonic()
        if self.timer is not None and self._pending is not None:
            began = self._began(self._pending)
            self.timer.committed(self._pending)
            self.watched = True
            self.show()
            self._remind(began)
        self.settled()

    def _began(self, new: RoomClock) -> list[int]:
        """The seats whose turn the pending clock begins."""
        assert self.timer is not None
        old = self.timer.clock.seats
        return [n for n, seat in enumerate(new.seats) if seat.started is not None and old[n].version != seat.version]

    def _remind(self, seats: list[int]) -> None:
        """Remind the players of a correspondence game who are away that it is their turn."""
        if self.on_turn is None or self.timer is None or not self.timer.correspondence:
            return
        away = [seat for seat in seats if seat not in self.room._connected_seats()]
        for seat in away:
            task = asyncio.create_task(self.on_turn(self.room.id, seat, self.room.game.name))
            self._reminders.add(task)
            task.add_done_callback(self._reminders.discard)

    def settled(self) -> None:
        """The commit is over, stored or not: the next one starts afresh."""
        self._pending = None
        self.mover = self.moved_at = self.timed_out = None

    def use(self, heap: DeadlineHeap) -> None:
        """Hand the room's deadlines to this heap (the process's) from now on."""
        self.heap = heap
        if self.timer is not None:
            self.timer.heap = heap

    def fresh(self) -> ClockJson | None:
        """The clock of a new game under the same control (a rematch), or None."""
        if self.timer is None:
            return None
        return RoomClock.new(self.timer.clock.control, self.room.game.players, self.room.game.match_points).to_json()

    def reload(self, stored: object) -> None:
        """The room was read again from the store: so is its clock."""
        self.unwatch()
        self.timer = RoomTimer.of(self.room.id, stored, self.room.game, self.heap)

    def follow(self, stored: object, version: int) -> None:
        """Another process owns the room and notified its clock after `version`: show
        it here, and whose time ran out since (as the owner's own connections heard)."""
        before = [] if self.timer is None else [seat.timeouts for seat in self.timer.clock.seats]
        self.reload(stored)
        self.show()
        if self.timer is None:
            return
        for seat, clock in enumerate(self.timer.clock.seats):
            if seat < len(before) and clock.timeouts > before[seat]:
                text = dumps({"type": "timeout", "room": self.room.id, "seat": seat, "version": version})
                for connection in self.room.connections:
                    connection.push(text)

    def timed_seats(self) -> set[int]:
        """The seats whose clocks run: those that people play, once every person's seat
        is taken (nobody's time runs while the table waits for a player)."""
        people = [s for s in self.room.seats if s.kind == PERSON]
        if any(s.token_hash is None for s in people):
            return set()
        return {s.number for s in people if s.played_by_person}

    async def seated(self) -> None:
        """A seat was taken: if the table is full now, the clocks of the seats that must
        act begin, stored at the room's version (only where it still is)."""
        room = self.room
        if self.timer is None or room.over or not self.timed_seats():
            return
        if all(seat.started is not None for n, seat in enumerate(self.timer.clock.seats) if n in room.state.to_act):
            return
        self.moving(None)
        change = self.change(room.state, room.version)
        assert change is not None
        fence = {} if room.committer.owner is None else {"owner": room.committer.owner}
        stored = False
        try:
            stored = await store_call(set_clock, room.store.engine, room.id, room.version, change, **fence)
        finally:
            if not stored:
                self.settled()
        if stored:
            self.committed()

    def watch(self) -> None:
        """Let the process's heap watch this room's deadlines (once, after it is loaded)."""
        if self.timer is not None and not self.watched:
            self.watched = True
            self.timer.watch()

    def unwatch(self) -> None:
        if self.timer is not None:
            self.timer.unwatch()
        self.watched = False

    def may_wait(self, quiet_since: float) -> bool:
        """A correspondence room may wait in the store only: nobody watches it, nothing
        happened since `quiet_since`, and only people's decisions are due."""
        room = self.room
        if self.timer is None or not self.timer.correspondence or room.connections or self.touched > quiet_since:
            return False
        if room.over or room.state.is_chance or not room.state.to_act:
            return False
        return all(room.seats[s].played_by_person for s in room.state.to_act)

    # --- what clients see --------------------------------------------------------------

    def control(self) -> ControlJson | None:
        """The room's time control as the summary shows it (None: untimed)."""
        return None if self.timer is None else self.timer.clock.control.to_json()

    def message(self) -> str | None:
        if self.timer is None:
            return None
        return dumps(
            {"type": "clock", "room": self.room.id, "version": self.room.version, "clock": self.timer.view(time.time())}
        )

    def show(self, to: Connection | None = None) -> None:
        """Send what every seat has left now (to one connection, or to all)."""
        if to is not None:
            self.touched = time.monotonic()
        text = self.message()
        if text is None:
            return
        for connection in [to] if to is not None else self.room.connections:
            connection.push(text)

    # --- time running out --------------------------------------------------------------

    async def time_out(self, deadline: Deadline) -> None:
        """A deadline came due (a job of the room's actor): if it still holds, the seat
        loses by forfeit (a rated game of two) or the stand-in bot plays its turn (for
        good in a rated game of more), and everyone hears whose time ran out."""
        room = self.room
        if self.timer is None or room.over or room.state.is_chance:
            return
        if not self.timer.applies(deadline, room.version, room.state.to_act):
            return
        seat = deadline.seat
        if not room.seats[seat].played_by_person:
            return
        text = dumps({"type": "timeout", "room": room.id, "seat": seat, "version": room.version})
        if room.rated and len(room.seats) == 2:
            candidate = room.state.copy()
            candidate.forfeit(seat)
            self.timed_out = seat
            self.moving(seat)
            await room._advance(candidate)
        else:
            name = stand_in_bot(room.game.id, room.settings.stand_in_bot)
            if room.rated:
                await room.hand_to_bot(seat, name)  # for good: `lost_on_time` refuses it back
            bot = make_bot(room.game.id, name, seed=room._derived_seed(f"timeout:{seat}:{room.version}"))
            seen = room.state.determinize(seat, room.bot_rng)
            action = await asyncio.to_thread(bot.choose, seen, seat)
            self.timed_out = seat
            await room.act(seat, str(action))
        for connection in room.connections:
            connection.push(text)

    def lost_on_time(self, seat: int) -> bool:
        """The seat's time ran out in a rated game of three or more: the stand-in plays it
        to the end, and its person may not take it back (read from the stored clock, so it
        holds after a restart and on every process)."""
        if self.timer is None or not self.room.rated or len(self.room.seats) < 3:
            return False
        return self.timer.clock.seats[seat].timeouts > 0
