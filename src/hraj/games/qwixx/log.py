"""Qwixx's log as sentences: "Eva hodila …", "Petr zakřížkoval červenou 5".

The roll of each turn is the active player's: the seat the chance event `first N`
names starts, and the turn passes to the next seat with every roll after that. A game
whose `first` option named the starter has no such event: the reader's view then says
who rolled last, and so who rolled before.
"""

from __future__ import annotations

from collections.abc import Sequence

from hraj.core.record import CHANCE, HIDDEN, Event, starting_seat
from hraj.games.qwixx.view import QwixxView
from hraj.i18n import chance_line, gender_at, name_of, t, tg

SYMBOLS = {"w": "□", "r": "▲", "y": "★", "g": "♣", "b": "◆"}
#: One sentence per row, so that each language can give the colour its case.
CROSSED = {
    "r": "{name} crossed red {number}",
    "y": "{name} crossed yellow {number}",
    "g": "{name} crossed green {number}",
    "b": "{name} crossed blue {number}",
}
ROLLED = "{name} rolled {dice}"
PASSED = "{name} crossed nothing"
PENALTY = "{name} took a misthrow (−5)"
SENTENCES = (*CROSSED.values(), ROLLED, PASSED, PENALTY)


def dice_text(roll: str) -> str:
    """`w4 w1 r3` -> `□4 □1 ▲3`: each die with its colour's shape."""
    return " ".join(f"{SYMBOLS.get(die[0], die[0])}{die[1:]}" for die in roll.split())


def lines(
    events: Sequence[Event],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
    view: QwixxView | None = None,
) -> list[str | None]:
    said: list[str | None] = []
    players = max(len(names), 1)
    first = _first_roller(events, players, view)
    rolls = 0
    for kind, seat, text in events:
        if text == HIDDEN:
            said.append(None)
            continue
        if kind == CHANCE:
            starter = starting_seat(text)
            if starter is not None:
                first = starter
                said.append(chance_line(text, names, lang))
                continue
            roller = None if first is None else (first + rolls) % players
            rolls += 1
            said.append(rolled(roller, names, genders, lang, dice_text(text)))
            continue
        said.append(sentence(text, name_of(names, seat), gender_at(genders, seat), lang))
    return said


def rolled(roller: int | None, names: Sequence[str], genders: Sequence[str | None], lang: str, dice: str) -> str:
    """Who rolled what; just the dice where the roller cannot be told."""
    if roller is None:
        return t("Dice: {dice}", lang, dice=dice)
    return tg(ROLLED, gender_at(genders, roller), lang, name=name_of(names, roller), dice=dice)


def _first_roller(events: Sequence[Event], players: int, view: QwixxView | None) -> int | None:
    """Who rolled first: None when the `first N` event says it in order, else counted
    back from the active seat of the view."""
    rolls = 0
    for kind, _, text in events:
        if kind != CHANCE:
            continue
        if starting_seat(text) is not None:
            return None  # the event itself says it, in order
        rolls += 1
    active = view.get("active") if view is not None else None
    if view is None or not isinstance(active, int) or not rolls:
        return None
    # Waiting for the roll, the active seat is the next roller; else it rolled last.
    behind = rolls if view.get("phase") == "roll" else rolls - 1
    return (active - behind) % players


def sentence(action: str, name: str, gender: str | None, lang: str) -> str:
    """A seat's move or forced step as a sentence about `name`."""
    if action == "pass":
        return tg(PASSED, gender, lang, name=name)
    if action == "penalty":
        return tg(PENALTY, gender, lang, name=name)
    if action[:1] in CROSSED and action[1:].isdigit():
        return tg(CROSSED[action[0]], gender, lang, name=name, number=action[1:])
    return f"{name}: {action}"
