"""The `hraj` command: play, replay, arena, bench, games (and serve/verify with the server).

Every user error becomes one clear line in the user's language and exit code 2; no
traceback reaches a user. The language of messages and help comes from `--lang` or
the HRAJ_LANG environment variable (Czech by default).
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import hraj
from hraj.bots.arena import run_arena
from hraj.core import HrajError, InvalidOption, InvalidRecord, game_class
from hraj.core.bot import bot_names, make_bot
from hraj.core.driver import random_playout
from hraj.core.game import Game, State
from hraj.i18n import DEFAULT_LANG, LANGS, check_lang, error_text, t

ENV_LANG = os.environ.get("HRAJ_LANG", DEFAULT_LANG)
HELP_LANG = ENV_LANG if ENV_LANG in LANGS else DEFAULT_LANG


def _(text: str) -> str:
    """Help texts in the language of the environment."""
    return t(text, HELP_LANG)


app = typer.Typer(
    name="hraj",
    help=_("Qwixx, Trefa, Backgammon and Abluxxen: play in the terminal, replay records, pit bots against each other."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

LangOption = Annotated[str, typer.Option("--lang", "-l", help=_("Language: cs, sk or en."))]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help=_("A game option as NAME=VALUE, e.g. -o players=3 (repeatable).")),
]
SeedOption = Annotated[
    int | None, typer.Option("--seed", help=_("Seed for dice, cards and bots (random if not given)."))
]


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidOption("Write game options as NAME=VALUE, not {pair}.", pair=pair)
        options[name.strip()] = value.strip()
    return options


def make_game(game_id: str, options: dict[str, Any], seats: int | None = None) -> Game[Any, Any]:
    """The game with its options; the number of seats fills `players` when not given."""
    cls = game_class(game_id)
    if seats is not None and "players" in cls.options_spec and "players" not in options:
        options = {**options, "players": seats}
    game = cls(**options)
    if seats is not None and game.players != seats:
        raise InvalidOption(
            "{game} with these options seats {players} players, but {seats} seats were named.",
            game=cls.name,
            players=game.players,
            seats=seats,
        )
    return game


@app.command(help=_("List the games with their options and bots."))
def games(lang: LangOption = ENV_LANG) -> None:
    """List the games with their options and bots."""
    lang = check_lang(lang)
    table = Table(title=t("Games", lang))
    for column in ("id", "Name", "Options", "Bots"):
        table.add_column(t(column, lang))
    for game_id in hraj.GAMES:
        cls = game_class(game_id)
        options = "\n".join(f"{name}={spec.default}: {t(spec.help, lang)}" for name, spec in cls.options_spec.items())
        table.add_row(game_id, cls.name, options, ", ".join(bot_names(game_id)))
    console.print(table)


@app.command(help=_("Play a game in the terminal: people at one keyboard and bots."))
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=_("The game: qwixx, trefa, backgammon, abluxxen."))],
    seats: Annotated[
        str,
        typer.Option(
            "--seats",
            "-s",
            help=_("Who sits where, comma-separated: me (a person; human:Name for a named one) or a bot name."),
        ),
    ] = "me,greedy,greedy",
    option: OptionsOption = None,
    seed: SeedOption = None,
    save: Annotated[Path | None, typer.Option("--save", help=_("Write the game's record to this file."))] = None,
    lang: LangOption = ENV_LANG,
) -> None:
    """Play a game in the terminal: people at one keyboard and bots."""
    from hraj.tui.play import QuitGame, TerminalTable, parse_seats

    lang = check_lang(lang)
    game_class(game_id)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    players = parse_seats(game_id, seats, seed, lang)
    game = make_game(game_id, parse_options(option), len(players))
    table = TerminalTable(game, players, lang=lang, seed=seed, console=console)
    try:
        state = table.run()
    except (QuitGame, EOFError):
        console.print(t("Game left unfinished.", lang))
        state = table.game_state
    if save is not None:
        save.write_text(json.dumps(state.record(), indent=1, ensure_ascii=False), encoding="utf-8")
        console.print(t("Record saved to {path}.", lang, path=str(save)))


def read_file(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InvalidRecord("Cannot read {path}: {why}", path=str(path), why=error.strerror or str(error)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older backgammon programs wrote Latin-1


def load_records(path: Path) -> list[dict[str, Any]]:
    """Records from a hraj JSON record or a format a game can import (e.g. backgammon .mat)."""
    text = read_file(path)
    if path.suffix.lower() != ".json" and "backgammon" in hraj.GAMES:
        formats = importlib.import_module("hraj.games.backgammon.formats")
        records: list[dict[str, Any]] = formats.load_file(path)
        return records
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecord("{path} is not valid JSON (line {line}).", path=str(path), line=error.lineno) from None
    return data if isinstance(data, list) else [data]


def show_position(path: Path, lang: str) -> bool:
    """Show a backgammon position file (XGID, gnubg IDs); False if `path` holds none."""
    if path.suffix.lower() == ".json" or "backgammon" not in hraj.GAMES:
        return False
    formats = importlib.import_module("hraj.games.backgammon.formats")
    text = read_file(path)
    if not formats.is_position_text(text):
        return False
    from hraj.tui.play import renderer

    state = formats.state_from_text(text)
    names = [t("Player {n}", lang, n=seat + 1) for seat in range(2)]
    console.print(renderer("backgammon").render(state.view(None), lang, names))
    console.print(formats.position_text(state))
    return True


@app.command(help=_("Show a recorded game move by move, checking every move against the rules."))
def replay(
    path: Annotated[
        Path,
        typer.Argument(
            metavar="FILE", help=_("A hraj record (.json), a backgammon .mat file, or an XGID or gnubg ID.")
        ),
    ],
    step: Annotated[bool, typer.Option("--step", help=_("Wait for Enter after each move."))] = False,
    lang: LangOption = ENV_LANG,
) -> None:
    """Show a recorded game move by move, checking every move against the rules."""
    from hraj.tui.play import renderer

    lang = check_lang(lang)
    if show_position(path, lang):
        return
    for record in load_records(path):
        game_id = record.get("game") if isinstance(record, dict) else None
        if not isinstance(game_id, str):
            raise InvalidRecord("The record names no game.")
        options = record.get("options", {})
        game = game_class(game_id)(**(options if isinstance(options, dict) else {}))
        full = game.replay(record)  # checks the whole record before showing anything
        view_module = renderer(game_id)
        names = [t("Player {n}", lang, n=seat + 1) for seat in range(game.players)]
        state = game.new_state()
        for number, (kind, seat, text) in enumerate(full.events(), start=1):
            if kind == "chance":
                state.apply_chance(text)
            elif kind == "move":
                assert seat is not None
                state.apply(seat, text)
            else:
                continue
            who = t("Chance", lang) if seat is None else names[seat]
            console.rule(f"{number}. {who}: {text}")
            if kind == "move":
                console.print(view_module.render(state.view(None), lang, names))
                if step:
                    console.input(t("Enter: next move", lang))
        console.print(view_module.render(state.view(None), lang, names))
        if state.outcome is not None:
            scores = ", ".join(f"{names[s]} {score:g}" for s, score in enumerate(state.outcome.scores))
            console.print(t("Final scores", lang) + ": " + scores)


@app.command(help=_("Pit bots against each other: win rates and mean scores with 95% confidence intervals."))
def arena(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=_("The game to play."))],
    seats: Annotated[
        str, typer.Option("--seats", "-s", help=_("Bots in the seats, comma-separated."))
    ] = "greedy,random",
    number: Annotated[int, typer.Option("--games", "-n", min=1, help=_("How many games to play."))] = 1000,
    option: OptionsOption = None,
    seed: Annotated[int, typer.Option("--seed", help=_("Seed of the first game."))] = 0,
    lang: LangOption = ENV_LANG,
) -> None:
    """Pit bots against each other: win rates and mean scores with 95% confidence intervals."""
    lang = check_lang(lang)
    names = [name.strip() for name in seats.split(",") if name.strip()]
    game = make_game(game_id, parse_options(option), len(names))
    for name in names:
        make_bot(game.id, name)  # an unknown bot fails before the first game
    with Progress(
        TextColumn(t("Playing", lang)), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err_console
    ) as progress:
        task = progress.add_task("arena", total=number)
        result = run_arena(game, names, number, seed, on_game=lambda done: progress.update(task, completed=done))
    table = Table(title=t("{game}: {games} games", lang, game=game_class(game_id).name, games=number))
    table.add_column(t("Bot", lang))
    table.add_column(t("Win rate (95% CI)", lang), justify="right")
    table.add_column(t("Mean score (95% CI)", lang), justify="right")
    for index, entrant in enumerate(result.entrants):
        win, score = result.win_rate(index), result.mean_score(index)
        table.add_row(
            entrant.label,
            f"{win.mean:.1%} ± {win.half_width:.1%}",
            f"{score.mean:.2f} ± {score.half_width:.2f}",
        )
    console.print(table)


def playouts_per_second(game: Game[Any, Any], seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random playouts for about `seconds`: (games played, games per second)."""
    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state: State[Any, Any] = game.new_state()
        random_playout(state, rng)
        played += 1
    return played, played / elapsed


