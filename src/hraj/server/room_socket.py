"""A room's WebSocket: the hello, then the room's messages out and the client's moves,
chat and seat changes in, each acknowledged once stored (docs/protocol.md).

A socket that sends faster than its rate is closed (`Flooded`), one that reads too
slowly is dropped by its connection's bounded outbox; the guard has admitted it already.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from hraj.server.chat import clean_chat
from hraj.server.connection import Connection
from hraj.server.guard import CLOSE_TOO_MANY
from hraj.server.limits import Rate, Sockets, TokenBucket
from hraj.server.messages import Ack
from hraj.server.metrics import Metrics
from hraj.server.protocol import CLIENT_MESSAGE, Act, Back, Chat, Hello, Leave, Ping, ServerError, error_body
from hraj.server.room import Room
from hraj.server.rooms import Rooms
from hraj.server.settings import Settings

HELLO_TIMEOUT_S = 10.0
#: WebSocket close codes (4000-4999 are the application's own).
CLOSE_NO_ROOM = 4404
CLOSE_UNAUTHORIZED = 4401
CLOSE_NO_HELLO = 4400
CLOSE_TOO_SLOW = 4408


def add_room_socket(app: FastAPI, rooms: Rooms, sockets: Sockets, settings: Settings, metrics: Metrics) -> None:
    """Add the rooms' WebSocket to `app`; a socket closed for flooding puts its address
    in `sockets`' penalty box."""
    messages = Rate(settings.ws_rate * ADDRESS_SOCKETS, settings.ws_burst * ADDRESS_SOCKETS)

    @app.websocket("/ws/rooms/{room_id}")
    async def socket(websocket: WebSocket, room_id: str) -> None:
        # Admitted by the guard (the address's rate, sockets and penalty), which counts it.
        if await _socket(websocket, room_id) == CLOSE_TOO_MANY:
            sockets.penalise(websocket.client.host if websocket.client else "?")

    async def _socket(websocket: WebSocket, room_id: str) -> int | None:
        """Serve one socket; the close code when the server closed it for a reason of its own."""
        await websocket.accept()
        lang = "en"

        async def refuse(error: ServerError, code: int) -> None:
            with contextlib.suppress(Exception):
                await websocket.send_json(error_body(error, lang))
                await websocket.close(code=code)

        try:
            room = await rooms.get(room_id)
        except ServerError as error:
            await refuse(error, CLOSE_NO_ROOM)
            return CLOSE_NO_ROOM
        try:
            first = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT_S)
            hello = CLIENT_MESSAGE.validate_json(first)
        except (TimeoutError, ValidationError, KeyError):
            await refuse(ServerError("hello_required", "Start with a hello message."), CLOSE_NO_HELLO)
            return CLOSE_NO_HELLO
        except WebSocketDisconnect:
            return None
        if not isinstance(hello, Hello):
            await refuse(ServerError("hello_required", "Start with a hello message."), CLOSE_NO_HELLO)
            return CLOSE_NO_HELLO
        lang = hello.lang
        seat = None
        if hello.token is not None:
            seat = room.seat_of(hello.token)
            if seat is None:
                await refuse(ServerError("unauthorized", "This token holds no seat of the room."), CLOSE_UNAUTHORIZED)
                return CLOSE_UNAUTHORIZED
        connection = Connection(seat, lang)
        writer = asyncio.create_task(_write(websocket, connection))
        try:
            await room.call(lambda: room.attach(connection, hello.since))
        except ServerError as error:  # a room as full of spectators as it may be
            writer.cancel()
            await refuse(error, CLOSE_TOO_MANY)
            return None
        try:
            await _read(websocket, room, connection, settings, metrics, messages)
        except WebSocketDisconnect:
            pass
        except Flooded:
            # Closed at once: answering each message over the limit cost the server more
            # than the flooder (the other rooms' moves waited seconds), closing costs once.
            metrics.errors.labels("rate_limited").inc()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            flooded = ServerError("rate_limited", "Too many messages; this connection is closed.")
            await refuse(flooded, CLOSE_TOO_MANY)
            return CLOSE_TOO_MANY
        finally:
            room.detach(connection)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
        return None


async def _write(websocket: WebSocket, connection: Connection) -> None:
    while True:
        text = await connection.outbox.get()
        if text is None:
            if connection.dropped:
                problem = ServerError(
                    "rate_limited", "You fell too far behind; reconnect with the last version you saw."
                )
                with contextlib.suppress(Exception):
                    await websocket.send_json(error_body(problem, connection.lang))
            with contextlib.suppress(Exception):
                await websocket.close(code=CLOSE_TOO_SLOW if connection.dropped else 1001)
            return
        await websocket.send_text(text)


class Flooded(Exception):
    """A socket sent more messages than its rate allows: it is closed (`CLOSE_TOO_MANY`)."""


#: The messages of all sockets of one address, in sockets' worth (and its network's,
#: `NETWORK_FACTOR` times more): thirty sockets of a flooder each sent their own burst
#: when their penalty ended, 1,200 messages at once; now they share one.
ADDRESS_SOCKETS = 5


async def _read(
    websocket: WebSocket, room: Room, connection: Connection, settings: Settings, metrics: Metrics, per_address: Rate
) -> None:
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    sender = websocket.client.host if websocket.client else "?"
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            text = raw.decode("utf-8", errors="replace")
        message_id: str | None = None
        if not bucket.take() or not per_address.take(sender):  # every message counts, oversized ones too
            raise Flooded
        try:
            if len(text.encode()) > settings.max_message_bytes:
                raise ServerError(
                    "too_large", "A message may carry at most {limit} bytes.", limit=settings.max_message_bytes
                )
            try:
                request = CLIENT_MESSAGE.validate_json(text)
            except ValidationError as error:
                raise ServerError.from_validation(error) from None
            message_id = getattr(request, "id", None)
            await _handle(room, connection, request)
        except ServerError as error:
            metrics.errors.labels(error.code).inc()
            connection.push(error_body(error, connection.lang, message_id))


async def _handle(room: Room, connection: Connection, request: Hello | Act | Leave | Back | Ping | Chat) -> None:
    if isinstance(request, Ping):
        connection.push({"type": "pong", "id": request.id, "version": room.version})
        return
    if isinstance(request, Hello):
        raise ServerError("bad_message", "Say hello only once per connection.")
    seat = connection.seat
    if seat is None:
        if isinstance(request, Chat):
            raise ServerError("forbidden", "Only the room's players may write; spectators read.")
        raise ServerError("forbidden", "Spectators cannot act; claim a seat first.")
    if isinstance(request, Chat):
        text = clean_chat(request.text)
        line = await room.call(lambda: room.say(seat, text))
        ack: Ack = {"type": "ack", "id": request.id, "version": room.version, "head": room.head, "chat": line.number}
        connection.push(ack)
    elif isinstance(request, Act):
        began = time.perf_counter()

        async def act() -> None:
            # The ack is queued inside the actor, right behind the new state, so the
            # connection's writer wakes once and sends both.
            version = await room.act(seat, request.action, request.id)
            connection.push({"type": "ack", "id": request.id, "version": version, "head": room.head_of(version)})

        await room.call(act)
        room.committer.timings.append(time.perf_counter() - began)
    elif isinstance(request, Leave):
        await room.call(lambda: room.hand_to_bot(seat, request.bot))
        connection.push({"type": "ack", "id": request.id, "version": room.version, "head": room.head})
    else:
        await room.call(lambda: room.take_back(seat))
        connection.push({"type": "ack", "id": request.id, "version": room.version, "head": room.head})
