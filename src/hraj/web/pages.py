"""The pages of the browser UI: start page, rooms, table fragments, replays and rules.

The server's JSON API (`/api/...`) and WebSocket stay the only way to change a room;
these routes only read. A room page is a shell whose table the client re-fetches
from `/r/{room}/table` (with the seat token, so the server renders that seat's view)
whenever the socket announces a new version.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NotRequired, TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from markdown_it import MarkdownIt

import hraj
from hraj.core import game_class
from hraj.core.bot import bot_names, default_bot
from hraj.core.errors import HrajError
from hraj.core.game import IntIn, Option
from hraj.core.jsondata import OptionSetting
from hraj.core.record import Event, Record
from hraj.core.registry import game_folder, game_part
from hraj.i18n import LANGS, bot_name, list_text, number, t, tn, translated_levels
from hraj.i18n import log_lines as sentences
from hraj.players.anchors import bot_rating
from hraj.server.messages import SeatJson, StateMessage
from hraj.server.protocol import ServerError, translate
from hraj.server.room import Room
from hraj.server.rooms import Rooms
from hraj.store import OpenRoom
from hraj.web import STATIC_DIR
from hraj.web.clock_words import clock_choices
from hraj.web.endings import end_of_game
from hraj.web.render import LANG_COOKIE, pick_lang, render_page, render_table, seat_genders, seat_names
from hraj.web.replays import move_list, position_end, previous_end, revealed_view

router = APIRouter(include_in_schema=False)

#: A year, in seconds: how long the language choice is remembered.
COOKIE_AGE = 365 * 24 * 3600
MAX_PLAYERS_TRIED = 8
#: Lines of the events that lead to a replay's move shown above its table (the deal has dozens).
TURN_LINES = 12


#: Strings the start page's and the room's scripts need, translated on the page.
SCRIPT_STRINGS = (
    "Something went wrong: {message}",
    "Every seat of this room is taken; you are watching.",
    "You are watching this game.",
    "connected",
    "connecting…",
    "offline, reconnecting…",
    "Copied",
    "Pass the screen to {name}.",
    "● Your turn – {title}",
    "Sound on your turn: on",
    "Sound on your turn: off",
    "Choose at most one seat for yourself.",
    "Game over",
    "Bot ({bot})",
    "Player {number}",
    "Random",
    "Greedy",
    "Expectimax",
    "Racer",
    "Winner",
    "Planner",
    "Strategist",
    # rooms: joining, chat, rematch
    "Every seat of this room is taken, so you are watching as a spectator.",
    "This room is private: only its invite link gives a seat. You are watching as a spectator.",
    "A seat of this game is free. Write your name and sit down, or just watch.",
    "You were invited to this game. Write your name and sit down.",
    "This invite link is not this room's; ask for a new one.",
    "This invite link is not this room's; ask for a new one. You are watching as a spectator.",
    "Someone took the last free seat just now, so you are watching as a spectator.",
    "Same seats and options; the next player starts.",
    "Same seats and options; the opening roll decides who starts, as the rules say.",
    "Watch the rematch",
    # clocks
    "Clocks",
    "time for this move",
    "reserve",
    "{days} d {hours} h",
    "⏰ {time} left – {title}",
    "You will be reminded when it is your turn.",
    "The browser does not allow notifications for this site.",
    "Reminders cannot be set up in this browser.",
    # the rematch by consent
    "Rematch",
    "The rematch was declined.",
    "Waiting for the others to accept the rematch.",
    "A rematch is offered.",
    "Accept the rematch",
    "Time ran out for {name}: the stand-in bot played that turn.",
)


def _lang(request: Request) -> str:
    return pick_lang(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE))


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def _strings(lang: str) -> dict[str, str]:
    return {text: t(text, lang) for text in SCRIPT_STRINGS}


def _here(request: Request) -> str:
    query = "&".join(f"{k}={v}" for k, v in request.query_params.items() if k not in ("lang", "invite"))
    return request.url.path + (f"?{query}" if query else "")


def game_name(game_id: str, lang: str) -> str:
    return t(game_class(game_id).name, lang)


def player_counts(game_id: str) -> list[int]:
    """Every number of players the game accepts (tried through its own option check)."""
    cls = game_class(game_id)
    if "players" not in cls.options_spec:
        return [cls().players]
    counts = []
    for count in range(1, MAX_PLAYERS_TRIED + 1):
        try:
            cls(players=count)
        except HrajError:
            continue
        counts.append(count)
    return counts


class OptionField(TypedDict):
    """One option of a game on the start page's form: an entry of its web module's
    `OPTION_FORMS` (name, label, kind: select, check or number, and a select's choices as
    (value, words)) in the page's language, with its default and a number's range."""

    name: str
    label: str
    kind: str
    choices: list[tuple[str, str]]
    default: OptionSetting
    min: NotRequired[int]
    max: NotRequired[int]


class GameChoice(TypedDict):
    """A game as the start page and the lobby offer it, in the page's language."""

    id: str
    name: str
    players: list[int]
    default_players: OptionSetting
    bots: list[str]
    default_bot: str
    bot_levels: dict[str, tuple[str, str]]
    options: list[OptionField]
    clocks: list[tuple[str, str]]
    """The time controls a room of the game may have: (preset id, words); "" for none."""


