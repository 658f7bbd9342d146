"""Load on the server: N live rooms, M WebSocket clients each, every move committed.

Run `python -m benchmarks.server_load [--rooms N] [--clients M] [--seconds T] [--think S]
[--database URL] [--profile FILE] [--no-echo] [--processes 1 2 [--spread seats|rooms]]`.

`--processes 1 2` (PostgreSQL only) measures the same work on one server process and
then on two processes sharing the database, side by side in one run: rooms are created
on the processes in turn (each owns the rooms made on it), and with `--spread seats`
(the default) the seats of every room connect to different processes, as behind a
proxy that spreads connections, so a mover's process is often not the room's owner;
`--spread rooms` connects every seat to its room's owner, as a proxy routing by room
id would. Each run gets a database of its own, made beside the one named by
`--database` (its user must be allowed to create databases) and dropped afterwards.

The server runs as its own process (`python -m hraj.app serve`, loopback only);
this process creates N Qwixx rooms of M person seats, connects one client per seat
and plays random legal moves as fast as the answers come, for T seconds at most.
A move's latency runs from sending `act` to receiving its `ack`, which the server
sends only after the move is committed to the store and broadcast to the room.
Baseline, measured in the same run against a bare WebSocket echo server process
with the same number of connections: the round trip of one message. Both sides share
the machine's cores with this client process (on uvloop where it is installed, as the
server), which the figures include. `--think S` makes each seat wait a random time
of mean S seconds before each move (an offered load instead of flat out);
`--profile FILE` writes py-spy's collapsed stacks of the server for the timed window.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

T = TypeVar("T")

ECHO_SERVER = """
import asyncio, sys
from websockets.asyncio.server import serve

async def echo(ws):
    async for message in ws:
        await ws.send(message)

