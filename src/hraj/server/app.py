"""The ASGI application: HTTP for rooms and records, one WebSocket per connection.

Every error a client can cause is answered as a structured message (a code, the
English reason, its i18n key and parameters), over HTTP with a fitting status and
over a socket as an `error` message that leaves the socket open.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

import hraj
from hraj.core import game_class
from hraj.core.bot import bot_names
from hraj.core.record import Record
from hraj.players.accounts import Accounts
from hraj.players.identity import Person
from hraj.players.passwords import Hashing
from hraj.server.chat import clean_chat
from hraj.server.connection import Connection
from hraj.server.fairness import new_seed
from hraj.server.guard import CLOSE_TOO_MANY, Guard
from hraj.server.limits import Rate, Shared, Sockets, TokenBucket
from hraj.server.logs import Throttled
from hraj.server.messages import (
    Ack,
    ChatLines,
    ChatPosted,
    Claimed,
    Committed,
    CreatedRoom,
    GameInfo,
    Games,
    Health,
    Lobby,
    LobbyRoom,
    RematchRoom,
    RoomSeats,
    SeatToken,
    StateMessage,
    Stats,
    Summary,
)
from hraj.server.metrics import Metrics
from hraj.server.people_api import acting_person, add_people_api
from hraj.server.protocol import (
    CLIENT_MESSAGE,
    PROTOCOL_VERSION,
    Act,
    Back,
    Chat,
    Claim,
    CreateRoom,
    HandToBot,
    Hello,
    Leave,
    Ping,
    PostAction,
    PostChat,
    ServerError,
    error_body,
)
from hraj.server.push import Pusher
from hraj.server.push_api import router as push_router
from hraj.server.room import Room
from hraj.server.seeks_api import router as seeks_router
from hraj.server.settings import Settings
from hraj.server.shared_rooms import rooms_for
from hraj.store import OpenRoom, Store, StoreError
from hraj.store.people import People

log = logging.getLogger("hraj.server")
T = TypeVar("T")

HELLO_TIMEOUT_S = 10.0
#: Rooms the lobby lists at most (the newest).
LOBBY_SIZE = 50
#: A public room drops from the lobby once its host has been away this long.
LOBBY_HOST_GONE = dt.timedelta(minutes=10)
#: WebSocket close codes (4000-4999 are the application's own).
CLOSE_NO_ROOM = 4404
CLOSE_UNAUTHORIZED = 4401
CLOSE_NO_HELLO = 4400
CLOSE_TOO_SLOW = 4408
#: Seconds the health check waits for the store.
HEALTH_TIMEOUT_S = 2.0
store_failures = Throttled(log, "store unavailable")


def _address(request: Request) -> str:
    """The client's address (a trusted proxy's X-Forwarded-For is applied by uvicorn)."""
    return request.client.host if request.client else "?"


#: The cookie in which the pages remember the chosen language (hraj.web.render.LANG_COOKIE).
LANG_COOKIE = "hraj_lang"
#: Paths whose errors are JSON for programs; every other path is a page, and its errors are
#: pages in the page's language.
API_PREFIXES = ("/api/", "/ws/", "/metrics")


def _lang(request: Request) -> str:
    """The language of an API answer: `?lang=`, the pages' language cookie, then Accept-Language."""
    wanted = (
        request.query_params.get("lang")
        or request.cookies.get(LANG_COOKIE)
        or request.headers.get("accept-language", "")
    )
    code = wanted[:2].lower()
    return code if code in ("cs", "sk") else "en"


def _is_page(request: Request) -> bool:
    """Whether the request is for a page (an error answers it as a page), not the API."""
    return not request.url.path.startswith(API_PREFIXES)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


#: How an error at a page's address is answered: (request, error, HTTP status or None).
PageError = Callable[[Request, ServerError, int | None], Response]


