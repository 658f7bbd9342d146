"""The deadlines of one server process: one heap, and the rooms it wakes.

The rooms this process holds hand their deadlines to the heap (`Room.clock`). A
correspondence room that nobody watches is let **wait** in the store only
(`let_wait`): it leaves this process's memory, its deadline entries stay in the heap,
and a look at the store once a minute (`scan`, one query however many rooms wait) finds
the waiting rooms' deadlines that come due soon, whichever process let them wait. When
a deadline comes due, the room is loaded if it is not (woken, and claimed where several
processes serve) and its actor enforces the deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
from collections import defaultdict
from typing import TYPE_CHECKING

from hraj.clocks.heap import DeadlineHeap
from hraj.clocks.timing import Deadline
from hraj.server.protocol import ServerError
from hraj.store.timekeeping import waiting_deadlines

if TYPE_CHECKING:
    from hraj.server.room import Room
    from hraj.server.rooms import Rooms

log = logging.getLogger("hraj.server")

#: Seconds between two looks at the store for waiting rooms' deadlines.
SCAN_S = 60.0
#: Seconds a correspondence room stays in memory with nobody watching it.
WAIT_AFTER_S = 60.0


def owned(room: Room) -> bool:
    """Whether this process applies the room's moves (always, on one process)."""
    return bool(getattr(room, "owned", True))


class DeadlineWatch:
    """See the module."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.heap = DeadlineHeap(self._due)
        self._busy: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self.fired = 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="hraj-deadlines")

    async def stop(self) -> None:
        self.heap.close()
        for task in [self._task, *self._busy]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def _due(self, deadline: Deadline) -> None:
        task = asyncio.create_task(self._enforce(deadline))
        self._busy.add(task)
        task.add_done_callback(self._busy.discard)

    async def _enforce(self, deadline: Deadline) -> None:
        """Have the room's actor enforce the deadline (loading a waiting room first)."""
        room = self.rooms.rooms.get(deadline.room)
        if room is None:
            try:
                room = await self.rooms.get(deadline.room)
            except ServerError as error:
                log.warning("room %s with a deadline cannot be opened: %s", deadline.room, error)
                return
        if owned(room):
            self.fired += 1
            room._post(lambda: room.clock.time_out(deadline))

    async def _run(self) -> None:
        while True:
            try:
                await self.scan()
                await self.let_wait()
            except Exception as error:
                log.warning("cannot look after deadlines: %s", error)
            await asyncio.sleep(SCAN_S)

    async def scan(self, ahead_s: float = 2 * SCAN_S) -> int:
        """Watch the deadlines of waiting rooms due within `ahead_s` seconds; how many."""
        before = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=ahead_s)
        rows = await asyncio.to_thread(waiting_deadlines, self.rooms.store.engine, before)
        by_room: dict[str, list[Deadline]] = defaultdict(list)
        for row in rows:
            by_room[row.room_id].append(Deadline(row.due.timestamp(), row.room_id, row.seat, row.version))
        for room_id, found in by_room.items():
            if room_id not in self.rooms.rooms:
                self.heap.set(room_id, found)
        return len(rows)

    async def let_wait(self) -> list[str]:
        """Let the correspondence rooms nobody watched for a while wait in the store only."""
        let: list[str] = []
        now = time.monotonic()
        for room_id, room in list(self.rooms.rooms.items()):
            if not room.clock.may_wait(now - WAIT_AFTER_S) or not owned(room):
                continue
            fence = {} if room.committer.owner is None else {"owner": room.committer.owner}
            if await asyncio.to_thread(self.rooms.store.put_to_wait, room_id, room.version, **fence):
                self.rooms.rooms.pop(room_id, None)
                await room.stop()
                let.append(room_id)
        return let
