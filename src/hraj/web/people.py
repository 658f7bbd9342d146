"""The pages of people: the account (sign up, sign in, settings) and "My games".

They read only; every change goes through the JSON API of `hraj.server.people_api`,
sent by `static/account.js` with the page's CSRF token.
"""

from __future__ import annotations

import asyncio
import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from hraj.core import game_class
from hraj.i18n import t
from hraj.players.names import NAME_MAX, NAME_MIN, PASSWORD_MIN
from hraj.server.people_api import person_of
from hraj.store import SeatData
from hraj.store.people import People, PersonGame
from hraj.store.timekeeping import seats_due
from hraj.web.clock_words import time_left
from hraj.web.pages import _here, _html, _lang, ago
from hraj.web.render import render_page, seat_names

router = APIRouter(include_in_schema=False)


def people_of(request: Request) -> People:
    people: People = request.app.state.people
    return people


@router.get("/ucet", response_class=HTMLResponse)
async def account(request: Request) -> Response:
    lang = _lang(request)
    me = await person_of(request)
    guest_games = 0
    if me is not None and not me.signed_in:
        guest_games = len(await asyncio.to_thread(people_of(request).games, me.id))
    page = render_page(
        "account.html",
        lang,
        me=me,
        guest_games=guest_games,
        name_min=NAME_MIN,
        name_max=NAME_MAX,
        password_min=PASSWORD_MIN,
        here=_here(request),
    )
    return _html(page)


def seat_json(seat: SeatData) -> dict[str, object]:
    """A stored seat as `seat_names` reads the server's public seats."""
    return {"seat": seat.seat, "kind": seat.kind, "bot": seat.bot, "name": seat.name, "deleted": seat.deleted}


def result_words(game: PersonGame, lang: str) -> str:
    """How the game went for the person's seat: still playing, won (shared) or the place."""
    if game.outcome is None:
        return t("in play", lang)
    winners = game.outcome["winners"]
    if game.seat in winners:
        return t("won", lang) if len(winners) == 1 else t("shared the win", lang)
    return t("lost", lang)


@router.get("/moje-hry", response_class=HTMLResponse)
async def my_games(request: Request) -> Response:
    lang = _lang(request)
    me = await person_of(request)
    found = [] if me is None else await asyncio.to_thread(people_of(request).games, me.id)
    now = dt.datetime.now(dt.UTC)
    engine = people_of(request).engine
    due = await asyncio.to_thread(seats_due, engine, [(g.room, g.seat) for g in found if g.outcome is None])
    # The games that wait for me first, the soonest to run out first; then the others as they came.
    found.sort(key=lambda g: (0, due[g.room, g.seat]) if (g.room, g.seat) in due else (1, now))
    games = [
        {
            "room": game.room,
            "name": t(game_class(game.game).name, lang),
            "rated": game.rated,
            "over": game.outcome is not None,
            "players": seat_names([seat_json(seat) for seat in game.seats], lang, game.game),
            "result": result_words(game, lang),
            "at": game.updated_at.isoformat(),
            "ago": ago(game.updated_at, now, lang),
            "my_turn": (game.room, game.seat) in due,
            "left": time_left(due[game.room, game.seat] - now, lang) if (game.room, game.seat) in due else "",
        }
        for game in found
    ]
    return _html(render_page("my_games.html", lang, me=me, games=games, here=_here(request)))
