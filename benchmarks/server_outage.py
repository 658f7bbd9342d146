"""A database outage under play: is every answer the server gave true?

Run `python -m benchmarks.server_outage [--rooms N] [--outage S] [--before S] [--after S]`.

It starts a throwaway PostgreSQL (scripts/postgres.sh), one `hraj serve` on it, and N
Qwixx rooms of two players who move as fast as the answers come, each move with an id
of its own. After `--before` seconds the database is stopped at once (`pg_ctl -m
immediate`, as a crash would) for `--outage` seconds, then started again, and play goes
on for `--after` seconds. Then every move sent is looked up in the store by its id and
set beside its answer. The server's promise (docs/protocol.md, Sending a move again):
an `ack` means stored, `unavailable` means not stored. It prints how many moves got
each answer and how many answers were untrue (`unavailable` but stored, `ack` but
missing); a move still unanswered when play stops may be either.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import sqlalchemy as sa
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from benchmarks.server_load import launch, run
from hraj.store import Store
from hraj.store.schema import events

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "postgres.sh"


async def seat(ws_url: str, room: str, token: str, until: float, answers: dict[str, str]) -> None:
    """Play one seat flat out; `answers` gets each move's id and what it was answered."""
    rng = random.Random(token)
    ids = (f"{token[:6]}-{n}" for n in itertools.count(1))
    while time.monotonic() < until:
        try:
            async with connect(f"{ws_url}/ws/rooms/{room}", max_size=1 << 22) as ws:
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                state: dict[str, Any] | None = None
                while time.monotonic() < until:
                    view = None if state is None else state["view"]
                    if state is not None and state["status"] == "over":
                        return
                    if view is None or view.get("answered") or not view.get("legal"):
                        message = orjson.loads(await asyncio.wait_for(ws.recv(), 60))
                        state = message if message["type"] == "state" else state
                        continue
                    action_id = next(ids)
                    answers[action_id] = "none"
                    move = {"type": "act", "action": rng.choice(view["legal"]), "id": action_id}
                    await ws.send(orjson.dumps(move).decode())
                    while True:
                        message = orjson.loads(await asyncio.wait_for(ws.recv(), 60))
                        if message["type"] == "state":
                            state = message
                        if message.get("id") == action_id:
                            answers[action_id] = message["type"] if message["type"] == "ack" else message["code"]
                            break
                    if answers[action_id] != "ack":
                        await asyncio.sleep(0.05)
        except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
            await asyncio.sleep(0.2)


async def play(url: str, rooms: int, seconds: float) -> dict[str, str]:
    answers: dict[str, str] = {}
    ws_url = url.replace("http://", "ws://", 1)
    made: list[tuple[str, list[str]]] = []
    async with httpx.AsyncClient(timeout=30) as client:
        for _ in range(rooms):
            spec = {"game": "qwixx", "seats": [{}, {}], "claim": 0}
            body = (await client.post(f"{url}/api/rooms", json=spec)).json()
            other = await client.post(f"{url}/api/rooms/{body['room']}/claim", json={"invite": body["invite"]})
            made.append((body["room"], [body["token"], other.json()["token"]]))
    until = time.monotonic() + seconds
    await asyncio.gather(*(seat(ws_url, room, token, until, answers) for room, tokens in made for token in tokens))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--before", type=float, default=5.0)
    parser.add_argument("--outage", type=float, default=20.0)
    parser.add_argument("--after", type=float, default=10.0)
    args = parser.parse_args()
    started = subprocess.run(["bash", str(SCRIPT), "start"], capture_output=True, text=True, check=True)
    exports = dict(item.split("=", 1) for item in started.stdout.split()[1:])
    env = {**os.environ, **exports, "HRAJ_SECRET": "benchmark-secret-0123456789", "HRAJ_LANG": "en"}
    # One address plays every seat here: the limits per address are the other benchmarks'.
    for name in ("HRAJ_WS_RATE", "HRAJ_ROOM_RATE", "HRAJ_WS_CONNECT_RATE", "HRAJ_HTTP_RATE"):
        env[name] = "100000"
    for name in ("HRAJ_WS_BURST", "HRAJ_ROOM_BURST", "HRAJ_WS_CONNECT_BURST", "HRAJ_HTTP_BURST"):
        env[name] = "100000"
    database = exports["HRAJ_TEST_POSTGRES_URL"]
    command = [sys.executable, "-m", "hraj.app", "serve", "--port", "0", "--database", database]
    server, banner = launch(command, env, "hraj serving on ")
    url = banner.split()[3]

    def outage() -> None:
        time.sleep(args.before)
        subprocess.run(["bash", str(SCRIPT), "pause"], env=env, check=True, capture_output=True)
        time.sleep(args.outage)
        subprocess.run(["bash", str(SCRIPT), "resume"], env=env, check=True, capture_output=True)

    try:
        loop_answers: dict[str, str] = {}

        async def both() -> None:
            nonlocal loop_answers
            task = asyncio.get_running_loop().run_in_executor(None, outage)
            loop_answers = await play(url, args.rooms, args.before + args.outage + args.after)
            await task

        run(both())
        server.terminate()
        server.wait(30)
        store = Store(database)
        with store.engine.connect() as connection:
            stored = collections.Counter(
                row[0]
                for row in connection.execute(sa.select(events.c.action_id).where(events.c.action_id.is_not(None)))
            )
        store.close()
    finally:
        if server.poll() is None:
            server.kill()
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, check=False)
    answered = collections.Counter(loop_answers.values())
    untrue_unavailable = sum(1 for i, a in loop_answers.items() if a == "unavailable" and stored[i])
    untrue_ack = sum(1 for i, a in loop_answers.items() if a == "ack" and not stored[i])
    twice = sum(1 for count in stored.values() if count > 1)
    unanswered_stored = sum(1 for i, a in loop_answers.items() if a == "none" and stored[i])
    print(f"{args.rooms} rooms x 2 players: {args.before:g} s, database stopped {args.outage:g} s, {args.after:g} s")
    counts = ", ".join(f"{kind} {count:,}" for kind, count in sorted(answered.items()))
    print(f"moves sent: {len(loop_answers):,}; answers: {counts}")
    print(f"untrue answers: unavailable but stored {untrue_unavailable}, ack but not stored {untrue_ack}")
    print(f"stored twice: {twice}; unanswered when play stopped: {answered['none']} ({unanswered_stored} stored)")


if __name__ == "__main__":
    main()
