"""The site: the server's HTTP and WebSocket API with the browser's pages on it."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from hraj.server.app import create_api
from hraj.server.fairness import new_seed
from hraj.server.settings import Settings
from hraj.store import Store
from hraj.web import STATIC_DIR
from hraj.web.advice import router as advice
from hraj.web.pages import error_page
from hraj.web.pages import router as pages
from hraj.web.people import router as people
from hraj.web.play_now import router as play_now
from hraj.web.profiles import router as profiles
from hraj.web.rollouts import router as rollouts
from hraj.web.styles import router as styles


def create_app(settings: Settings, store: Store | None = None, seeds: Callable[[], str] = new_seed) -> FastAPI:
    """What `hraj serve` runs: the API (`hraj.server.app.create_api`, whose arguments these
    are), the pages, hints and rules of `hraj.web` and their CSS and JS under `/static`
    (each game's own look at `/games.css`);
    an error at a page's address is answered as a page in the page's language."""
    app = create_api(settings, store, seeds, page_error=error_page)
    app.include_router(pages)
    app.include_router(people)
    app.include_router(play_now)
    app.include_router(profiles)
    app.include_router(advice)
    app.include_router(rollouts)
    app.include_router(styles)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
