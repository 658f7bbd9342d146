"""A running room's moves while sign-ins flood the server: `python -m benchmarks.sign_in_flood`.

Starts `hraj serve` on a temporary SQLite file, makes an account and a two-person room,
and plays the room's moves one after the other over HTTP, timing each. First for
`--seconds` without sign-ins, then as long again while `--rate` sign-ins a second (right
passwords, so every one needs a hash) arrive from other tasks. Prints, side by side, the
moves made and their p50 and p99 in each phase, and how the sign-ins were answered:
signed in (200) or refused at once because the hashing processes were busy (503). The
sign-ins come from a process of their own, so the timed client loses nothing to them.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path

import httpx

PASSWORD = "a password for the flood"


def start_server(database: Path) -> tuple[subprocess.Popen[str], str]:
    env = {
        **os.environ,
        "HRAJ_SECRET": "benchmark-secret-0123456789",
        "HRAJ_HTTP_RATE": "100000",
        "HRAJ_HTTP_BURST": "100000",
        "HRAJ_ROOM_RATE": "100000",
        "HRAJ_ROOM_BURST": "100000",
    }
    command = [sys.executable, "-m", "hraj.app", "serve", "--port", "0", "--database", str(database)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("hraj serving on "):
            return process, line.split()[3]
    raise SystemExit("the server did not start")


async def mover(http: httpx.AsyncClient, room: str, tokens: list[str], until: float, timings: list[float]) -> None:
    """Random legal moves of the room's two seats, each timed from request to answer."""
    rng = random.Random(1)
    while time.monotonic() < until:
        for token in tokens:
            auth = {"Authorization": f"Bearer {token}"}
            view = (await http.get(f"/api/rooms/{room}/view", headers=auth)).json()
            if view["status"] == "over":
                return
            legal = view["view"]["legal"]
            if legal:
                began = time.perf_counter()
                await http.post(f"/api/rooms/{room}/actions", json={"action": rng.choice(legal)}, headers=auth)
                timings.append(time.perf_counter() - began)


async def flood(base: str, rate: float, seconds: float) -> Counter[int]:
    """`rate` sign-ins a second with the right password, none carrying a cookie (each is
    a browser of its own)."""
    answers: Counter[int] = Counter()
    no_cookies = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
    async with httpx.AsyncClient(base_url=base, timeout=60, cookies=no_cookies) as http:

        async def one() -> None:
            try:
                answer = await http.post("/api/session", json={"name": "Flood", "password": PASSWORD})
                answers[answer.status_code] += 1
            except httpx.TransportError:
                answers[0] += 1

        tasks = []
        began = time.monotonic()
        for count in range(int(rate * seconds)):
            await asyncio.sleep(max(0.0, began + count / rate - time.monotonic()))
            tasks.append(asyncio.create_task(one()))
        await asyncio.gather(*tasks)
    return answers


def flood_process(base: str, rate: float, seconds: float, out: multiprocessing.Queue[Counter[int]]) -> None:
    """The flood from a process of its own, so that it takes nothing from the timed moves' client."""
    out.put(asyncio.run(flood(base, rate, seconds)))


async def new_room(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    made = (await http.post("/api/rooms", json={"game": "qwixx", "seats": [{}, {}], "claim": 0})).json()
    other = (await http.post(f"/api/rooms/{made['room']}/claim", json={"invite": made["invite"]})).json()
    return made["room"], [made["token"], other["token"]]


async def moves(base: str, seconds: float) -> list[float]:
    """Moves for `seconds`, a new room whenever one ends; the time of each."""
    timings: list[float] = []
    until = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < until:
            room, tokens = await new_room(http)
            await mover(http, room, tokens, until, timings)
    return timings


def phase(base: str, seconds: float, rate: float) -> tuple[list[float], Counter[int]]:
    """The timed moves, with `rate` sign-ins a second meanwhile from another process."""
    if rate <= 0:
        return asyncio.run(moves(base, seconds)), Counter()
    context = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue[Counter[int]] = context.Queue()
    flooding = context.Process(target=flood_process, args=(base, rate, seconds, out))
    flooding.start()
    timings = asyncio.run(moves(base, seconds))
    answers = out.get()
    flooding.join()
    return timings, answers


def summary(name: str, timings: list[float], answers: Counter[int]) -> str:
    if not timings:
        return f"{name:>12}: no moves"
    ordered = sorted(timings)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    signed = ", ".join(f"{status}: {count}" for status, count in sorted(answers.items())) or "none"
    return (
        f"{name:>12}: {len(timings):5d} moves, p50 {1000 * statistics.median(ordered):6.1f} ms, "
        f"p99 {1000 * p99:6.1f} ms; sign-ins answered {signed}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=50.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, base = start_server(Path(folder) / "hraj.db")
        try:
            with httpx.Client(base_url=base, timeout=30) as http:
                assert http.post("/api/accounts", json={"name": "Flood", "password": PASSWORD}).status_code == 201
            quiet = phase(base, args.seconds, 0)
            flooded = phase(base, args.seconds, args.rate)
        finally:
            process.terminate()
            process.wait(20)
    print(f"hraj serve, one room's moves over HTTP, {args.seconds:.0f} s each, CPUs: {os.cpu_count()}")
    print(summary("quiet", *quiet))
    print(summary(f"{args.rate:.0f} sign-ins/s", *flooded))


if __name__ == "__main__":
    main()