def _option_field(form: Mapping[str, object], spec: Option, lang: str) -> OptionField:
    """A form entry with its words in `lang`, its default, and a number's range from the rules."""
    choices = form.get("choices", [])
    field: OptionField = {
        "name": str(form["name"]),
        "label": t(str(form["label"]), lang),
        "kind": str(form["kind"]),
        "choices": [(str(value), t(str(text), lang)) for value, text in choices] if isinstance(choices, list) else [],
        "default": spec.default,
    }
    if isinstance(spec.check, IntIn):  # a number's range comes from the rules
        field["min"], field["max"] = spec.check.bounds
    return field


def bot_label(game_id: str, bot: str, lang: str) -> str:
    """A bot as the menus name it, with its calibrated rating where it has one: "Pokročilý ≈ 1 650"."""
    label = bot_name(game_id, bot, lang)
    anchor = bot_rating(game_id, bot)
    return label if anchor is None else f"{label} ≈ {number(round(anchor.rating), lang)}"


def rated_levels(game_id: str, lang: str) -> dict[str, tuple[str, str]]:
    """Bot -> (its name with its rating, what it does), as the seat picker offers them."""
    levels = translated_levels(game_id, lang)
    return {bot: (bot_label(game_id, bot, lang), levels.get(bot, ("", ""))[1]) for bot in bot_names(game_id)}


def _games(lang: str) -> list[GameChoice]:
    games: list[GameChoice] = []
    for game_id in hraj.GAMES:
        cls = game_class(game_id)
        options = []
        look = game_part(game_id, "web")
        for form in getattr(look, "OPTION_FORMS", []):
            if form["name"] in cls.options_spec:
                options.append(_option_field(form, cls.options_spec[form["name"]], lang))
        default_players = cls.options_spec["players"].default if "players" in cls.options_spec else cls().players
        games.append(
            {
                "id": game_id,
                "name": game_name(game_id, lang),
                "players": player_counts(game_id),
                "default_players": default_players,
                "bots": bot_names(game_id),
                "default_bot": default_bot(game_id),
                "bot_levels": rated_levels(game_id, lang),
                "options": options,
                "clocks": clock_choices(game_id, lang),
            }
        )
    return games


