"""What waiting rooms cost the clocks of one process: memory and idle CPU.

Run `python -m benchmarks.clock_scale [--correspondence 10000] [--live 1000] [--seconds 10]`.

Sets up, in one process and one event loop, the clocks of N correspondence rooms
(7 days a move, each waiting for a seat) and M live clocked rooms (20 s a move and
2 minutes, each with a running turn), every deadline in the process's one heap, then
measures side by side in one run:

1. memory: the bytes the clocks and the heap hold (tracemalloc), per room;
2. idle CPU: the process's CPU seconds per wall second while every room waits;
3. busy CPU: the same while each live room's player moves once a second (a commit's
   clock arithmetic and a new deadline in the heap, as the room does it), against the
   idle figure.

This measures the clock machinery only: the rooms' games, sockets and commits are
measured by `benchmarks.server_load`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
import tracemalloc

from hraj.clocks.controls import DAY, TimeControl
from hraj.clocks.heap import DeadlineHeap
from hraj.clocks.timing import Deadline, RoomClock


def build(correspondence: int, live: int, now: float) -> tuple[list[RoomClock], list[RoomClock], DeadlineHeap]:
    fired: list[Deadline] = []
    heap = DeadlineHeap(fired.append)
    slow = TimeControl(7 * DAY, correspondence=True)
    fast = TimeControl(20, 120)
    waiting, playing = [], []
    for number in range(correspondence):
        clock = RoomClock.new(slow, 2)
        clock.advance(after=[number % 2], mover=None, now=now - number, version=1, timed={0, 1})
        heap.set(f"c{number}", clock.deadlines(f"c{number}"))
        waiting.append(clock)
    for number in range(live):
        clock = RoomClock.new(fast, 2)
        clock.advance(after=[0], mover=None, now=now, version=1, timed={0, 1})
        heap.set(f"l{number}", clock.deadlines(f"l{number}"))
        playing.append(clock)
    return waiting, playing, heap


async def measure(args: argparse.Namespace) -> None:
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    waiting, playing, heap = build(args.correspondence, args.live, time.time())
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    rooms = args.correspondence + args.live
    print(f"rooms: {args.correspondence:,} correspondence + {args.live:,} live; deadlines in the heap: {len(heap):,}")
    print(f"memory of clocks and heap: {held / 1e6:.2f} MB, {held / rooms:.0f} bytes a room")

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.sleep(args.seconds)
    idle = (time.process_time() - cpu) / (time.perf_counter() - wall)
    print(f"idle: {idle * 100:.3f} % of one core ({args.seconds:g} s, nothing due)")

    rng = random.Random(1)
    version = [1] * len(playing)

    async def player(number: int) -> None:
        await asyncio.sleep(rng.random())
        clock, room = playing[number], f"l{number}"
        while True:
            version[number] += 1
            seat = (version[number]) % 2
            clock.advance(after=[seat], mover=1 - seat, now=time.time(), version=version[number], timed={0, 1})
            heap.set(room, clock.deadlines(room))
            await asyncio.sleep(1.0)

    tasks = [asyncio.create_task(player(n)) for n in range(len(playing))]
    await asyncio.sleep(1.0)  # every player has begun
    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.sleep(args.seconds)
    busy = (time.process_time() - cpu) / (time.perf_counter() - wall)
    moves = sum(version) - len(version)
    for task in tasks:
        task.cancel()
    heap.close()
    print(
        f"live rooms moving once a second: {busy * 100:.2f} % of one core "
        f"(idle {idle * 100:.3f} %; {moves:,} moves in all, heap entries {len(heap._heap):,})"
    )
    del waiting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--correspondence", type=int, default=10_000)
    parser.add_argument("--live", type=int, default=1_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
