"""Writing to the store without holding up the rooms.

The committer gathers the batches of every room that is waiting and writes them in
one transaction, so a thousand busy rooms cost one commit per tick, not a thousand.
It writes from a worker thread, one transaction at a time (see `Committer._append`).
Other store calls run in a worker thread too (`store_call`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from hraj.server.logs import Throttled
from hraj.server.messages import CommitStats
from hraj.server.protocol import ServerError
from hraj.store import AppendBatch, CommitInDoubt, StaleVersion, Store, StoreError

log = logging.getLogger("hraj.server")

#: Seconds a failed commit keeps the health check at 503 (unless a commit succeeds).
FAILING_FOR_S = 60.0
#: The longest wait between two tries to read back a commit in doubt.
READ_BACK_MAX_S = 2.0

T = TypeVar("T")
P = ParamSpec("P")


class Committer:
    """Group commit: every batch waiting when the writer comes round goes in one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.failures = Throttled(log, "cannot commit")
        self.failed = 0
        #: Monotonic times of the last commit that failed and of the last that succeeded.
        self.last_failure = -float("inf")
        self.last_success = -float("inf")
        self.waiting: list[tuple[AppendBatch, asyncio.Future[None]]] = []
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.writing: asyncio.Future[None] | None = None
        self.commits = 0
        self.batches = 0
        self.events = 0
        self.seconds = 0.0
        #: Seconds from a move's arrival to its acknowledgement, the latest ones.
        self.timings: collections.deque[float] = collections.deque(maxlen=100_000)
        #: Called with the seconds of each successful commit (the metrics' histogram).
        self.observe: Callable[[float], None] | None = None
        #: This process's id where several share the database: every commit is fenced by it.
        self.owner: str | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="hraj-committer")

    async def stop(self) -> None:
        """Stop; a transaction already begun is finished first (its thread cannot be stopped)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.writing is not None:
            with contextlib.suppress(Exception):
                await self.writing

    async def commit(self, batch: AppendBatch) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((batch, future))
        self.wakeup.set()
        await future

    async def _append(self, batches: list[AppendBatch]) -> None:
        """Write `batches` in one transaction from a worker thread.

        SQLite and PostgreSQL wait for the disk without holding the interpreter lock, so
        the loop goes on serving every room meanwhile, and the next commit gathers what
        arrived. Measured with the load benchmark (1,000 rooms x 2), back to back against
        committing in the loop's own thread: on a quiet machine the same (3,100-3,300
        moves/s flat out; p99 28-48 ms with players thinking 1 s); while other work kept
        the disk slow (fsync 5 ms), 1,899 -> 2,654 moves/s flat out and p99 97 -> 63 ms
        with thinking players, where inline commits had kept the loop waiting for the
        disk 40 % of the time. (An earlier measurement, before the switch interval was
        shortened, had found the thread slower.) Shielded: a transaction once begun is
        finished even if the server stops.
        """
        self.writing = asyncio.ensure_future(asyncio.to_thread(self._write, batches))
        await asyncio.shield(self.writing)

    def _write(self, batches: list[AppendBatch]) -> None:
        if self.owner is None:
            self.store.append(batches)
        else:
            self.store.append(batches, owner=self.owner)

    async def _run(self) -> None:
        """Commit whatever is waiting, one transaction at a time."""
        while True:
            await self.wakeup.wait()
            self.wakeup.clear()
            await asyncio.sleep(0)  # moves that are ready this very tick join the commit
            taken, self.waiting = self.waiting, []
            if not taken:
                continue
            began = time.perf_counter()
            try:
                await self._append([batch for batch, _ in taken])
            except CommitInDoubt as error:
                # Stored or not, nobody knows yet: trying again could store a batch twice
                # over (a version check would refuse it, but the room would think it
                # lost). Each room reads back what its own batch became (`Store.holds`).
                self._failed(taken, error)
                continue
            except Exception:
                # Nothing was written. One bad batch must not fail the others: retry them one by one.
                for batch, future in taken:
                    try:
                        await self._append([batch])
                    except Exception as error:
                        self._failed([(batch, future)], error)
                    else:
                        if not future.done():
                            future.set_result(None)
                continue
            self.last_success = time.monotonic()
            took = time.perf_counter() - began
            self.seconds += took
            self.commits += 1
            if self.observe is not None:
                self.observe(took)
            self.batches += len(taken)
            self.events += sum(len(batch.events) for batch, _ in taken)
            for _, future in taken:
                if not future.done():
                    future.set_result(None)

    def _failed(self, taken: list[tuple[AppendBatch, asyncio.Future[None]]], error: Exception) -> None:
        self.failed += len(taken)
        self.last_failure = time.monotonic()
        for batch, future in taken:
            self.failures.report(f"room {batch.room_id}", error)
            if not future.done():
                future.set_exception(error)

    @property
    def failing(self) -> bool:
        """The latest commit failed, less than a minute ago: the store reads, perhaps,
        but does not write. (Older failures are forgiven: a server taken out of rotation
        gets no moves, so no commit could ever succeed to clear it.)"""
        return self.last_failure > self.last_success and time.monotonic() - self.last_failure < FAILING_FOR_S

    def stats(self) -> CommitStats:
        timings = sorted(self.timings)

        def ms(q: float) -> float:
            return round(1000 * timings[min(len(timings) - 1, int(q * len(timings)))], 3) if timings else 0.0

        return {
            "commits": self.commits,
            "batches": self.batches,
            "events": self.events,
            "commit_seconds": round(self.seconds, 3),
            "moves_timed": len(timings),
            "move_p50_ms": ms(0.5),
            "move_p99_ms": ms(0.99),
        }


_store_failures = Throttled(log, "store")


async def store_call(write: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """A store write from a worker thread; a store that fails is `unavailable`, not a bug."""
    try:
        return await asyncio.to_thread(write, *args, **kwargs)
    except (SQLAlchemyError, OSError, StoreError) as error:
        _store_failures.report("a store call failed", error)
        raise ServerError("unavailable", "The store is unavailable; please try again.") from None


async def read_back(store: Store, batch: AppendBatch) -> bool:
    """What a commit in doubt became: True if `batch` is stored, False if not (StaleVersion
    if the room's log went on without it). Asks the store again and again until it
    answers: the move's player waits, since `unavailable` would promise it is not stored."""
    delay = 0.1
    while True:
        try:
            return await asyncio.to_thread(store.holds, batch)
        except StaleVersion:
            raise
        except (SQLAlchemyError, OSError, StoreError) as error:
            _store_failures.report("a commit in doubt cannot be read back yet", error)
            await asyncio.sleep(delay)
            delay = min(READ_BACK_MAX_S, delay * 2)
