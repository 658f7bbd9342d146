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

A LISTEN connection can go deaf without an error (a proxy or a half-open socket drops
it silently), and a process that hears nothing serves stale rooms. So each process
notifies itself four times per lease (`{"t": "ping"}` on its own channel); one that has
not heard itself for a whole lease reconnects, catches up from the store, and answers
503 on `/api/health` until it hears itself again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Mapping
from typing import Annotated, Literal, NotRequired, Protocol

import psycopg
import sqlalchemy as sa
from psycopg.rows import TupleRow
from pydantic import Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic validates typing's own only from Python 3.12

from hraj.server.logs import Throttled
from hraj.server.messages import ChatJson, ErrorParam
from hraj.server.protocol import ServerError, error_params
from hraj.store import Store
from hraj.store.leases import Leases
from hraj.store.notices import ROOMS_CHANNEL, EventsNotice

log = logging.getLogger("hraj.server")

#: Notifications sent in one round trip at most.
SEND_BATCH = 256

# --- what the processes tell each other ---------------------------------------------------
#
# Every message is a JSON object. Notices go to every process on `ROOMS_CHANNEL`: `t` says
# which, `r` is the room, `o` its owner. Requests go to one process: an operation (`op`)
# on a room, with `t` "req", the sender (`from`) and, where an answer is wanted, an `id`
# that the answer (`t` "rep") repeats. What arrives is validated into these shapes
# before it is used: a message that does not fit is reported, never half applied.

#: A seat as its owner announces it: kind, bot, name, token hash, played by a stand-in, gender.
SeatRow = tuple[str, str | None, str | None, str | None, bool, str | None]


class SeatsNotice(TypedDict):
    """The owner's seats, and the seats connected to any process."""

    t: Literal["seats"]
    r: str
    o: str
    seats: list[SeatRow]
    connected: list[int]


class OwnerNotice(TypedDict):
    """The room is served by `o` now."""

    t: Literal["owner"]
    r: str
    o: str


class ChatNotice(TypedDict):
    """The owner stored a chat message."""

    t: Literal["chat"]
    r: str
    o: str
    line: ChatJson


class RematchNotice(TypedDict):
    """The finished room `r` led to the rematch `new`."""

    t: Literal["rematch"]
    r: str
    o: str
    new: str


Notice = EventsNotice | SeatsNotice | OwnerNotice | ChatNotice | RematchNotice
NOTICE: TypeAdapter[Notice] = TypeAdapter(Annotated[Notice, Field(discriminator="t")])


class PresenceOp(TypedDict):
    """The seats with a connection to the sender (no answer)."""

    op: Literal["presence"]
    seats: list[int]


class ActOp(TypedDict):
    """A move and its id (the client's, or one the follower gave it): asked again, it is
    answered as the first time."""

    op: Literal["act"]
    seat: int
    action: str
    action_id: str


class ClaimOp(TypedDict):
    op: Literal["claim"]
    seat: int | None
    name: str | None
    gender: str | None


class BotOp(TypedDict):
    op: Literal["bot"]
    seat: int
    bot: str
    by_host: bool


class BackOp(TypedDict):
    op: Literal["back"]
    seat: int


class ChatOp(TypedDict):
    op: Literal["chat"]
    seat: int
    text: str


class RematchOp(TypedDict):
    """A player's consent to the rematch (or refusal); `seat` None: the host offers it."""

    op: Literal["rematch"]
    seat: NotRequired[int | None]
    accept: NotRequired[bool]


#: What a follower asks a room's owner to do.
Op = PresenceOp | ActOp | ClaimOp | BotOp | BackOp | ChatOp | RematchOp
OP: TypeAdapter[Op] = TypeAdapter(Annotated[Op, Field(discriminator="op")])

#: Who asks, about which room, and the id of the answer it waits for (none: no answer).
Request = TypedDict("Request", {"t": Literal["req"], "from": str, "room": str, "id": NotRequired[str]})
REQUEST: TypeAdapter[Request] = TypeAdapter(Request)


class ReplyError(TypedDict):
    """A request refused: a server error's code, template and parameters (`not_owner`:
    the process does not serve the room)."""

    code: str
    key: str
    params: dict[str, ErrorParam]


class Reply(TypedDict, total=False):
    """An owner's answer: the room's version and chain head once the request is done,
    what the operation made (a seat's token, a chat message, a rematch), or the error."""

    version: int
    head: str
    seat: int
    token: str
    chat: ChatJson
    rematch: str | None
    made: bool
    error: ReplyError


REPLY: TypeAdapter[Reply] = TypeAdapter(Reply)


def refusal(error: ServerError) -> Reply:
    """The answer to a request that `error` refused."""
    return {"error": {"code": error.code, "key": error.key, "params": error_params(error)}}


INTERNAL: Reply = {"error": {"code": "internal", "key": "Something went wrong on the server.", "params": {}}}


