"""Real servers (a `hraj serve` process, or uvicorn in a thread) and asyncio WebSocket
clients that play through them."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import queue
import random
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from hraj.app.site import create_app
from hraj.server.settings import Settings

SECRET = "test-secret-0123456789"


class ThreadServer:
    """The app on uvicorn in a thread of this process, on a free loopback port, with
    room seeds drawn from `seed` so that every deal of a test replays."""

    def __init__(self, database_url: str, seed: str) -> None:
        deals = random.Random(seed)
        settings = Settings(
            database_url=database_url,
            secret=SECRET,
            ws_rate=100_000.0,
            ws_burst=100_000,
            http_rate=100_000.0,
            http_burst=100_000,
            room_rate=100_000.0,
            room_burst=100_000,
            ws_connect_rate=100_000.0,
            ws_connect_burst=100_000,
            ws_per_address=100_000,
        )
        app = create_app(settings, seeds=lambda: f"{deals.getrandbits(256):064x}")
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True)

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)


class LiveServer:
    """`python -m hraj.app serve` on a free loopback port, with its output collected.

    Every server still running when its test ends is killed (`kill_leftovers`, run after
    each test by an autouse fixture), so a test that fails before `stop` leaves no
    process behind to hold a port or a database."""

    running: ClassVar[set[LiveServer]] = set()

    def __init__(self, database_url: str, env: dict[str, str] | None = None, module: str = "hraj.app") -> None:
        self.database_url = database_url
        self.module = module
        # Clients here play as fast as the answers come: the limits have tests of their own.
        limits = {
            "HRAJ_WS_RATE": "100000",
            "HRAJ_WS_BURST": "100000",
            "HRAJ_HTTP_RATE": "100000",
            "HRAJ_ROOM_RATE": "100000",
            "HRAJ_ROOM_BURST": "100000",
            "HRAJ_WS_CONNECT_RATE": "100000",
            "HRAJ_WS_CONNECT_BURST": "100000",
        }
        self.env = {**os.environ, "HRAJ_SECRET": SECRET, "HRAJ_LANG": "en", **limits, **(env or {})}
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self, timeout: float = 30.0) -> str:
        command = [sys.executable, "-m", self.module, "serve", "--port", "0", "--database", self.database_url]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.env
        )
        LiveServer.running.add(self)
        lines: queue.Queue[str | None] = queue.Queue()

        def pump(stream: Any) -> None:
            for line in stream:
                self.output.append(line)
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, args=(self.process.stdout,), daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError("the server did not start:\n" + "".join(self.output)) from None
            if line is None:
                raise AssertionError("the server stopped at start:\n" + "".join(self.output))
            if line.startswith("hraj serving on "):
                self.url = line.split()[3]
                return self.url

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout)

    def kill(self) -> None:
        self.stop(signal.SIGKILL)

    @classmethod
    def kill_leftovers(cls) -> list[LiveServer]:
        """Kill every server that is still running; the ones that were."""
        left = [server for server in cls.running if server.process is not None and server.process.poll() is None]
        for server in left:
            server.kill()
        cls.running.clear()
        return left

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1)


def create_room(url: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = httpx.post(f"{url}/api/rooms", json={"game": game, "seats": seats, **extra}, timeout=30)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def claim(url: str, room: str, invite: str, seat: int | None = None) -> str:
    response = httpx.post(f"{url}/api/rooms/{room}/claim", json={"invite": invite, "seat": seat}, timeout=30)
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


_RUN = secrets.token_hex(4)
#: Message ids: a move's is its own for good (the server answers a repeated one as the
#: first time), so they never repeat, not even across test runs on one database.
_ids = (f"{_RUN}-{number}" for number in itertools.count(1))


@dataclass
class Client:
    """One WebSocket connection to a room, keeping every message it receives."""

    ws_url: str
    room: str
    token: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    state: dict[str, Any] | None = None
    acked: list[tuple[str, int]] = field(default_factory=list)
    socket: ClientConnection | None = None
    _reader: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _waiting: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    @property
    def version(self) -> int | None:
        return None if self.state is None else int(self.state["version"])

    async def connect(self, since: int | None = None, ws_url: str | None = None) -> dict[str, Any]:
        if ws_url is not None:
            self.ws_url = ws_url
        self._changed = asyncio.Event()  # a reconnection may run in a new event loop
        self.socket = await connect(f"{self.ws_url}/ws/rooms/{self.room}", max_size=1 << 22)
        await self.socket.send(json.dumps({"type": "hello", "token": self.token, "since": since}))
        welcome = json.loads(await self.socket.recv())
        self.raw.append(json.dumps(welcome))
        self.messages.append(welcome)
        assert welcome["type"] == "welcome", welcome
        self._reader = asyncio.create_task(self._read())
        return dict(welcome)

    async def _read(self) -> None:
        assert self.socket is not None
        try:
            async for text in self.socket:
                assert isinstance(text, str)
                message = json.loads(text)
                self.raw.append(text)
                self.messages.append(message)
                if message["type"] == "state":
                    self.state = message
                waiter = self._waiting.pop(str(message.get("id")), None) if message.get("id") else None
                if waiter is not None and message["type"] in ("ack", "error", "pong"):
                    waiter.set_result(message)
                self._changed.set()
        except Exception:  # the server went away: the test decides what that means
            pass
        finally:
            self._changed.set()
            for waiter in self._waiting.values():
                if not waiter.done():
                    waiter.set_exception(ConnectionError("socket closed"))

    async def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message with a fresh id and wait for the answer that carries it."""
        assert self.socket is not None
        message_id = next(_ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[message_id] = future
        await self.socket.send(json.dumps({**message, "id": message_id}))
        return await asyncio.wait_for(future, 30)

    async def act(self, action: str) -> dict[str, Any]:
        answer = await self.send({"type": "act", "action": action})
        if answer["type"] == "ack":
            self.acked.append((action, int(answer["version"])))
        return answer

    async def changed(self, timeout: float = 30) -> None:
        self._changed.clear()
        await asyncio.wait_for(self._changed.wait(), timeout)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await self._reader

    def my_turn(self) -> list[str]:
        """The legal actions of the latest view, if this seat must still answer."""
        if self.state is None or self.state["status"] == "over":
            return []
        view = self.state["view"]
        if view.get("answered"):
            return []
        return list(view.get("legal", []))


async def play(client: Client, rng: random.Random, until_version: int | None = None) -> None:
    """Answer with random legal actions until the game ends (or passes a version)."""
    while True:
        if client.state is not None and client.state["status"] == "over":
            return
        if until_version is not None and client.version is not None and client.version >= until_version:
            return
        legal = client.my_turn()
        if legal:
            seen = client.version
            answer = await client.act(rng.choice(legal))
            if answer["type"] == "error":
                assert answer["code"] == "illegal_action", answer
                if client.version == seen:  # a newer state is on its way
                    await client.changed()
            continue
        await client.changed()
