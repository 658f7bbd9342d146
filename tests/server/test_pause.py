"""A `hraj serve` process on PostgreSQL that stops for longer than its lease.

A pause of the whole process (SIGSTOP here; in life a long collection, a debugger, a
virtual machine moved to another host) lets its lease run out: another process takes
its rooms over. When it runs again it must live on, follow the rooms it lost and
serve their clients, never write them, and never crash.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path

import httpx

from hraj.server.fairness import verify_record
from tests.server.live import Client, LiveServer, claim, create_room, play
from tests.store.databases import database_url

#: The shortest lease a process may have (seconds), and a pause three times as long.
LEASE = 1.0
PAUSE_S = 3 * LEASE


async def _either_changed(*clients: Client) -> None:
    waits = [asyncio.ensure_future(client.changed()) for client in clients]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


def _healthy(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=5).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return False


def test_a_process_paused_longer_than_its_lease_lives_on_and_follows_the_room_it_lost(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    env = {"HRAJ_LEASE": str(LEASE)}
    paused, other = LiveServer(url, env=env), LiveServer(url, env=env)
    paused.start(timeout=120)
    other.start(timeout=120)
    body = create_room(paused.url, "qwixx", [{"kind": "person"}] * 2, claim=0)
    room = body["room"]
    token = claim(other.url, room, body["invite"])
    assert paused.process is not None

    async def scenario() -> int:
        here, there = Client(paused.ws_url, room, body["token"]), Client(other.ws_url, room, token)
        await here.connect()
        await there.connect()
        await asyncio.gather(play(here, random.Random("here"), 8), play(there, random.Random("there"), 8))
        while not there.my_turn():  # the next move is the other process's client's
            if here.my_turn():
                await here.act(here.my_turn()[0])
            else:
                await _either_changed(here, there)
        paused.process.send_signal(signal.SIGSTOP)  # type: ignore[union-attr]
        try:
            await asyncio.sleep(PAUSE_S)
            # The owner is silent and its lease ran out: the other process takes the
            # room over and stores the move.
            answer = await there.act(there.my_turn()[0])
            assert answer["type"] == "ack", answer
        finally:
            paused.process.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
        moved = int(answer["version"])
        await asyncio.sleep(3 * LEASE)
        assert paused.process.poll() is None, "".join(paused.output)  # type: ignore[union-attr]
        # The paused process follows the room now: its client sees the move and plays on
        # through it to the end of the game.
        while here.version is None or here.version < moved:
            await here.changed()
        await asyncio.gather(play(here, random.Random("here-on")), play(there, random.Random("there-on")))
        await here.close()
        await there.close()
        return moved

    asyncio.run(scenario())
    assert paused.process.poll() is None, "".join(paused.output)
    assert _healthy(paused.url, 10 * LEASE), "".join(paused.output)
    record = httpx.get(f"{paused.url}/api/rooms/{room}/record", timeout=30).json()
    assert verify_record(record).over
    assert paused.stop() == 0, "".join(paused.output)
    assert other.stop() == 0, "".join(other.output)
