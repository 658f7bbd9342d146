"""The `hraj` command: play, replay, arena, bench, games (and serve/verify with the server).

Every user error becomes one clear line in the user's language and exit code 2; no
traceback reaches a user. Ctrl-C says "Interrupted." and exits 130. The language of
messages and help comes from `--lang` (anywhere on the line) or the HRAJ_LANG
environment variable, Czech by default.

`hraj --help` must start fast, so this module imports only Typer and hraj's core at
the top: each command imports what it needs (Rich tables, bots, the terminal table),
and `serve`/`verify` import the server (FastAPI, SQLAlchemy) only when they run.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any

import typer

import hraj
from hraj.cli_errors import (
    INTERNAL,
    INTERRUPTED,
    USAGE,
    Interrupted,
    NoArgsIsHelp,
    UsageError,
    catch_ctrl_c,
    usage_error_text,
)
from hraj.cli_help import HELP_FIELDS, HelpfulCommand, HelpfulGroup, current_language, print_help
from hraj.core import HrajError, InvalidOption, InvalidRecord, game_class
from hraj.core.record import parse_record
from hraj.i18n import DEFAULT_LANG, check_lang, error_text, list_text, t

if TYPE_CHECKING:
    from rich.console import Console

    from hraj.core.game import Game, State
    from hraj.core.record import Record


def _(text: str) -> str:
    """Marks a help text for the catalogs; the help page translates it when shown."""
    return text


app = typer.Typer(
    name="hraj",
    cls=HelpfulGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

LangOption = Annotated[
    str | None, typer.Option("--lang", "-l", metavar=_("LANG"), help=_("Language: cs, sk or en."), show_default=False)
]
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


def count_of_games(text: str | int) -> int:
    """A number of games: a whole number, at least 1."""
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


@app.callback(
    help=_("Tabletop games: play in the terminal, replay records, pit bots against each other; hraj games lists them.")
)
def root(lang: LangOption = None) -> None:
    """`--lang` before the command also sets the language (main reads it first)."""
    if lang:
        check_lang(lang)


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


def default_seats(game: Game[Any, Any]) -> str:
    """A person against the game's default bot level in every other seat."""
    from hraj.core.bot import default_bot

    return ",".join(["me", *[default_bot(game.id)] * (game.players - 1)])


def os_reason(error: OSError, lang: str) -> str:
    """Why a file could not be used, in words of the user's language."""
    reasons = {
        errno.ENOENT: _("no such file or folder"),
        errno.EACCES: _("permission denied"),
        errno.EPERM: _("permission denied"),
        errno.EISDIR: _("it is a folder"),
        errno.ENOTDIR: _("a part of the path is not a folder"),
        errno.EROFS: _("the disk is read-only"),
        errno.ENOSPC: _("the disk is full"),
    }
    reason = reasons.get(error.errno or 0)
    return t(reason, lang) if reason else (error.strerror or str(error))


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


@app.command(cls=HelpfulCommand, help=_("List the games with their options and bots."))
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
        options = "\n".join(f"{name}={spec.default}: {t(spec.help, lang)}" for name, spec in cls.options_spec.items())
        levels = bot_levels(game_id)
        bots = [
            f"{name} ({bot_label(game_id, name, lang)})"
            if name in levels
            else f"{name}: {t(make_bot(game_id, name).help, lang)}"
            for name in bot_names(game_id)
        ]
        table.add_row(game_id, t(cls.name, lang), options, "\n".join(bots), style=None)
    console().print(table, markup=False)


@app.command(cls=HelpfulCommand, help=_("Play a game in the terminal: people at one keyboard and bots."))
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
            help=_("Continue a saved game (a record written by --save); its players sit where they sat."),
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
        game, saved, saved_seats, names = resume_game(resume, lang)
        game_id, seats = game.id, seats or saved_seats
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


def resume_game(path: Path, lang: str) -> tuple[Game[Any, Any], State[Any, Any], str, list[str]]:
    """A saved game to continue: the game, its state, who sat where, and their names."""
    records = load_records(path)
    record, game = record_game(records[0] if records else None)
    state = game.replay(record)
    if state.is_over:
        raise InvalidRecord("The saved game is already over.")
    names = record_names(record, game.players, lang)
    seats = record.get("seats")
    if not isinstance(seats, str):
        seats = ",".join(f"human:{name}" for name in names)
    return game, state, seats, names


