"""Two processes on one PostgreSQL database: a client connected to the process that does
not own its room sees the room's clock and the rematch votes as they change, as the
owner's own clients do (the commit's notice carries them)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.server.live import Client, LiveServer, claim, create_room, play
from tests.store.databases import database_url

PER_MOVE = 4.0


async def heard(client: Client, kind: str, check: Callable[[dict[str, Any]], bool], since: int) -> dict[str, Any]:
    """The first message of `kind` after the first `since` that passes `check` (waited for)."""
    while True:
        found = [m for m in client.messages[since:] if m["type"] == kind and check(m)]
        if found:
            return found[0]
        await client.changed(timeout=30)


def running(message: dict[str, Any]) -> list[bool]:
    return [seat["running"] for seat in message["clock"]["seats"]]


def test_a_followers_client_sees_the_clock_start_move_and_run_out(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    owner, other = LiveServer(url), LiveServer(url)
    owner.start()
    other.start()
    clock = {"per_move": PER_MOVE, "reserve": 0}
    made = create_room(owner.url, "qwixx", [{}, {}], claim=0, clock=clock, options={"first": 0})
    room = made["room"]

    async def watch() -> None:
        watcher = Client(other.ws_url, room)  # a spectator on the process that follows the room
        await watcher.connect()
        since = len(watcher.messages)
        second = await asyncio.to_thread(claim, owner.url, room, made["invite"])
        started = await heard(watcher, "clock", lambda m: any(running(m)), since)
        assert running(started) == [True, True]  # the white sum: both decide
        since = len(watcher.messages)
        legal = httpx.get(f"{owner.url}/api/rooms/{room}/view", headers={"Authorization": f"Bearer {second}"})
        answered = httpx.post(
            f"{owner.url}/api/rooms/{room}/actions",
            json={"action": legal.json()["view"]["legal"][0]},
            headers={"Authorization": f"Bearer {second}"},
        )
        assert answered.status_code == 200, answered.text
        moved = await heard(watcher, "clock", lambda m: running(m) == [True, False], since)
        assert moved["clock"]["seats"][0]["timeouts"] == 0
        # Seat 0 lets its time run out: the owner's stand-in plays its turn.
        timeout = await heard(watcher, "timeout", lambda m: True, since)
        assert timeout["seat"] == 0
        counted = await heard(watcher, "clock", lambda m: m["clock"]["seats"][0]["timeouts"] == 1, since)
        assert counted["clock"]["seats"][1]["timeouts"] == 0
        await watcher.close()

    asyncio.run(watch())


def test_a_followers_client_hears_the_rematch_votes(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    owner, other = LiveServer(url), LiveServer(url)
    owner.start()
    other.start()
    made = create_room(owner.url, "qwixx", [{}, {}], claim=0, options={"first": 0})
    room = made["room"]
    tokens = [made["token"], claim(owner.url, room, made["invite"])]

    async def vote() -> None:
        players = [Client(owner.ws_url, room, token) for token in tokens]
        for player in players:
            await player.connect()
        await asyncio.gather(*(play(player, random.Random(n)) for n, player in enumerate(players)))
        watcher = Client(other.ws_url, room, tokens[1])  # seat 1, on the process that follows the room
        await watcher.connect()
        since = len(watcher.messages)
        offered = httpx.post(f"{owner.url}/api/rooms/{room}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert offered.status_code == 202, offered.text
        votes = await heard(watcher, "rematch_votes", lambda m: True, since)
        assert (votes["yes"], votes["declined"]) == ([0], None)
        declined = httpx.post(
            f"{owner.url}/api/rooms/{room}/rematch/decline", headers={"Authorization": f"Bearer {tokens[1]}"}
        )
        assert declined.status_code in (200, 202), declined.text
        votes = await heard(watcher, "rematch_votes", lambda m: m["declined"] is not None, since)
        assert (votes["yes"], votes["declined"]) == ([], 1)
        for client in [*players, watcher]:
            await client.close()

    asyncio.run(vote())
