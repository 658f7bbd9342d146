"""Floods against one server process, and what they cost another room's players.

Run `python -m benchmarks.server_floods [--phases quiet messages bots spectators lobby all]
[--seconds T] [--spectators N] [--env NAME=VALUE ...]`.

Each phase starts a fresh `hraj serve` (SQLite, loopback, the default limits unless
`--env` changes them) and measures a **probe**: one Qwixx room of two players on their
own address (127.0.0.2) who move every 0.1 s; a move's latency runs from `act` to its
`ack` (committed and broadcast). Meanwhile a separate process floods the server from
many loopback addresses (Linux answers every 127.0.0.0/8 address), at a lower
priority. A real flooder and the players have machines of their own, so with two or
more cores the server runs alone on the first one and the probe and the flood share the
others (`--shared`: everything on every core, as before):

- `messages`: 30 sockets from one address send `ping` as fast as they can and connect
  again whenever they are closed;
- `bots`: 40 addresses (one /24) create rooms of bots only, backgammon to 32,767
  points with two pubeval seats, as fast as they are accepted;
- `spectators`: a backgammon match whose two players move every 0.2 s (never resigning,
  doubling or dropping), watched by N spectator sockets (2,000 by default) from 20
  addresses of 20 different /24 networks (100 each) that connect again and again until
  their socket is open (the probe starts then; the room may still close those over its
  number of spectators);
- `lobby`: 40 addresses (one /24) ask `GET /api/lobby`, 40 requests at a time;
- `all`: every flood at once.

It prints, per phase, the probe's moves, p50, p95 and p99 (and the p99 as a multiple of
the quiet phase's), the server process's CPU time as a share of one core, and what the
flood counted while the probe played: frames received, sockets closed or refused,
answers by status (rooms and spectator sockets: over the whole flood).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from benchmarks.server_load import cpu_seconds, launch, percentile, run

PROBE_ADDRESS = "127.0.0.2"
PROBE_THINK_S = 0.1
PHASES = ("quiet", "messages", "bots", "spectators", "lobby", "all")
WARM_UP_S = 3.0
#: Backgammon's actions that end a game before its end or hasten it: the players never take them.
GIVING_UP = ("resign", "double", "drop")


def http(address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30)


async def socket(ws_url: str, room: str, address: str) -> ClientConnection:
    return await connect(f"{ws_url}/ws/rooms/{room}", local_addr=(address, 0), max_size=1 << 22, open_timeout=30)


class Stop:
    """What the flood hears from the measuring process: measuring now, and done."""

    def __init__(self) -> None:
        self.measuring = False
        self.done = False


async def new_room(url: str, address: str, game: str = "qwixx", **options: object) -> tuple[str, list[str]]:
    """A room of two people, both seats claimed: its id and the two tokens."""
    spec = {"game": game, "options": options, "seats": [{}, {}], "claim": 0}
    async with http(address) as client:
        made = await client.post(f"{url}/api/rooms", json=spec)
        made.raise_for_status()
        body = made.json()
        claimed = await client.post(f"{url}/api/rooms/{body['room']}/claim", json={"invite": body["invite"]})
        claimed.raise_for_status()
        return body["room"], [body["token"], claimed.json()["token"]]


async def player(
    ws_url: str,
    room: str,
    token: str,
    address: str,
    think: float,
    timings: list[float] | None,
    until: float,
    stop: Stop | None = None,
) -> bool:
    """Play one seat with random legal moves, `think` seconds apart, never giving up (a
    random resignation would end the showcase match at once); whether the game ended."""
    rng = random.Random(f"{room}{token}")
    ws = await socket(ws_url, room, address)
    ids = itertools.count(1)
    try:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        state: dict[str, Any] | None = None
        while time.monotonic() < until and not (stop and stop.done):
            view = None if state is None else state["view"]
            if view is None or view.get("answered") or not view.get("legal"):
                message = orjson.loads(await asyncio.wait_for(ws.recv(), 60))
                if message["type"] == "state":
                    state = message
                    if state["status"] == "over":
                        return True
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            action_id = f"{token[:8]}-{next(ids)}"
            sent = time.perf_counter()
            action = rng.choice([a for a in view["legal"] if not a.startswith(GIVING_UP)] or view["legal"])
            await ws.send(orjson.dumps({"type": "act", "action": action, "id": action_id}).decode())
            while True:
                answer = orjson.loads(await asyncio.wait_for(ws.recv(), 60))
                if answer["type"] == "state":
                    state = answer
                if answer.get("id") == action_id:
                    break
            if answer["type"] == "ack" and timings is not None:
                timings.append(time.perf_counter() - sent)
            if state is not None and state["status"] == "over":
                return True
        return False
    finally:
        await ws.close()


async def players(url: str, address: str, think: float, timings: list[float] | None, until: float) -> None:
    """Room after room of two players on `address`, until the time is up."""
    ws_url = url.replace("http://", "ws://", 1)
    while time.monotonic() < until:
        room, tokens = await new_room(url, address)
        await asyncio.gather(*(player(ws_url, room, t, address, think, timings, until) for t in tokens))


# --- the floods (run in a process of their own) ------------------------------------------
#
# Each flood sets `ready` once it is under way (the spectators all connected), then goes on
# until `stop.done`; what it counts while `stop.measuring` is what the probe saw.


async def flood_messages(url: str, stop: Stop, counts: collections.Counter[str], ready: asyncio.Event) -> None:
    address = "127.0.1.1"
    room, _ = await new_room(url, address)
    ws_url = url.replace("http://", "ws://", 1)
    ready.set()

    async def one() -> None:
        while not stop.done:
            try:
                ws = await socket(ws_url, room, address)
            except (InvalidStatus, OSError, TimeoutError):
                counts["sockets refused"] += stop.measuring
                await asyncio.sleep(0.05)
                continue
            counts["sockets opened"] += stop.measuring

            async def read(ws: ClientConnection = ws) -> None:
                with contextlib.suppress(ConnectionClosed):
                    async for _ in ws:
                        counts["frames received"] += stop.measuring

            reader = asyncio.create_task(read())
            try:
                await ws.send('{"type": "hello"}')
                while not stop.done:
                    await ws.send('{"type": "ping"}')
                    counts["messages sent"] += stop.measuring
                    await asyncio.sleep(0)
            except ConnectionClosed as closed:
                counts[f"sockets closed {closed.rcvd.code if closed.rcvd else 'abruptly'}"] += stop.measuring
            finally:
                reader.cancel()
                await ws.close()

    await asyncio.gather(*(one() for _ in range(30)))


async def flood_bots(url: str, stop: Stop, counts: collections.Counter[str], ready: asyncio.Event) -> None:
    spec = {
        "game": "backgammon",
        "options": {"match_length": 32767},
        "seats": [{"kind": "bot", "bot": "pubeval"}, {"kind": "bot", "bot": "pubeval"}],
    }
    ready.set()

    async def one(address: str) -> None:
        async with http(address) as client:
            while not stop.done:
                answer = await client.post(f"{url}/api/rooms", json=spec)
                counts[f"rooms answered {answer.status_code}"] += 1
                if answer.status_code != 201:
                    await asyncio.sleep(0.2)

    await asyncio.gather(*(one(f"127.0.2.{n}") for n in range(1, 41)))


async def flood_spectators(
    url: str, stop: Stop, counts: collections.Counter[str], ready: asyncio.Event, spectators: int
) -> None:
    """A long match (backgammon, 25 points) of two players moving every 0.2 s, watched."""
    room, tokens = await new_room(url, "127.0.3.1", "backgammon", match_length=25)
    ws_url = url.replace("http://", "ws://", 1)
    connected = asyncio.Semaphore(0)

    async def watch(address: str) -> None:
        for _ in range(200):  # connect as the limits let it, as a patient flooder would
            try:
                ws = await socket(ws_url, room, address)
                await ws.send('{"type": "hello"}')
                break
            except (InvalidStatus, OSError, TimeoutError, ConnectionClosed):
                await asyncio.sleep(0.5)
        else:
            counts["spectators never connected"] += 1
            connected.release()
            return
        counts["spectator sockets opened"] += 1
        connected.release()
        try:
            while not stop.done:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 1.0)
                    counts["frames to spectators"] += stop.measuring
        except ConnectionClosed as closed:
            counts[f"spectator sockets closed {closed.rcvd.code if closed.rcvd else 'abruptly'}"] += 1
        finally:
            await ws.close()

    addresses = [f"127.0.{10 + n // 100}.1" for n in range(spectators)]  # 100 sockets on each of 20 /24s
    watchers = [asyncio.create_task(watch(address)) for address in addresses]
    for _ in addresses:
        await connected.acquire()
    ready.set()
    moves: list[float] = []
    showcase = [player(ws_url, room, token, "127.0.3.1", 0.2, moves, float("inf"), stop) for token in tokens]
    await asyncio.gather(*showcase)
    counts["showcase moves"] += len(moves)
    await asyncio.gather(*watchers)


async def flood_lobby(url: str, stop: Stop, counts: collections.Counter[str], ready: asyncio.Event) -> None:
    ready.set()

    async def one(address: str) -> None:
        async with http(address) as client:
            while not stop.done:
                answer = await client.get(f"{url}/api/lobby")
                counts[f"lobby answered {answer.status_code}"] += stop.measuring

    await asyncio.gather(*(one(f"127.0.4.{n}") for n in range(1, 41)))


def flood_main(kinds: list[str], url: str, spectators: int, signals: Any, out: Any) -> None:
    """The flood process: start the floods, say when they are under way, follow the
    measuring process's signals, and send back what was counted."""
    os.nice(10)  # the flooder's own work must not take the server's cores: a real one has its own machines
    measuring, done = signals
    counts: collections.Counter[str] = collections.Counter()
    stop = Stop()

    async def main() -> None:
        readies = [asyncio.Event() for _ in kinds]
        floods: dict[str, Callable[[asyncio.Event], Awaitable[None]]] = {
            "messages": lambda ready: flood_messages(url, stop, counts, ready),
            "bots": lambda ready: flood_bots(url, stop, counts, ready),
            "spectators": lambda ready: flood_spectators(url, stop, counts, ready, spectators),
            "lobby": lambda ready: flood_lobby(url, stop, counts, ready),
        }
        jobs = asyncio.gather(*(floods[kind](ready) for kind, ready in zip(kinds, readies, strict=True)))
        for ready in readies:
            await ready.wait()
        out.put("ready")
        while not measuring.is_set():
            await asyncio.sleep(0.05)
        stop.measuring = True
        while not done.is_set():
            await asyncio.sleep(0.05)
        stop.measuring, stop.done = False, True
        for result in await asyncio.gather(jobs, return_exceptions=True):
            if isinstance(result, BaseException):
                counts[f"flood failed: {type(result).__name__}: {result}"[:120]] += 1

    run(main())
    out.put(dict(counts))


