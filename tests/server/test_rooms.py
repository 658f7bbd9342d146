"""The room actor and the group committer: commit before broadcast, all or nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from pathlib import Path

from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.server.committer import Committer
from hraj.server.settings import Settings
from hraj.store import AppendBatch, Store, StoreError
from tests.server.conftest import SECRET
from tests.server.helpers import auth, two_people, view
from tests.server.test_ws import hello, until


class FlakyStore(Store):
    """A store whose appends fail while `failing` is set."""

    failing = False

    def append(self, batches: Iterable[AppendBatch], owner: str | None = None) -> None:
        if self.failing:
            raise StoreError("the disk is full")
        super().append(batches, owner)


def test_a_move_that_cannot_be_stored_is_neither_shown_nor_kept(tmp_path: Path) -> None:
    store = FlakyStore(f"sqlite:///{tmp_path / 'hraj.db'}")
    with TestClient(create_app(Settings(database_url=store.url, secret=SECRET), store)) as client:
        body, *tokens = two_people(client)
        room = body["room"]
        seat = view(client, room)["view"]["to_act"][0]
        before = view(client, room, tokens[seat])
        action = before["view"]["legal"][0]
        with client.websocket_connect(f"/ws/rooms/{room}") as watcher:
            hello(watcher)
            until(watcher, "state")
            store.failing = True
            refused = client.post(f"/api/rooms/{room}/actions", json={"action": action}, headers=auth(tokens[seat]))
            assert refused.status_code == 503 and refused.json()["code"] == "unavailable"
            watcher.send_json({"type": "ping", "id": "p"})
            _, seen = until(watcher, "pong", "p")
            assert "state" not in seen, "nothing uncommitted is broadcast"
            assert view(client, room, tokens[seat]) == before, "the room went back to what is stored"
            store.failing = False
            done = client.post(f"/api/rooms/{room}/actions", json={"action": action}, headers=auth(tokens[seat]))
            assert done.status_code == 200
            state, _ = until(watcher, "state")
            assert state["version"] == done.json()["version"]
        stored = store.load_room(room)
        assert stored is not None and stored.version == done.json()["version"]


class RecordingStore:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def append(self, batches: Sequence[AppendBatch]) -> None:
        self.calls.append([batch.room_id for batch in batches])
        if "bad" in self.calls[-1]:
            raise StoreError("room bad is stale")


def test_rooms_waiting_together_share_one_commit_and_a_bad_one_fails_alone() -> None:
    async def scenario() -> tuple[list[list[str]], list[str]]:
        store = RecordingStore()
        committer = Committer(store)  # type: ignore[arg-type]
        committer.start()
        results = await asyncio.gather(
            *(committer.commit(AppendBatch(room, 0, [("move", 0, "pass")])) for room in ("a", "b", "c")),
        )
        assert results == [None, None, None]
        outcomes = await asyncio.gather(
            *(committer.commit(AppendBatch(room, 1, [("move", 0, "pass")])) for room in ("d", "bad")),
            return_exceptions=True,
        )
        await committer.stop()
        return store.calls, [type(outcome).__name__ for outcome in outcomes]

    calls, outcomes = asyncio.run(scenario())
    assert calls[0] == ["a", "b", "c"], "one transaction for every room that was waiting"
    assert outcomes == ["NoneType", "StoreError"]
    assert calls[1:] == [["d", "bad"], ["d"], ["bad"]], "after a failed group, each room is retried alone"


def test_a_room_stored_with_dice_version_1_goes_on_with_version_1(tmp_path: Path) -> None:
    """Rooms created before dice version 2 are rebuilt and finish with the generator they began with."""
    import hraj
    from hraj.server.fairness import DICE_V1, chance_rng, commitment, verify_record
    from hraj.server.tokens import hash_token
    from hraj.store import NewRoom, NewSeat

    seed = "12" * 32
    store = Store(f"sqlite:///{tmp_path / 'hraj.db'}")
    store.migrate()
    tokens = ["token-of-seat-0-xyz", "token-of-seat-1-xyz"]
    seats = [NewSeat("person", token_hash=hash_token(SECRET, token)) for token in tokens]
    game = hraj.game("qwixx", players=2)
    store.create_room(NewRoom("old", "qwixx", game.options, seed, commitment(seed), "i", "h", seats, dice=DICE_V1))
    state, rng = game.new_state(), chance_rng(seed)
    state.apply_chance(state.sample_chance(rng))
    state.apply_chance(state.sample_chance(rng))
    store.append([AppendBatch("old", 0, state.events())])
    with TestClient(create_app(Settings(database_url=store.url, secret=SECRET), store)) as client:
        assert client.get("/api/rooms/old").json()["dice"] == DICE_V1
        for _ in range(2000):
            seen = view(client, "old")
            if seen["status"] == "over":
                break
            seat = seen["view"]["to_act"][0]
            legal = view(client, "old", tokens[seat])["view"]["legal"]
            answer = client.post("/api/rooms/old/actions", json={"action": legal[0]}, headers=auth(tokens[seat]))
            assert answer.status_code == 200, answer.text
        record = client.get("/api/rooms/old/record").json()
    assert record["room"]["dice"] == DICE_V1
    assert verify_record(record).dice == DICE_V1
    store.close()


def test_a_room_code_never_starts_with_a_dash_so_the_command_line_takes_it_as_a_code() -> None:
    from hraj.server.tokens import ROOM_ID, new_room_id

    codes = [new_room_id() for _ in range(2000)]  # about 60 of 2,000 plain tokens start with - or _
    assert all(code[0].isalnum() and ROOM_ID.fullmatch(code) and len(code) == 12 for code in codes)
