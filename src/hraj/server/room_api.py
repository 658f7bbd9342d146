"""The rooms' HTTP routes: create a room, read it, claim a seat, act, chat, offer or
decline a rematch, hand a seat to a bot and take it back, and the lobby.

Each answers the room's state as its actor holds it between jobs. The WebSocket of a
room is `hraj.server.room_socket`; the people's routes (accounts, profiles) are
`hraj.server.people_api`.
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from hraj.core.record import Record
from hraj.server import room_view
from hraj.server.chat import clean_chat
from hraj.server.guard import PathRate
from hraj.server.limits import Rate, Shared
from hraj.server.messages import (
    ChatLines,
    ChatPosted,
    Claimed,
    Committed,
    CreatedRoom,
    Lobby,
    LobbyRoom,
    RematchRoom,
    RoomSeats,
    SeatToken,
    StateMessage,
    Summary,
)
from hraj.server.people_api import claimer, creator
from hraj.server.protocol import Claim, CreateRoom, HandToBot, PostAction, PostChat, ServerError
from hraj.server.room import Room
from hraj.server.rooms import Rooms
from hraj.store import OpenRoom
from hraj.store.people import People

T = TypeVar("T")


def _address(request: Request) -> str:
    """The client's address (a trusted proxy's X-Forwarded-For is applied by uvicorn)."""
    return request.client.host if request.client else "?"


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def too_many_rooms() -> ServerError:
    return ServerError("rate_limited", "Too many new rooms from your address; wait a minute.")


def new_rooms(room_buckets: Rate) -> dict[tuple[str, str], PathRate]:
    """The guard's rate of room creation: `POST /api/rooms` is refused before its body is
    read; a rematch takes from the same buckets."""
    return {("POST", "/api/rooms"): PathRate(room_buckets, too_many_rooms())}


def add_room_api(
    app: FastAPI, rooms: Rooms, people: People, open_rooms: Shared[list[OpenRoom]], room_buckets: Rate
) -> None:
    """Add the rooms' routes to `app`; `open_rooms` is the lobby's shared read (forgotten
    when a public room changes), `room_buckets` the rate of new rooms per address."""

    @app.post("/api/rooms", status_code=201, response_model=None)
    async def create_room(spec: CreateRoom, request: Request) -> CreatedRoom:
        # The rate of new rooms is checked by the guard (`new_rooms`), before the body is read.
        person, spec = await creator(request, spec)
        created = await rooms.create(spec, None if person is None else person.id)
        room = created.room
        if room.public:
            open_rooms.forget()
        base = str(request.base_url).rstrip("/")
        summary = await room.call(lambda: _async(room_view.summary(room)))
        claimed: SeatToken = {}
        if created.claimed is not None:
            claimed["seat"], claimed["token"] = created.claimed
        return {
            **summary,
            "invite": created.invite,
            "invite_url": f"{base}/r/{room.id}?invite={created.invite}",
            "host_token": created.host_token,
            "socket": f"/ws/rooms/{room.id}",
            **claimed,
        }

    @app.get("/api/rooms/{room_id}", response_model=None)
    async def room_summary(room_id: str, invite: str | None = None) -> Summary:
        """The room's public facts; with `?invite=`, also whether that is the room's
        invite, so that a page tells a guest of a broken link before any seat is asked for."""
        room = await rooms.get(room_id)
        summary = await room.call(lambda: _async(room_view.summary(room)))
        if invite is not None:
            summary = {**summary, "invited": room.is_invite(invite)}
        return summary

    @app.post("/api/rooms/{room_id}/claim", response_model=None)
    async def claim(room_id: str, body: Claim, request: Request) -> Claimed:
        room = await rooms.get(room_id)
        if body.invite is None:
            if not room.public:
                raise ServerError("forbidden", "This room is private: a seat needs its invite link.")
        elif not room.is_invite(body.invite):
            raise ServerError("forbidden", "This invite is not valid for the room.")
        person, name = await claimer(request, room, body.name)
        seat, token = await room.call(lambda: room.claim(body.seat, name, body.gender))
        if person is not None:
            await asyncio.to_thread(people.link_seat, room.id, seat, person.id)
        if room.public:
            open_rooms.forget()
        return {"room": room.id, "seat": seat, "token": token}

    @app.post("/api/rooms/{room_id}/rematch")
    async def rematch(room_id: str, request: Request) -> Response:
        """Offer or accept a new game of the same seats and options once this one is over:
        made (once) when every person at the table has accepted; until then `202` with
        who accepted."""
        return await rematch_vote(room_id, request, accept=True)

    @app.post("/api/rooms/{room_id}/rematch/decline")
    async def rematch_decline(room_id: str, request: Request) -> Response:
        """Decline the rematch offered: it does not start."""
        return await rematch_vote(room_id, request, accept=False)

    async def rematch_vote(room_id: str, request: Request, *, accept: bool) -> Response:
        room = await rooms.get(room_id)
        token = _bearer(request)
        if token is None:
            raise ServerError("unauthorized", "Send the seat token as `Authorization: Bearer TOKEN`.")
        seat = room.seat_of(token)
        if seat is None and not room.is_host(token):
            raise ServerError("forbidden", "Only the room's players may start a rematch.")
        if room.rematch is None and not room_buckets.take(_address(request)):
            raise too_many_rooms()
        new, made = await room.call(lambda: rooms.consent(room, seat, accept))
        if new is None:
            votes = await room.call(lambda: _async(room.votes.to_json()))
            return JSONResponse({"room": room.id, "rematch": None, **votes}, status_code=202 if accept else 200)
        if new.public:
            open_rooms.forget()
        _, passed = room.rematch_options()
        summary = await new.call(lambda: _async(room_view.summary(new)))
        body: RematchRoom = {**summary, "first_passed": passed}
        return JSONResponse(body, status_code=201 if made else 200)

    @app.get("/api/rooms/{room_id}/chat", response_model=None)
    async def chat_lines(room_id: str) -> ChatLines:
        room = await rooms.get(room_id)
        return {"room": room.id, "chat": room.has_chat, "messages": await room.call(lambda: _async(room.chat_lines()))}

    @app.post("/api/rooms/{room_id}/chat", response_model=None)
    async def chat(room_id: str, body: PostChat, request: Request) -> ChatPosted:
        room = await rooms.get(room_id)
        token = _bearer(request)
        seat = None if token is None else room.seat_of(token)
        if seat is None:
            raise ServerError("forbidden", "Only the room's players may write; spectators read.")
        text = clean_chat(body.text)
        line = await room.call(lambda: room.say(seat, text))
        return {"room": room.id, "number": line.number}

    #: The lobby's answer, encoded once per read of the open rooms (a flood asks for the
    #: same answer hundreds of times a second), with the read it was made of.
    encoded: list[tuple[list[OpenRoom], bytes]] = []

    @app.get("/api/lobby", response_model=None)
    async def lobby() -> Response:
        """The newest public rooms in play with a free person seat (no secrets, no tokens),
        as read at most a second ago."""
        read = await open_rooms.get()
        if not encoded or encoded[0][0] is not read:
            answer: Lobby = {"rooms": [lobby_entry(room) for room in read]}
            encoded[:] = [(read, orjson.dumps(answer))]
        body = encoded[0][1]
        return Response(body, media_type="application/json")

    async def seat_authority(request: Request, room: Room, seat: int, host_may: bool) -> bool:
        """Whether the token holds the seat (True) or is the host's (False); else an error."""
        token = _bearer(request)
        if token is None:
            raise ServerError("unauthorized", "Send the seat token as `Authorization: Bearer TOKEN`.")
        if room.seat_of(token) == seat:
            return True
        if host_may and room.is_host(token):
            return False
        raise ServerError("forbidden", "This token does not hold seat {seat}.", seat=seat)

    @app.post("/api/rooms/{room_id}/seats/{seat}/bot", response_model=None)
    async def hand_to_bot(room_id: str, seat: int, body: HandToBot, request: Request) -> RoomSeats:
        room = await rooms.get(room_id)
        own = await seat_authority(request, room, seat, host_may=True)
        await room.call(lambda: room.hand_to_bot(seat, body.bot, by_host=not own))
        return {"room": room.id, "seats": await room.call(lambda: _async(room.public_seats()))}

    @app.post("/api/rooms/{room_id}/seats/{seat}/back", response_model=None)
    async def take_back(room_id: str, seat: int, request: Request) -> RoomSeats:
        room = await rooms.get(room_id)
        await seat_authority(request, room, seat, host_may=False)
        await room.call(lambda: room.take_back(seat))
        return {"room": room.id, "seats": room.public_seats()}

    @app.post("/api/rooms/{room_id}/actions", response_model=None)
    async def post_action(room_id: str, body: PostAction, request: Request) -> Committed:
        room = await rooms.get(room_id)
        token = _bearer(request)
        seat = None if token is None else room.seat_of(token)
        if seat is None:
            raise ServerError("unauthorized", "Send the seat token as `Authorization: Bearer TOKEN`.")
        version, head = await room.call(lambda: _acted(room, seat, body.action, body.id))
        return {"room": room.id, "version": version, "head": head}

    @app.get("/api/rooms/{room_id}/view", response_model=None)
    async def view(room_id: str, request: Request) -> StateMessage:
        room = await rooms.get(room_id)
        token = _bearer(request)
        seat = None if token is None else room.seat_of(token)
        if token is not None and seat is None:
            raise ServerError("unauthorized", "This token holds no seat of the room.")
        return await room.call(lambda: _async(room_view.view_message(room, seat)))

    # No response model: pydantic builds none from typing's TypedDict before Python 3.12,
    # and the record goes out exactly as the rules wrote it.
    @app.get("/api/rooms/{room_id}/record", response_model=None)
    async def record(room_id: str) -> Record:
        room = await rooms.get(room_id)
        return await room.call(lambda: _async(room_view.record(room)))


def lobby_entry(room: OpenRoom) -> LobbyRoom:
    """What the lobby shows of a room: game, options, seats (names, bots, free), created."""
    return {
        "room": room.id,
        "game": room.game,
        "options": room.options,
        "created_at": room.created_at.isoformat(),
        "host_away_since": None if room.host_away_since is None else room.host_away_since.isoformat(),
        "seats": [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot, "claimed": s.token_hash is not None}
            for s in room.seats
        ],
    }


async def _acted(room: Room, seat: int, action: str, action_id: str | None) -> tuple[int, str]:
    """A move inside the actor; its answer once it is stored: the version and chain head."""
    version = await room.act(seat, action, action_id)
    return version, room.head_of(version)


async def _async(value: T) -> T:
    """A value as a coroutine, for reads that must run inside a room's actor: between
    its jobs the room's state is exactly what is committed."""
    return value
