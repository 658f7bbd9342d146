"""`hraj games`: the registered games with their options and bots."""

from __future__ import annotations

import typer

import hraj
from hraj.cli.common import LangOption, console, language
from hraj.cli.help import HelpfulCommand
from hraj.cli.summary import COMMANDS
from hraj.core import game_class
from hraj.i18n import t

commands = typer.Typer()


@commands.command(cls=HelpfulCommand, help=COMMANDS["games"])
def games(lang: LangOption = None) -> None:
    from rich.table import Table

    from hraj.core.bot import bot_levels, bot_names, make_bot
    from hraj.i18n import bot_label

    lang = language(lang)
    table = Table(title=t("Games", lang))
    for column in ("id", "Game", "Options", "Bots"):
        table.add_column(t(column, lang))
    for game_id in hraj.GAMES:
        cls = game_class(game_id)
        options = "\n".join(
            f"{name}{'' if spec.default is None else f'={spec.default}'}: {t(spec.help, lang)}"
            for name, spec in cls.options_spec.items()
        )
        levels = bot_levels(game_id)
        bots = [
            f"{name} ({bot_label(game_id, name, lang)})"
            if name in levels
            else f"{name}: {t(make_bot(game_id, name).help, lang)}"
            for name in bot_names(game_id)
        ]
        table.add_row(game_id, t(cls.name, lang), options, "\n".join(bots), style=None)
    console().print(table, markup=False)
