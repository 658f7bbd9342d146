"""Hints and game analyses as terminal tables (Rich), in the player's language."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hraj.analysis.game import Analysis
from hraj.analysis.rollout import Rollout
from hraj.analysis.text import (
    MARKS,
    estimate_note,
    loss_name,
    loss_text,
    rating_name,
    reasons_text,
    unit_name,
    value_text,
)
from hraj.core.hints import OptionValue
from hraj.i18n import bot_name, t, tn

#: Options a hint lists before it says how many more there are.
HINT_ROWS = 10
WORST = 5


def _move(text: str, describe: Callable[[str], str]) -> Text:
    words = describe(text)
    label = Text(words)
    if words != text:
        label.append(f"  ({text})", style="dim")
    return label


def hint_table(
    options: Sequence[OptionValue],
    lang: str,
    describe: Callable[[str], str],
    *,
    estimate: bool = False,
    rows: int = HINT_ROWS,
) -> RenderableType:
    """The ranked options: the best first in green, each with its value, the loss
    against the best and the reasons."""
    if not options:
        return Text(t("No hints in this game.", lang))
    unit = options[0].unit
    best = options[0].value
    table = Table(title=Text(t("Hint: {unit}", lang, unit=unit_name(unit, lang))), show_lines=False)
    table.add_column("#", justify="right", style="cyan")
    table.add_column(t("Move", lang))
    table.add_column(t("Value", lang), justify="right")
    table.add_column(t("Loss", lang), justify="right")
    table.add_column(t("Why", lang))
    for number, option in enumerate(options[:rows], start=1):
        style = "green" if number == 1 else ""
        loss = best - option.value
        table.add_row(
            str(number),
            _move(str(option.action), describe),
            Text(value_text(option.value, unit, lang), style=style),
            "" if number == 1 else loss_text(loss, unit, lang),
            reasons_text(option.reasons, lang),
        )
    parts: list[RenderableType] = [table]
    if len(options) > rows:
        more = len(options) - rows
        parts.append(Text(tn("and {count} more option", "and {count} more options", more, lang), style="dim"))
    if estimate:
        parts.append(Text(estimate_note(lang), style="dim"))
    return Group(*parts)


def analysis_report(
    analysis: Analysis, names: Sequence[str], lang: str, describe: Callable[[str], str], *, worst: int = WORST
) -> RenderableType:
    """Per-player summary and the worst decisions of a game."""
    unit = analysis.unit
    thresholds = analysis.thresholds
    summary = Table(title=Text(t("Analysis: {unit}", lang, unit=unit_name(unit, lang))))
    summary.add_column(t("Player", lang))
    summary.add_column(t("Decisions", lang), justify="right")
    summary.add_column(t("Lost", lang), justify="right")
    summary.add_column(t("Mean", lang), justify="right")
    for mark in MARKS.values():
        summary.add_column(mark, justify="right")
    summary.add_column(t("Rating", lang))
    for player in analysis.players:
        summary.add_row(
            Text(names[player.seat]),
            str(player.decisions),
            loss_text(player.total_loss, unit, lang),
            loss_text(player.mean_loss, unit, lang),
            str(player.doubtful),
            str(player.bad),
            str(player.very_bad),
            Text(rating_name(player.rating, lang), style="bold"),
        )
    parts: list[RenderableType] = [summary]
    parts.append(
        Text(
            t(
                "{lost}: ?! doubtful from {doubtful}, ? mistake from {bad}, ?? blunder from {very_bad}.",
                lang,
                lost=loss_name(unit, lang),
                doubtful=loss_text(thresholds.doubtful, unit, lang),
                bad=loss_text(thresholds.bad, unit, lang),
                very_bad=loss_text(thresholds.very_bad, unit, lang),
            ),
            style="dim",
        )
    )
    costly = analysis.worst(worst)
    if costly:
        table = Table(title=Text(t("The costliest decisions", lang)))
        table.add_column(t("Move no.", lang), justify="right", style="cyan")
        table.add_column(t("Player", lang))
        table.add_column(t("Played", lang))
        table.add_column(t("Best", lang))
        table.add_column(t("Loss", lang), justify="right")
        table.add_column("")
        for decision in costly:
            table.add_row(
                str(decision.move),
                Text(names[decision.seat]),
                _move(decision.played, describe),
                _move(decision.best, describe),
                loss_text(decision.loss, unit, lang),
                Text(MARKS.get(decision.grade or "", ""), style="red" if decision.grade == "very_bad" else "yellow"),
            )
        parts.append(table)
    else:
        parts.append(Text(t("No decision lost anything against the best option.", lang)))
    if analysis.estimate:
        parts.append(Text(estimate_note(lang), style="dim"))
    return Group(*parts)


def rollout_table(result: Rollout, names: Sequence[str], lang: str, describe: Callable[[str], str]) -> RenderableType:
    """A rollout: each option's mean with its standard error, and how far behind the best."""
    unit = result.unit
    title = tn(
        "Rollout: {count} trial per option, played by {bot}",
        "Rollout: {count} trials per option, played by {bot}",
        result.trials,
        lang,
        count=result.trials,
        bot=bot_name(result.game, result.bot, lang),
    )
    table = Table(title=Text(t("Move {move}", lang, move=result.move) + f" · {names[result.seat]} · {title}"))
    table.add_column(t("Move", lang))
    table.add_column(t("Value", lang), justify="right")
    table.add_column("± " + t("standard error", lang), justify="right")
    table.add_column(t("Behind the best", lang), justify="right")
    table.add_column("± " + t("standard error", lang), justify="right")
    best = result.options[0].mean if result.options else 0.0
    for index, option in enumerate(result.options):
        label = _move(option.action, describe)
        if option.action == result.played:
            label.append(f" ({t('played', lang)})", style="bold")
        table.add_row(
            label,
            Text(value_text(option.mean, unit, lang), style="green" if index == 0 else ""),
            loss_text(option.error, unit, lang),
            "" if index == 0 else loss_text(best - option.mean, unit, lang),
            "" if index == 0 else loss_text(option.gap_error, unit, lang),
        )
    return Group(table, Text(unit_name(unit, lang), style="dim"))
