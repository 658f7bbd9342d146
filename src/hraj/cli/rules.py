"""`hraj rules`: a game's rules page in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from hraj.cli.common import LangOption, _, console, language
from hraj.cli.help import HelpfulCommand
from hraj.cli.summary import COMMANDS
from hraj.core import InvalidOption, game_class
from hraj.i18n import t

commands = typer.Typer()


def rules_page(game_id: str, lang: str) -> Path | None:
    """The game's rules page (Markdown) in `lang`, from the game's own folder."""
    from hraj.core.registry import game_folder

    path = game_folder(game_id) / "rules" / f"{lang}.md"
    return path if path.is_file() else None


@commands.command(cls=HelpfulCommand, help=COMMANDS["rules"])
def rules(
    game_id: Annotated[
        str,
        typer.Argument(metavar=_("GAME"), help=_("The game: {games}."), show_default=False),
    ],
    lang: LangOption = None,
) -> None:
    from rich.markdown import Markdown

    lang = language(lang)
    cls = game_class(game_id)
    path = rules_page(cls.id, lang)
    if path is None:
        raise InvalidOption("The rules of {game} are not written in this language yet.", game=t(cls.name, lang))
    console().print(Markdown(path.read_text(encoding="utf-8")))
