"""`hraj arena`: bots against each other, with confidence intervals."""

from __future__ import annotations

from typing import Annotated

import typer

from hraj.cli.common import (
    LangOption,
    OptionsOption,
    _,
    at_least_one,
    console,
    language,
    make_game,
    parse_options,
    whole_number,
)
from hraj.cli.help import HelpfulCommand
from hraj.cli.summary import COMMANDS
from hraj.core import game_class
from hraj.i18n import t

commands = typer.Typer()


@commands.command(
    cls=HelpfulCommand,
    help=COMMANDS["arena"],
)
def arena(
    game_id: Annotated[str, typer.Argument(metavar=_("GAME"), help=_("The game to play."), show_default=False)],
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            "-s",
            metavar=_("BOTS"),
            help=_("Bots in the seats, comma-separated; by default the game's strongest bot against its middle level."),
        ),
    ] = None,
    number: Annotated[
        int,
        typer.Option("--games", "-n", parser=at_least_one, metavar=_("NUMBER"), help=_("How many games to play.")),
    ] = 1000,
    option: OptionsOption = None,
    seed: Annotated[
        int, typer.Option("--seed", parser=whole_number, metavar=_("NUMBER"), help=_("Seed of the first game."))
    ] = 0,
    lang: LangOption = None,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from hraj.bots.arena import run_arena
    from hraj.core.bot import default_bot, make_bot, strongest_bot
    from hraj.i18n import number as local_number
    from hraj.i18n import percent, tn

    lang = language(lang)
    options = parse_options(option)
    if seats is None:
        seats = ",".join([strongest_bot(game_id), default_bot(game_id)])
    names = [name.strip() for name in seats.split(",") if name.strip()]
    game = make_game(game_id, options, len(names))
    for name in names:
        make_bot(game.id, name)  # an unknown bot fails before the first game
    with Progress(
        TextColumn(t("Playing", lang)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
    ) as progress:
        task = progress.add_task("arena", total=number)
        result = run_arena(game, names, number, seed, on_game=lambda done: progress.update(task, completed=done))
    title = tn("{game}: {count} game", "{game}: {count} games", number, lang, game=t(game_class(game_id).name, lang))
    table = Table(title=title)
    table.add_column(t("Bot", lang))
    table.add_column(t("Win rate (95% CI)", lang), justify="right")
    table.add_column(t("Mean score (95% CI)", lang), justify="right")
    for index, entrant in enumerate(result.entrants):
        win, score = result.win_rate(index), result.mean_score(index)
        table.add_row(
            entrant.label,
            f"{percent(win.mean, lang)} ± {percent(win.half_width, lang)}",
            f"{local_number(score.mean, lang, digits=2)} ± {local_number(score.half_width, lang, digits=2)}",
        )
    console().print(table, markup=False)
