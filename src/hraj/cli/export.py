"""`hraj export`: records in the formats other programs read, with the analysis as
comments where the format holds them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from hraj.cli.common import LangOption, _, language, os_reason
from hraj.cli.help import HelpfulCommand
from hraj.cli.records import load_records, record_game, record_names
from hraj.cli.summary import COMMANDS
from hraj.core import InvalidOption, InvalidRecord
from hraj.i18n import number as number_text
from hraj.i18n import t

commands = typer.Typer()


@commands.command(
    name="export",
    cls=HelpfulCommand,
    help=COMMANDS["export"],
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
    a move gets lines per player (with gnubg's error rate and XG's PR where the unit is
    equity) and each game's marked decisions, costliest first, by move number."""
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
            if player.error_rate is not None and player.pr is not None:
                lines.append(
                    t(
                        "{name}: error rate {rate} (thousandths of a point a decision), PR {pr}",
                        lang,
                        name=names[player.seat],
                        rate=number_text(player.error_rate, lang, 1),
                        pr=number_text(player.pr, lang, 1),
                    )
                )
        # every marked decision, costliest first, by move number (the replay's and the review's)
        marked = [decision for decision in result.worst(len(result.decisions)) if decision.grade is not None]
        for decision in marked or result.worst(3):
            lines.append(
                t(
                    "move {step}, {name}: {played} instead of {best} ({loss})",
                    lang,
                    step=decision.move,
                    name=names[decision.seat],
                    played=decision.played,
                    best=decision.best,
                    loss=loss_text(decision.loss, result.unit, lang),
                )
            )
    return lines
