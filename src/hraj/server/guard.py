"""What every request passes before the routes: an HTTP request its size and rate (and
every answer gets the security headers), a socket upgrade its address's rate, open
sockets and penalty.

A plain ASGI middleware, not Starlette's `BaseHTTPMiddleware`: that one wraps every
request and answer in tasks and memory streams of its own, and two of them were more
than half of the millisecond a small request cost, which a flood of requests within
the limits (the lobby asked 90 times a second) took from every room of the process.
A socket is refused here too, before any routing: a flooder that connects again and
again cost 0.66 ms of the server's time per refusal at the route. (`hraj serve` refuses
by the same limits even earlier, as the upgrade's headers arrive: `early_refusal`.) It
must be the outermost middleware, so that a refusal costs nothing of the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hraj.server.limits import Rate, SocketLimits
from hraj.server.protocol import ServerError

#: Sent with every HTTP answer. The pages load their script and style from /static only
#: (no inline script or handler), so the policy can forbid everything else.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
#: Sent with every answer over TLS (directly, or from a trusted proxy's X-Forwarded-Proto):
#: browsers then use HTTPS only for a year, and a network in between cannot downgrade them.
HSTS = "max-age=31536000"

#: Over a limit: too many messages on the socket (it is closed), or too many sockets or
#: upgrades from the address (refused before the upgrade). Reconnect after `PENALTY_S`.
CLOSE_TOO_MANY = 4429
#: How a refused request is answered: (request, error, as JSON even at a page's address).
Refuse = Callable[[Request, ServerError, bool], Response]


@dataclass(frozen=True)
class PathRate:
    """A rate of its own for one route (method and path), beside the address's general
    one, and what a request over it is told. Checked here, before the route reads and
    validates the body: a flood of refused room creations cost a route's whole work each."""

    rate: Rate
    refusal: ServerError


class Guard:
    """The size and rate limits of HTTP requests, the headers of every answer, and the
    limits of socket upgrades (open sockets are counted here while they last)."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        rate: Rate,
        refuse: Refuse,
        socket_limits: SocketLimits,
        paths: Mapping[tuple[str, str], PathRate] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.rate = rate
        self.refuse = refuse
        self.socket_limits = socket_limits
        self.paths = dict(paths or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                if https:
                    headers.setdefault("Strict-Transport-Security", HSTS)
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, headed)
            return
        await self.app(scope, receive, headed)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A socket of an address within its limits goes on (and is counted while open);
        any other is refused before the upgrade (HTTP 403), at the least cost."""
        client = scope.get("client")
        address = client[0] if client else "?"
        if not self.socket_limits.admit(address):
            await send({"type": "websocket.close", "code": CLOSE_TOO_MANY, "reason": ""})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.socket_limits.sockets.release(address)

    def _refusal(self, scope: Scope) -> Response | None:
        """The answer to a request refused before any route sees it, or None."""
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            too_large = ServerError("too_large", "A request may carry at most {limit} bytes.", limit=self.max_bytes)
            return self.refuse(Request(scope), too_large, True)
        if length is None and "transfer-encoding" in headers:
            # A body of unstated length could be any size: ask for one that states it.
            return self.refuse(
                Request(scope), ServerError("bad_message", "A request body must state its length."), True
            )
        client = scope.get("client")
        address = client[0] if client else "?"
        if not self.rate.take(address):
            return self.refuse(Request(scope), ServerError("rate_limited", "Too many requests; slow down."), False)
        own = self.paths.get((scope["method"], scope["path"]))
        if own is not None and not own.rate.take(address):
            return self.refuse(Request(scope), own.refusal, True)
        return None
