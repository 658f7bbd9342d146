"""Hints at the table and the analysis of a finished game, as page fragments.

`/r/{room}/hint` ranks the options of the seat whose token comes with the request, as
that seat sees the game (`hraj.analysis.hint`), and only in a room that allows hints:
a room with at most one person's seat, or one whose creator allowed them for every
seat (everyone who joins is told). `/r/{room}/analysis` values every decision of a
finished game; a finished game never changes, so its analysis is made once per room.
"""

from __future__ import annotations

import asyncio
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from hraj.analysis.game import Analysis, analyse, hint
from hraj.analysis.text import (
    estimate_note,
    grade_name,
    loss_name,
    loss_text,
    rating_name,
    reasons_text,
    unit_name,
    value_text,
)
from hraj.core.errors import HrajError
from hraj.core.game import State
from hraj.core.hints import EQUITY, WIN, OptionValue
from hraj.i18n import error_text, t, tn
from hraj.server.messages import SeatJson
from hraj.server.protocol import ServerError
from hraj.server.room import Room
from hraj.server.rooms import Rooms
from hraj.web import tables
from hraj.web.render import pick_lang, render_page, seat_names

router = APIRouter(include_in_schema=False)

#: Options a hint shows.
HINT_ROWS = 8
#: Costliest decisions an analysis lists.
WORST = 5
#: Analyses kept in memory (finished games; each is made once).
KEPT = 64
#: The plot's size in SVG units, and its margin for the axis labels.
WIDTH, HEIGHT, MARGIN = 640, 220, 36
COLOURS = ("#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989")

_analyses: OrderedDict[str, Analysis] = OrderedDict()
_making: dict[str, asyncio.Lock] = {}
#: Hints kept by (room, version, seat): a position's hint is worked out once, however
#: often it is asked for, so asking again and again costs the server nothing more.
HINTS_KEPT = 256
_hints: OrderedDict[tuple[str, int, int], tuple[list[OptionValue], bool]] = OrderedDict()
_hinting: dict[tuple[str, int, int], asyncio.Lock] = {}


def _(text: str) -> str:
    """Marks a text for the catalogs; it is translated where it is shown."""
    return text


NO_HINTS = _("Hints are off in this room: they were not allowed for every seat when the room was made.")
NO_SEAT = _("Hints are for a player's own turn: open the room in the browser that holds your seat.")
NOT_YOUR_TURN = _("It is not your turn; hints are for your own decisions.")
NOT_OVER = _("The analysis opens when the game is over.")


def _lang(request: Request) -> str:
    return pick_lang(request.query_params.get("lang"), request.cookies.get("hraj_lang"))


def _fragment(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers={"cache-control": "no-store"})


def _message(text: str, lang: str, status: int) -> HTMLResponse:
    return _fragment(render_page("advice_message.html", lang, message=t(text, lang)), status)


async def _room(request: Request, room_id: str) -> Room | None:
    rooms: Rooms = request.app.state.rooms
    try:
        return await rooms.get(room_id)
    except ServerError:
        return None


def _seat_of(request: Request, room: Room) -> int | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return room.seat_of(token.strip())


class HintRow(TypedDict):
    """One ranked option of a hint, in words: its rank, notation, description, value,
    what it loses against the best one (empty for the best) and why."""

    rank: int
    action: str
    move: str
    value: str
    loss: str
    why: str


def hint_rows(options: Sequence[OptionValue], game_id: str, names: Sequence[str], lang: str) -> list[HintRow]:
    """The ranked options as the template shows them."""
    best = options[0].value if options else 0.0
    return [
        {
            "rank": rank,
            "action": str(option.action),
            "move": tables.describe(game_id, str(option.action), lang, names),
            "value": value_text(option.value, option.unit, lang),
            "loss": "" if rank == 1 else loss_text(best - option.value, option.unit, lang),
            "why": reasons_text(option.reasons, lang),
        }
        for rank, option in enumerate(options[:HINT_ROWS], start=1)
    ]


def more_text(more: int, lang: str) -> str:
    return tn("and {count} more option", "and {count} more options", more, lang) if more > 0 else ""


@router.get("/r/{room_id}/hint", response_class=HTMLResponse)
async def hint_fragment(room_id: str, request: Request) -> Response:
    """The options of the requesting seat, ranked, with values and reasons."""
    lang = _lang(request)
    room = await _room(request, room_id)
    if room is None:
        return _message(_("There is no such room. The link may be mistyped."), lang, 404)
    seat = _seat_of(request, room)
    if seat is None:
        return _message(NO_SEAT, lang, 401)
    if not room.hints:
        return _message(NO_HINTS, lang, 403)

    async def snapshot() -> tuple[State[Any, Any], int, list[SeatJson]]:
        return room.state.copy(), room.version, room.public_seats()

    state, version, seats = await room.call(snapshot)
    if seat not in state.to_act or len(state.legal_actions(seat)) < 1:
        return _message(NOT_YOUR_TURN, lang, 409)
    try:
        options, estimate = await position_hint(room.id, version, state, seat)
    except HrajError as error:
        return _fragment(render_page("advice_message.html", lang, message=error_text(error, lang)), 422)
    names = seat_names(seats, lang)
    unit = options[0].unit if options else WIN
    return _fragment(
        render_page(
            "hint.html",
            lang,
            rows=hint_rows(options, room.game.id, names, lang),
            more=more_text(len(options) - HINT_ROWS, lang),
            unit=unit_name(unit, lang),
            note=estimate_note(lang) if estimate else "",
        )
    )


