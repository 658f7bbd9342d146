"""Several `hraj serve` processes on one PostgreSQL database.

Two real server processes share the rooms: each room is owned by one of them, the
players of every room are spread over both, and what one process commits reaches the
clients of the other. Then one process is killed (SIGKILL) while the games go on: its
clients reconnect to the survivor, which takes its rooms over once their lease runs
out, and every game is played to its end. The records must be complete, verify (seed,
every decision, hash chain), and hold every acknowledged move exactly once, each
acknowledgement's chain head matching the stored log at its version.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from hraj.core.record import MOVE
from hraj.server.cluster import INTERNAL, NOTICE, Cluster, Notice, Op, Reply, Request, SeatsNotice, channel_of
from hraj.server.fairness import chain_head, verify_record
from hraj.store import AppendBatch, Store
from hraj.store.db import change_notice
from hraj.store.notices import NOTIFY_LIMIT, events_notice
from tests.server.live import Client, LiveServer, ThreadServer, claim, create_room, play
from tests.store.databases import database_url

#: Seconds a process's rooms stay its own without a renewal (short, so the test is quick).
LEASE = "2"
PLAYERS = (2, 3, 3, 2)


class Player(Client):
    """A client that also keeps every action it sent and each acknowledgement's chain head."""

    def __init__(self, ws_url: str, room: str, token: str, progress: asyncio.Event) -> None:
        super().__init__(ws_url, room, token)
        self.sent: list[str] = []
        self.heads: list[tuple[int, str]] = []
        self.progress = progress

    async def act(self, action: str) -> dict[str, Any]:
        self.sent.append(action)
        answer = await super().act(action)
        if answer["type"] == "ack":
            self.heads.append((int(answer["version"]), str(answer["head"])))
            self.progress.set()
        return answer


async def play_on(client: Player, rng: random.Random, until: int | None, survivor: LiveServer) -> None:
    """Play (to a version, or to the end); if the socket's process dies, go on through `survivor`."""
    while True:
        assert client._reader is not None
        playing = asyncio.ensure_future(play(client, rng, until_version=until))
        reader = client._reader
        done, _ = await asyncio.wait({playing, reader}, return_when=asyncio.FIRST_COMPLETED)
        if playing in done and (playing.exception() is None or reader not in done):
            playing.result()
            return
        while not playing.done():
            # Python 3.11's wait_for may swallow a cancellation that meets its result
            # (the closing socket wakes `changed` too), so cancel until it is done.
            playing.cancel()
            await asyncio.wait({playing}, timeout=1)
        # The process of this socket died: the survivor has the room (at once, or when
        # the lease of the dead owner has run out).
        welcome = await client.connect(since=client.version, ws_url=survivor.ws_url)
        while client.state is None or client.version is None or client.version < welcome["version"]:
            await client.changed()


async def until(client: Client, check: Any) -> dict[str, Any]:
    """The first message (already received or coming) that passes `check`."""
    seen = 0
    while True:
        for message in client.messages[seen:]:
            if check(message):
                return message
        seen = len(client.messages)
        await client.changed()


