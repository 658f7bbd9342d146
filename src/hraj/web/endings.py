"""The end of a game in words: who won, and how each score was made.

The sentence reads the outcome alone, so it is the same for every game; the breakdown
of the scores is the game's own (`breakdown(view, names, lang)` in its web module: the
columns and one row of cells per line: a seat's rows and penalties, the cards laid
out and in hand, each game of a match, as the game counts). Present-tense
wording ("Eva vyhrává") reads the same for every grammatical gender.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from hraj.core.registry import game_part
from hraj.i18n import list_text, number, t, tn
from hraj.web import tables


class Breakdown(TypedDict):
    """A score breakdown: the column headings and one row of cells per line."""

    columns: list[str]
    rows: list[list[str]]


class Ending(TypedDict):
    """What the end of a game says: the sentence and the game's breakdown (None if it has none)."""

    sentence: str
    breakdown: Breakdown | None


def end_sentence(outcome: Mapping[str, object], names: Sequence[str], lang: str) -> str:
    """ "Eva wins: 95 points." or "Eva and Petr share the win: 40 points."."""
    given = outcome.get("scores")
    scores = [float(score) for score in given if isinstance(score, (int, float))] if isinstance(given, list) else []
    winners = [seat for seat in tables.seat_numbers(outcome.get("winners")) if seat < len(names)]
    if not winners or not scores:
        return t("The game is over.", lang)
    score = scores[winners[0]] if winners[0] < len(scores) else 0.0
    count = round(score) if float(score).is_integer() else 5  # a fraction reads in the plural ("2,5 bodu")
    points = number(score, lang, 0 if float(score).is_integer() else 1)
    if len(winners) == 1:
        return tn(
            "{name} wins: {points} point.",
            "{name} wins: {points} points.",
            count,
            lang,
            name=names[winners[0]],
            points=points,
        )
    together = list_text([names[seat] for seat in winners], lang)
    return tn(
        "{names} share the win: {points} point.",
        "{names} share the win: {points} points.",
        count,
        lang,
        names=together,
        points=points,
    )


def end_of_game(game_id: str, view: Mapping[str, object], names: Sequence[str], lang: str) -> Ending | None:
    """The ending of a finished game's view; None while it is not over."""
    outcome = view.get("outcome")
    if not isinstance(outcome, Mapping):
        return None
    look = game_part(game_id, "web")
    make = getattr(look, "breakdown", None)
    table: Breakdown | None = make(view, names, lang) if make is not None else None
    return {"sentence": end_sentence(outcome, names, lang), "breakdown": table}
