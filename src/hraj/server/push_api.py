"""The HTTP side of Web Push: the server's public key, and browsers subscribing.

A browser proves each seat it wants to hear of with that seat's token, as for a move,
so nobody can ask to be told of someone else's turns. The subscription's endpoint must
be a push service the server may post to (`hraj.server.push.endpoint_allowed`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import Field

from hraj.server.protocol import Lang, Message, ServerError, Token
from hraj.server.push import Pusher, endpoint_allowed
from hraj.server.rooms import Rooms
from hraj.store.push import forget, subscribe, subscription_id

router = APIRouter()

#: Seats one subscription may name in one request.
SEATS_PER_REQUEST = 50

Key = Annotated[str, Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+=*$")]
Endpoint = Annotated[str, Field(min_length=12, max_length=1024)]


class PushKeys(Message):
    p256dh: Key
    auth: Key


class PushSubscription(Message):
    endpoint: Endpoint
    keys: PushKeys
    expirationTime: float | None = None  # noqa: N815 - the browser's own field name


class HeldSeat(Message):
    room: Annotated[str, Field(min_length=1, max_length=32)]
    token: Token


class Subscribe(Message):
    subscription: PushSubscription
    lang: Lang = "cs"
    seats: Annotated[list[HeldSeat], Field(max_length=SEATS_PER_REQUEST)]


class Unsubscribe(Message):
    endpoint: Endpoint


def _pusher(request: Request) -> Pusher:
    pusher: Pusher = request.app.state.pusher
    return pusher


@router.get("/api/push/key")
async def push_key(request: Request) -> dict[str, str | None]:
    """The VAPID public key for `PushManager.subscribe` (null: this server sends no push)."""
    return {"key": _pusher(request).public_key}


@router.post("/api/push", status_code=201)
async def push_subscribe(body: Subscribe, request: Request) -> dict[str, object]:
    """Hear of the turns of the seats whose tokens the browser holds."""
    pusher = _pusher(request)
    if not pusher.enabled:
        raise ServerError("forbidden", "This server sends no push notifications.")
    if not endpoint_allowed(body.subscription.endpoint, pusher.allow_local):
        raise ServerError("bad_message", "This push service address cannot be used.")
    rooms: Rooms = request.app.state.rooms
    held: list[tuple[str, int]] = []
    for seat in body.seats:
        room = await rooms.get(seat.room)
        number = room.seat_of(seat.token)
        if number is None:
            raise ServerError("forbidden", "This token does not hold a seat of room {room}.", room=room.id)
        held.append((room.id, number))
    keys = body.subscription.keys
    await asyncio.to_thread(
        subscribe, rooms.store.engine, body.subscription.endpoint, keys.p256dh, keys.auth, body.lang, held
    )
    return {"seats": [{"room": room, "seat": seat} for room, seat in held]}


@router.post("/api/push/unsubscribe")
async def push_unsubscribe(body: Unsubscribe, request: Request) -> dict[str, bool]:
    """Hear of nothing any more (whoever knows the endpoint: the browser that has it)."""
    rooms: Rooms = request.app.state.rooms
    await asyncio.to_thread(forget, rooms.store.engine, subscription_id(body.endpoint))
    return {"ok": True}
