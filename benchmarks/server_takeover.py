"""Takeover: how long the rooms of a killed server process stand still.

Run `python -m benchmarks.server_takeover --database postgresql://... [--rooms N]
[--lease S] [--seed X]`.

Two `hraj serve` processes share a PostgreSQL database (each run in a database of its
own beside the one given, dropped afterwards; its user must be allowed to create
databases). N two-player Qwixx rooms are made on process A, with seat 0 playing
through A and seat 1 through B. Every seat plays random legal moves; once every room
is past version 10, A is killed with SIGKILL. Seat 0 reconnects to B at once (as a
client behind a proxy would). For each room the figure is the time from the kill to
the first acknowledgement of a move sent after it: the room's standstill, which the
lease (`--lease`, `HRAJ_LEASE`) bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from benchmarks.server_load import fresh_database, launch, run


class Seat:
    """One seat's socket, its latest state, and the time of its first ack after the kill."""

    def __init__(self, room: str, token: str, rng: random.Random) -> None:
        self.room = room
        self.token = token
        self.rng = rng
        self.socket: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.after_kill: float | None = None
        self.over = False

    async def connect(self, ws_url: str) -> None:
        since = None if self.state is None else self.state["version"]
        self.socket = await connect(f"{ws_url}/ws/rooms/{self.room}", compression=None)
        await self.socket.send(orjson.dumps({"type": "hello", "token": self.token, "since": since}).decode())


async def play(
    seat: Seat,
    pair: list[Seat],
    killed: asyncio.Event,
    killed_at: list[float],
    survivor: str,
    ready: asyncio.Event,
    finished: asyncio.Event,
) -> None:
    """Play until the game ends or both seats of the room had a move acknowledged after
    the kill; reconnect if the socket dies."""
    sent_version = -1
    waiting = False
    while True:
        assert seat.socket is not None
        try:
            message = orjson.loads(await seat.socket.recv())
        except Exception:  # the process of this socket was killed
            await killed.wait()
            await seat.connect(survivor)
            waiting, sent_version = False, -1  # a move lost with the process is sent again
            continue
        kind = message["type"]
        if kind == "state":
            seat.state = message
            if message["version"] > 10:
                ready.set()
            if message["status"] == "over":
                seat.over = True
                finished.set()
                return
        elif kind == "ack":
            waiting = False
            if killed.is_set() and seat.after_kill is None:
                seat.after_kill = time.monotonic() - killed_at[0]
                finished.set()  # measure() looks whether every room is done
        elif kind == "error":
            waiting = False
        if all(other.after_kill is not None for other in pair):
            return
        if seat.state is None or waiting or seat.state["version"] == sent_version:
            continue
        view = seat.state["view"]
        if view["legal"] and not view.get("answered"):
            sent_version = seat.state["version"]
            waiting = True
            action = seat.rng.choice(view["legal"])
            move = {"type": "act", "action": action, "id": f"m{sent_version}"}  # a move's own id
            await seat.socket.send(orjson.dumps(move).decode())


async def measure(bases: list[str], pids: list[int], rooms: int, seed: str) -> list[float]:
    doomed, survivor = bases
    made: list[tuple[str, list[str]]] = []
    async with httpx.AsyncClient(timeout=60) as http:
        for _ in range(rooms):
            body = (
                await http.post(f"{doomed}/api/rooms", json={"game": "qwixx", "seats": [{}, {}], "claim": 0})
            ).json()
            other = (
                await http.post(f"{doomed}/api/rooms/{body['room']}/claim", json={"invite": body["invite"]})
            ).json()
            made.append((body["room"], [body["token"], other["token"]]))
    killed, killed_at = asyncio.Event(), [0.0]
    seats: list[Seat] = []
    readies: list[asyncio.Event] = []
    for number, (room, tokens) in enumerate(made):
        ready = asyncio.Event()
        readies.append(ready)
        for which, token in enumerate(tokens):
            seat = Seat(room, token, random.Random(f"{seed}-{number}-{which}"))
            await seat.connect((doomed if which == 0 else survivor).replace("http://", "ws://"))
            seats.append(seat)
    ws_survivor = survivor.replace("http://", "ws://")
    finished = asyncio.Event()
    players = [
        asyncio.create_task(
            play(seat, seats[n - n % 2 : n - n % 2 + 2], killed, killed_at, ws_survivor, readies[n // 2], finished)
        )
        for n, seat in enumerate(seats)
    ]
    await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readies)), 120)
    killed_at[0] = time.monotonic()
    os.kill(pids[0], signal.SIGKILL)
    killed.set()

    def done(pair: list[Seat]) -> bool:
        return any(seat.over for seat in pair) or all(seat.after_kill is not None for seat in pair)

    async with asyncio.timeout(120):
        while not all(done(seats[n : n + 2]) for n in range(0, len(seats), 2)):
            finished.clear()
            await finished.wait()
    for player in players:
        player.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    # A room's standstill: until both its seats had a move acknowledged after the kill.
    stalls = []
    for number in range(rooms):
        times = [seat.after_kill for seat in seats[2 * number : 2 * number + 2] if seat.after_kill is not None]
        if times:
            stalls.append(max(times))
    return stalls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL URL (a database is made beside it)")
    parser.add_argument("--rooms", type=int, default=20, help="rooms owned by the process that is killed")
    parser.add_argument("--lease", type=float, default=5.0, help="HRAJ_LEASE of both processes (seconds)")
    parser.add_argument("--seed", default="takeover", help="seed of the players' moves")
    args = parser.parse_args()
    if not args.database.startswith("postgres") or not 1 <= args.rooms <= 500:
        raise SystemExit("a postgresql:// database, rooms 1-500")
    env = {
        **os.environ,
        "HRAJ_SECRET": "benchmark-secret-0123456789",
        "HRAJ_LEASE": str(args.lease),
        "HRAJ_HTTP_RATE": "1000000",
        "HRAJ_HTTP_BURST": "1000000",
        "HRAJ_ROOM_RATE": "1000000",
        "HRAJ_ROOM_BURST": "1000000",
        "HRAJ_WS_CONNECT_RATE": "1000000",
        "HRAJ_WS_CONNECT_BURST": "1000000",
    }
    with fresh_database(args.database, Path(tempfile.mkdtemp(prefix="hraj-takeover-")), 0) as url:
        command = [sys.executable, "-m", "hraj.app", "serve", "--port", "0", "--database", url]
        servers = [launch(command, env, "hraj serving on") for _ in range(2)]
        try:
            stalls = run(
                measure([line.split()[3] for _, line in servers], [s.pid for s, _ in servers], args.rooms, args.seed)
            )
        finally:
            for server, _ in servers:
                if server.poll() is None:
                    server.terminate()
                server.wait(30)
    print(f"{args.rooms} rooms owned by the killed process, lease {args.lease:g} s")
    if not stalls:
        print("no room played on after the kill (every game ended before it)")
        return
    print(
        f"standstill after SIGKILL, {len(stalls)} rooms: min {min(stalls):.2f} s, median "
        f"{statistics.median(stalls):.2f} s, max {max(stalls):.2f} s"
    )


if __name__ == "__main__":
    main()
