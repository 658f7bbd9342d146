"""hraj: tabletop games to play, replay and pit bots against (`hraj.GAMES` names them)."""

from hraj.core import (
    GAMES,
    Game,
    HrajError,
    IllegalAction,
    InvalidAction,
    InvalidOption,
    InvalidRecord,
    Outcome,
    State,
    game,
)

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Game",
    "HrajError",
    "IllegalAction",
    "InvalidAction",
    "InvalidOption",
    "InvalidRecord",
    "Outcome",
    "State",
    "__version__",
    "game",
]