def create_api(
    settings: Settings,
    store: Store | None = None,
    seeds: Callable[[], str] = new_seed,
    page_error: PageError | None = None,
) -> FastAPI:
    """The API's application; it opens (and migrates) the store on start unless one is given.

    `seeds` makes each room's secret seed; only tests replace it, to replay a deal.
    `page_error` answers an error at a page's address (the web's error page); without it
    every error is the API's JSON. The pages themselves are added above the server, by
    `hraj.app.site.create_app`, which is what `hraj serve` runs.
    """
    the_store = store if store is not None else Store(settings.database_url, synchronous=settings.sqlite_synchronous)
    rooms = rooms_for(the_store, settings.secret, seeds, settings)
    http_buckets = Rate(settings.http_rate, settings.http_burst)
    room_buckets = Rate(settings.room_rate / 60, settings.room_burst)
    socket_buckets = Rate(settings.ws_connect_rate, settings.ws_connect_burst)
    sign_up_buckets = Rate(settings.sign_up_rate / 3600, settings.sign_up_burst)
    sockets = Sockets(settings.ws_per_address)
    metrics = Metrics(rooms, sockets.open)
    people = People(the_store)
    accounts = Accounts(people, settings.secret, Hashing(settings.hash_workers, settings.hash_waiting))

    async def read_open_rooms() -> list[OpenRoom]:
        return await asyncio.to_thread(the_store.open_rooms, LOBBY_SIZE, LOBBY_HOST_GONE)

    #: The lobby's rooms, read once a second however many ask (the API and the page).
    open_rooms = Shared(read_open_rooms)
    readiness = {"ready": False}

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(the_store.migrate)
        await rooms.start()
        readiness["ready"] = True
        try:
            yield
        finally:
            readiness["ready"] = False
            await rooms.stop()
            accounts.hashing.close()
            if store is None:
                the_store.close()

    app = FastAPI(
        title="hraj",
        version=hraj.__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if settings.operator_endpoints else None,
    )
    app.state.rooms = rooms
    app.state.settings = settings
    app.state.metrics = metrics
    app.state.people = people
    app.state.open_rooms = open_rooms
    app.state.pusher = pusher = Pusher(
        the_store, settings.vapid_key, settings.push_contact, allow_local=settings.push_local
    )
    if pusher.enabled:
        rooms.on_turn = pusher.your_turn
    app.include_router(push_router)
    app.include_router(seeks_router)

    # --- errors: always a structured body, never a bare 500 ---------------------------------

    def error_response(error: ServerError, lang: str = "en") -> JSONResponse:
        metrics.errors.labels(error.code).inc()
        headers = {"Retry-After": str(error.retry_after)} if error.retry_after is not None else None
        return JSONResponse(error_body(error, lang), status_code=error.status, headers=headers)

    def answer(request: Request, error: ServerError, status: int | None = None) -> Response:
        """The error as a page in the page's language for a page's address (a mistyped
        link), with the HTTP `status` where it is not the error code's own; else as JSON
        for the API."""
        if page_error is None or not _is_page(request):
            return error_response(error, _lang(request))
        metrics.errors.labels(error.code).inc()
        return page_error(request, error, status)

    @app.exception_handler(ServerError)
    async def on_server_error(request: Request, error: ServerError) -> Response:
        return answer(request, error)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, error: RequestValidationError) -> Response:
        return answer(request, ServerError.from_problems(error.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404:
            problem = ServerError("not_found", "There is nothing at {path}.", path=request.url.path)
        elif error.status_code == 405:
            problem = ServerError(
                "bad_message", "{method} is not allowed at {path}.", method=request.method, path=request.url.path
            )
        else:
            problem = ServerError("bad_message", "The request was not understood.")
        return answer(request, problem, error.status_code)

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(StoreError)
    async def on_store(request: Request, error: Exception) -> Response:
        store_failures.report(request.url.path, error)
        return answer(request, ServerError("unavailable", "The store is unavailable; please try again."))

    @app.exception_handler(Exception)
    async def on_bug(request: Request, error: Exception) -> Response:
        log.exception("unexpected error at %s", request.url.path)
        return answer(request, ServerError("internal", "Something went wrong on the server."))

    def refuse(request: Request, error: ServerError, as_json: bool) -> Response:
        return error_response(error, _lang(request)) if as_json else answer(request, error)

    app.add_middleware(
        Guard,
        max_bytes=settings.max_message_bytes,
        rate=http_buckets,
        refuse=refuse,
        upgrades=socket_buckets,
        sockets=sockets,
    )

    add_people_api(app, accounts, sign_up_buckets.take)

    # --- HTTP ------------------------------------------------------------------------

    async def trouble() -> str | None:
        """Why this process cannot serve players now (the store does not answer, its latest
        commit failed, it does not hear the other processes), or None."""
        try:
            await asyncio.wait_for(asyncio.to_thread(the_store.ping), HEALTH_TIMEOUT_S)
        except TimeoutError:
            return "no answer in time"
        except (StoreError, SQLAlchemyError, OSError) as error:
            return str(error)
        return rooms.trouble()

    @app.get("/api/health")
    async def health() -> Response:
        """Alive and able to use the store: 200, else 503 saying why (for load balancers)."""
        body: Health = {"ok": True, "protocol": PROTOCOL_VERSION, "version": hraj.__version__}
        problem = await trouble()
        if problem is None:
            return JSONResponse(body)
        body["ok"], body["store"] = False, problem
        return JSONResponse(body, status_code=503)

    @app.get("/api/ready")
    async def ready() -> Response:
        """Ready for players: the rooms are rebuilt, the server is not stopping, and it can
        use its store; a proxy's health check takes it out of rotation otherwise."""
        if not readiness["ready"]:
            return JSONResponse({"ready": False}, status_code=503)
        problem = await trouble()
        if problem is not None:
            return JSONResponse({"ready": False, "store": problem}, status_code=503)
        return JSONResponse({"ready": True})

    if settings.operator_endpoints:

        @app.get("/metrics")
        async def prometheus() -> Response:
            """Prometheus metrics: rooms, connections, moves, commit latency, errors."""
            return Response(metrics.render(), media_type=metrics.content_type)

    # The routes below answer typed dicts as they are built (`response_model=None`): a
    # response model would validate each answer again and drop any key its type does
    # not name, and pydantic builds none from typing's TypedDict (OutcomeJson, Record)
    # before Python 3.12.

    @app.get("/api/stats", response_model=None)
    async def stats() -> Stats:
        """Counters for operators and the load benchmark: rooms, sockets, commits."""
        if not settings.operator_endpoints:
            raise ServerError("not_found", "There is nothing at {path}.", path="/api/stats")
        live = [room for room in rooms.rooms.values() if not room.over]
        return {
            "rooms_live": len(live),
            "rooms_loaded": len(rooms.rooms),
            "connections": sum(len(room.connections) for room in rooms.rooms.values()),
            **rooms.committer.stats(),
        }

    @app.get("/api/games", response_model=None)
    async def games() -> Games:
        listing: list[GameInfo] = []
        for game_id in hraj.GAMES:
            cls = game_class(game_id)
            listing.append(
                {
                    "id": game_id,
                    "name": cls.name,
                    "options": {name: {"default": o.default, "help": o.help} for name, o in cls.options_spec.items()},
                    "bots": bot_names(game_id),
                }
            )
        return {"games": listing}

    @app.post("/api/rooms", status_code=201, response_model=None)
    async def create_room(spec: CreateRoom, request: Request) -> CreatedRoom:
        if not room_buckets.take(_address(request)):
            raise ServerError("rate_limited", "Too many new rooms from your address; wait a minute.")
        person = await acting_person(request)
        if person is not None and person.signed_in and spec.claim is not None and spec.claim < len(spec.seats):
            spec = _named_seat(spec, spec.claim, person)
        created = await rooms.create(spec)
        room = created.room
        if person is not None and created.claimed is not None:
            await asyncio.to_thread(people.link_seat, room.id, created.claimed[0], person.id)
        if room.public:
            open_rooms.forget()
        base = str(request.base_url).rstrip("/")
        summary = await room.call(lambda: _async(room.summary()))
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
        summary = await room.call(lambda: _async(room.summary()))
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
        person = await acting_person(request)
        name = body.name
        # A signed-in person's first seat of a room bears the account's name.
        first = person is not None and await asyncio.to_thread(people.seat_of, room.id, person.id) is None
        if person is not None and person.signed_in and first:
            name = person.name
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
            raise ServerError("rate_limited", "Too many new rooms from your address; wait a minute.")
        new, made = await room.call(lambda: rooms.consent(room, seat, accept))
        if new is None:
            votes = await room.call(lambda: _async(room.votes.to_json()))
            return JSONResponse({"room": room.id, "rematch": None, **votes}, status_code=202 if accept else 200)
        if new.public:
            open_rooms.forget()
        _, passed = room.rematch_options()
        summary = await new.call(lambda: _async(new.summary()))
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

    @app.get("/api/lobby", response_model=None)
    async def lobby() -> Lobby:
        """The newest public rooms in play with a free person seat (no secrets, no tokens),
        as read at most a second ago."""
        return {"rooms": [lobby_entry(room) for room in await open_rooms.get()]}

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
        return await room.call(lambda: _async(room.view_message(seat)))

    # No response model: pydantic builds none from typing's TypedDict before Python 3.12,
    # and the record goes out exactly as the rules wrote it.
    @app.get("/api/rooms/{room_id}/record", response_model=None)
    async def record(room_id: str) -> Record:
        room = await rooms.get(room_id)
        return await room.call(lambda: _async(room.record()))

    # --- WebSocket --------------------------------------------------------------------

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
            await _read(websocket, room, connection, settings, metrics)
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

    return app


def _named_seat(spec: CreateRoom, seat: int, person: Person) -> CreateRoom:
    """The room asked for, with the signed-in creator's seat bearing the account's name."""
    seats = list(spec.seats)
    seats[seat] = seats[seat].model_copy(update={"name": person.name})
    return spec.model_copy(update={"seats": seats})


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


async def _read(websocket: WebSocket, room: Room, connection: Connection, settings: Settings, metrics: Metrics) -> None:
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            text = raw.decode("utf-8", errors="replace")
        message_id: str | None = None
        if not bucket.take():  # every message counts, oversized ones too
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