@app.command(help=_("Measure random-playout games per second (the speed of the rules engine)."))
def bench(
    game_id: Annotated[str | None, typer.Argument(metavar="[GAME]", help=_("One game; all games if left out."))] = None,
    seconds: Annotated[float, typer.Option("--seconds", min=0.1, help=_("Time per game."))] = 3.0,
    option: OptionsOption = None,
    lang: LangOption = ENV_LANG,
) -> None:
    """Measure random-playout games per second (the speed of the rules engine)."""
    lang = check_lang(lang)
    ids = [game_id] if game_id else list(hraj.GAMES)
    table = Table(title=t("Random playouts", lang))
    table.add_column(t("Game", lang))
    table.add_column(t("Games", lang), justify="right")
    table.add_column(t("Games per second", lang), justify="right")
    for one in ids:
        game = make_game(one, parse_options(option) if game_id else {})
        with console.status(t("Measuring {game}…", lang, game=one)):
            played, rate = playouts_per_second(game, seconds)
        table.add_row(one, str(played), f"{rate:,.0f}")
    console.print(table)


def _register_server_commands() -> None:
    try:
        commands = importlib.import_module("hraj.server.commands")
    except ModuleNotFoundError:
        return
    commands.register(app)


_register_server_commands()


def main() -> None:
    """Entry point: run the app, turning user errors into one translated line."""
    lang = HELP_LANG
    for flag in ("--lang", "-l"):
        if flag in sys.argv[:-1]:
            candidate = sys.argv[sys.argv.index(flag) + 1].lower()
            lang = candidate if candidate in LANGS else lang
    try:
        app(standalone_mode=False)
    except HrajError as error:
        err_console.print(f"[red]{t('Error', lang)}:[/red] {error_text(error, lang)}")
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print(t("Interrupted.", lang))
        sys.exit(130)
    except typer.Abort:
        err_console.print(t("Interrupted.", lang))
        sys.exit(130)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except Exception as error:  # click's usage errors
        from click import ClickException

        if isinstance(error, ClickException):
            error.show()
            sys.exit(error.exit_code)
        raise
