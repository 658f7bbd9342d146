"""Matchmaking over HTTP ("Hrát hned"): seek a game, wait to be paired, or take a bot.

A seek lives in the store (`hraj.store.seeks`), so any process may pair it: every
renewal of a seek (the page asks every few seconds) looks for partners with the same
game, options, player count and clock, by rating (`hraj.clocks.seeks`). A signed-in
seeker is rated as their profile shows it for that game; a guest, or a person yet without
a rating in it, at the scale's centre (1,500). The bot offered after a while is the
calibrated level nearest that rating. A rated seek is a signed-in person's, for options
the game rates, and pairs only with rated seeks into a rated room (as `POST /api/rooms`
with `"rated": true` makes one); each seat a seek takes is its seeker's (account or
guest), as a claimed seat is. The room that pairs seeks is created with their
seats already taken: each seat's token is derived from its seek (`seat_token`), so
whichever process the seeker's browser asks next can hand it over without anything
secret being stored. A seek whose browser stops renewing it is gone
after `SEEK_TTL_S`; the page also cancels it when it closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import hmac
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from hraj.clocks.seeks import (
    BOT_OFFER_AFTER_S,
    DEFAULT_RATING,
    SEEK_TTL_S,
    Waiting,
    bot_near,
    choose_group,
    rating_range,
    seek_key,
)
from hraj.core import game_class
from hraj.core.bot import default_bot
from hraj.core.errors import HrajError
from hraj.players.anchors import anchors
from hraj.players.errors import AccountError
from hraj.players.identity import Person
from hraj.players.profiles import Profiles
from hraj.players.rated_rooms import check_rated_room, check_rated_table
from hraj.server.people_api import account_error, acting_person
from hraj.server.protocol import ClockPreset, CreateRoom, Gender, Message, Name, SeatSpec, ServerError, Token
from hraj.server.rooms import Rooms, refuse_local_options
from hraj.server.tokens import hash_token, new_room_id
from hraj.store.errors import SeekTaken
from hraj.store.seeks import SeekRow, add_seek, cancel, renew, waiting

router = APIRouter()


class Seek(Message):
    game: Annotated[str, Field(min_length=1, max_length=32)]
    options: dict[str, str | int | bool | None] = Field(default_factory=dict, max_length=16)
    players: Annotated[int, Field(ge=2, le=6)] = 2
    clock: ClockPreset | None = None
    name: Name | None = None
    gender: Gender | None = None
    rated: bool = False


class SeekSecret(Message):
    secret: Token


def seat_token(server_secret: str, secret_hash: str) -> str:
    """The seat token of a paired seek: derived from it under the server's secret, so any
    process can give it to the seeker, and the store keeps only its hash, as for any seat."""
    return hmac.new(server_secret.encode(), f"seek-seat:{secret_hash}".encode(), hashlib.sha256).hexdigest()[:32]


def person(seek: SeekRow) -> SeatSpec:
    """The seat of a seeker: the name and gender the seek gave."""
    return SeatSpec.model_validate({"name": seek.name, "gender": seek.gender})


def _rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServerError("unauthorized", "Send the seek's secret as `Authorization: Bearer SECRET`.")
    return token.strip()


async def _rating(request: Request, person: Person | None, game_id: str) -> float:
    """The rating a seek carries: a signed-in person's in the game, as their profile shows
    it (a provisional one too: it is their best estimate yet); else the scale's centre."""
    if person is None or not person.signed_in:
        return DEFAULT_RATING
    profiles: Profiles = request.app.state.profiles
    shown = await asyncio.to_thread(profiles.rating, person.id, game_id)
    return DEFAULT_RATING if shown is None else shown.rating


def offered_bot(game_id: str, rating: float) -> dict[str, Any]:
    """The bot level offered instead of a partner: the calibrated one nearest `rating`,
    with its rating (None for a game whose levels have none)."""
    levels = anchors(game_id)
    level = bot_near(rating, levels, default_bot(game_id))
    return {"bot": level, "bot_rating": levels.get(level)}


async def _own(rooms: Rooms, seek_id: str, secret: str) -> SeekRow:
    """The seek, renewed, if the secret is its own."""
    found = await asyncio.to_thread(renew, rooms.store.engine, seek_id[:32], dt.datetime.now(dt.UTC))
    if found is None or not hmac.compare_digest(found.secret_hash, hash_token(rooms.secret, secret)):
        raise ServerError("not_found", "This seek is gone; seek a game again.")
    return found


