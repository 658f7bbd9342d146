"""The registry of games: `hraj.GAMES` and `hraj.game(id, **options)`.

Games are listed by import path and loaded on first use, so `core` depends on no game
and importing hraj stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

from hraj.core.errors import InvalidOption
from hraj.core.game import Game

#: Game id -> "module:Class". A game joins hraj (and the conformance suite) here.
_ENTRY_POINTS: dict[str, str] = {
    "qwixx": "hraj.games.qwixx.rules:Qwixx",
    "trefa": "hraj.games.trefa.rules:Trefa",
    "backgammon": "hraj.games.backgammon.rules:Backgammon",
    "abluxxen": "hraj.games.abluxxen.rules:Abluxxen",
}

GAMES: tuple[str, ...] = tuple(_ENTRY_POINTS)


def game_class(game_id: str) -> type[Game[Any, Any]]:
    """The Game subclass registered under `game_id`."""
    try:
        entry = _ENTRY_POINTS[game_id.strip().lower()]
    except (KeyError, AttributeError):
        raise InvalidOption(
            "There is no game {game}; choose one of: {known}.", game=game_id, known=", ".join(GAMES)
        ) from None
    module_name, _, class_name = entry.partition(":")
    cls: type[Game[Any, Any]] = getattr(importlib.import_module(module_name), class_name)
    return cls


def game(game_id: str, **options: Any) -> Game[Any, Any]:
    """A game with validated options; raises InvalidOption with the reason otherwise."""
    return game_class(game_id)(**options)
