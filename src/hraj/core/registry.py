"""The registry of games: `hraj.GAMES` and `hraj.game(id, **options)`.

Games are found through the `hraj.games` entry-point group of the installed packages
(hraj's own four are declared in its pyproject.toml), so the core names no game and a
game can come from another package. Each entry point names a `Game` subclass, loaded on
first use. A game's other parts live next to its rules module, in the same package:
`bots` (a `BOTS` dict), `tui` (the terminal renderer), `web` (the browser table) —
`game_part(id, "tui")` finds them without anyone naming the game; its phrases in its own
`locale` folder (`game_locales`, read by `hraj.i18n`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Iterator, Sequence
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any, overload

from hraj.core.errors import InvalidOption
from hraj.core.game import Game

#: The entry-point group in which a package registers its games.
GROUP = "hraj.games"

#: Games registered at run time (`register`), after the installed ones.
_added: dict[str, EntryPoint] = {}
#: Bumped by every `register` and `unregister`, so that what is cached per set of games
#: (the catalogs of `hraj.i18n`) can tell a new set from the old.
_generation = [0]


@functools.cache
def _installed() -> dict[str, EntryPoint]:
    """The installed games, in the order their classes ask for (`Game.order`)."""
    found = sorted(entry_points(group=GROUP), key=lambda entry: (_load(entry).order, entry.name))
    return {entry.name: entry for entry in found}


def _load(entry: EntryPoint) -> type[Game[Any, Any]]:
    """The Game subclass an entry point names, checked: a package whose entry point
    names something else hears which one, instead of failing later at a distance."""
    loaded: object = entry.load()
    if not (isinstance(loaded, type) and issubclass(loaded, Game)):
        raise TypeError(f"the entry point {entry.name} = {entry.value} of {GROUP} names no Game subclass")
    return loaded


def _entries() -> dict[str, EntryPoint]:
    return {**_installed(), **_added}


class GameIds(Sequence[str]):
    """The ids of every registered game, in the order they were declared: a live
    sequence, so a game registered at run time appears everywhere at once."""

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return tuple(_entries())[index]

    def __len__(self) -> int:
        return len(_entries())

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_entries()))

    def __contains__(self, game_id: object) -> bool:
        return game_id in _entries()

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, (tuple, list, GameIds)) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(self))


GAMES = GameIds()


def register(entry: EntryPoint | type[Game[Any, Any]]) -> str:
    """Add a game at run time (a program's own game, or a test's): an entry point of
    the `hraj.games` group, or the Game subclass itself. Returns its id."""
    _generation[0] += 1
    if isinstance(entry, EntryPoint):
        _added[entry.name] = entry
        return entry.name
    value = f"{entry.__module__}:{entry.__qualname__}"
    _added[entry.id] = EntryPoint(name=entry.id, value=value, group=GROUP)
    return entry.id


def unregister(game_id: str) -> None:
    """Forget a game added by `register` (installed games stay)."""
    _generation[0] += 1
    _added.pop(game_id, None)


def generation() -> int:
    """A number that changes whenever a game is registered or forgotten at run time."""
    return _generation[0]


@functools.cache
def _declared() -> dict[str, EntryPoint]:
    """The installed games' entry points by name, none of them loaded."""
    return {entry.name: entry for entry in sorted(entry_points(group=GROUP), key=lambda entry: entry.name)}


@functools.cache
def _locales(generation: int) -> tuple[tuple[str, Path], ...]:
    found = []
    for name, entry in {**_declared(), **_added}.items():
        spec = importlib.util.find_spec(entry.module.rpartition(".")[0])  # imports its parents only
        if spec is not None and spec.submodule_search_locations:
            found.append((name, Path(next(iter(spec.submodule_search_locations))) / "locale"))
    return tuple(found)


def game_locales() -> tuple[tuple[str, Path], ...]:
    """Each registered game's id and the `locale` folder of its package (its own gettext
    catalogs, `<lang>/LC_MESSAGES/<id>.po`), found without importing the game, so that
    `hraj --help` reads the catalogs without loading every game's rules."""
    return _locales(_generation[0])


def game_class(game_id: str) -> type[Game[Any, Any]]:
    """The Game subclass registered under `game_id`."""
    entries = _entries()
    try:
        entry = entries[game_id.strip().lower()]
    except (KeyError, AttributeError):
        raise InvalidOption(
            "There is no game {game}; choose one of: {known}.", game=game_id, known=", ".join(entries)
        ) from None
    return _load(entry)


def game(game_id: str, **options: object) -> Game[Any, Any]:
    """A game with validated options; raises InvalidOption with the reason otherwise."""
    return game_class(game_id)(**options)


def game_package(game_id: str) -> str:
    """The package that holds a game: its folder, the same shape for every game."""
    return game_class(game_id).__module__.rpartition(".")[0]


def game_folder(game_id: str) -> Path:
    """The folder of a game's package (its templates, rules pages and data)."""
    module = importlib.import_module(game_class(game_id).__module__)
    assert module.__file__ is not None
    return Path(module.__file__).parent


def game_part(game_id: str, part: str) -> ModuleType | None:
    """A module of the game's own folder (`bots`, `tui`, `web`); None if it has none."""
    name = f"{game_package(game_id)}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise  # the part exists but something it imports is missing
        return None
