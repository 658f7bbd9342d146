"""Pig in the terminal: the scores, the turn total and the last roll, from a seat's view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table

from hraj.i18n import t

NOTATION_HELP = "Type roll to roll the two dice again, or hold to bank your turn total."


def render(view: dict[str, Any], lang: str, names: Sequence[str]) -> Table:
    table = Table(title=f"Pig → {view['goal']}")
    table.add_column(t("Player", lang))
    table.add_column(t("Points", lang), justify="right")
    for seat, score in enumerate(view["scores"]):
        mark = " ◀" if seat == view["active"] else ""
        table.add_row(names[seat] + mark, str(score))
    dice = view["dice"]
    table.caption = f"{'-'.join(map(str, dice)) if dice else ''}  +{view['turn_total']}"
    return table
