"""hraj: tabletop games to play, replay and pit bots against (`hraj.GAMES` names them).

The names below come from `hraj.core` when first used, not when `hraj` is imported:
`hraj --help` imports the package and must start in a few hundredths of a second.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself would cost `hraj --help` a tenth of its time
if TYPE_CHECKING:
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


def __getattr__(name: str) -> object:
    if name in __all__:
        core = __import__("hraj.core", fromlist=[name])  # the built-in: importlib would cost more
        return getattr(core, name)
    raise AttributeError(f"module 'hraj' has no attribute {name!r}")
