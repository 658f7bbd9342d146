"""Values, losses, reasons and rating words in the player's language.

One place decides how a value reads in each unit, so the terminal and the web agree:
a chance of winning as `57,3 %`, an equity in points a game as `+0,042`, expected points as
`115,4`; a loss in the same unit.
"""

from __future__ import annotations

from hraj.core.hints import EQUITY, WIN, Equity, Percent, Reason
from hraj.i18n import number, percent, t, tn


def _(text: str) -> str:
    """Marks a text for the catalogs; it is translated where it is shown."""
    return text


UNIT_NAMES = {
    "points": _("expected final score"),
    "win": _("chance of winning"),
    "equity": _("equity (points a game)"),
}
#: gnubg's marks of a doubtful move, a mistake and a blunder.
MARKS = {"doubtful": "?!", "bad": "?", "very_bad": "??"}
GRADE_NAMES = {"doubtful": _("doubtful"), "bad": _("mistake"), "very_bad": _("blunder")}
RATING_NAMES = {
    "master": _("Master"),
    "expert": _("Expert"),
    "advanced": _("Advanced"),
    "intermediate": _("Intermediate"),
    "beginner": _("Beginner"),
}
LOSS_NAMES = {
    "points": _("Points lost"),
    "win": _("Chance of winning lost"),
    "equity": _("Equity lost"),
}


def value_text(value: float, unit: str, lang: str) -> str:
    """A value as the unit reads: `57,3 %`, `+0,042`, `115,4`."""
    if unit == WIN:
        return percent(value, lang, 1)
    if unit == EQUITY:
        sign = "+" if value >= 0 else "−"
        return sign + number(abs(value), lang, 3)
    return number(value, lang, 1)


def loss_text(loss: float, unit: str, lang: str) -> str:
    """A loss in the unit: `4,2 %`, `0,042`, `1,25`."""
    if unit == WIN:
        return percent(loss, lang, 1)
    if unit == EQUITY:
        return number(loss, lang, 3)
    return number(loss, lang, 2)


def _param(value: object, lang: str) -> object:
    if isinstance(value, Equity):
        return value_text(value, EQUITY, lang)
    if isinstance(value, Percent):
        return value_text(value, WIN, lang)
    return value


def reason_text(reason: Reason, lang: str) -> str:
    """A reason in `lang`, with the plural form its count asks for and its figures as
    the language writes them."""
    params = {name: _param(value, lang) for name, value in reason.params.items()}
    if reason.plural is not None and reason.count is not None:
        return tn(reason.text, reason.plural, reason.count, lang, **params)
    return t(reason.text, lang, **params)


def reasons_text(reasons: tuple[Reason, ...], lang: str) -> str:
    return ", ".join(reason_text(reason, lang) for reason in reasons)


def unit_name(unit: str, lang: str) -> str:
    return t(UNIT_NAMES.get(unit, unit), lang)


def grade_name(grade: str | None, lang: str) -> str:
    return t(GRADE_NAMES[grade], lang) if grade else ""


def rating_name(rating: str, lang: str) -> str:
    return t(RATING_NAMES.get(rating, rating), lang)


def loss_name(unit: str, lang: str) -> str:
    return t(LOSS_NAMES.get(unit, unit), lang)


def estimate_note(lang: str) -> str:
    return t("The values are estimates of a simple bot, not exact figures.", lang)
