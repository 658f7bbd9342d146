"""Several `hraj serve` processes on one PostgreSQL database: this process among the others.

Each room is owned by one process at a time (`hraj.store.leases`); only the owner
applies its moves, runs its bots and watches its absent players. A process that has
clients of a room it does not own keeps a *follower* copy of the room: it shows its
clients what the owner commits and sends their requests (moves, claims, seat changes,
who is connected) to the owner. All of it travels through PostgreSQL:

- every commit notifies the channel `hraj_rooms` in its own transaction (the room, the
  version it starts from, its events), so followers catch up as soon as it is stored;
  the owner announces seat changes and a change of owner on the same channel;
- each process listens on a channel of its own, `hraj_s_<id>`, for requests addressed
  to it and for the answers to its own requests.

Notifications keep their order from one sender, and a commit's notice is sent before
the owner answers the request that caused it, so a follower's client sees the new
state before its acknowledgement. The processes need to reach only the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from typing import Any, Protocol

import psycopg
import sqlalchemy as sa

from hraj.server.logs import Throttled
from hraj.store import Store
from hraj.store.db import ROOMS_CHANNEL
from hraj.store.leases import Leases

log = logging.getLogger("hraj.server")

#: Notifications sent in one round trip at most.
SEND_BATCH = 256


class Handler(Protocol):
    """What the rooms of this process do with what the cluster hears."""

    def on_notice(self, message: dict[str, Any]) -> None: ...

    async def on_request(self, message: dict[str, Any]) -> dict[str, Any] | None: ...

    async def on_beat(self, live: set[str]) -> None: ...

    def on_resync(self) -> None: ...


def channel_of(server_id: str) -> str:
    return f"hraj_s_{server_id}"


def conninfo(store: Store) -> str:
    """The libpq URL of the store's PostgreSQL database (psycopg's own connections)."""
    url = store.engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class Cluster:
    """This process's lease, its LISTEN connection, and its messages to the other processes."""

    def __init__(self, store: Store, lease_s: float, handler: Handler) -> None:
        self.id = secrets.token_hex(8)
        self.channel = channel_of(self.id)
        self.lease_s = lease_s
        self.leases = Leases(store, self.id, lease_s)
        self.handler = handler
        self.url = conninfo(store)
        self.live: set[str] = {self.id}
        self._ids = itertools.count(1)
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._serving: set[asyncio.Task[None]] = set()
        self.failures = Throttled(log, "cluster")

    # --- life -----------------------------------------------------------------------

    async def start(self) -> None:
        """Take a lease and listen; the rooms start after this (they may be adopted)."""
        await asyncio.to_thread(self.leases.renew)
        listening = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._listen(listening), name="hraj-cluster-listen"),
            asyncio.create_task(self._send(), name="hraj-cluster-send"),
        ]
        await asyncio.wait_for(listening.wait(), 30)

    def beat(self) -> None:
        """Start renewing the lease and adopting orphaned rooms (once the rooms are up)."""
        self._tasks.append(asyncio.create_task(self._renew(), name="hraj-cluster-lease"))
        self._tasks.append(asyncio.create_task(self._beat(), name="hraj-cluster-beat"))

    async def stop(self) -> None:
        """Stop listening and give every room and the lease up, so others take over at once."""
        for task in [*self._tasks, *self._serving]:
            task.cancel()
        for task in [*self._tasks, *self._serving]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        try:
            await asyncio.to_thread(self.leases.release)
        except (sa.exc.SQLAlchemyError, OSError) as error:
            log.warning("could not give the rooms up (others take them when the lease ends): %s", error)

    # --- sending ----------------------------------------------------------------------

    def publish(self, message: dict[str, Any]) -> None:
        """Tell every process (seat changes, a new owner); in order, without waiting."""
        self._outbox.put_nowait((ROOMS_CHANNEL, _dumps(message)))

    def tell(self, server_id: str, message: dict[str, Any]) -> None:
        """Send one process a message that needs no answer."""
        self._outbox.put_nowait((channel_of(server_id), _dumps({**message, "t": "req", "from": self.id})))

    def ask(self, server_id: str, message: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        """Ask another process (a room's owner) to do something; the future of its answer.
        Cancel it to stop waiting."""
        request_id = str(next(self._ids))
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        future.add_done_callback(lambda _: self._pending.pop(request_id, None))
        self._outbox.put_nowait(
            (channel_of(server_id), _dumps({**message, "t": "req", "id": request_id, "from": self.id}))
        )
        return future

    async def _send(self) -> None:
        """Send what is queued, many notifications per round trip, keeping their order."""
        connection: psycopg.AsyncConnection[Any] | None = None
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < SEND_BATCH:
                batch.append(self._outbox.get_nowait())
            for attempt in range(2):
                try:
                    if connection is None or connection.closed:
                        connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                    async with connection.cursor() as cursor:
                        await cursor.executemany("SELECT pg_notify(%s, %s)", batch)
                    break
                except psycopg.Error as error:
                    with contextlib.suppress(Exception):
                        if connection is not None:
                            await connection.close()
                    connection = None
                    if attempt:
                        # Lost: a request is answered by its timeout, a follower catches up
                        # from the store at the next notice or when the listener returns.
                        self.failures.report("cannot notify the other processes", error)
                        await asyncio.sleep(0.5)

    # --- listening --------------------------------------------------------------------

    async def _listen(self, listening: asyncio.Event) -> None:
        delay = 0.1
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {ROOMS_CHANNEL}")
                    await connection.execute(f"LISTEN {self.channel}")
                    if listening.is_set():
                        # Notices may have been missed while the connection was down.
                        self.handler.on_resync()
                    listening.set()
                    delay = 0.1
                    async for notice in connection.notifies():
                        self._dispatch(notice.channel, notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.failures.report("not listening to the other processes", error)
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)

    def _dispatch(self, channel: str, payload: str) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        if channel == ROOMS_CHANNEL:
            try:  # applied at once, so a notice comes before the answer sent after it
                self.handler.on_notice(message)
            except Exception as error:
                self.failures.report("a notice could not be applied", error)
        elif message.get("t") == "rep":
            future = self._pending.pop(str(message.get("id")), None)
            if future is not None and not future.done():
                future.set_result(message)
        elif message.get("t") == "req":
            task = asyncio.create_task(self._serve(message))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)

    async def _serve(self, message: dict[str, Any]) -> None:
        try:
            reply = await self.handler.on_request(message)
        except Exception as error:
            self.failures.report("a request of another process failed", error)
            reply = {"error": {"code": "internal", "key": "Something went wrong on the server.", "params": {}}}
        if reply is not None and "id" in message and isinstance(message.get("from"), str):
            self._outbox.put_nowait((channel_of(message["from"]), _dumps({**reply, "t": "rep", "id": message["id"]})))

    # --- the lease --------------------------------------------------------------------

    async def _renew(self) -> None:
        """Renew the lease four times per lease, on its own: adopting many rooms at
        once (on_beat) must never delay it, or this process would lose its own rooms."""
        while True:
            await asyncio.sleep(self.lease_s / 4)
            try:
                await asyncio.to_thread(self.leases.renew)
            except Exception as error:
                self.failures.report("cannot renew the lease", error)

    async def _beat(self) -> None:
        """Four times per lease: which processes live, and adopt the rooms of dead ones."""
        while True:
            await asyncio.sleep(self.lease_s / 4)
            try:
                self.live = await asyncio.to_thread(self.leases.live)
                await self.handler.on_beat(self.live)
            except Exception as error:
                self.failures.report("cannot look for rooms without a live owner", error)


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, default=str)