# --- pages -------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
async def start(request: Request) -> Response:
    lang = _lang(request)
    games = _games(lang)
    names = list_text([game["name"] for game in games], lang)
    return _html(
        render_page("start.html", lang, games=games, game_names=names, strings=_strings(lang), here=_here(request))
    )


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker that shows turn reminders (Web Push); served at the root so
    that it may serve every page of the site, and never cached, so an update reaches
    every browser."""
    return Response(
        (STATIC_DIR / "sw.js").read_bytes(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/lang/{code}")
async def choose_lang(code: str, request: Request) -> Response:
    """Remember the language in a cookie and go back where the person was."""
    target = request.query_params.get("next") or "/"
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGS:
        response.set_cookie(LANG_COOKIE, code, max_age=COOKIE_AGE, samesite="lax")
    return response


async def _room(request: Request, room_id: str) -> Room | None:
    rooms: Rooms = request.app.state.rooms
    try:
        return await rooms.get(room_id)
    except ServerError:
        return None


def _not_found(request: Request, lang: str) -> Response:
    message = t("There is no such room. The link may be mistyped.", lang)
    return _html(render_page("error.html", lang, message=message, here=_here(request)), 404)


#: The heading of an error page for each HTTP status (others: the 400 one).
ERROR_TITLES = {
    400: "Bad request",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed",
    409: "Not yet",
    413: "Bad request",
    429: "Too many requests",
    500: "Something went wrong",
    503: "Temporarily unavailable",
}
#: What an error page says, where the server's own reason is not meant for people.
ERROR_TEXTS = {
    404: "There is nothing at this address. The link may be mistyped.",
    405: "This page cannot be opened this way.",
    429: "Too many requests from your address. Wait a moment and try again.",
}


def error_page(request: Request, error: ServerError, status: int | None = None) -> Response:
    """An error of a page's address (a mistyped link, a page opened too often) as a page
    in the page's language, never the API's JSON."""
    lang = _lang(request)
    code = status or error.status
    text = ERROR_TEXTS.get(code)
    message = t(text, lang) if text is not None else translate(error, lang)
    title = t(ERROR_TITLES.get(code, ERROR_TITLES[400]), lang)
    page = render_page("error.html", lang, title=title, message=message, here=_here(request))
    return _html(page, code)


async def _snapshot(room: Room, seat: int | None) -> tuple[StateMessage, list[SeatJson], list[Event]]:
    """The seat's view message, the seats and the events, taken together inside the room's actor."""

    async def job() -> tuple[StateMessage, list[SeatJson], list[Event]]:
        return room.view_message(seat), room.public_seats(), room.state.events_for(seat)

    return await room.call(job)


def _seat_of(request: Request, room: Room) -> int | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return room.seat_of(token.strip())


@router.get("/r/{room_id}", response_class=HTMLResponse)
async def room_page(room_id: str, request: Request) -> Response:
    lang = _lang(request)
    room = await _room(request, room_id)
    if room is None:
        return _not_found(request, lang)
    message, seats, events = await _snapshot(room, None)
    version = message["version"]
    table = render_table(room.game.id, message["view"], seats, events, lang, room_id=room.id, version=version)
    return _html(
        render_page(
            "room.html",
            lang,
            room_id=room.id,
            game_id=room.game.id,
            game_name=game_name(room.game.id, lang),
            hidden_hands=room.game.hidden_hands,
            over=room.over,
            step_ms=round(request.app.state.settings.step_pause * 1000),
            table=table,
            strings=_strings(lang),
            here=_here(request),
        )
    )


@router.get("/r/{room_id}/table", response_class=HTMLResponse)
async def table_fragment(room_id: str, request: Request) -> Response:
    """The table as the seat of the bearer token sees it (a spectator without a token)."""
    lang = _lang(request)
    room = await _room(request, room_id)
    if room is None:
        return _html("", 404)
    seat = _seat_of(request, room)
    message, seats, events = await _snapshot(room, seat)
    at = _past_version(request.query_params.get("at"), message["version"])
    if at is not None:
        # An earlier version, for the client that steps through moves made in a row.
        view, events = await _past(room, seat, at)
        return _html(render_table(room.game.id, view, seats, events, lang, room_id=room.id, version=at))
    params = {key: request.query_params[key] for key in ("steps", "sel") if key in request.query_params}
    html = render_table(
        room.game.id, message["view"], seats, events, lang, room_id=room.id, version=message["version"], params=params
    )
    return _html(html)


def _past_version(text: str | None, now: int) -> int | None:
    """`?at=` as a version before `now`; None for the current one (or a bad number)."""
    if text is None or not text.isdigit():
        return None
    at = int(text)
    return at if at < now else None


async def _past(room: Room, seat: int | None, at: int) -> tuple[dict[str, object], list[Event]]:
    """What `seat` saw at version `at` (the room replayed to its first `at` events):
    nothing it did not see then, and no action to click, since that moment is gone."""

    async def first_events() -> list[Event]:
        return list(room.state.events()[:at])

    events = await room.call(first_events)
    state = await asyncio.to_thread(functools.partial(room.game.replay_events, events, whole=False))
    view: dict[str, object] = {**state.view(seat), "legal": []}
    return view, list(state.events_for(seat))


@router.get("/r/{room_id}/replay", response_class=HTMLResponse)
async def replay(room_id: str, request: Request) -> Response:
    """The review of a finished game: the board at move `?move=N` (where that decision
    was made; without it, or past the last move, the end) beside the numbered move list,
    every hand shown (once a game is over its record hides nothing). The analysis of
    the move comes from `/r/{room}/analysis` (analysis.js). A game in play has no
    replay yet (the room page offers none); this page then says so."""
    lang = _lang(request)
    room = await _room(request, room_id)
    if room is None:
        return _not_found(request, lang)
    _, seats, events = await _snapshot(room, None)
    if not room.over:
        message = t("The replay opens when the game is over.", lang)
        return _html(render_page("error.html", lang, message=message, here=_here(request)), 409)
    names = seat_names(seats, lang, room.game.id)
    moves = move_list(room.game.id, events, names, lang)
    total = len(moves)
    asked = request.query_params.get("move", "")
    move = int(asked) if asked.isdigit() else total + 1
    move = max(1, min(move, total + 1))
    played = position_end(events, move)
    state = await asyncio.to_thread(functools.partial(room.game.replay_events, events[:played], whole=False))
    view = revealed_view(room.game.id, state, room.game.players)
    table = render_table(room.game.id, view, seats, events[:played], lang, room_id=room.id, version=move, replay=True)
    mat = "mat" in _downloads(room.game.id)
    # The sentences since the move before (it, and the dice or cards that followed), worded
    # with the whole game before them (who rolled, whose turn).
    said = sentences(room.game.id, events[:played], names, seat_genders(seats), lang, view)
    begun = previous_end(events, move)
    lead = [line for line in said[begun:played] if line is not None]
    ending = end_of_game(room.game.id, view, names, lang) if move > total else None
    return _html(
        render_page(
            "replay.html",
            lang,
            room_id=room.id,
            game_id=room.game.id,
            game_name=game_name(room.game.id, lang),
            move=move,
            total=total,
            moves=moves,
            lead=lead[-TURN_LINES:],
            hidden_hands=room.game.hidden_hands,
            table=table,
            mat=mat,
            ending=ending,
            here=_here(request),
        )
    )


def _downloads(game_id: str) -> dict[str, Callable[[Record], str]]:
    """Other formats a finished game of this kind downloads as (`downloads()` of its web module)."""
    look = game_part(game_id, "web")
    offered = getattr(look, "downloads", None)
    found: dict[str, Callable[[Record], str]] = offered() if offered is not None else {}
    return found


@router.get("/r/{room_id}/record.{extension}")
async def record_as(room_id: str, extension: str, request: Request) -> Response:
    lang = _lang(request)
    room = await _room(request, room_id)
    exporter = None if room is None else _downloads(room.game.id).get(extension)
    if room is None or exporter is None or not room.over:
        return _not_found(request, lang)
    text = str(exporter(room.record()))
    headers = {"Content-Disposition": f'attachment; filename="hraj-{room.id}.{extension}"'}
    return PlainTextResponse(text, headers=headers)


# --- rules -------------------------------------------------------------------------------

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def rules_path(game_id: str, lang: str) -> Path:
    """A game's rules page lives in its own folder: `rules/<lang>.md`."""
    return game_folder(game_id) / "rules" / f"{lang}.md"


