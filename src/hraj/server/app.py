"""The ASGI application: HTTP for rooms and records, one WebSocket per connection.

This module builds it: the store and the rooms, the limits, errors, health and
metrics; the routes come from their own modules (`room_api` and `room_socket` for
rooms, `people_api`, `push_api`, `seeks_api`).

Every error a client can cause is answered as a structured message (a code, the
English reason, its i18n key and parameters), over HTTP with a fitting status and
over a socket as an `error` message that leaves the socket open.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator, Callable

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

import hraj
from hraj.core import game_class
from hraj.core.bot import bot_names
from hraj.players.accounts import Accounts
from hraj.players.passwords import Hashing
from hraj.players.profiles import Profiles, Thresholds
from hraj.players.results import install
from hraj.server.fairness import new_seed
from hraj.server.guard import Guard
from hraj.server.limits import Rate, Shared, SocketLimits, Sockets
from hraj.server.logs import Throttled
from hraj.server.messages import (
    GameInfo,
    Games,
    Health,
    Stats,
)
from hraj.server.metrics import Metrics
from hraj.server.page_cookies import PageCookies
from hraj.server.people_api import add_people_api
from hraj.server.protocol import (
    PROTOCOL_VERSION,
    ServerError,
    error_body,
)
from hraj.server.push import Pusher
from hraj.server.push_api import router as push_router
from hraj.server.room_api import add_room_api, new_rooms
from hraj.server.room_socket import add_room_socket
from hraj.server.seeks_api import router as seeks_router
from hraj.server.settings import Settings
from hraj.server.shared_rooms import rooms_for
from hraj.store import OpenRoom, Store, StoreError
from hraj.store.people import People

log = logging.getLogger("hraj.server")

#: Rooms the lobby lists at most (the newest).
LOBBY_SIZE = 50
#: A public room drops from the lobby once its host has been away this long.
LOBBY_HOST_GONE = dt.timedelta(minutes=10)
#: Seconds the health check waits for the store.
HEALTH_TIMEOUT_S = 2.0
store_failures = Throttled(log, "store unavailable")


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
    socket_limits = SocketLimits(socket_buckets, sockets)
    metrics = Metrics(rooms, sockets.open)
    people = People(the_store)
    install(the_store)  # the end of a game is stored with its places and ratings
    sign_in_buckets = Rate(settings.sign_in_rate / 3600, settings.sign_in_burst)
    accounts = Accounts(people, settings.secret, sign_in_buckets, Hashing(settings.hash_workers, settings.hash_waiting))

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
        # hraj counts its own metrics (/metrics); FastAPI's OpenTelemetry hooks would only
        # ask, at every request, whether a provider was set up.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.rooms = rooms
    app.state.socket_limits = socket_limits  # `hraj serve` refuses upgrades by them early too
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

    refusals: dict[tuple[str, str, str], bytes] = {}

    def refuse(request: Request, error: ServerError, as_json: bool) -> Response:
        """The guard's refusal: as JSON its body is made once per error and language, for a
        flood of them is answered many times a second."""
        if not as_json and page_error is not None and _is_page(request):
            return answer(request, error)
        lang = _lang(request)
        key = (error.code, str(error), lang)
        body = refusals.get(key)
        if body is None:
            body = refusals[key] = orjson.dumps(error_body(error, lang))
        metrics.errors.labels(error.code).inc()
        headers = {"Retry-After": str(error.retry_after)} if error.retry_after is not None else None
        return Response(body, status_code=error.status, headers=headers, media_type="application/json")

    # The last added is the outermost: the guard refuses before a page's cookies are read.
    app.add_middleware(PageCookies, accounts=accounts)
    app.add_middleware(
        Guard,
        max_bytes=settings.max_message_bytes,
        rate=http_buckets,
        refuse=refuse,
        socket_limits=socket_limits,
        paths=new_rooms(room_buckets),
    )

    thresholds = Thresholds(settings.provisional_deviation, settings.provisional_experience)
    add_people_api(app, accounts, Profiles(the_store, thresholds), sign_up_buckets.take)

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

    add_room_api(app, rooms, people, open_rooms, room_buckets)
    add_room_socket(app, rooms, sockets, settings, metrics)

    return app