def test_moves_claims_and_seats_made_on_one_process_reach_the_clients_of_the_other(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    with ThreadServer(url, "cluster-a") as a, ThreadServer(url, "cluster-b") as b:
        body = create_room(a.url, "qwixx", [{"kind": "person"}] * 2, claim=0)
        room = body["room"]
        # Seat 1 is claimed through the process that does not own the room.
        token = claim(b.url, room, body["invite"])

        async def play_across() -> None:
            here, there = Client(a.ws_url, room, body["token"]), Client(b.ws_url, room, token)
            await here.connect()
            await there.connect()
            # Each sees the other connected, whichever process it is on.
            for client in (here, there):
                await until(client, lambda m: m["type"] == "seats" and all(s["connected"] for s in m["seats"]))
            summary = httpx.get(f"{b.url}/api/rooms/{room}", timeout=30).json()
            assert [(s["claimed"], s["connected"]) for s in summary["seats"]] == [(True, True)] * 2
            # A move through the follower: acknowledged after its state, seen on the owner.
            await until(there, lambda m: m["type"] == "state")
            legal = there.my_turn()
            assert legal
            answer = await there.act(legal[0])
            assert answer["type"] == "ack" and there.version == answer["version"]
            seen = await until(here, lambda m: m["type"] == "state" and m["version"] >= answer["version"])
            assert seen["head"] == answer["head"] == there.state["head"]  # type: ignore[index]
            # An illegal move through the follower gets the owner's answer, unchanged.
            refused = await there.act("r99")
            assert refused["type"] == "error" and refused["code"] in ("invalid_action", "illegal_action")
            # Leaving the seat to a bot through the follower: the owner's bot plays it.
            left = await there.send({"type": "leave", "bot": "random"})
            assert left["type"] == "ack"
            await until(here, lambda m: m["type"] == "seats" and m["seats"][1]["bot"] == "random")
            await there.close()
            await until(here, lambda m: m["type"] == "seats" and not m["seats"][1]["connected"])
            versions = here.version or 0
            rng = random.Random("cluster")
            while (here.version or 0) < versions + 6 and here.state and here.state["status"] != "over":
                if here.my_turn():
                    await here.act(rng.choice(here.my_turn()))
                else:
                    await here.changed()
            await here.close()

        asyncio.run(play_across())


@pytest.mark.slow
def test_two_processes_share_the_rooms_and_one_takes_over_when_the_other_is_killed(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    servers = [LiveServer(url, env={"HRAJ_LEASE": LEASE, "HRAJ_BOT_PACE": "0.02"}) for _ in range(2)]
    try:
        play_and_kill(url, servers)
    finally:
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                server.kill()


def play_and_kill(url: str, servers: list[LiveServer]) -> None:
    bases = [server.start(timeout=120) for server in servers]  # a loaded machine starts slowly
    doomed, survivor = servers
    rooms: list[tuple[str, list[tuple[int, str, int]]]] = []
    for number, players in enumerate(PLAYERS):
        seats: list[dict[str, Any]] = [{"kind": "person"}] * players
        if number % 3 == 2:  # some rooms also have a bot, moved by the owner only
            seats = [*seats[:-1], {"kind": "bot", "bot": "random"}]
        body = create_room(bases[number % 2], "qwixx", seats)
        people = [seat["seat"] for seat in body["seats"] if seat["kind"] == "person"]
        # Each seat is claimed on one process and plays on the other.
        rooms.append(
            (
                body["room"],
                [
                    (
                        seat,
                        claim(bases[(number + seat) % 2], body["room"], body["invite"], seat),
                        (number + seat + 1) % 2,
                    )
                    for seat in people
                ],
            )
        )

    async def games() -> list[list[Player]]:
        progress = asyncio.Event()
        clients = [
            [Player(servers[home].ws_url, room, token, progress) for _, token, home in seats] for room, seats in rooms
        ]
        for client in (c for group in clients for c in group):
            await client.connect()
        # Part of every game with both processes up: moves cross from one to the other.
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_on(client, random.Random(f"{r}-{s}"), 20, survivor)
                    for r, group in enumerate(clients)
                    for s, client in enumerate(group)
                )
            ),
            120,
        )
        # The rest, with one process killed while the moves fly.
        rest = asyncio.gather(
            *(
                play_on(client, random.Random(f"rest-{r}-{s}"), None, survivor)
                for r, group in enumerate(clients)
                for s, client in enumerate(group)
            )
        )
        acked = sum(len(c.acked) for group in clients for c in group)
        while sum(len(c.acked) for group in clients for c in group) < acked + 10 and not rest.done():
            progress.clear()
            await asyncio.wait_for(progress.wait(), 60)
        await asyncio.get_running_loop().run_in_executor(None, doomed.kill)
        await asyncio.wait_for(rest, 180)
        for client in (c for group in clients for c in group):
            await client.close()
        return clients

    clients = asyncio.run(games())

    store = Store(url)
    try:
        for (room, placed), group in zip(rooms, clients, strict=True):
            data = store.load_room(room)
            assert data is not None and data.status == "over", room
            record = httpx.get(f"{survivor.url}/api/rooms/{room}/record", timeout=30).json()
            verified = verify_record(record)
            assert verified.over and verified.events == data.version == len(data.events)
            assert [tuple(event) for event in record["events"]] == data.events
            for (seat, _, _), client in zip(placed, group, strict=True):
                moves = [text for kind, who, text in data.events if kind == MOVE and who == seat]
                acked = [action for action, _ in client.acked]
                # Every acknowledged move is stored once, in order; a move in flight when
                # its process died may be stored without an acknowledgement, once.
                assert moves[: len(acked)] == acked or _one_more(moves, acked, client.sent), (room, seat)
                assert len(moves) <= len(acked) + 1, (room, seat)
                for version, head in client.heads:
                    assert chain_head(data.commitment, data.events[:version]) == head, (room, seat, version)
                assert client.state is not None and client.state["status"] == "over"
    finally:
        store.close()
    assert survivor.stop() == 0


def _one_more(moves: list[str], acked: list[str], sent: list[str]) -> bool:
    """`moves` is `acked` with one unacknowledged sent move inserted somewhere."""
    return len(moves) == len(acked) + 1 and any(
        moves[:i] + moves[i + 1 :] == acked and moves[i] in sent for i in range(len(moves))
    )