# --- one phase ----------------------------------------------------------------------------


def split_cores(shared: bool) -> tuple[set[int], set[int]]:
    """The cores of the server, and those of the probe and the flood: the first core for
    the server alone and the others for the rest, unless `shared` or one core only."""
    cores = os.sched_getaffinity(0)
    if shared or len(cores) < 2:
        return cores, cores
    first = min(cores)
    return {first}, cores - {first}


def phase(name: str, args: argparse.Namespace, workdir: Path) -> tuple[list[float], dict[str, int], float]:
    """The probe's move times, what the flood counted, and the server's CPU share meanwhile."""
    env = {**os.environ, "HRAJ_SECRET": "benchmark-secret-0123456789", "HRAJ_LANG": "en"}
    env.update(dict(item.split("=", 1) for item in args.env))
    database = workdir / f"{name}.db"
    command = [sys.executable, "-m", "hraj.app", "serve", "--port", "0", "--database", str(database)]
    os.sched_setaffinity(0, args.server_cores)  # the server (and its workers) inherit it
    try:
        server, banner = launch(command, env, "hraj serving on ")
    finally:
        os.sched_setaffinity(0, args.client_cores)
    url = banner.split()[3]
    kinds = [] if name == "quiet" else (["messages", "bots", "spectators", "lobby"] if name == "all" else [name])
    results: multiprocessing.Queue[Any] = multiprocessing.Queue()
    signals = (multiprocessing.Event(), multiprocessing.Event())
    flooder = None
    try:
        if kinds:
            flooder = multiprocessing.Process(target=flood_main, args=(kinds, url, args.spectators, signals, results))
            flooder.start()
            assert results.get(timeout=300) == "ready"
            time.sleep(WARM_UP_S)
        timings: list[float] = []
        signals[0].set()
        cpu, began = cpu_seconds(server.pid), time.monotonic()
        run(players(url, PROBE_ADDRESS, PROBE_THINK_S, timings, time.monotonic() + args.seconds))
        share = (cpu_seconds(server.pid) - cpu) / (time.monotonic() - began)
        signals[1].set()
        counts: dict[str, int] = {}
        if flooder is not None:
            counts = results.get(timeout=120)
            flooder.join(30)
        return timings, counts, share
    finally:
        if flooder is not None and flooder.is_alive():
            flooder.kill()
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES))
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds the probe plays in each phase")
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--env", nargs="*", default=[], help="NAME=VALUE settings of the server")
    parser.add_argument("--shared", action="store_true", help="server, probe and flood on every core")
    args = parser.parse_args()
    if "quiet" not in args.phases:
        args.phases.insert(0, "quiet")
    args.server_cores, args.client_cores = split_cores(args.shared)
    os.sched_setaffinity(0, args.client_cores)  # the flood's process inherits it
    print(
        f"probe: 2 players moving every {PROBE_THINK_S} s; {args.seconds:g} s per phase;"
        f" server on cores {sorted(args.server_cores)}, probe and flood on {sorted(args.client_cores)};"
        f" load {os.getloadavg()[0]:.1f}"
    )
    quiet_p99 = None
    with tempfile.TemporaryDirectory() as folder:
        for name in args.phases:
            timings, counts, share = phase(name, args, Path(folder))
            p50, p95, p99 = (1000 * percentile(timings, q) for q in (0.5, 0.95, 0.99))
            if name == "quiet":
                quiet_p99 = p99
            ratio = f" ({p99 / quiet_p99:.1f}x quiet)" if quiet_p99 and name != "quiet" else ""
            print(
                f"{name:>10}: {len(timings)} moves, p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms{ratio};"
                f" server CPU {100 * share:.0f} %",
                flush=True,
            )
            for key, value in sorted(counts.items()):
                print(f"{'':>12}{key}: {value:,}")


if __name__ == "__main__":
    main()
