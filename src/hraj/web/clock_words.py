"""Time on a clock in words and figures, in the page's language.

`time_left` says how long a correspondence turn still runs ("zbývají 2 dny"); `clock`
writes a live clock's figure as players read one (`1:05`, `0:09`).
"""

from __future__ import annotations

import datetime as dt

from hraj.clocks.controls import presets
from hraj.core import game_class
from hraj.i18n import t, tn


def time_left(left: dt.timedelta, lang: str) -> str:
    """How long is left, in the largest whole unit: days, else hours, else minutes."""
    seconds = max(0, int(left.total_seconds()))
    if seconds >= 86_400:
        return tn("{count} day left", "{count} days left", seconds // 86_400, lang)
    if seconds >= 3600:
        return tn("{count} hour left", "{count} hours left", seconds // 3600, lang)
    return tn("{count} minute left", "{count} minutes left", max(1, seconds // 60), lang)


def clock(seconds: float) -> str:
    """A live clock's figure: minutes and seconds (`m:ss`), hours where there are any."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_choices(game_id: str, lang: str) -> list[tuple[str, str]]:
    """The presets of the game's clock family as a form offers them, in the page's
    language, after "no clock"."""
    offered: list[tuple[str, str]] = [("", t("No clock", lang))]
    for choice in presets(game_class(game_id).clock_family):
        if choice.control.correspondence:
            offered.append((choice.id, tn("{count} day a move", "{count} days a move", choice.control.days, lang)))
        else:
            offered.append((choice.id, t(choice.words, lang)))
    return offered