def test_chat_and_the_rematch_reach_the_players_of_either_process(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    with ThreadServer(url, "chat-a") as a, ThreadServer(url, "chat-b") as b:
        body = create_room(a.url, "backgammon", [{"kind": "person"}] * 2, claim=0)
        room = body["room"]
        token = claim(b.url, room, body["invite"])

        async def talk_and_finish() -> str:
            here, there = Client(a.ws_url, room, body["token"]), Client(b.ws_url, room, token)
            await here.connect()
            await there.connect()
            # A message written through the follower is numbered by the owner and reaches both.
            answer = await there.send({"type": "chat", "text": "Ahoj z druhého serveru"})
            assert answer["type"] == "ack" and answer["chat"] == 1
            for client in (here, there):
                heard = await until(client, lambda m: m["type"] == "chat" and m["number"] == 1)
                assert heard["text"] == "Ahoj z druhého serveru" and heard["seat"] == 1
            reply = await here.send({"type": "chat", "text": "Ahoj"})
            assert reply["chat"] == 2
            await until(there, lambda m: m["type"] == "chat" and m["number"] == 2)
            listed = httpx.get(f"{b.url}/api/rooms/{room}/chat", timeout=30).json()["messages"]
            assert [line["number"] for line in listed] == [1, 2]
            # The game ends by a resignation; the rematch asked through the follower is the owner's.
            await until(here, lambda m: m["type"] == "state" and m["version"] >= 1)
            deadline = time.monotonic() + 60
            while here.state and here.state["status"] != "over":
                assert time.monotonic() < deadline, "the game did not end"
                for client in (here, there):
                    legal = client.my_turn()
                    choice = next((a for a in legal if a.startswith("resign") or a == "accept"), None)
                    if choice is not None:
                        await client.act(choice)
                        break
                    if legal:
                        await client.act(legal[0])
                        break
                else:
                    await asyncio.sleep(0.05)  # the other process's notice is on its way
            offered = httpx.post(
                f"{a.url}/api/rooms/{room}/rematch", headers={"authorization": f"Bearer {body['token']}"}
            )
            assert offered.status_code == 202, offered.text
            made = httpx.post(f"{b.url}/api/rooms/{room}/rematch", headers={"authorization": f"Bearer {token}"})
            assert made.status_code == 201, made.text
            new = made.json()["room"]
            told = await until(here, lambda m: m["type"] == "rematch")
            assert told["rematch"] == new
            again = httpx.post(
                f"{a.url}/api/rooms/{room}/rematch", headers={"authorization": f"Bearer {body['token']}"}
            )
            assert again.status_code == 200 and again.json()["room"] == new
            await here.close()
            await there.close()
            return str(new)

        new = asyncio.run(talk_and_finish())
        store = Store(url)
        try:
            stored = store.load_room(room)
            assert stored is not None and stored.rematch == new
        finally:
            store.close()


# --- what the processes tell each other: validated into their shapes, or refused ----------


class Recorder:
    """A cluster's handler that keeps what it is asked and answers as told."""

    def __init__(self, answer: Reply | Exception) -> None:
        self.answer = answer
        self.asked: list[tuple[Request, Op]] = []

    def on_notice(self, message: Notice) -> None:
        raise AssertionError("no notice is sent here")

    async def on_request(self, request: Request, op: Op) -> Reply | None:
        self.asked.append((request, op))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    async def on_beat(self, live: set[str]) -> None:
        return None

    def on_resync(self) -> None:
        return None


def serve_one(tmp_path: Path, handler: Recorder, message: Mapping[str, object]) -> list[tuple[str, object]]:
    """The replies the cluster queues for one request (it connects to no database)."""
    store = Store(f"sqlite:///{tmp_path / 'hraj.db'}")
    cluster = Cluster(store, 5.0, handler)
    asyncio.run(cluster._serve(message))
    store.close()
    sent: list[tuple[str, object]] = []
    while not cluster._outbox.empty():
        channel, payload = cluster._outbox.get_nowait()
        sent.append((channel, json.loads(payload)))
    return sent


ACT = {"op": "act", "seat": 1, "action": "r5", "action_id": "m7", "room": "R1", "t": "req", "id": "7", "from": "b"}


def test_a_request_reaches_the_handler_in_its_shapes_and_its_answer_goes_back(tmp_path: Path) -> None:
    handler = Recorder({"version": 4, "head": "ab"})
    sent = serve_one(tmp_path, handler, ACT)
    assert handler.asked == [
        (
            {"t": "req", "from": "b", "room": "R1", "id": "7"},
            {"op": "act", "seat": 1, "action": "r5", "action_id": "m7"},
        )
    ]
    assert sent == [(channel_of("b"), {"version": 4, "head": "ab", "t": "rep", "id": "7"})]


def test_a_request_of_no_known_operation_is_refused_as_a_bad_message(tmp_path: Path) -> None:
    handler = Recorder({})
    sent = serve_one(tmp_path, handler, {**ACT, "op": "fly"})
    assert handler.asked == []
    [(channel, reply)] = sent
    assert channel == channel_of("b")
    assert isinstance(reply, dict) and reply["id"] == "7" and reply["error"]["code"] == "bad_message"


def test_a_request_whose_fields_do_not_fit_its_operation_is_refused(tmp_path: Path) -> None:
    handler = Recorder({})
    [(_, reply)] = serve_one(tmp_path, handler, {**ACT, "seat": "one"})
    assert handler.asked == []
    assert isinstance(reply, dict) and reply["error"]["code"] == "bad_message"


def test_a_request_that_fails_is_answered_as_internal(tmp_path: Path) -> None:
    sent = serve_one(tmp_path, Recorder(RuntimeError("a bug")), ACT)
    assert sent == [(channel_of("b"), {**INTERNAL, "t": "rep", "id": "7"})]


def test_a_request_without_an_id_is_done_and_not_answered(tmp_path: Path) -> None:
    handler = Recorder({})
    presence = {"op": "presence", "seats": [0, 2], "room": "R1", "t": "req", "from": "b"}
    assert serve_one(tmp_path, handler, presence) == []
    assert handler.asked == [({"t": "req", "from": "b", "room": "R1"}, {"op": "presence", "seats": [0, 2]})]


def test_notices_read_back_as_they_were_published() -> None:
    batch = AppendBatch("R1", 3, [("move", 0, "r5"), ("chance", None, "w3 w4 r1 y2 g6 b5")])
    events = NOTICE.validate_python(json.loads(change_notice(batch, "a")))
    assert events == {"t": "events", "r": "R1", "after": 3, "events": list(batch.events), "o": "a"}
    clock = {"control": {"kind": "live"}, "game": 1, "seats": [{"reserve": 60.0, "started": None}]}
    votes = {"yes": [0], "declined": None}
    changed = NOTICE.validate_python(json.loads(events_notice("R1", 5, [], "a", clock=clock, votes=votes)))
    assert changed == {"t": "events", "r": "R1", "after": 5, "events": [], "o": "a", "clock": clock, "votes": votes}
    too_long = json.loads(events_notice("R1", 5, [], "a", clock={"seats": ["x" * NOTIFY_LIMIT]}))
    assert too_long == {"t": "events", "r": "R1", "after": 5, "events": None, "o": "a"}
    seats: SeatsNotice = {
        "t": "seats",
        "r": "R1",
        "o": "a",
        "seats": [("person", None, "Eva", "5f3a", False, "f"), ("bot", "greedy", None, None, False, None)],
        "connected": [0],
    }
    assert NOTICE.validate_python(json.loads(json.dumps(seats))) == seats


@pytest.mark.parametrize(
    "message",
    [
        {"t": "seats", "r": "R1", "o": "a"},
        {"t": "events", "r": "R1", "after": "three", "events": None, "o": "a"},
        {"t": "events", "r": "R1", "after": 3, "events": [["move", 0]], "o": "a"},
        {"t": "gone", "r": "R1", "o": "a"},
    ],
)
def test_a_malformed_notice_is_refused_before_it_is_applied(message: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        NOTICE.validate_python(message)


# --- a listener that goes deaf without an error --------------------------------------------


class Resyncs(Recorder):
    """A handler that counts the catch-ups after the listener connects anew."""

    def __init__(self) -> None:
        super().__init__({})
        self.resyncs = 0

    def on_resync(self) -> None:
        self.resyncs += 1


async def _until(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def test_a_process_that_stops_hearing_itself_says_so_and_listens_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Notifications lost without an error (a proxy drops the LISTEN connection silently):
    within a lease the process knows it is out of touch, connects its listener again and
    catches up from the store; once it hears itself again it is well."""
    store = Store(next(database_url("postgres", tmp_path)))
    store.migrate()
    handler = Resyncs()
    cluster = Cluster(store, 0.4, handler)
    heard = cluster._dispatch

    async def scenario() -> None:
        await cluster.start()
        cluster.beat()
        try:
            # Past two leases only its own pings keep it hearing (a busy machine may delay one).
            await asyncio.sleep(1.0)
            assert await _until(lambda: cluster.hearing, 3), "its own pings do not reach it"
            first_listener = cluster._listener
            monkeypatch.setattr(cluster, "_dispatch", lambda channel, payload: None)
            assert await _until(lambda: not cluster.hearing, 3), "a deaf listener went unnoticed"
            assert await _until(lambda: handler.resyncs >= 1, 3), "the listener was not connected anew"
            assert cluster._listener is not first_listener
            monkeypatch.setattr(cluster, "_dispatch", heard)
            assert await _until(lambda: cluster.hearing, 3), "it does not hear itself again"
        finally:
            await cluster.stop()

    asyncio.run(scenario())
    store.close()
