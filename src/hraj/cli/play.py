"""`hraj play`: a game in the terminal, people at one keyboard and bots; `--save` keeps
its record and `--resume` continues a saved one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from hraj.cli.common import (
    LangOption,
    OptionsOption,
    SeedOption,
    _,
    console,
    language,
    make_game,
    os_reason,
    parse_options,
)
from hraj.cli.errors import Interrupted
from hraj.cli.help import HelpfulCommand
from hraj.cli.records import load_records, read_file, record_game, record_names
from hraj.cli.summary import COMMANDS
from hraj.core import InvalidOption, InvalidRecord, game_class
from hraj.i18n import t

if TYPE_CHECKING:
    from rich.console import Console

    from hraj.core.game import Game, State
    from hraj.core.record import Record

commands = typer.Typer()


def default_seats(game: Game[Any, Any]) -> str:
    """A person against the game's default bot level in every other seat."""
    from hraj.core.bot import default_bot

    return ",".join(["me", *[default_bot(game.id)] * (game.players - 1)])


def check_writable(path: Path, lang: str) -> None:
    """Fail before a game starts if its record could not be saved to `path`."""
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise InvalidOption("Cannot write {path}: {why}", path=str(path), why=os_reason(error, lang)) from None
    if not existed:
        path.unlink()


def save_record(path: Path, record: Record, out: Console, lang: str) -> None:
    try:
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
    except OSError as error:
        raise InvalidOption("Cannot write {path}: {why}", path=str(path), why=os_reason(error, lang)) from None
    out.print(t("Record saved to {path}.", lang, path=str(path)), markup=False)


def record_with_names(state: State[Any, Any], names: list[str]) -> Record:
    """The game's record with the players' names, which replays show (a record's extra
    fields are ignored by replay)."""
    record = state.record()
    record["players"] = names
    return record


@commands.command(cls=HelpfulCommand, help=COMMANDS["play"])
def play(
    game_id: Annotated[
        str | None,
        typer.Argument(metavar=_("GAME"), help=_("The game: {games}."), show_default=False),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            "-s",
            metavar=_("SEATS"),
            help=_(
                "Who sits where, comma-separated: me (a person; human:Name for a named one, "
                "human:Name:f or :m for she or he in the log) or a bot name. "
                "By default you against the game's middle bot level."
            ),
        ),
    ] = None,
    option: OptionsOption = None,
    seed: SeedOption = None,
    save: Annotated[
        Path | None, typer.Option("--save", metavar=_("FILE"), help=_("Write the game's record to this file."))
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar=_("FILE"),
            help=_(
                "Continue a saved game (a record written by --save); its players sit where they sat, "
                "and the record is saved back to it unless --save names another file."
            ),
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    import random

    from hraj.core.bot import make_bot, strongest_bot
    from hraj.tui.play import QuitGame, TerminalTable, parse_seats

    lang = language(lang)
    out = console()
    options = parse_options(option)
    saved: State[Any, Any] | None = None
    names: list[str] | None = None
    if resume is not None:
        game, saved, saved_seats, names, alone = resume_game(resume, lang)
        game_id, seats = game.id, seats or saved_seats
        if save is None and alone:
            save = resume  # the game goes on in its own file
    elif game_id is None:
        raise InvalidOption("Name a game, or a saved game with --resume.")
    else:
        game_class(game_id)
        if seats is None:
            seats = default_seats(make_game(game_id, options))
    if save is not None:
        check_writable(save, lang)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    players = parse_seats(game_id, seats, seed, lang)
    if saved is None:
        game = make_game(game_id, options, len(players))
    elif len(players) != game.players:
        raise InvalidOption(
            "With these options {game} is a game for {players} players, but {seats} seats were named.",
            game=game.name,
            players=game.players,
            seats=len(players),
        )
    for player, name in zip(players, names or [], strict=False):
        player.name = name
    advisor = make_bot(game.id, strongest_bot(game.id), seed + 7)
    table = TerminalTable(game, players, lang=lang, seed=seed, console=out, advisor=advisor)
    interrupted = False
    try:
        state = table.run(saved)
    except (QuitGame, EOFError):
        out.print(t("Game left unfinished.", lang))
        state = table.game_state
    except Interrupted:
        interrupted = True
        state = table.game_state
    if save is not None:
        record = record_with_names(state, table.names)
        record["seats"] = seats
        save_record(save, record, out, lang)
    if interrupted:
        raise Interrupted


def resume_game(path: Path, lang: str) -> tuple[Game[Any, Any], State[Any, Any], str, list[str], bool]:
    """A saved game to continue: the game, its state, who sat where, their names, and
    whether the file holds that record alone (as --save writes it), so that it can be
    saved back there."""
    records = load_records(path)
    alone = path.suffix.lower() == ".json" and isinstance(json.loads(read_file(path)), dict)
    record, game = record_game(records[0] if records else None)
    state = game.replay(record)
    if state.is_over:
        raise InvalidRecord("The saved game is already over.")
    names = record_names(record, game.players, lang)
    seats = record.get("seats")
    if not isinstance(seats, str):
        seats = ",".join(f"human:{name}" for name in names)
    return game, state, seats, names, alone
