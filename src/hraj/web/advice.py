"""Hints at the table and the analysis of a finished game, as page fragments.

`/r/{room}/hint` ranks the options of the seat whose token comes with the request, as
that seat sees the game (`hraj.analysis.hint`), and only in a room that allows hints:
a room with at most one person's seat, or one whose creator allowed them for every
seat (everyone who joins is told). `/r/{room}/analysis` values every decision of a
finished game; a finished game never changes, so its analysis is made once per room.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from hraj.analysis.game import Analysis, Decision, analyse, hint
from hraj.analysis.text import (
    MARKS,
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
from hraj.i18n import error_text, number, t, tn
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
    names = seat_names(seats, lang, room.game.id)
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
    """A point of the plot: a decision, where its seat's line was at that move; `grade`
    set for a costly one (drawn as a ring and linked)."""

    x: float
    y: float
    move: int
    colour: str
    grade: str | None
    label: str


class PlotTick(TypedDict):
    """A move number under the axis."""

    x: float
    move: int


class Plot(TypedDict):
    """The analysis chart in SVG units: lines, marks, the axis' ends and the values they
    stand for, in words, the move numbers under it, the current move's line."""

    width: int
    height: int
    lines: list[PlotLine]
    marks: list[PlotMark]
    ticks: list[PlotTick]
    top: float
    bottom: float
    zero: float | None
    left: int
    right: int
    low_text: str
    high_text: str
    current: float | None
    moves: int


#: About how many move numbers the axis shows.
TICKS = 8


def tick_moves(moves: int) -> list[int]:
    """Round move numbers spread along an axis of `moves` moves (1, 10, 20, … or 1, 25, 50, …)."""
    if moves < 1:
        return []
    step = max(1, moves // TICKS)
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if nice >= step:
            step = nice
            break
    return [1, *range(step, moves + 1, step)] if step > 1 else list(range(1, moves + 1))


def plot(analysis: Analysis, names: Sequence[str], lang: str, current: int | None = None) -> Plot:
    """The value of each seat's best option at each of its decisions, by move number."""
    values = [d.best_value for d in analysis.decisions]
    if analysis.unit == WIN:
        low, high = 0.0, 1.0
    else:
        low, high = min([*values, 0.0]), max([*values, 0.0])
        if analysis.unit == EQUITY:
            low, high = min(low, -1.0), max(high, 1.0)
        if high - low < 1e-9:
            high = low + 1.0
    span_x = max(analysis.moves - 1, 1)

    def x(move: int) -> float:
        return round(MARGIN + (WIDTH - 2 * MARGIN) * (move - 1) / span_x, 1)

    def y(value: float) -> float:
        return round(HEIGHT - MARGIN + (value - low) / (high - low) * (2 * MARGIN - HEIGHT), 1)

    lines: list[PlotLine] = []
    for seat, name in enumerate(names):
        curve = analysis.curve(seat)
        if curve:
            points = " ".join(f"{x(move)},{y(value)}" for move, value in curve)
            lines.append({"name": name, "points": points, "colour": COLOURS[seat % len(COLOURS)]})
    marks: list[PlotMark] = [
        {
            "x": x(d.move),
            "y": y(d.best_value),
            "move": d.move,
            "colour": COLOURS[d.seat % len(COLOURS)],
            "grade": d.grade,
            "label": t("Move {move}", lang, move=d.move)
            + (f" · {names[d.seat]} · {grade_name(d.grade, lang)}" if d.grade and d.seat < len(names) else ""),
        }
        for d in analysis.decisions
    ]
    on_axis = current is not None and 1 <= current <= analysis.moves
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "lines": lines,
        "marks": marks,
        "ticks": [{"x": x(move), "move": move} for move in tick_moves(analysis.moves)],
        "top": y(high),
        "bottom": y(low),
        "zero": y(0.0) if low < 0 < high else None,
        "left": MARGIN,
        "right": WIDTH - MARGIN,
        "low_text": value_text(low, analysis.unit, lang),
        "high_text": value_text(high, analysis.unit, lang),
        "current": x(current) if on_axis and current is not None else None,
        "moves": analysis.moves,
    }


