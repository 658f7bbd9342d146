"""The HTTP API of people: accounts, sessions, one's games and data.

Two cookies say who a browser is, both HttpOnly, SameSite=Lax, and Secure when the page
came over TLS: `hraj_guest` (a signed random id, given at the first page) and
`hraj_session` (a signed-in account's session, a new token at every sign-in). A cookie
changes nothing unless the request also carries the CSRF token of that cookie (the
`X-CSRF-Token` header; pages carry it in `<meta name="csrf-token">`, the sign-in and
sign-up answers in `csrf`): a page of another site cannot read it, so a request it
forges acts as nobody. Programs that keep no cookies use the API with seat tokens as
before.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import Field
from starlette.responses import Response

from hraj.players.accounts import Accounts, SignedIn, game_json
from hraj.players.errors import AccountError, TooManyAttempts
from hraj.players.identity import (
    COOKIE_AGE,
    CSRF_HEADER,
    GUEST_COOKIE,
    SESSION_COOKIE,
    Person,
    guest_cookie,
    guest_of,
    new_person_id,
    session_hash,
)
from hraj.server.protocol import Message, ServerError

#: Paths whose requests are no pages: they get no guest cookie.
NOT_PAGES = ("/api/", "/ws/", "/static/", "/metrics", "/games.css")

#: The CSRF token of the page being rendered (for `<meta name="csrf-token">`).
page_csrf: contextvars.ContextVar[str] = contextvars.ContextVar("page_csrf", default="")


class Credentials(Message):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class NewPassword(Message):
    password: str = Field(min_length=1, max_length=1024)
    new_password: str = Field(min_length=1, max_length=1024)


class Password(Message):
    password: str = Field(min_length=1, max_length=1024)


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


def set_cookie(response: Response, request: Request, name: str, value: str) -> None:
    response.set_cookie(
        name, value, max_age=COOKIE_AGE, httponly=True, samesite="lax", secure=_secure(request), path="/"
    )


def drop_cookie(response: Response, request: Request, name: str) -> None:
    response.delete_cookie(name, httponly=True, samesite="lax", secure=_secure(request), path="/")


def account_error(error: AccountError) -> ServerError:
    problem = ServerError(error.code, error.key, **error.params)
    if isinstance(error, TooManyAttempts):
        problem.retry_after = error.retry_after
    return problem


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def person_of(request: Request) -> Person | None:
    """Who sent the request (read once per request, from a worker thread: a session is a store read)."""
    if not hasattr(request.state, "person"):
        accounts = accounts_of(request)
        request.state.person = await asyncio.to_thread(
            accounts.person,
            request.cookies.get(SESSION_COOKIE),
            request.cookies.get(GUEST_COOKIE),
            request.headers.get(CSRF_HEADER),
        )
    person: Person | None = request.state.person
    return person


async def acting_person(request: Request) -> Person | None:
    """The person whose cookie may change something now: the request carried the cookie's
    CSRF token. Without it the cookie counts for nothing (the request acts as nobody)."""
    person = await person_of(request)
    return person if person is not None and person.csrf_ok else None


async def unforged(request: Request) -> Person | None:
    """The person of a sign-up or sign-in: a browser that has a cookie must send its CSRF
    token too, so another site cannot sign it in to an account of its choosing."""
    person = await person_of(request)
    if person is not None and not person.csrf_ok:
        raise ServerError("forbidden", "The request lacks the page's CSRF token; reload the page and try again.")
    return person


async def signed_in(request: Request) -> Person:
    """The signed-in person making a change; else unauthorized (or forbidden without the CSRF token)."""
    person = await person_of(request)
    if person is None or not person.signed_in:
        raise ServerError("unauthorized", "Sign in first.")
    if not person.csrf_ok:
        raise ServerError("forbidden", "The request lacks the page's CSRF token; reload the page and try again.")
    return person


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def add_people_api(app: FastAPI, accounts: Accounts, sign_ups: Callable[[str], bool]) -> None:
    """The routes of accounts and sessions, and the middleware that gives a first page
    its guest cookie. `sign_ups` takes one new account from an address's allowance."""
    app.state.accounts = accounts

    @app.middleware("http")
    async def guests(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        """A page gets the CSRF token of the browser's cookie; a first visit gets a guest cookie."""
        if request.method != "GET" or request.url.path.startswith(NOT_PAGES):
            return await call_next(request)
        minted: str | None = None
        session = request.cookies.get(SESSION_COOKIE)
        if session:
            identity = session_hash(accounts.secret, session)
        else:
            guest = guest_of(accounts.secret, request.cookies.get(GUEST_COOKIE))
            if guest is None:
                guest = minted = new_person_id()
            identity = guest
        mark = page_csrf.set(accounts.csrf(identity))
        try:
            response = await call_next(request)
        finally:
            page_csrf.reset(mark)
        if minted is not None:
            set_cookie(response, request, GUEST_COOKIE, guest_cookie(accounts.secret, minted))
        return response

    def signed(request: Request, signed_in: SignedIn, status: int = 200) -> Response:
        response = JSONResponse({"name": signed_in.name, "csrf": signed_in.csrf}, status_code=status)
        set_cookie(response, request, SESSION_COOKIE, signed_in.token)
        return response

    @app.post("/api/accounts")
    async def sign_up(body: Credentials, request: Request) -> Response:
        """A new account (201) and its session cookie; a guest's games become the account's."""
        if not sign_ups(_address(request)):
            raise ServerError("rate_limited", "Too many new accounts from your address; try again later.")
        current = await unforged(request)
        try:
            made = await accounts.sign_up(body.name, body.password, current)
        except AccountError as error:
            raise account_error(error) from None
        response = signed(request, made, 201)
        # The guest whose games moved is no more: signing out later starts a new guest.
        drop_cookie(response, request, GUEST_COOKIE)
        return response

    @app.post("/api/session")
    async def sign_in(body: Credentials, request: Request) -> Response:
        try:
            made = await accounts.sign_in(body.name, body.password, _address(request), await unforged(request))
        except AccountError as error:
            raise account_error(error) from None
        return signed(request, made)

    @app.delete("/api/session")
    async def sign_out(request: Request) -> Response:
        person = await signed_in(request)
        await accounts.sign_out(person)
        response = Response(status_code=204)
        drop_cookie(response, request, SESSION_COOKIE)
        return response

    @app.delete("/api/sessions")
    async def sign_out_everywhere(request: Request) -> Response:
        """Every session of the account ends, this one too."""
        person = await signed_in(request)
        ended = await accounts.sign_out_everywhere(person)
        response = JSONResponse({"ended": ended})
        drop_cookie(response, request, SESSION_COOKIE)
        return response

    @app.put("/api/account/password")
    async def change_password(body: NewPassword, request: Request) -> Response:
        """A new password: every other session ends, this browser gets a new one."""
        person = await signed_in(request)
        try:
            made = await accounts.change_password(person, body.password, body.new_password)
        except AccountError as error:
            raise account_error(error) from None
        return signed(request, made)

    @app.delete("/api/account")
    async def delete_account(body: Password, request: Request) -> Response:
        """The account is deleted (its password confirms it); its games stay, without its name."""
        person = await signed_in(request)
        try:
            await accounts.delete(person, body.password)
        except AccountError as error:
            raise account_error(error) from None
        response = Response(status_code=204)
        drop_cookie(response, request, SESSION_COOKIE)
        return response

    @app.get("/api/me")
    async def me(request: Request) -> Response:
        """Who this browser is: a name (signed in), a guest, or nobody; and its CSRF token."""
        person = await person_of(request)
        if person is None:
            return JSONResponse({"name": None, "guest": False, "csrf": None})
        csrf = accounts.csrf(person.identity)
        return JSONResponse({"name": person.name, "guest": not person.signed_in, "csrf": csrf})

    @app.get("/api/my-games")
    async def my_games(request: Request) -> Response:
        """The games of this browser's person (a guest's or an account's), the latest first."""
        person = await person_of(request)
        found = [] if person is None else await asyncio.to_thread(accounts.people.games, person.id)
        return JSONResponse({"games": [game_json(game) for game in found]})

    @app.get("/api/account/data")
    async def my_data(request: Request) -> Response:
        """Everything kept of the signed-in person, as a JSON download."""
        person = await person_of(request)
        if person is None or not person.signed_in:
            raise ServerError("unauthorized", "Sign in first.")
        data = await asyncio.to_thread(accounts.data, person)
        return JSONResponse(data, headers={"Content-Disposition": 'attachment; filename="hraj-data.json"'})
