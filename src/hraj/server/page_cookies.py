"""What a page's request gets on its way: the CSRF token of the browser's cookie for the
page to carry, a guest cookie at the first visit, and a stale session's cookie dropped.

A plain ASGI middleware, as the guard is (see `hraj.server.guard` for why): Starlette's
`BaseHTTPMiddleware` wrapped every request, pages or not, in tasks and streams of its
own, which cost a flood of refused requests more than half of the server's time per
request. Requests that are no pages pass at the cost of one comparison.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hraj.players.accounts import Accounts
from hraj.players.identity import GUEST_COOKIE, SESSION_COOKIE, guest_cookie, guest_of, new_person_id, session_hash
from hraj.server.people_api import NOT_PAGES, drop_cookie, page_csrf, set_cookie


class PageCookies:
    """Sets `page_csrf` while a page renders; adds the guest cookie a first visit gets and
    drops a session cookie that `person_of` found stale (ended elsewhere)."""

    def __init__(self, app: ASGIApp, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or scope["path"].startswith(NOT_PAGES):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        secret = self.accounts.secret
        minted: str | None = None
        session = request.cookies.get(SESSION_COOKIE)
        if session:
            identity = session_hash(secret, session)
        else:
            guest = guest_of(secret, request.cookies.get(GUEST_COOKIE))
            if guest is None:
                guest = minted = new_person_id()
            identity = guest

        async def with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start":
                cookies = Response()
                new_guest = minted
                if scope.get("state", {}).get("stale_session", False):
                    drop_cookie(cookies, request, SESSION_COOKIE)
                    if guest_of(secret, request.cookies.get(GUEST_COOKIE)) is None:
                        new_guest = new_person_id()
                if new_guest is not None:
                    set_cookie(cookies, request, GUEST_COOKIE, guest_cookie(secret, new_guest))
                headers = MutableHeaders(scope=message)
                for name, value in cookies.raw_headers:
                    if name == b"set-cookie":
                        headers.append("set-cookie", value.decode("latin-1"))
            await send(message)

        mark = page_csrf.set(self.accounts.csrf(identity))
        try:
            await self.app(scope, receive, with_cookies)
        finally:
            page_csrf.reset(mark)