class OptionRow(TypedDict):
    """One option of a decision in the review: rank, words, value, loss, whether played."""

    rank: int
    action: str
    move: str
    value: str
    loss: str
    played: bool


def decision_view(decision: Decision, game_id: str, names: Sequence[str], unit: str, lang: str) -> dict[str, object]:
    """What the review says of one decision: who, what, its mark, the best option and the options valued."""
    best = decision.best_value
    options: list[OptionRow] = [
        {
            "rank": rank,
            "action": option.action,
            "move": tables.describe(game_id, option.action, lang, names),
            "value": value_text(option.value, unit, lang),
            "loss": "" if best - option.value <= 0 else loss_text(best - option.value, unit, lang),
            "played": option.action == decision.played,
        }
        for rank, option in enumerate(decision.values, start=1)
    ]
    return {
        "move": decision.move,
        "name": names[decision.seat] if decision.seat < len(names) else str(decision.seat + 1),
        "played": tables.describe(game_id, decision.played, lang, names),
        "best": tables.describe(game_id, decision.best, lang, names),
        "is_best": decision.loss <= 0,
        "loss": loss_text(decision.loss, unit, lang),
        "grade": grade_name(decision.grade, lang),
        "mark": MARKS.get(decision.grade or "", ""),
        "options": options,
        "legal": decision.options,
        "more": more_text(decision.options - len(options), lang),
    }


def player_rows(analysis: Analysis, names: Sequence[str], lang: str) -> list[dict[str, object]]:
    """The per-player summary in words (totals only where a sum can be read: not a chance)."""
    unit = analysis.unit
    return [
        {
            "name": names[p.seat] if p.seat < len(names) else str(p.seat + 1),
            "decisions": p.decisions,
            "counted": p.counted,
            "total": "" if unit == WIN else loss_text(p.total_loss, unit, lang),
            "mean": loss_text(p.mean_loss, unit, lang),
            "doubtful": p.doubtful,
            "bad": p.bad,
            "very_bad": p.very_bad,
            "rating": rating_name(p.rating, lang),
            "error_rate": "" if p.error_rate is None else number(p.error_rate, lang, 1),
            "pr": "" if p.pr is None else number(p.pr, lang, 1),
        }
        for p in analysis.players
    ]


@router.get("/r/{room_id}/analysis", response_class=HTMLResponse)
async def analysis_fragment(room_id: str, request: Request) -> Response:
    """The review's analysis: the decision of move `?move=N` with its options, the marks
    of the move list, the per-player summary, the plot by move number, the costliest
    decisions."""
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
    names = seat_names(room.public_seats(), lang, room.game.id)
    unit = analysis.unit
    asked = request.query_params.get("move", "")
    move = int(asked) if asked.isdigit() else None
    decision = analysis.decision(move) if move is not None else None
    worst = [
        {
            "move": d.move,
            "name": names[d.seat],
            "played": tables.describe(room.game.id, d.played, lang, names),
            "best": tables.describe(room.game.id, d.best, lang, names),
            "loss": loss_text(d.loss, unit, lang),
            "grade": grade_name(d.grade, lang),
        }
        for d in analysis.worst(WORST)
    ]
    thresholds = analysis.thresholds
    marks = {str(d.move): [MARKS[d.grade], grade_name(d.grade, lang)] for d in analysis.decisions if d.grade}
    return _fragment(
        render_page(
            "analysis.html",
            lang,
            room_id=room.id,
            unit=unit_name(unit, lang),
            equity=unit == EQUITY,
            lost=loss_name(unit, lang),
            players=player_rows(analysis, names, lang),
            worst=worst,
            graph=plot(analysis, names, lang, move),
            move=move,
            moves=analysis.moves,
            decision=None if decision is None else decision_view(decision, room.game.id, names, unit, lang),
            marks=json.dumps(marks, ensure_ascii=False),
            thresholds={
                "doubtful": loss_text(thresholds.doubtful, unit, lang),
                "bad": loss_text(thresholds.bad, unit, lang),
                "very_bad": loss_text(thresholds.very_bad, unit, lang),
            },
            note=estimate_note(lang) if analysis.estimate else "",
        )
    )
