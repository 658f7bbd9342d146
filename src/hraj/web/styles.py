"""How each game's table looks: the `table.css` of every registered game's folder, served
as one style sheet beside the shared `style.css`.

A game brings its own look the way it brings its table template, so a new game needs no
edit here; one request serves every page, since the start, rules and replay pages show
tables too.
"""

from __future__ import annotations

import hashlib
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import Response

import hraj
from hraj.core.registry import game_folder, generation

router = APIRouter(include_in_schema=False)

#: Where pages load the games' style sheet from.
GAMES_CSS = "/games.css"


def games_css() -> tuple[str, str]:
    """Every game's `table.css`, in the registry's order, and an entity tag of the whole."""
    return _games_css(generation())


@cache
def _games_css(generation: int) -> tuple[str, str]:
    """`games_css` for one set of registered games (as the catalogs are kept)."""
    parts = []
    for game_id in hraj.GAMES:
        path = game_folder(game_id) / "table.css"
        if path.is_file():
            parts.append(f"/* {game_id} */\n{path.read_text(encoding='utf-8')}")
    text = "\n".join(parts)
    return text, '"' + hashlib.sha256(text.encode()).hexdigest()[:16] + '"'


@router.get(GAMES_CSS)
async def games_style(request: Request) -> Response:
    text, tag = games_css()
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(text, media_type="text/css", headers=headers)
