"""Profiles (`/hrac/<name>`) and leaderboards (`/zebricek/<game>`), rendered on the server;
a profile's rating history is an SVG line drawn here, no script needed."""

from __future__ import annotations

import asyncio
import datetime as dt
from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

import hraj
from hraj.core.bot import bot_names
from hraj.i18n import number, t
from hraj.players.anchors import bot_rating
from hraj.players.names import name_key
from hraj.players.profiles import ACTIVE_DAYS, LEADERBOARD_SIZE, GameRecord, Profiles, Shown
from hraj.web.pages import _here, _html, _lang, ago, bot_label, game_name
from hraj.web.render import render_page

router = APIRouter(include_in_schema=False)

WIDTH, HEIGHT, MARGIN = 320, 120, 24


def profiles_of(request: Request) -> Profiles:
    profiles: Profiles = request.app.state.profiles
    return profiles


def rating_text(shown: Shown, lang: str) -> str:
    """ "1 623", or "1 500?" while provisional."""
    return number(round(shown.rating), lang) + ("?" if shown.provisional else "")


def chart(history: list[tuple[dt.datetime, float]], lang: str) -> str:
    """The rating after each rated game as an SVG line, lowest and highest value labelled."""
    if len(history) < 2:
        return ""
    values = [value for _, value in history]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * MARGIN) / (len(values) - 1)
    points = " ".join(
        f"{MARGIN + i * step:.1f},{HEIGHT - MARGIN - (v - low) / span * (HEIGHT - 2 * MARGIN):.1f}"
        for i, v in enumerate(values)
    )
    label = escape(t("Rating after each rated game", lang))
    return (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{points}"/>'
        f'<text x="2" y="{MARGIN - 6}" font-size="10">{escape(number(round(high), lang))}</text>'
        f'<text x="2" y="{HEIGHT - 4}" font-size="10">{escape(number(round(low), lang))}</text>'
        "</svg>"
    )


def game_section(record: GameRecord, lang: str) -> dict[str, object]:
    shown = record.rating
    deviation = "" if shown is None or shown.deviation is None else number(round(shown.deviation), lang)
    return {
        "id": record.game,
        "name": game_name(record.game, lang),
        "rating": None if shown is None else rating_text(shown, lang),
        "rating_title": t("Deviation ± {deviation}", lang, deviation=deviation) if deviation else "",
        "played": record.played,
        "won": record.won,
        "rated": 0 if shown is None else shown.games,
        "chart": chart(record.history, lang),
        "versus": [
            {"label": bot_label(record.game, bot, lang), "won": won, "tied": tied, "lost": lost}
            for bot, (won, tied, lost) in sorted(record.versus.items())
        ],
    }


@router.get("/hrac/{name}", response_class=HTMLResponse)
async def profile(name: str, request: Request) -> Response:
    lang = _lang(request)
    found = await asyncio.to_thread(profiles_of(request).profile, name_key(name)[:64])
    if found is None:
        message = t("There is no player {name}.", lang, name=name[:40])
        return _html(render_page("error.html", lang, message=message, here=_here(request)), 404)
    now = dt.datetime.now(dt.UTC)
    recent = []
    for game in found.recent:
        change = ""
        if game.change is not None:
            change = ("+" if game.change >= 0 else "−") + number(round(abs(game.change), 1), lang)
        recent.append(
            {
                "room": game.room,
                "game": game_name(game.game, lang),
                "place": t("place {place} of {seats}", lang, place=game.place, seats=game.seats),
                "change": change,
                "at": game.finished_at.isoformat(),
                "ago": ago(game.finished_at, now, lang),
            }
        )
    sections = [game_section(found.games[g], lang) for g in hraj.GAMES if g in found.games]
    since = found.created_at.date().isoformat()
    page = render_page(
        "profile.html", lang, name=found.name, since=since, games=sections, recent=recent, here=_here(request)
    )
    return _html(page)


@router.get("/zebricek", response_class=HTMLResponse)
@router.get("/zebricek/{game_id}", response_class=HTMLResponse)
async def leaderboard(request: Request, game_id: str | None = None) -> Response:
    lang = _lang(request)
    game_id = game_id or hraj.GAMES[0]
    if game_id not in hraj.GAMES:
        missing = t("There is no such game.", lang)
        return _html(render_page("error.html", lang, message=missing, here=_here(request)), 404)
    ranked = await asyncio.to_thread(profiles_of(request).leaderboard, game_id)
    players = [{"name": r.name, "rating": rating_text(r.rating, lang), "games": r.rating.games} for r in ranked]
    bots = [bot_label(game_id, bot, lang) for bot in bot_names(game_id) if bot_rating(game_id, bot) is not None]
    page = render_page(
        "leaderboard.html",
        lang,
        game_id=game_id,
        game_name=game_name(game_id, lang),
        games=[{"id": g, "name": game_name(g, lang)} for g in hraj.GAMES],
        players=players,
        bots=bots,
        size=LEADERBOARD_SIZE,
        days=ACTIVE_DAYS,
        here=_here(request),
    )
    return _html(page)
