"""A deadline takes effect exactly once, even when the process that owns the room is
killed just before it: the other process takes the room over and enforces it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

import hraj
from hraj.server.fairness import replay_with_seed
from hraj.store import Store
from tests.server.live import LiveServer, claim, create_room
from tests.store.databases import database_url

LEASE = "2"
PER_MOVE = 6.0


def summary(url: str, room: str) -> dict[str, Any]:
    answer = httpx.get(f"{url}/api/rooms/{room}", timeout=30)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_killing_the_owner_just_before_a_deadline_lets_the_other_process_enforce_it_once(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    owner, other = (LiveServer(url, env={"HRAJ_LEASE": LEASE}) for _ in range(2))
    owner.start()
    other.start()
    store = Store(url)
    try:
        made = create_room(
            owner.url, "qwixx", [{}, {}], claim=0, clock={"per_move": PER_MOVE, "reserve": 0}, options={"first": 0}
        )
        room = made["room"]
        second = claim(other.url, room, made["invite"])  # through the other process: the owner claims it
        # Both answer the white sum; seat 1 answers at once (through the other process),
        # seat 0 lets its time run out.
        legal = httpx.get(f"{other.url}/api/rooms/{room}/view", headers={"Authorization": f"Bearer {second}"}).json()
        answered = httpx.post(
            f"{other.url}/api/rooms/{room}/actions",
            json={"action": legal["view"]["legal"][0]},
            headers={"Authorization": f"Bearer {second}"},
            timeout=30,
        )
        assert answered.status_code == 200, answered.text
        stored = store.load_room(room)
        assert stored is not None and stored.owner is not None
        (deadline,) = [row for row in stored.deadlines if row.seat == 0]
        before = stored.version
        assert deadline.version <= before
        # Kill the owner a second and a half before seat 0's deadline.
        wait = deadline.due.timestamp() - time.time() - 1.5
        assert wait > 0, "the room took too long to set up"
        time.sleep(wait)
        owner.kill()
        assert store.load_room(room).version == before  # type: ignore[union-attr]
        # The other process takes the room over when the lease runs out and enforces it.
        limit = time.monotonic() + 30
        while time.monotonic() < limit and store.load_room(room).version == before:  # type: ignore[union-attr]
            time.sleep(0.1)
        after = store.load_room(room)
        assert after is not None and after.version > before, "the deadline was never enforced"
        assert after.owner != stored.owner
        moves = [(kind, seat) for kind, seat, _ in after.events[before:] if kind == "move"]
        assert moves[:1] == [("move", 0)], "the stand-in's move for seat 0 comes first"
        assert after.clock is not None
        seats = after.clock["seats"]
        assert isinstance(seats, list) and [seat["timeouts"] for seat in seats] == [1, 0]
        # Enforced once: the log holds that turn's decisions once each and verifies.
        turn = moves[: moves.index(("move", 1))] if ("move", 1) in moves else moves
        assert turn and {seat for _, seat in turn} == {0}
        game = hraj.game("qwixx", players=2, first=0)
        replay_with_seed(game, after.events, after.seed, after.dice)  # raises if anything is doubled or wrong
        assert summary(other.url, room)["seats"][0]["claimed"]
    finally:
        store.close()
        for server in (owner, other):
            if server.process is not None and server.process.poll() is None:
                server.stop()
