"""The deadlines a process watches: one heap and one timer for the nearest, not a task per room.

Ten thousand correspondence rooms waiting days cost ten thousand small entries and one
sleeping timer; nothing runs until the nearest is due. An entry is current while it is
the latest one set for its (room, seat); a room that moves on simply sets new ones, and
the old entries are dropped when they come up (or when the heap is compacted), so
setting a deadline is O(log n) and nothing is ever searched for.

When entries come due, `fire` is called with each, in order of time; what it does
(ask the room's actor to enforce it) must itself check that the room is still at the
deadline's version: the heap only says that time has come.
"""

from __future__ import annotations

import asyncio
import heapq
import time
from collections.abc import Callable, Iterable

from hraj.clocks.timing import Deadline

#: The longest single sleep of the timer: the loop's monotonic clock and the wall clock
#: may drift apart over days, so a far deadline is looked at again at least this often.
LONGEST_SLEEP_S = 3600.0


class DeadlineHeap:
    """See the module. `now` is the wall clock (epoch seconds) the deadlines are in."""

    def __init__(self, fire: Callable[[Deadline], None], now: Callable[[], float] = time.time) -> None:
        self.fire = fire
        self.now = now
        self._heap: list[Deadline] = []
        #: room -> seat -> its current deadline.
        self._current: dict[str, dict[int, Deadline]] = {}
        self._count = 0
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = float("inf")

    def __len__(self) -> int:
        return self._count

    def set(self, room: str, deadlines: Iterable[Deadline]) -> None:
        """The room's deadlines from now on (none: it waits for nobody's time)."""
        old = self._current.pop(room, None)
        if old:
            self._count -= len(old)
        seats = {d.seat: d for d in deadlines}
        if seats:
            self._current[room] = seats
            self._count += len(seats)
            for deadline in seats.values():
                heapq.heappush(self._heap, deadline)
        self._compact()
        self._arm()

    def drop(self, room: str) -> None:
        """Forget the room's deadlines (another process holds it now, or it is over)."""
        self.set(room, ())

    def current(self, room: str) -> list[Deadline]:
        return sorted(self._current.get(room, {}).values())

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = float("inf")

    # --- inside ------------------------------------------------------------------------

    def _is_current(self, deadline: Deadline) -> bool:
        return self._current.get(deadline.room, {}).get(deadline.seat) == deadline

    def _compact(self) -> None:
        """Drop stale entries once they outnumber the current ones (bounded memory)."""
        if len(self._heap) > 2 * self._count + 64:
            self._heap = [d for seats in self._current.values() for d in seats.values()]
            heapq.heapify(self._heap)

    def _live_top(self) -> Deadline | None:
        while self._heap and not self._is_current(self._heap[0]):
            heapq.heappop(self._heap)
        return self._heap[0] if self._heap else None

    def _arm(self) -> None:
        top = self._live_top()
        if top is None:
            self.close()
            return
        if self._timer is not None and self._timer_at <= top.due:
            return
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        delay = min(LONGEST_SLEEP_S, max(0.0, top.due - self.now()))
        self._timer_at = top.due if delay < LONGEST_SLEEP_S else self.now() + delay
        self._timer = loop.call_later(delay, self._wake)

    def _wake(self) -> None:
        self._timer = None
        self._timer_at = float("inf")
        now = self.now()
        due: list[Deadline] = []
        while (top := self._live_top()) is not None and top.due <= now:
            heapq.heappop(self._heap)
            seats = self._current[top.room]
            del seats[top.seat]
            self._count -= 1
            if not seats:
                del self._current[top.room]
            due.append(top)
        self._arm()
        for deadline in due:
            self.fire(deadline)