async def main():
    async with serve(echo, "127.0.0.1", 0, max_size=1 << 16) as server:
        print("echo on", server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()

try:
    import uvloop
except ImportError:
    asyncio.run(main())
else:
    uvloop.run(main())
"""


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run the client on uvloop, as the server runs, where it is installed."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def launch(command: list[str], env: dict[str, str], marker: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith(marker):
            return process, line
    process.kill()
    raise SystemExit(f"could not start: {' '.join(command)}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Seat:
    def __init__(self, socket: ClientConnection, rng: random.Random, think: float) -> None:
        self.socket = socket
        self.rng = rng
        self.think = think
        """Mean seconds a seat thinks before each move (0: it moves at once)."""
        self.stale = 0
        self.state: dict[str, Any] | None = None
        self.sent_at: float | None = None
        self.sent_version = -1


class Start:
    """Everyone connects first; the timed window opens when the last one is ready."""

    def __init__(self, total: int, seconds: float) -> None:
        self.total = total
        self.seconds = seconds
        self.ready = 0
        self.go = asyncio.Event()
        self.began = 0.0
        self.until = 0.0

    async def wait(self) -> None:
        self.ready += 1
        if self.ready == self.total:
            self.began = time.monotonic()
            self.until = self.began + self.seconds
            self.go.set()
        await self.go.wait()


async def drive_seat(
    ws_url: str,
    room: str,
    token: str,
    rng: random.Random,
    think: float,
    start: Start,
    out: list[float],
    stale: list[int],
) -> None:
    async with connect(f"{ws_url}/ws/rooms/{room}", max_size=1 << 22, compression=None) as socket:
        await socket.send(orjson.dumps({"type": "hello", "token": token}).decode())
        seat = Seat(socket, rng, think)
        while seat.state is None:
            message = orjson.loads(await socket.recv())
            if message["type"] == "state":
                seat.state = message
        await start.wait()
        # One deadline for the whole window (a `wait_for` per message costs the client a task each).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, start.until - time.monotonic())):
                await play(seat, out)
        stale.append(seat.stale)


async def play(seat: Seat, out: list[float]) -> None:
    assert seat.state is not None
    while seat.state["status"] != "over":
        if seat.sent_at is None:
            view = seat.state["view"]
            legal = view["legal"]
            if legal and not view.get("answered") and seat.state["version"] != seat.sent_version:
                seat.sent_version = seat.state["version"]
                if seat.think:
                    await asyncio.sleep(seat.rng.expovariate(1 / seat.think))
                seat.sent_at = time.perf_counter()
                action = seat.rng.choice(legal)
                move = {"type": "act", "action": action, "id": f"m{seat.sent_version}"}  # a move's own id
                await seat.socket.send(orjson.dumps(move).decode())
        message = orjson.loads(await seat.socket.recv())
        kind = message["type"]
        if kind == "state":
            seat.state = message
        elif kind == "ack" and seat.sent_at is not None:
            out.append(time.perf_counter() - seat.sent_at)
            seat.sent_at = None
        elif kind == "error":
            seat.sent_at = None  # a stale move; the next state tells what is legal
            seat.stale += 1


async def drive_echo(url: str, start: Start, out: list[float]) -> None:
    payload = orjson.dumps({"type": "act", "action": "pass", "id": "m"}).decode()
    async with connect(url, compression=None) as socket:
        await start.wait()
        while time.monotonic() < start.until:
            sent = time.perf_counter()
            await socket.send(payload)
            await socket.recv()
            out.append(time.perf_counter() - sent)


async def server_run(
    bases: list[str],
    rooms: int,
    clients: int,
    seconds: float,
    think: float,
    profile: tuple[int, str] | None = None,
    spread: str = "seats",
) -> tuple[list[float], float, int]:
    """Play on the servers at `bases`: room n is made on server n mod P; seat s of it
    plays through server (n + s) mod P (`spread` seats) or through the same one (rooms)."""
    seats = [{"kind": "person"}] * clients
    # No keep-alive: on a busy machine a kept connection that the server closes just as
    # a request is sent on it fails the request (and a claim cannot simply be sent again).
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_keepalive_connections=0)) as http:
        semaphore = asyncio.Semaphore(32)

        async def one_room(number: int) -> tuple[str, list[str]]:
            base = bases[number % len(bases)]
            async with semaphore:
                response = await http.post(f"{base}/api/rooms", json={"game": "qwixx", "seats": seats, "claim": 0})
                if response.status_code != 201:
                    raise SystemExit(f"a room could not be made: {response.status_code} {response.text}")
                body = response.json()
                tokens = [body["token"]]
                for _ in range(clients - 1):
                    claimed = await http.post(f"{base}/api/rooms/{body['room']}/claim", json={"invite": body["invite"]})
                    if claimed.status_code != 200:
                        raise SystemExit(f"a claim failed: {claimed.status_code} {claimed.text}")
                    tokens.append(claimed.json()["token"])
                return body["room"], tokens

        def ws_url(room: int, seat: int) -> str:
            base = bases[(room + (seat if spread == "seats" else 0)) % len(bases)]
            return base.replace("http://", "ws://")

        made = await asyncio.gather(*(one_room(n) for n in range(rooms)))
        latencies: list[float] = []
        stale: list[int] = []
        start = Start(rooms * clients + 1, seconds)

        async def stats() -> dict[str, Any]:
            """The servers' counters, summed (percentiles: the largest of any server)."""
            each = [(await http.get(f"{base}/api/stats")).json() for base in bases]
            total: dict[str, Any] = {}
            for one in each:
                for key, value in one.items():
                    total[key] = max(total.get(key, 0), value) if key.endswith("_ms") else total.get(key, 0) + value
            return total

        async def stats_at_start() -> dict[str, Any]:
            await start.wait()
            if profile is not None:
                sample(*profile, seconds)
            return await stats()

        before, *_ = await asyncio.gather(
            stats_at_start(),
            *(
                drive_seat(ws_url(n, s), room, token, random.Random(f"{n}-{s}"), think, start, latencies, stale)
                for n, (room, tokens) in enumerate(made)
                for s, token in enumerate(tokens)
            ),
        )
        elapsed = time.monotonic() - start.began
        after = await stats()
    commits = after["commits"] - before["commits"]
    batches = after["batches"] - before["batches"]
    seconds = after["commit_seconds"] - before["commit_seconds"]
    print(
        f"server: {after['rooms_live']} rooms still live, {after['connections']} sockets; {commits} commits of "
        f"{batches} room batches ({batches / max(commits, 1):.1f} per commit), {after['events'] - before['events']} "
        f"events; commits took {seconds:.2f} s of {elapsed:.2f} s ({1000 * seconds / max(commits, 1):.2f} ms each); "
        f"inside the server a move took p50 {after['move_p50_ms']:.2f} ms, p99 {after['move_p99_ms']:.2f} ms "
        f"from arrival to ack (whole run); {sum(stale)} moves refused as stale"
    )
    return latencies, elapsed, rooms


def sample(pid: int, path: str, seconds: float) -> None:
    """Sample the server's stacks with py-spy for the timed window (collapsed stacks to `path`)."""
    spy = Path(sys.executable).with_name("py-spy")
    command = [str(spy) if spy.exists() else "py-spy", "record", "--pid", str(pid), "--rate", "100", "--nonblocking"]
    command += ["--duration", str(int(seconds)), "--format", "raw", "--output", path]
    try:
        subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        print("no profile: py-spy is not installed (pip install py-spy)")


async def echo_run(url: str, connections: int, seconds: float) -> tuple[list[float], float]:
    latencies: list[float] = []
    start = Start(connections, seconds)
    await asyncio.gather(*(drive_echo(url, start, latencies) for _ in range(connections)))
    return latencies, time.monotonic() - start.began


def report(name: str, latencies: list[float], elapsed: float, unit: str) -> None:
    rate = len(latencies) / elapsed if elapsed else 0.0
    print(
        f"{name:<28} {len(latencies):>8} {unit:<9} {rate:>9.0f}/s   "
        f"p50 {1000 * percentile(latencies, 0.5):7.2f} ms   p95 {1000 * percentile(latencies, 0.95):7.2f} ms   "
        f"p99 {1000 * percentile(latencies, 0.99):7.2f} ms   "
        f"mean {1000 * statistics.fmean(latencies) if latencies else float('nan'):7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200, help="live rooms (goal: 1000)")
    parser.add_argument("--clients", type=int, default=2, help="person seats (clients) per room, 2-5")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long each measurement lasts at most")
    parser.add_argument("--database", default="", help="database URL (default: a SQLite file in a temp dir)")
    parser.add_argument("--profile", default="", help="write py-spy's collapsed stacks of the server here")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a seat thinks before each move (default 0: flat out)"
    )
    parser.add_argument("--no-echo", action="store_true", help="skip the echo baseline (profiling runs)")
    parser.add_argument("--sync", default="FULL", choices=["FULL", "NORMAL"], help="SQLite synchronous mode")
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[1],
        help="server processes sharing the database, a run for each count given (more than 1: PostgreSQL)",
    )
    parser.add_argument(
        "--spread",
        default="seats",
        choices=["seats", "rooms"],
        help="seats of a room on different processes (default), or every seat on its room's owner",
    )
    args = parser.parse_args()
    if not (1 <= args.rooms <= 5000 and 2 <= args.clients <= 5 and 1 <= args.seconds <= 120):
        raise SystemExit("rooms 1-5000, clients 2-5, seconds 1-120")
    if not all(1 <= count <= 8 for count in args.processes):
        raise SystemExit("processes 1-8")

    workdir = Path(tempfile.mkdtemp(prefix="hraj-load-"))
    database = args.database or f"sqlite:///{workdir / 'hraj.db'}"
    postgres = database.startswith("postgres")
    if max(args.processes) > 1 and not postgres:
        raise SystemExit("several processes share a PostgreSQL database only: give --database postgresql://...")
    env = {
        **os.environ,
        "HRAJ_SECRET": "benchmark-secret-0123456789",
        "HRAJ_HTTP_RATE": "1000000",
        "HRAJ_HTTP_BURST": "1000000",
        "HRAJ_WS_RATE": "1000",
        # Every room and socket comes from one loopback address here.
        "HRAJ_ROOM_RATE": "1000000",
        "HRAJ_ROOM_BURST": "1000000",
        "HRAJ_WS_CONNECT_RATE": "1000000",
        "HRAJ_WS_CONNECT_BURST": "1000000",
        "HRAJ_WS_PER_ADDRESS": "1000000",
        "HRAJ_OPERATOR_ENDPOINTS": "on",
        "HRAJ_SQLITE_SYNCHRONOUS": args.sync,
    }
    connections = args.rooms * args.clients
    print(f"{args.rooms} rooms x {args.clients} clients = {connections} WebSockets, {args.seconds:.0f} s each run")
    print(f"database: {database.split('@')[-1]}" + (f" (synchronous={args.sync})" if "sqlite" in database else ""))

    latencies: list[float] = []
    elapsed = 0.0
    if not args.no_echo:
        echo, line = launch([sys.executable, "-c", ECHO_SERVER], env, "echo on")
        try:
            latencies, elapsed = run(echo_run(f"ws://127.0.0.1:{line.split()[2]}", connections, args.seconds))
        finally:
            echo.kill()
            echo.wait()

    results: list[tuple[str, list[float], float]] = []
    for run_number, count in enumerate(args.processes):
        spread = f", spread by {args.spread}" if count > 1 else ""
        name = f"hraj moves, {count} process{'es' if count > 1 else ''}"
        print(f"--- {name}{spread}")
        with fresh_database(database, workdir, run_number) as url:
            command = [sys.executable, "-m", "hraj.app", "serve", "--port", "0", "--database", url]
            servers = [launch(command, env, "hraj serving on") for _ in range(count)]
            try:
                pids = [server.pid for server, _ in servers]
                server_cpu, client_cpu = sum(map(cpu_seconds, pids)), time.process_time()
                moves, moved, _ = run(
                    server_run(
                        [line.split()[3] for _, line in servers],
                        args.rooms,
                        args.clients,
                        args.seconds,
                        args.think,
                        (pids[0], args.profile) if args.profile else None,
                        args.spread,
                    )
                )
                server_cpu = sum(map(cpu_seconds, pids)) - server_cpu
                client_cpu = time.process_time() - client_cpu
                print(
                    f"CPU: server processes {server_cpu:.2f} s, client process {client_cpu:.2f} s "
                    "(room set-up included)"
                )
            finally:
                for server, _ in servers:
                    server.terminate()
                for server, _ in servers:
                    server.wait(30)
        results.append((name, moves, moved))

    print("--- side by side")
    if not args.no_echo:
        report("echo (baseline)", latencies, elapsed, "messages")
    for name, moves, moved in results:
        report(name, moves, moved, "moves")
        if latencies and moves:
            print(
                f"ratio: moves/s = {len(moves) / moved / (len(latencies) / elapsed):.2f} x echo messages/s; "
                f"p99 {percentile(moves, 0.99) / percentile(latencies, 0.99):.1f} x echo p99"
            )


@contextlib.contextmanager
def fresh_database(database: str, workdir: Path, number: int) -> Iterator[str]:
    """An empty database for one run: a new SQLite file, or a new PostgreSQL database
    beside the given one (dropped afterwards), so that no run rebuilds another's rooms."""
    if not database.startswith("postgres"):
        yield database if number == 0 else f"sqlite:///{workdir / f'hraj{number}.db'}"
        return
    import sqlalchemy as sa

    url = sa.make_url(database).set(drivername="postgresql+psycopg")
    name = f"{url.database}_load_{os.getpid()}_{number}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


if __name__ == "__main__":
    main()