class Handler(Protocol):
    """What the rooms of this process do with what the cluster hears."""

    def on_notice(self, message: Notice) -> None: ...

    async def on_request(self, request: Request, op: Op) -> Reply | None: ...

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
        self._pending: dict[str, asyncio.Future[Reply]] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._serving: set[asyncio.Task[None]] = set()
        self._listener: psycopg.AsyncConnection[TupleRow] | None = None
        #: The listener heard nothing of this process for a lease: connect it again.
        self._deaf = False
        #: When its listener last connected, and since when a ping of this process has
        #: gone unheard (None: every ping sent was heard), in monotonic seconds.
        self.listened_at = time.monotonic()
        self.unheard_since: float | None = None
        self.failures = Throttled(log, "cluster")

    @property
    def hearing(self) -> bool:
        """No ping of this process has gone unheard for a whole lease: what the others
        notify reaches it (and what it notifies leaves it)."""
        return self.unheard_since is None or time.monotonic() - self.unheard_since <= self.lease_s

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
        self._tasks.append(asyncio.create_task(self._probe(), name="hraj-cluster-probe"))

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

    def publish(self, message: Notice) -> None:
        """Tell every process (seat changes, a new owner); in order, without waiting."""
        self._outbox.put_nowait((ROOMS_CHANNEL, _dumps(message)))

    def tell(self, server_id: str, room_id: str, op: Op) -> None:
        """Send one process a request about a room that needs no answer."""
        request = {**op, "room": room_id, "t": "req", "from": self.id}
        self._outbox.put_nowait((channel_of(server_id), _dumps(request)))

    def ask(self, server_id: str, room_id: str, op: Op) -> asyncio.Future[Reply]:
        """Ask another process (a room's owner) to do something to a room; the future of
        its answer. Cancel it to stop waiting."""
        request_id = str(next(self._ids))
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        future.add_done_callback(lambda _: self._pending.pop(request_id, None))
        request = {**op, "room": room_id, "t": "req", "id": request_id, "from": self.id}
        self._outbox.put_nowait((channel_of(server_id), _dumps(request)))
        return future

    async def _send(self) -> None:
        """Send what is queued, many notifications per round trip, keeping their order."""
        connection: psycopg.AsyncConnection[TupleRow] | None = None
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
        """Listen on a connection of its own, connecting again when it fails or when
        `_probe` finds it deaf.

        Only this task ever closes the listener, and only between two waits: psycopg
        waits for a notification with the socket registered in the event loop, and a
        socket closed by another task meanwhile stays registered under a number the
        next database connection reuses, which uvloop answers by aborting the process
        (a pause longer than the lease, a debugger or a VM migration, did exactly that).
        """
        delay = 0.1
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {ROOMS_CHANNEL}")
                    await connection.execute(f"LISTEN {self.channel}")
                    self._listener = connection
                    self._deaf = False
                    self.listened_at = time.monotonic()
                    if listening.is_set():
                        # Notices may have been missed while the connection was down.
                        self.handler.on_resync()
                    listening.set()
                    delay = 0.1
                    while not self._deaf:
                        async for notice in connection.notifies(timeout=self.lease_s / 4):
                            self._dispatch(notice.channel, notice.payload)
                self._listener = None
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._listener = None
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
        if channel == self.channel and message.get("t") == "ping":
            self.unheard_since = None
        elif channel == ROOMS_CHANNEL:
            try:  # applied at once, so a notice comes before the answer sent after it
                self.handler.on_notice(NOTICE.validate_python(message))
            except Exception as error:
                self.failures.report("a notice could not be applied", error)
        elif message.get("t") == "rep":
            future = self._pending.pop(str(message.get("id")), None)
            if future is not None and not future.done():
                try:
                    future.set_result(REPLY.validate_python(message))
                except ValidationError as error:
                    future.set_exception(error)
        elif message.get("t") == "req":
            task = asyncio.create_task(self._serve(message))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)

    async def _serve(self, message: Mapping[str, object]) -> None:
        reply: Reply | None
        try:
            request, op = REQUEST.validate_python(message), OP.validate_python(message)
        except ValidationError as error:
            reply = refusal(ServerError.from_validation(error))
        else:
            try:
                reply = await self.handler.on_request(request, op)
            except Exception as error:
                self.failures.report("a request of another process failed", error)
                reply = INTERNAL
        sender = message.get("from")
        if reply is not None and "id" in message and isinstance(sender, str):
            self._outbox.put_nowait((channel_of(sender), _dumps({**reply, "t": "rep", "id": message["id"]})))

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

    async def _probe(self) -> None:
        """Four times per lease: notify this process itself, and reconnect a listener that
        has heard nothing of itself for a whole lease (and was given a lease to hear it)."""
        while True:
            asked = time.monotonic()
            await asyncio.sleep(self.lease_s / 4)
            now = time.monotonic()
            if self.unheard_since is None or now - asked > self.lease_s:
                # A ping unheard since before a stall of the whole process (a pause, a
                # debugger) says nothing of the listener: time it from now.
                self.unheard_since = now
            self._outbox.put_nowait((self.channel, _dumps({"t": "ping"})))
            settled = time.monotonic() - self.listened_at > self.lease_s
            if not self.hearing and settled and self._listener is not None and not self._deaf:
                self.failures.report("not hearing its own notifications", ConnectionError("listening anew"))
                self._deaf = True  # the listening task closes it after its current wait

    async def _beat(self) -> None:
        """Four times per lease: which processes live, and adopt the rooms of dead ones."""
        while True:
            await asyncio.sleep(self.lease_s / 4)
            try:
                self.live = await asyncio.to_thread(self.leases.live)
                await self.handler.on_beat(self.live)
            except Exception as error:
                self.failures.report("cannot look for rooms without a live owner", error)


def _dumps(message: Mapping[str, object]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, default=str)
