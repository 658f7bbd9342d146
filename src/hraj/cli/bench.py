"""`hraj bench`: the speed of the rules engine in random playouts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

import hraj
from hraj.cli.common import LangOption, OptionsOption, _, console, language, make_game, parse_options, seconds
from hraj.cli.help import HelpfulCommand
from hraj.cli.summary import COMMANDS
from hraj.i18n import t

if TYPE_CHECKING:
    from hraj.core.game import Game

commands = typer.Typer()


@commands.command(cls=HelpfulCommand, help=COMMANDS["bench"])
def bench(
    game_id: Annotated[
        str | None,
        typer.Argument(metavar=_("[GAME]"), help=_("One game; all games if left out."), show_default=False),
    ] = None,
    duration: Annotated[
        float, typer.Option("--seconds", parser=seconds, metavar=_("SECONDS"), help=_("Time per game."))
    ] = 3.0,
    option: OptionsOption = None,
    lang: LangOption = None,
) -> None:
    from rich.table import Table

    from hraj.i18n import number as local_number

    lang = language(lang)
    out = console()
    ids = [game_id] if game_id else list(hraj.GAMES)
    table = Table(title=t("Random playouts", lang))
    table.add_column(t("Game", lang))
    table.add_column(t("Games", lang), justify="right")
    table.add_column(t("Games per second", lang), justify="right")
    for one in ids:
        game = make_game(one, parse_options(option) if game_id else {})
        with out.status(t("Measuring {game}…", lang, game=one)):
            played, rate = playouts_per_second(game, duration)
        table.add_row(one, local_number(played, lang), local_number(round(rate), lang))
    out.print(table, markup=False)


def playouts_per_second(game: Game[Any, Any], duration: float, seed: int = 0) -> tuple[int, float]:
    """Random playouts for about `duration` seconds: (games played, games per second)."""
    import random
    import time

    from hraj.core.driver import random_playout

    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < duration:
        random_playout(game.new_state(), rng)
        played += 1
    return played, played / elapsed
