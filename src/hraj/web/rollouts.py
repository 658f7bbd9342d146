"""Rollouts from the review of a finished game: start, watch, stop, and keep.

`POST /r/{room}/rollout?move=N` starts the rollout of move N (`hraj.analysis.rollout`)
in the background, spread over worker processes; `GET` says how far it is (trials
done of all) and, once done, gives the result as a table; `DELETE` stops it. A
finished game never changes, so a rollout done once is kept in the store and every
later look reads it from there. One rollout runs at a time per server process; a
second asks to wait.

The trials per option (36 by default: every roll of two dice once) and the
worker processes (the machine's cores) come from `HRAJ_ROLLOUT_TRIALS` and
`HRAJ_ROLLOUT_WORKERS`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import zlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from hraj.analysis.rollout import TRIALS, Rollout, rollout
from hraj.analysis.text import loss_text, unit_name, value_text
from hraj.core.errors import HrajError
from hraj.i18n import bot_name, error_text, number, t
from hraj.server.protocol import ServerError
from hraj.server.room import Room
from hraj.server.rooms import Rooms
from hraj.store import Store
from hraj.store.rollouts import load_rollout, save_rollout
from hraj.web import tables
from hraj.web.render import pick_lang, render_page, seat_names

router = APIRouter(include_in_schema=False)


def _(text: str) -> str:
    """Marks a text for the catalogs; it is translated where it is shown."""
    return text


BUSY = _("Another rollout is running on the server; try again when it is done.")
NOT_OVER = _("The analysis opens when the game is over.")
NO_ROOM = _("There is no such room. The link may be mistyped.")


@dataclass
class Job:
    """A rollout in progress: trials done of all, and the flag that stops it."""

    total: int
    done: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    result: Rollout | None = None
    error: str | None = None
    finished: bool = False


_jobs: dict[tuple[str, int], Job] = {}
#: The worker processes, started by the first rollout and kept.
_pools: dict[int, ProcessPoolExecutor] = {}


def trials_setting() -> int:
    """Trials per option: `HRAJ_ROLLOUT_TRIALS`, else 36."""
    text = os.environ.get("HRAJ_ROLLOUT_TRIALS", "")
    return int(text) if text.isdigit() and int(text) >= 2 else TRIALS


def workers_setting() -> int:
    """Worker processes: `HRAJ_ROLLOUT_WORKERS`, else the machine's cores."""
    text = os.environ.get("HRAJ_ROLLOUT_WORKERS", "")
    return int(text) if text.isdigit() and int(text) >= 1 else max(os.cpu_count() or 1, 1)


def _executor() -> ProcessPoolExecutor | None:
    """The worker processes, started once and kept (None: play in the server's thread)."""
    workers = workers_setting()
    if workers <= 1:
        return None
    if workers not in _pools:
        _pools[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    return _pools[workers]


def _lang(request: Request) -> str:
    return pick_lang(request.query_params.get("lang"), request.cookies.get("hraj_lang"))


def _move(request: Request) -> int | None:
    text = request.query_params.get("move", "")
    return int(text) if text.isdigit() else None


async def _room(request: Request, room_id: str) -> Room | None:
    rooms: Rooms = request.app.state.rooms
    try:
        return await rooms.get(room_id)
    except ServerError:
        return None


def _store(request: Request) -> Store:
    rooms: Rooms = request.app.state.rooms
    return rooms.store


def _seed(room_id: str) -> int:
    """The room's analysis seed: the rollout of a room always plays the same luck."""
    return zlib.crc32(room_id.encode())


def _answer(status: str, lang: str, code: int = 200, **more: object) -> JSONResponse:
    return JSONResponse({"status": status, **more}, status_code=code, headers={"cache-control": "no-store"})


def result_html(result: Rollout, room: Room, lang: str) -> str:
    """The rollout as a table: each option's mean ± standard error and its gap to the best."""
    names = seat_names(room.public_seats(), lang, room.game.id)
    best = result.options[0].mean if result.options else 0.0
    rows = [
        {
            "move": tables.describe(room.game.id, option.action, lang, names),
            "played": option.action == result.played,
            "mean": value_text(option.mean, result.unit, lang),
            "error": loss_text(option.error, result.unit, lang),
            "gap": "" if index == 0 else loss_text(best - option.mean, result.unit, lang),
            "gap_error": "" if index == 0 else loss_text(option.gap_error, result.unit, lang),
        }
        for index, option in enumerate(result.options)
    ]
    return render_page(
        "rollout.html",
        lang,
        rows=rows,
        unit=unit_name(result.unit, lang),
        trials=result.trials,
        trials_text=number(result.trials, lang),
        bot=bot_name(room.game.id, result.bot, lang),
    )


@router.get("/r/{room_id}/rollout")
async def rollout_status(room_id: str, request: Request) -> Response:
    """How far the rollout of `?move=N` is: none, running (done, total), done (html)."""
    lang = _lang(request)
    room = await _room(request, room_id)
    move = _move(request)
    if room is None or move is None:
        return _answer("error", lang, 404, text=t(NO_ROOM, lang))
    job = _jobs.get((room.id, move))
    if job is not None and not job.finished:
        return _answer("running", lang, done=job.done, total=job.total)
    if job is not None and job.error is not None:
        _jobs.pop((room.id, move), None)
        return _answer("error", lang, 422, text=job.error)
    store = _store(request)
    kept = await asyncio.to_thread(load_rollout, store, room.id, move, trials_setting(), _seed(room.id))
    if kept is None:
        return _answer("none", lang)
    return _answer("done", lang, html=result_html(Rollout.from_json(kept), room, lang))


@router.post("/r/{room_id}/rollout")
async def rollout_start(room_id: str, request: Request) -> Response:
    """Start the rollout of `?move=N` (nothing new if it runs or is kept already)."""
    lang = _lang(request)
    room = await _room(request, room_id)
    move = _move(request)
    if room is None or move is None:
        return _answer("error", lang, 404, text=t(NO_ROOM, lang))
    if not room.over:
        return _answer("error", lang, 409, text=t(NOT_OVER, lang))
    key = (room.id, move)
    if key in _jobs:
        return await rollout_status(room_id, request)
    trials, seed = trials_setting(), _seed(room.id)
    store = _store(request)
    if await asyncio.to_thread(load_rollout, store, room.id, move, trials, seed) is not None:
        return await rollout_status(room_id, request)
    if any(not job.finished for job in _jobs.values()):
        return _answer("busy", lang, 429, text=t(BUSY, lang))
    job = _jobs[key] = Job(total=trials)
    record: dict[str, Any] = dict(room.state.record())

    def work() -> None:
        def advance(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            result = rollout(
                room.game,
                record,
                move,
                trials=trials,
                seed=seed,
                progress=advance,
                cancelled=job.stop.is_set,
                executor=_executor(),
            )
            if result is not None:
                save_rollout(store, room.id, move, trials, seed, result.to_json())
            job.result = result
        except HrajError as error:
            job.error = error_text(error, lang)
        finally:
            job.finished = True
            if job.error is None:
                _jobs.pop(key, None)

    asyncio.get_running_loop().run_in_executor(None, work)
    return _answer("running", lang, 202, done=0, total=trials)


@router.delete("/r/{room_id}/rollout")
async def rollout_stop(room_id: str, request: Request) -> Response:
    """Stop the rollout of `?move=N`; nothing of it is kept."""
    lang = _lang(request)
    room = await _room(request, room_id)
    move = _move(request)
    job = None if room is None or move is None else _jobs.get((room.id, move))
    if job is None:
        return _answer("none", lang)
    job.stop.set()
    return _answer("stopped", lang)
