"""Recovery: SIGKILL the server mid-game; every acknowledged move survives and every game ends.

Starts `hraj serve` as a real process (on SQLite, then on PostgreSQL), plays several rooms partway through
real WebSocket clients, kills the process without warning, checks the store holds
every move that was acknowledged, restarts, reconnects every client with the last
version it saw, and plays every room to its end. The final records verify against
their revealed seeds and begin with exactly the events stored before the kill.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
import pytest

from hraj.core.record import MOVE
from hraj.server.fairness import verify_record
from hraj.store import Store
from tests.server.live import Client, LiveServer, claim, create_room, play
from tests.store.databases import BACKENDS, database_url

ROOMS = 6
PLAYERS = (2, 3, 4, 5, 2, 3)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_acknowledged_move_survives_a_kill_and_every_game_ends(backend: str, tmp_path: Path) -> None:
    url = next(database_url(backend, tmp_path))
    server = LiveServer(url)
    base = server.start()
    rooms = []
    for number in range(ROOMS):
        players = PLAYERS[number]
        seats = [{"kind": "person"}] * players
        if number % 2:  # some rooms also have a bot
            seats = [*seats[:-1], {"kind": "bot", "bot": "random"}]
        body = create_room(base, "qwixx", seats)
        tokens = [claim(base, body["room"], body["invite"]) for seat in body["seats"] if seat["kind"] == "person"]
        rooms.append((body["room"], tokens))

    async def first_half() -> list[list[Client]]:
        clients = [[Client(server.ws_url, room, token) for token in tokens] for room, tokens in rooms]
        for client in (c for group in clients for c in group):
            await client.connect()
        await asyncio.gather(
            *(
                play(client, random.Random(f"{r}-{s}"), until_version=40 + 7 * r)
                for r, group in enumerate(clients)
                for s, client in enumerate(group)
            )
        )
        return clients

    clients = asyncio.run(first_half())
    server.kill()

    store = Store(url)
    stored = {room: store.load_room(room) for room, _ in rooms}
    store.close()
    for (room, tokens), group in zip(rooms, clients, strict=True):
        data = stored[room]
        assert data is not None
        acknowledged = max((version for c in group for _, version in c.acked), default=0)
        assert acknowledged > 0, "every room made progress before the kill"
        assert data.version >= acknowledged
        assert data.version == len(data.events)
        for seat, client in enumerate(group):
            moves = [text for kind, s, text in data.events if kind == MOVE and s == seat]
            assert moves == [action for action, _ in client.acked], f"room {room} seat {seat}"
        assert len(tokens) == len(group)

    base = server.start()

    async def second_half() -> None:
        for group in clients:
            for client in group:
                seen = client.version
                welcome = await client.connect(since=seen, ws_url=server.ws_url)
                assert seen is not None and welcome["version"] >= seen
                while client.version != welcome["version"]:  # only what followed is sent
                    await client.changed()
        await asyncio.gather(
            *(
                play(client, random.Random(f"again-{r}-{s}"))
                for r, group in enumerate(clients)
                for s, client in enumerate(group)
            )
        )
        for group in clients:
            for client in group:
                await client.close()

    asyncio.run(second_half())
    for (room, _), group in zip(rooms, clients, strict=True):
        record = httpx.get(f"{base}/api/rooms/{room}/record", timeout=30).json()
        checked = verify_record(record)
        assert checked.over
        before = stored[room]
        assert before is not None
        assert [tuple(event) for event in record["events"][: before.version]] == before.events
        for client in group:
            assert client.state is not None and client.state["status"] == "over"
            assert client.state["seed"] == record["room"]["seed"]
    assert server.stop() == 0
