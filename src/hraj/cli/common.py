"""What the commands of `hraj` share: the `--lang`, `--option` and `--seed` options,
the parsers of numbers typed on the command line, the console, and making a game
from its options.

Imported by every command, so it imports only Typer and hraj's core at the top.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hraj.cli.help import current_language
from hraj.cli.summary import LANG_FLAGS, LANG_HELP, LANG_METAVAR
from hraj.core import InvalidOption, game_class
from hraj.core.errors import file_reason
from hraj.i18n import check_lang, t

if TYPE_CHECKING:
    from rich.console import Console

    from hraj.core.game import Game


def _(text: str) -> str:
    """Marks a help text for the catalogs; the help page translates it when shown."""
    return text


LangOption = Annotated[str | None, typer.Option(*LANG_FLAGS, metavar=LANG_METAVAR, help=LANG_HELP, show_default=False)]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar=_("NAME=VALUE"),
        help=_("A game option as NAME=VALUE, e.g. -o players=3 (repeatable)."),
    ),
]


def whole_number(text: str | int) -> int:
    """A whole number typed on the command line (or an option's default)."""
    try:
        return int(str(text).strip())
    except ValueError:
        raise typer.BadParameter(t("{value} is not a whole number.", current_language(), value=text)) from None


def at_least_one(text: str | int) -> int:
    """A count that cannot be nothing (games to play, decisions to list): a whole number, at least 1."""
    value = whole_number(text)
    if value < 1:
        raise typer.BadParameter(t("{value} is not a whole number of at least 1.", current_language(), value=text))
    return value


def seconds(text: str | float) -> float:
    """A duration in seconds, at least 0.1 (a decimal comma is fine too)."""
    try:
        value = float(str(text).strip().replace(",", "."))
    except ValueError:
        value = -1.0
    if not value >= 0.1:
        raise typer.BadParameter(
            t("{value} is not a number of seconds of at least 0.1.", current_language(), value=text)
        )
    return value


SeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        parser=whole_number,
        metavar=_("NUMBER"),
        help=_("Seed for dice, cards and bots (random if not given)."),
    ),
]


def language(lang: str | None) -> str:
    """The language of a command: its `--lang`, else the one `main` chose."""
    return check_lang(lang) if lang else current_language()


def console(*, stderr: bool = False) -> Console:
    """A Rich console that never turns `:name:` in names or file text into emoji."""
    from rich.console import Console

    return Console(stderr=stderr, emoji=False)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidOption("Write game options as NAME=VALUE, not {pair}.", pair=pair)
        options[name.strip()] = value.strip()
    return options


def make_game(game_id: str, options: Mapping[str, object], seats: int | None = None) -> Game[Any, Any]:
    """The game with its options; the number of seats fills `players` when not given."""
    cls = game_class(game_id)
    if seats is not None and "players" in cls.options_spec and "players" not in options:
        options = {**options, "players": seats}
    game = cls(**options)
    if seats is not None and game.players != seats:
        raise InvalidOption(
            "With these options {game} is a game for {players} players, but {seats} seats were named.",
            game=cls.name,
            players=game.players,
            seats=seats,
        )
    return game


def os_reason(error: OSError, lang: str) -> str:
    """Why a file could not be used, in words of the user's language."""
    return t(file_reason(error), lang)