async def position_hint(
    room_id: str, version: int, state: State[Any, Any], seat: int
) -> tuple[list[OptionValue], bool]:
    """The ranked options of `seat` at the room's `version` and whether they are estimates:
    worked out once (in a thread) while requests for the same position wait for it."""
    key = (room_id, version, seat)
    lock = _hinting.setdefault(key, asyncio.Lock())
    try:
        async with lock:
            kept = _hints.get(key)
            if kept is None:
                seed = zlib.crc32(f"{room_id}:{version}:{seat}".encode())
                options, advice = await asyncio.to_thread(hint, state, seat, seed=seed)
                kept = _hints[key] = (options, advice.is_estimate())
                while len(_hints) > HINTS_KEPT:
                    _hints.popitem(last=False)
    finally:
        _hinting.pop(key, None)
    return kept


async def room_analysis(room: Room) -> Analysis:
    """The analysis of a finished room, made once (in a thread) and kept."""
    kept = _analyses.get(room.id)
    if kept is not None:
        _analyses.move_to_end(room.id)
        return kept
    lock = _making.setdefault(room.id, asyncio.Lock())
    async with lock:
        kept = _analyses.get(room.id)
        if kept is None:
            record = room.state.record()
            kept = await asyncio.to_thread(analyse, room.game, record, seed=zlib.crc32(room.id.encode()))
            _analyses[room.id] = kept
            while len(_analyses) > KEPT:
                _analyses.popitem(last=False)
        _making.pop(room.id, None)
    return kept


class PlotLine(TypedDict):
    """One seat's outlook through the game: an SVG polyline's points."""

    name: str
    points: str
    colour: str


class PlotMark(TypedDict):
    """A mark on a costly decision, where its seat's line was at that step."""

    x: float
    y: float
    step: int
    colour: str


class Plot(TypedDict):
    """The analysis chart in SVG units: lines, marks, the axis' ends and the values they
    stand for, in words."""

    width: int
    height: int
    lines: list[PlotLine]
    marks: list[PlotMark]
    top: float
    bottom: float
    zero: float | None
    left: int
    right: int
    low_text: str
    high_text: str


def plot(analysis: Analysis, names: Sequence[str], steps: int, lang: str) -> Plot:
    """The value of each seat's best option through the game, as SVG polylines."""
    values = [d.best_value for d in analysis.decisions]
    if analysis.unit == WIN:
        low, high = 0.0, 1.0
    else:
        low, high = min([*values, 0.0]), max([*values, 0.0])
        if analysis.unit == EQUITY:
            low, high = min(low, -1.0), max(high, 1.0)
        if high - low < 1e-9:
            high = low + 1.0
    span_x = max(steps, 1)

    def x(step: int) -> float:
        return round(MARGIN + (WIDTH - 2 * MARGIN) * step / span_x, 1)

    def y(value: float) -> float:
        return round(HEIGHT - MARGIN + (value - low) / (high - low) * (2 * MARGIN - HEIGHT), 1)

    lines: list[PlotLine] = []
    for seat, name in enumerate(names):
        curve = analysis.curve(seat)
        if curve:
            points = " ".join(f"{x(step)},{y(value)}" for step, value in curve)
            lines.append({"name": name, "points": points, "colour": COLOURS[seat % len(COLOURS)]})
    marks: list[PlotMark] = [
        {"x": x(d.step), "y": y(d.best_value), "step": d.step, "colour": COLOURS[d.seat % len(COLOURS)]}
        for d in analysis.worst(WORST)
        if d.grade is not None
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "lines": lines,
        "marks": marks,
        "top": y(high),
        "bottom": y(low),
        "zero": y(0.0) if low < 0 < high else None,
        "left": MARGIN,
        "right": WIDTH - MARGIN,
        "low_text": value_text(low, analysis.unit, lang),
        "high_text": value_text(high, analysis.unit, lang),
    }


@router.get("/r/{room_id}/analysis", response_class=HTMLResponse)
async def analysis_fragment(room_id: str, request: Request) -> Response:
    """Per-player summary, a plot of the value through the game, the costliest decisions."""
    lang = _lang(request)
    room = await _room(request, room_id)
    if room is None:
        return _message(_("There is no such room. The link may be mistyped."), lang, 404)
    if not room.over:
        return _message(NOT_OVER, lang, 409)
    try:
        analysis = await room_analysis(room)
    except HrajError as error:
        return _fragment(render_page("advice_message.html", lang, message=error_text(error, lang)), 422)
    names = seat_names(room.public_seats(), lang)
    unit = analysis.unit
    steps = len(room.state.events())
    graph = plot(analysis, names, steps, lang)
    players = [
        {
            "name": names[p.seat],
            "decisions": p.decisions,
            "total": loss_text(p.total_loss, unit, lang),
            "mean": loss_text(p.mean_loss, unit, lang),
            "doubtful": p.doubtful,
            "bad": p.bad,
            "very_bad": p.very_bad,
            "rating": rating_name(p.rating, lang),
        }
        for p in analysis.players
    ]
    worst = [
        {
            "step": d.step,
            "name": names[d.seat],
            "played": tables.describe(room.game.id, d.played, lang, names),
            "best": tables.describe(room.game.id, d.best, lang, names),
            "loss": loss_text(d.loss, unit, lang),
            "grade": grade_name(d.grade, lang),
        }
        for d in analysis.worst(WORST)
    ]
    thresholds = analysis.thresholds
    return _fragment(
        render_page(
            "analysis.html",
            lang,
            room_id=room.id,
            unit=unit_name(unit, lang),
            lost=loss_name(unit, lang),
            players=players,
            worst=worst,
            graph=graph,
            thresholds={
                "doubtful": loss_text(thresholds.doubtful, unit, lang),
                "bad": loss_text(thresholds.bad, unit, lang),
                "very_bad": loss_text(thresholds.very_bad, unit, lang),
            },
            note=estimate_note(lang) if analysis.estimate else "",
        )
    )
