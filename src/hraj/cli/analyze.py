"""`hraj analyze`: what every decision of a finished game cost, from a file or from the
server's store by room code; hints for a position given as text."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hraj.cli.common import LangOption, _, at_least_one, console, language, whole_number
from hraj.cli.help import HelpfulCommand, current_language
from hraj.cli.records import game_formats, load_records, record_game, record_names
from hraj.cli.summary import COMMANDS
from hraj.core import InvalidOption, InvalidRecord, game_class
from hraj.i18n import distinct_names, seat_name, t

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from rich.console import Console

    from hraj.core.game import Game
    from hraj.core.record import Record

commands = typer.Typer()


@commands.command(
    cls=HelpfulCommand,
    help=COMMANDS["analyze"],
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
        int,
        typer.Option(
            "--worst", parser=at_least_one, metavar=_("N"), help=_("How many of the costliest decisions to list.")
        ),
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
    rollout: Annotated[
        int | None,
        typer.Option(
            "--rollout",
            parser=whole_number,
            metavar=_("MOVE"),
            help=_("Roll out the best options of that move (its number in the replay and the analysis)."),
        ),
    ] = None,
    trials: Annotated[
        int,
        typer.Option("--trials", parser=whole_number, metavar=_("N"), help=_("Trials of each option in a rollout.")),
    ] = 36,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            parser=whole_number,
            metavar=_("N"),
            help=_("Processes a rollout is spread over (the machine's cores if not given)."),
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
    if rollout is not None:
        roll_out(records[0], rollout, trials, workers or os.cpu_count() or 1, seed, lang, out, as_json=as_json)
        return
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
            found.append(review_json(result.to_json(), record, names, game))
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
        from hraj.server.room import HINTS_KEY
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
    lang = current_language()
    record["players"] = distinct_names(
        [
            seat_name(data.game, seat.seat, lang, name=seat.name, bot=seat.bot if seat.kind == "bot" else None)
            for seat in data.seats
        ]
    )
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


def review_json(
    analysis: Mapping[str, object], record: Mapping[str, object], names: list[str], game: Game[Any, Any]
) -> dict[str, object]:
    """The whole review as JSON: the analysis (summaries, every decision with its options),
    the players' names, every move numbered as the replay numbers it, and the outcome."""
    from hraj.core.record import move_events, parse_record

    _, _, events = parse_record(record)
    moves = [
        {"move": number, "seat": events[index][1], "played": events[index][2], "event": index}
        for number, index in enumerate(move_events(events), start=1)
    ]
    outcome = game.replay(record).outcome
    return {
        **analysis,
        "players_names": names,
        "moves": moves,
        "outcome": None if outcome is None else outcome.to_json(),
    }


def roll_out(
    loaded: object, move: int, trials: int, workers: int, seed: int, lang: str, out: Console, *, as_json: bool
) -> None:
    """`--rollout MOVE`: the best options of that move played out, with a progress bar
    on stderr (Ctrl-C stops it: nothing is printed)."""
    import functools

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from hraj.analysis.rollout import rollout
    from hraj.tui.analysis import rollout_table
    from hraj.tui.play import describe_with, renderer

    record, game = record_game(loaded)
    with Progress(
        TextColumn(t("Rolling out move {move}", lang, move=move)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("", total=trials)
        result = rollout(
            game,
            dict(record),
            move,
            trials=trials,
            seed=seed,
            workers=workers,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    assert result is not None  # nothing cancels it but Ctrl-C, which ends the command
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
        return
    names = record_names(record, game.players, lang)
    describe = functools.partial(describe_with, renderer(game.id), lang=lang)
    out.print(rollout_table(result, names, lang, describe))
