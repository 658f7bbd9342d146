"""The deadline heap: one timer for the nearest deadline, stale entries never fire."""

from __future__ import annotations

import asyncio

from hraj.clocks.heap import DeadlineHeap
from hraj.clocks.timing import Deadline


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_deadlines_fire_in_order_once_each_and_stale_ones_never() -> None:
    async def scenario() -> list[Deadline]:
        fired: list[Deadline] = []
        heap = DeadlineHeap(fired.append)
        now = heap.now()
        heap.set("a", [Deadline(now + 0.05, "a", 0, 1)])
        heap.set("b", [Deadline(now + 0.02, "b", 1, 4)])
        heap.set("c", [Deadline(now + 0.03, "c", 0, 2)])
        heap.set("c", [Deadline(now + 0.04, "c", 0, 3)])  # room c moved on: version 2 is stale
        heap.drop("a")
        await asyncio.sleep(0.15)
        heap.close()
        return fired

    fired = asyncio.run(scenario())
    assert [(d.room, d.version) for d in fired] == [("b", 4), ("c", 3)]


def test_one_timer_waits_for_the_nearest_of_many_deadlines() -> None:
    async def scenario() -> tuple[int, int, int]:
        clock = FakeTime()
        heap = DeadlineHeap(lambda d: None, now=clock)
        for number in range(10_000):
            heap.set(f"r{number}", [Deadline(clock.now + 86_400 + number, f"r{number}", 0, 1)])
        timers = sum(1 for handle in asyncio.get_running_loop()._scheduled if not handle.cancelled())  # type: ignore[attr-defined,misc]
        size = len(heap)
        for number in range(10_000):  # every room moves on: old entries are compacted away
            heap.set(f"r{number}", [Deadline(clock.now + 90_000 + number, f"r{number}", 0, 2)])
        heap.close()
        return timers, size, len(heap._heap)

    timers, size, entries = asyncio.run(scenario())
    assert timers == 1 and size == 10_000 and entries <= 2 * size + 64


def test_a_deadline_already_past_fires_at_once() -> None:
    async def scenario() -> list[tuple[str, int, int]]:
        fired: list[Deadline] = []
        heap = DeadlineHeap(fired.append)
        heap.set("late", [Deadline(heap.now() - 5, "late", 2, 9)])
        await asyncio.sleep(0.01)
        return [(d.room, d.seat, d.version) for d in fired]

    assert asyncio.run(scenario()) == [("late", 2, 9)]
