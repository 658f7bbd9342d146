"""The "Hrát hned" page: choose a game, its options and player count, rated or not, and
a clock, and be paired.

The page only reads; `static/play-now.js` seeks through the JSON API
(`hraj.server.seeks_api`), renews the seek while it waits, and opens the room once
paired (its seat's token kept in the browser like any other seat's).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

import hraj
from hraj.clocks.seeks import BOT_OFFER_AFTER_S
from hraj.i18n import t
from hraj.server.people_api import person_of
from hraj.web.pages import _games, _here, _html, _lang, _strings
from hraj.web.render import render_page

router = APIRouter(include_in_schema=False)

#: Strings the page's script needs.
PLAY_NOW_STRINGS = (
    "Waiting for an opponent… {seconds} s",
    "Nobody of a similar rating is waiting. Play against {bot} instead?",
    "Paired! Opening the game…",
    "Something went wrong: {message}",
)


@router.get("/hrat", response_class=HTMLResponse)
async def play_now(request: Request) -> Response:
    lang = _lang(request)
    games = [
        {**game, "counts": [n for n in game["players"] if n >= 2]} for game in _games(lang) if game["id"] in hraj.GAMES
    ]
    strings = {**_strings(lang), **{text: t(text, lang) for text in PLAY_NOW_STRINGS}}
    # Rated seeks are for people signed in: a guest's check box is off, with the reason.
    me = await person_of(request)
    page = render_page(
        "play_now.html",
        lang,
        games=games,
        strings=strings,
        bot_after=int(BOT_OFFER_AFTER_S),
        here=_here(request),
        signed_in=me is not None and me.signed_in,
    )
    return _html(page)