@router.post("/api/seeks", status_code=201)
async def seek(body: Seek, request: Request) -> dict[str, Any]:
    """Wait for partners for a game: answers the seek's id and its secret (keep it)."""
    rooms = _rooms(request)
    try:
        cls = game_class(body.game)
        refuse_local_options(cls.options_spec, body.options)
        options = dict(body.options)
        if "players" in cls.options_spec:
            options["players"] = body.players
        game = cls(**options)
    except HrajError as error:
        raise ServerError.from_hraj(error) from None
    if game.players != body.players:
        raise ServerError(
            "invalid_option",
            "This game has {players} seats, but {given} were given.",
            players=game.players,
            given=body.players,
        )
    # The options as the game settled them (defaults filled in), so that equal seeks
    # share a key; options only the local command line may set are never among them.
    settled = {name: value for name, value in game.options.items() if not cls.options_spec[name].local_only}
    spec = CreateRoom(game=game.id, options=settled, seats=[SeatSpec()] * game.players, clock=body.clock)
    control = rooms.control_for(spec, game)
    # The cookie counts only with its CSRF token, as for any change made with it.
    seeker = await acting_person(request)
    if body.rated:
        try:
            check_rated_room(game.id, settled, [None] * game.players, seeker, 0)
        except AccountError as error:
            raise account_error(error) from None
    rating = await _rating(request, seeker, game.id)
    now = dt.datetime.now(dt.UTC)
    secret = secrets.token_urlsafe(24)
    row = SeekRow(
        id=new_room_id(),
        secret_hash=hash_token(rooms.secret, secret),
        key=seek_key(
            game.id,
            dict(game.options),
            game.players,
            body.rated,
            None if control is None else dict(control.to_json()),
        ),
        game=game.id,
        options=settled,
        players=game.players,
        rated=body.rated,
        clock=None if body.clock is None else {"preset": body.clock},
        rating=rating,
        name=seeker.name if seeker is not None and seeker.signed_in else body.name,
        gender=body.gender,
        created_at=now,
        seen_at=now,
        person=None if seeker is None else seeker.id,
    )
    await asyncio.to_thread(add_seek, rooms.store.engine, row)
    return {"seek": row.id, "secret": secret, **await _status(rooms, row)}


@router.get("/api/seeks/{seek_id}")
async def seek_status(seek_id: str, request: Request) -> dict[str, Any]:
    """Still waiting (how long, the rating range, a bot offered after a while), or paired:
    the room and this seeker's seat and token."""
    rooms = _rooms(request)
    return await _status(rooms, await _own(rooms, seek_id, _bearer(request)))


@router.post("/api/seeks/{seek_id}/cancel")
async def seek_cancel(seek_id: str, body: SeekSecret, request: Request) -> dict[str, bool]:
    """Stop waiting (the page closes): the seek leaves the pool unless it was paired."""
    rooms = _rooms(request)
    row = await _own(rooms, seek_id, body.secret)
    await asyncio.to_thread(cancel, rooms.store.engine, row.id)
    return {"ok": True}


@router.post("/api/seeks/{seek_id}/bot", status_code=201)
async def seek_bot(seek_id: str, request: Request) -> dict[str, Any]:
    """Play the bot offered instead: a room of this seeker and bots, the seek gone."""
    rooms = _rooms(request)
    row = await _own(rooms, seek_id, _bearer(request))
    if row.room_id is not None:
        return await _status(rooms, row)
    offer = offered_bot(row.game, row.rating)
    bots = [offer["bot"]] * (row.players - 1)
    if row.rated:
        try:
            check_rated_table(row.game, row.options, [None, *bots])
        except AccountError as error:
            raise account_error(error) from None
    seats = [person(row), *[SeatSpec(kind="bot", bot=bot) for bot in bots]]
    spec = CreateRoom(game=row.game, options=row.options, seats=seats, claim=0, rated=row.rated)
    created = await rooms.create(spec, row.person)
    await asyncio.to_thread(cancel, rooms.store.engine, row.id)
    assert created.claimed is not None
    return {"state": "paired", "room": created.room.id, "seat": 0, "token": created.claimed[1], **offer}


async def _status(rooms: Rooms, row: SeekRow) -> dict[str, Any]:
    if row.room_id is None:
        row = await _pair(rooms, row)
    if row.room_id is not None and row.seat is not None:
        return {
            "state": "paired",
            "room": row.room_id,
            "seat": row.seat,
            "token": seat_token(rooms.secret, row.secret_hash),
        }
    waited = (dt.datetime.now(dt.UTC) - row.created_at).total_seconds()
    answer: dict[str, Any] = {
        "state": "waiting",
        "waited": round(waited, 1),
        "rating": row.rating,
        "range": rating_range(waited),
    }
    if waited >= BOT_OFFER_AFTER_S:
        answer.update(offered_bot(row.game, row.rating))
    return answer


async def _pair(rooms: Rooms, row: SeekRow) -> SeekRow:
    """Seat this seek with partners if there are enough now; the seek as it is after."""
    now = dt.datetime.now(dt.UTC)
    pool = await asyncio.to_thread(waiting, rooms.store.engine, row.key, now, SEEK_TTL_S)
    by_id = {seek.id: seek for seek in pool}
    group = choose_group(
        [Waiting(s.id, s.rating, s.created_at.timestamp(), s.person) for s in pool], row.players, now.timestamp()
    )
    if group is None or row.id not in {w.id for w in group}:
        found = await asyncio.to_thread(renew, rooms.store.engine, row.id, now)
        return found if found is not None else row
    seekers = [by_id[w.id] for w in sorted(group, key=lambda w: (w.since, w.id))]
    seats = [person(s) for s in seekers]
    preset = seekers[0].clock.get("preset") if seekers[0].clock else None
    spec = CreateRoom(
        game=row.game,
        options=row.options,
        seats=seats,
        clock=preset if isinstance(preset, str) else None,
        rated=row.rated,
    )
    seated = {n: (seat_token(rooms.secret, s.secret_hash), s.person) for n, s in enumerate(seekers)}
    with contextlib.suppress(SeekTaken):  # another process paired some of them first: ask again next time
        await rooms.create(spec, seated=seated, pairs=[(s.id, n) for n, s in enumerate(seekers)])
    found = await asyncio.to_thread(renew, rooms.store.engine, row.id, now)
    return found if found is not None else row