def read_file(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        lang = current_language()
        raise InvalidRecord("Cannot read {path}: {why}", path=str(path), why=os_reason(error, lang)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older programs wrote Latin-1


def game_formats() -> list[tuple[str, ModuleType]]:
    """Every game's `formats` module (the files and position texts other programs write),
    found through the registry."""
    from hraj.core.registry import game_part

    return [(game_id, module) for game_id in hraj.GAMES if (module := game_part(game_id, "formats")) is not None]


def formats_say(part: str, lang: str) -> list[str]:
    """What every game's `formats` module says in its `part` (RECORD_FILES,
    POSITION_TEXTS, EXPORT_CHOICES), in `lang`, for the help pages."""
    return [t(getattr(module, part), lang) for _, module in game_formats() if hasattr(module, part)]


def sources(lang: str, *, positions: bool, room: bool = False) -> str:
    """What a command reads, "a hraj record (.json), <each game's files> or …", in `lang`."""
    found = [t("a hraj record (.json)", lang), *formats_say("RECORD_FILES", lang)]
    if room:
        found.append(t("the code of a room the server stored", lang))
    if positions:
        found += formats_say("POSITION_TEXTS", lang)
    return list_text(found, lang, "or")


def export_formats(lang: str) -> str:
    """`--format`'s choices, game by game, in `lang`."""
    return "; ".join(
        f"{t(game_class(game_id).name, lang)}: {t(module.EXPORT_CHOICES, lang)}"
        for game_id, module in game_formats()
        if hasattr(module, "EXPORT_CHOICES")
    )


#: Help texts that name the registered games or their files: filled in only on the pages
#: that show them, so `hraj --help` loads no game.
HELP_FIELDS.update(
    games=lambda lang: ", ".join(hraj.GAMES),
    replay_sources=lambda lang: sources(lang, positions=True),
    analyze_sources=lambda lang: sources(lang, positions=True, room=True),
    export_sources=lambda lang: sources(lang, positions=False),
    export_formats=export_formats,
)


def load_records(path: Path) -> list[object]:
    """Records from a hraj JSON record or a file a game can import (its `formats.load_file`),
    each as read: `record_game` and the game's replay check them."""
    text = read_file(path)
    if path.suffix.lower() != ".json":
        importers = [module for _, module in game_formats() if hasattr(module, "load_file")]
        for module in importers[:1]:  # one importing game today; several would try each in turn
            records: list[object] = module.load_file(path)
            return records
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecord("{path} is not valid JSON (line {line}).", path=str(path), line=error.lineno) from None
    return data if isinstance(data, list) else [data]


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


def record_game(record: object) -> tuple[Mapping[str, object], Game[Any, Any]]:
    """A record read from a file, checked to be an object that names a game, and that
    game with the record's options (the game's replay checks the rest). A record an
    earlier version wrote comes back with its events in today's form (`upgrade_events`),
    so everything that reads it afterwards sees one form."""
    game_id = record.get("game") if isinstance(record, Mapping) else None
    if not isinstance(record, Mapping) or not isinstance(game_id, str):
        raise InvalidRecord("The record names no game.")
    options = record.get("options", {})
    game = game_class(game_id)(**(options if isinstance(options, dict) else {}))
    events = parse_record(record)[2]
    upgraded = game.upgrade_events(events)
    if upgraded != events:
        record = {**record, "events": [list(event) for event in upgraded]}
    return record, game


def record_names(record: Mapping[str, object], players: int, lang: str) -> list[str]:
    """The players' names a record keeps, else "Player 1", "Player 2", …"""
    names = record.get("players")
    if isinstance(names, list) and len(names) == players and all(isinstance(name, str) and name for name in names):
        return list(names)
    return [t("Player {n}", lang, n=seat + 1) for seat in range(players)]


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


@app.command(cls=HelpfulCommand, help=_("Show a recorded game move by move, checking every move against the rules."))
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


@app.command(
    cls=HelpfulCommand,
    help=_("Analyse a finished game: what every decision cost against the strongest bot's best option."),
)
def analyze(
    source: Annotated[
        str,
        typer.Argument(
            metavar=_("FILE"),
            help=_("What to analyse: {analyze_sources} (hints for a position)."),
            show_default=False,
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help=_("Print the analysis as JSON."))] = False,
    worst: Annotated[
        int, typer.Option("--worst", metavar=_("N"), help=_("How many of the costliest decisions to list."))
    ] = 5,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            parser=whole_number,
            metavar=_("NUMBER"),
            help=_("Seed of the bots' samples and deals (0 if not given): the same seed, the same figures."),
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    import functools

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    from hraj.analysis.game import analyse
    from hraj.tui.analysis import analysis_report
    from hraj.tui.play import describe_with, renderer

    lang = language(lang)
    out = console()
    seed = 0 if seed is None else seed
    if analyse_position(source, lang, out, seed, as_json=as_json):
        return
    found: list[dict[str, object]] = []
    stored = stored_record(source)
    records: list[object] = [stored] if stored is not None else load_records(Path(source))
    for loaded in records:
        record, game = record_game(loaded)
        with Progress(
            TextColumn(t("Analysing", lang)),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("", total=None)

            def advance(done: int, total: int, bar: Progress = bar, task: TaskID = task) -> None:
                bar.update(task, completed=done, total=total)

            result = analyse(game, record, seed=seed, progress=advance)
        names = record_names(record, game.players, lang)
        if as_json:
            found.append({**result.to_json(), "players_names": names})
            continue
        describe = functools.partial(describe_with, renderer(game.id), lang=lang)
        out.print(analysis_report(result, names, lang, describe, worst=worst))
    if as_json:  # one object for one game; a list for the games of a match file
        print(json.dumps(found[0] if len(found) == 1 else found, ensure_ascii=False, indent=2))


def stored_record(source: str) -> Record | None:
    """The record of a game the server stored, by its room code (the `/r/CODE` of its
    link), from the server's database (HRAJ_DATABASE_URL, else the default file); None
    if `source` is a file or no stored room has that code."""
    import re

    if Path(source).exists() or not re.fullmatch(r"[A-Za-z0-9_-]{6,32}", source):
        return None
    try:
        from hraj.core.record import make_record
        from hraj.server.rooms import HINTS_KEY
        from hraj.server.settings import database_url_from, default_data_dir
        from hraj.store.db import Store
    except ModuleNotFoundError:  # installed without the server
        return None
    given = os.environ.get("HRAJ_DATABASE_URL") or str(default_data_dir(os.environ) / "hraj.db")
    url = database_url_from(given)
    if url.startswith("sqlite") and not Path(url.partition(":///")[2]).is_file():
        return None
    store = Store(url)
    try:
        data = store.load_room(source)
    finally:
        store.close()
    if data is None:
        return None
    options = {key: value for key, value in data.options.items() if key != HINTS_KEY}
    record = make_record(data.game, options, data.events)
    if not game_class(data.game)(**options).replay(record).is_over:
        raise InvalidRecord("The game {room} is not over yet; it can be analysed once it ends.", room=source)
    record["players"] = [seat.name or t("Player {n}", current_language(), n=seat.seat + 1) for seat in data.seats]
    return record


def analyse_position(source: str, lang: str, out: Console, seed: int, *, as_json: bool) -> bool:
    """Hints for a position given as text (a text a game's `formats` module reads); False if
    `source` is a file or a text no game reads."""
    import functools

    from hraj.analysis.game import hint
    from hraj.tui.analysis import hint_table
    from hraj.tui.play import describe_with, renderer

    if Path(source).exists():
        return False
    for game_id, formats in game_formats():
        if not hasattr(formats, "is_position_text") or not formats.is_position_text(source):
            continue
        state = formats.state_from_text(source)
        if not state.to_act:
            raise InvalidOption("Nobody decides in this position: the dice must be rolled first.")
        seat = state.to_act[0]
        options, advice = hint(state, seat, seed=seed)
        if as_json:
            rows = [{"action": str(o.action), "value": o.value, "unit": o.unit} for o in options]
            print(json.dumps({"game": game_id, "seat": seat, "estimate": advice.is_estimate(), "options": rows}))
            return True
        look = renderer(game_id)
        names = [t("Player {n}", lang, n=number + 1) for number in range(state.game.players)]
        out.print(look.render(state.view(None), lang, names))
        describe = functools.partial(describe_with, look, lang=lang)
        out.print(hint_table(options, lang, describe, estimate=advice.is_estimate()))
        return True
    return False


@app.command(
    cls=HelpfulCommand,
    help=_("Pit bots against each other: win rates and mean scores with 95% confidence intervals."),
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
        typer.Option("--games", "-n", parser=count_of_games, metavar=_("NUMBER"), help=_("How many games to play.")),
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


def rules_page(game_id: str, lang: str) -> Path | None:
    """The game's rules page (Markdown) in `lang`, from the game's own folder."""
    from hraj.core.registry import game_folder

    path = game_folder(game_id) / "rules" / f"{lang}.md"
    return path if path.is_file() else None


@app.command(
    name="export",
    cls=HelpfulCommand,
    help=_("Write a record in a format other programs read; hraj export --help names them."),
)
def export_command(
    path: Annotated[
        Path,
        typer.Argument(metavar=_("FILE"), help=_("The record to write: {export_sources}."), show_default=False),
    ],
    to: Annotated[
        str | None,
        typer.Option("--format", "-f", metavar=_("FORMAT"), help=_("{export_formats}."), show_default=False),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-O", metavar=_("FILE"), help=_("Write to this file instead of the screen.")),
    ] = None,
    with_analysis: Annotated[
        bool,
        typer.Option(
            "--analysis",
            help=_(
                "Write each game's analysis (per player: loss, mistakes, rating) as comments at the head "
                "of the file, in a format that holds them."
            ),
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    lang = language(lang)
    from hraj.core.registry import game_part

    checked = [record_game(record) for record in load_records(path)] or [record_game(None)]
    records: list[object] = [record for record, _ in checked]  # in today's form (`record_game`)
    game = checked[0][1]
    formats = game_part(game.id, "formats")
    if formats is None or not hasattr(formats, "export_records"):
        raise InvalidRecord(
            "Records of {game} cannot be written in another format; hraj export --help names those that can.",
            game=game.name,
        )
    to = to or formats.EXPORT_FORMATS[0]
    if with_analysis and to not in getattr(formats, "COMMENTED_FORMATS", ()):
        raise InvalidOption("The {format} format holds no comments, where the analysis would go.", format=to)
    text = formats.export_records(records, to)
    if with_analysis:
        text = formats.comments(analysis_lines(records, lang)) + text
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InvalidOption("Cannot write {path}: {why}", path=str(output), why=os_reason(error, lang)) from None


def analysis_lines(records: Sequence[object], lang: str) -> list[str]:
    """Each game's analysis as lines for the comments at the head of a file (the game's
    `formats.comments` writes them): a file format that has no place for a comment beside
    a move gets one line per player and each game's costliest decisions by move number."""
    from hraj.analysis.game import analyse
    from hraj.analysis.text import loss_name, loss_text, rating_name

    lines = []
    for number, loaded in enumerate(records, start=1):
        record, game = record_game(loaded)
        result = analyse(game, record)
        names = record_names(record, game.players, lang)
        lines.append(t("Game {number}: {lost}", lang, number=number, lost=loss_name(result.unit, lang)))
        for player in result.players:
            lines.append(
                t(
                    "{name}: lost {total}, decisions: {decisions}, mean {mean}, "
                    "?! {doubtful} ? {bad} ?? {very_bad}, {rating}",
                    lang,
                    name=names[player.seat],
                    total=loss_text(player.total_loss, result.unit, lang),
                    decisions=player.decisions,
                    mean=loss_text(player.mean_loss, result.unit, lang),
                    doubtful=player.doubtful,
                    bad=player.bad,
                    very_bad=player.very_bad,
                    rating=rating_name(player.rating, lang),
                )
            )
        for decision in result.worst(3):
            lines.append(
                t(
                    "move {step}, {name}: {played} instead of {best} ({loss})",
                    lang,
                    step=decision.step,
                    name=names[decision.seat],
                    played=decision.played,
                    best=decision.best,
                    loss=loss_text(decision.loss, result.unit, lang),
                )
            )
    return lines


@app.command(cls=HelpfulCommand, help=_("Show the rules of a game in the terminal."))
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


@app.command(cls=HelpfulCommand, help=_("Measure random-playout games per second (the speed of the rules engine)."))
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


SERVER_COMMANDS = {
    "serve": _("Run the game server: rooms, invite links and live play over HTTP and WebSocket."),
    "verify": _("Check a finished online game: its seed matches the commitment and every roll and card."),
    "backup": _("Copy the server's SQLite database safely while it runs."),
}


def _server_command(name: str) -> None:
    """Add `name` as a command that loads the server (FastAPI, SQLAlchemy) only when run:
    its own options, help and checks are `hraj.app.commands`."""

    @app.command(
        name,
        cls=HelpfulCommand,
        help=SERVER_COMMANDS[name],
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    def delegate(ctx: typer.Context) -> None:
        try:
            from hraj.app import commands
        except ModuleNotFoundError:  # installed without the server
            raise InvalidOption("This installation of hraj has no server.") from None
        server = typer.Typer(cls=HelpfulGroup, add_completion=False, pretty_exceptions_enable=False)
        commands.register(server)
        for info in server.registered_commands:
            info.cls = HelpfulCommand  # its help page in the user's language too
        group = typer.main.get_command(server)
        command = group.get_command(ctx, name)  # type: ignore[attr-defined]
        code = command.main(list(ctx.args), prog_name=f"hraj {name}", standalone_mode=False)
        if isinstance(code, int) and code:
            raise typer.Exit(code)


for _name in SERVER_COMMANDS:
    _server_command(_name)


def language_of(args: list[str]) -> str:
    """The language the command line asks for (`--lang X`, `-l X`, `--lang=X`), else
    HRAJ_LANG, else Czech; raises HrajError for an unknown one."""
    chosen: str | None = None
    for index, arg in enumerate(args):
        if arg in ("--lang", "-l") and index + 1 < len(args):
            chosen = args[index + 1]
        elif arg.startswith("--lang="):
            chosen = arg.partition("=")[2]
    if chosen is not None:
        return check_lang(chosen)
    return current_language()


def fail(message: str, code: int = USAGE) -> None:
    """Print one error line on stderr, as plain text, and exit."""
    print(f"{t('Error', current_language())}: {message}", file=sys.stderr)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command; usage errors and refused input become one
    translated line (exit 2), Ctrl-C "Interrupted." (exit 130)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        lang = language_of(args)
    except HrajError as error:
        fail(error_text(error, DEFAULT_LANG))
        return
    os.environ["HRAJ_LANG"] = lang  # help pages, defaults and the server commands follow it
    catch_ctrl_c()
    command = typer.main.get_command(app)
    try:
        code = command.main(args, prog_name="hraj", standalone_mode=False)
    except NoArgsIsHelp as error:
        if error.ctx is not None:
            print_help(error.ctx.command, error.ctx, lang)
        sys.exit(USAGE)
    except UsageError as error:
        fail(usage_error_text(error, lang))
    except HrajError as error:
        fail(error_text(error, lang))
    except (Interrupted, KeyboardInterrupt, typer.Abort):
        print(t("Interrupted.", lang), file=sys.stderr)
        sys.exit(INTERRUPTED)
    except Exception as error:  # a defect of hraj: one line for the user, the details on request
        if os.environ.get("HRAJ_DEBUG"):
            raise
        fail(
            t(
                "hraj failed unexpectedly ({kind}: {error}). HRAJ_DEBUG=1 shows the details.",
                lang,
                kind=type(error).__name__,
                error=error,
            ),
            INTERNAL,
        )
    sys.exit(code if isinstance(code, int) else 0)
