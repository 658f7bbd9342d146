"""`hraj replay`: a recorded game move by move, or a position given as a file or as text."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hraj.cli.common import LangOption, _, console, language
from hraj.cli.help import HelpfulCommand
from hraj.cli.records import game_formats, load_records, read_file, record_game, record_names
from hraj.cli.summary import COMMANDS
from hraj.i18n import t

if TYPE_CHECKING:
    from rich.console import Console

commands = typer.Typer()


def show_position(path: Path, lang: str, out: Console) -> bool:
    """Show a position file of a game (a text its `formats` module reads); False if
    `path` holds none."""
    if path.suffix.lower() == ".json":
        return False
    return print_position(read_file(path), lang, out)


def show_position_argument(source: str, lang: str, out: Console) -> bool:
    """Show a position given as the argument itself (e.g. an XGID, not a file's name);
    False if `source` is a file or holds no position."""
    if Path(source).exists():
        return False
    return print_position(source, lang, out)


def print_position(text: str, lang: str, out: Console) -> bool:
    """Draw the position `text` holds in the game whose notation it is, and print its
    IDs; False if no game reads it."""
    from hraj.tui.play import renderer

    for game_id, formats in game_formats():
        if not hasattr(formats, "is_position_text") or not formats.is_position_text(text):
            continue
        state = formats.state_from_text(text)
        names = [t("Player {n}", lang, n=seat + 1) for seat in range(state.game.players)]
        out.print(renderer(game_id).render(state.view(None), lang, names))
        out.print(formats.position_text(state), markup=False, highlight=False, emoji=False)  # `:-1:` is no emoji
        return True
    return False


def record_genders(record: Mapping[str, object], players: int) -> list[str | None]:
    """The grammatical genders in the seats a saved game keeps (`human:Eva:f`); None where
    none was given or the record keeps no seats."""
    from hraj.tui.play import PEOPLE, name_and_gender

    seats = record.get("seats")
    parts = [part.strip() for part in seats.split(",") if part.strip()] if isinstance(seats, str) else []
    if len(parts) != players:
        return [None] * players
    genders: list[str | None] = []
    for part in parts:
        word, _, rest = part.partition(":")
        name, gender = name_and_gender(rest)
        genders.append(gender if word.lower() in PEOPLE and name else gender or "m")
    return genders


@commands.command(cls=HelpfulCommand, help=COMMANDS["replay"])
def replay(
    source: Annotated[
        str,
        typer.Argument(
            metavar=_("FILE"),
            help=_("What to show: {replay_sources}."),
            show_default=False,
        ),
    ],
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help=_("Go through the game move by move: Enter next, b back, a number jumps to that move, q quits."),
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    from rich.text import Text

    from hraj.tui.replay import Replay

    lang = language(lang)
    out = console()
    if show_position_argument(source, lang, out):
        return
    path = Path(source)
    if show_position(path, lang, out):
        return
    for loaded in load_records(path):
        record, game = record_game(loaded)
        full = game.replay(record)  # checks the whole record before showing anything
        names = record_names(record, game.players, lang)
        shown = Replay(game, full, names, lang, out, record_genders(record, game.players))
        if step:
            shown.step_through(lambda prompt: out.input(Text(prompt)))
        else:
            shown.show_all()