def rules_html(game_id: str, lang: str) -> str | None:
    """The rules page's Markdown rendered to HTML (raw HTML in it is escaped); None if not written."""
    path = rules_path(game_id, lang)
    if not path.is_file():
        return None
    return str(_MARKDOWN.render(path.read_text(encoding="utf-8")))


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules(game_id: str, request: Request) -> Response:
    lang = _lang(request)
    if game_id not in hraj.GAMES:
        missing = t("There is no such game.", lang)
        return _html(render_page("error.html", lang, message=missing, here=_here(request)), 404)
    others = [code for code in LANGS if code != lang and rules_path(game_id, code).is_file()]
    return _html(
        render_page(
            "rules.html",
            lang,
            game_id=game_id,
            game_name=game_name(game_id, lang),
            html=rules_html(game_id, lang),
            others=others,
            here=_here(request),
        )
    )


# --- the lobby of open games ---------------------------------------------------------------


def ago(created: dt.datetime, now: dt.datetime, lang: str) -> str:
    """How long ago a room was made, in words with the language's plural forms."""
    minutes = max(0, int((now - created).total_seconds() // 60))
    if minutes < 1:
        return t("just now", lang)
    if minutes < 60:
        return tn("{count} minute ago", "{count} minutes ago", minutes, lang)
    hours = minutes // 60
    if hours < 24:
        return tn("{count} hour ago", "{count} hours ago", hours, lang)
    return tn("{count} day ago", "{count} days ago", hours // 24, lang)


def option_words(game: GameChoice, options: Mapping[str, object]) -> list[str]:
    """The options a room was made with, as the start page words them (players and the
    first seat are shown apart or not at all)."""
    words = []
    for form in game["options"]:
        value = options.get(form["name"])
        if form["name"] in ("players", "first") or value is None:
            continue
        if form["kind"] == "select":
            text = next((text for choice, text in form["choices"] if choice == value), str(value))
            words.append(f"{form['label']}: {text}")
        elif form["kind"] == "check":
            if value:
                words.append(str(form["label"]))
        else:
            words.append(f"{form['label']}: {value}")
    return words


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    """Public rooms in play with a free seat, newest first (at most `LOBBY_SIZE`)."""
    from hraj.server.app import LOBBY_HOST_GONE, LOBBY_SIZE

    lang = _lang(request)
    found: list[OpenRoom] = await request.app.state.open_rooms.get()
    games = {game["id"]: game for game in _games(lang)}
    now = dt.datetime.now(dt.UTC)
    listed = []
    for room in found:
        game = games.get(room.game)
        if game is None:
            continue
        levels = translated_levels(room.game, lang)
        players = []
        for seat in room.seats:
            if seat.kind == "bot":
                players.append(t("Bot: {level}", lang, level=levels[seat.bot][0] if seat.bot in levels else seat.bot))
            elif seat.token_hash is None:
                players.append(t("free seat", lang))
            else:
                players.append(seat.name or t("Player {number}", lang, number=seat.seat + 1))
        free = sum(1 for seat in room.seats if seat.kind == "person" and seat.token_hash is None)
        listed.append(
            {
                "id": room.id,
                "game": game["name"],
                "options": option_words(game, room.options),
                "players": players,
                "free": tn("{count} free seat", "{count} free seats", free, lang),
                "ago": ago(room.created_at, now, lang),
                "created": room.created_at.isoformat(),
                "host": t("The host is here", lang)
                if room.host_away_since is None
                else t("The host left {ago}", lang, ago=ago(room.host_away_since, now, lang)),
            }
        )
    minutes = int(LOBBY_HOST_GONE.total_seconds() // 60)
    page = render_page("lobby.html", lang, rooms=listed, limit=LOBBY_SIZE, host_gone=minutes, here=_here(request))
    return _html(page)
