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
from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import Field
from starlette.responses import Response

import hraj
from hraj.players.accounts import Accounts, SignedIn, game_json
from hraj.players.errors import AccountError, TooManyAttempts
from hraj.players.identity import (
    COOKIE_AGE,
    CSRF_HEADER,
    GUEST_COOKIE,
    SESSION_COOKIE,
    Person,
)
from hraj.players.names import name_key
from hraj.players.profiles import Profiles, Shown
from hraj.players.rated_rooms import check_rated_room, check_rated_seat
from hraj.server.protocol import CreateRoom, Message, ServerError
from hraj.server.room import Room
from hraj.store.people import People

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
        session = request.cookies.get(SESSION_COOKIE)
        found = await asyncio.to_thread(
            accounts.person, session, request.cookies.get(GUEST_COOKIE), request.headers.get(CSRF_HEADER)
        )
        request.state.person = found
        # A session that ended elsewhere (signed out everywhere, expired): the page drops its cookie.
        request.state.stale_session = bool(session) and (found is None or not found.signed_in)
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


async def creator(request: Request, spec: CreateRoom) -> tuple[Person | None, CreateRoom]:
    """Who makes a room (the person its claimed seat will be), and the room asked for with
    that seat bearing a signed-in creator's name; a rated room is checked here."""
    person = await acting_person(request)
    if spec.rated:
        bots = [(seat.bot or "random") if seat.kind == "bot" else None for seat in spec.seats]
        try:
            check_rated_room(spec.game, spec.options, bots, person, spec.claim)
        except AccountError as error:
            raise account_error(error) from None
    if person is not None and person.signed_in and spec.claim is not None and spec.claim < len(spec.seats):
        seats = list(spec.seats)
        seats[spec.claim] = seats[spec.claim].model_copy(update={"name": person.name})
        spec = spec.model_copy(update={"seats": seats})
    return person, spec


async def claimer(request: Request, room: Room, name: str | None) -> tuple[Person | None, str | None]:
    """Who takes a seat, and the name it gets: a signed-in person's first seat of a room
    bears the account's name. A rated room's seats go only to signed-in people, one each."""
    person = await acting_person(request)
    people: People = request.app.state.people
    sits = person is not None and await asyncio.to_thread(people.seat_of, room.id, person.id) is not None
    if room.rated:
        try:
            check_rated_seat(person, sits)
        except AccountError as error:
            raise account_error(error) from None
    if person is not None and person.signed_in and not sits:
        name = person.name
    return person, name


async def forget_seat(room: Room, seat: int) -> None:
    """Inside the room's actor: the seat's player deleted their account."""
    room.seats[seat].name = None
    room.seats[seat].gender = None
    room.seats[seat].deleted = True


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def rating_json(shown: Shown) -> dict[str, object]:
    body: dict[str, object] = {"rating": shown.rating, "games": shown.games, "provisional": shown.provisional}
    if shown.deviation is not None:
        body["deviation"] = shown.deviation
    return body


def add_people_api(app: FastAPI, accounts: Accounts, profiles: Profiles, sign_ups: Callable[[str], bool]) -> None:
    """The routes of accounts and sessions, profiles and leaderboards (a page's cookies are
    `hraj.server.page_cookies`'). `sign_ups` takes one new account from an address's
    allowance."""
    app.state.accounts = accounts
    app.state.profiles = profiles

    @app.get("/api/players/{name}")
    async def player(name: str) -> Response:
        """A player's ratings per game (shown scale; `deviation` for OpenSkill games)."""
        found = await asyncio.to_thread(profiles.profile, name_key(name)[:64])
        if found is None:
            raise ServerError("not_found", "There is no player {name}.", name=name[:40])
        return JSONResponse(
            {
                "name": found.name,
                "ratings": {g: rating_json(r.rating) for g, r in found.games.items() if r.rating is not None},
            }
        )

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(game: str) -> Response:
        """The best 50 players of a game who are not provisional and played within 90 days."""
        if game not in hraj.GAMES:
            raise ServerError("not_found", "There is no game {game}.", game=game[:32])
        ranked = await asyncio.to_thread(profiles.leaderboard, game)
        return JSONResponse({"game": game, "players": [{"name": r.name, **rating_json(r.rating)} for r in ranked]})

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
        games = await asyncio.to_thread(accounts.people.games, person.id, 1000)
        try:
            await accounts.delete(person, body.password)
        except AccountError as error:
            raise account_error(error) from None
        # Rooms this process holds in memory show the seats as a deleted player's at once.
        for game in games:
            room = request.app.state.rooms.rooms.get(game.room)
            if room is not None:
                await room.call(lambda room=room, seat=game.seat: forget_seat(room, seat))
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
