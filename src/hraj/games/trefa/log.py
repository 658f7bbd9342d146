"""Trefa's log as sentences: "Eva hodila …", "Petr zapsal černou 4, bílou 2".

A roll belongs to the seat whose turn it is: the seat the chance event `first N`
names starts, and the turn passes on after each write or cross-out. A write names the
dice it takes with their values from the roll before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from hraj.core.record import CHANCE, HIDDEN, Event, starting_seat
from hraj.games.trefa.view import TrefaView
from hraj.i18n import chance_line, gender_at, name_of, t, tg, tx

SYMBOLS = {"k": "■", "w": "□", "r": "▲", "y": "★", "g": "♣", "b": "◆"}
COLOUR_NAMES = {"k": "black", "w": "white", "r": "red", "y": "yellow", "g": "green", "b": "blue"}
#: A die in the sentence of a gendered write ("zapsala černou 4"): the colour in the
#: case a direct object takes; the wording for an unknown gender lists the plain names.
OBJECT = "colour as an object"
ROLLED = "{name} rolled {dice}"
REROLLED = "{name} rerolled the dice"
STOPPED = "{name} stopped"
WROTE = "{name} wrote {dice}"
#: A field crossed out after `stop`, and one the rules crossed out when nothing fit.
CROSSED = {
    "k": "{name} crossed out the black field",
    "w": "{name} crossed out the white field",
    "r": "{name} crossed out the red field",
    "y": "{name} crossed out the yellow field",
    "g": "{name} crossed out the green field",
    "b": "{name} crossed out the blue field",
}
FORCED = {
    "k": "{name} had to cross out the black field",
    "w": "{name} had to cross out the white field",
    "r": "{name} had to cross out the red field",
    "y": "{name} had to cross out the yellow field",
    "g": "{name} had to cross out the green field",
    "b": "{name} had to cross out the blue field",
}
SENTENCES = (ROLLED, REROLLED, STOPPED, WROTE, *CROSSED.values(), *FORCED.values())


def dice_text(roll: str) -> str:
    """`k4 w1 r3` -> `■4 □1 ▲3`: each die with its colour's shape."""
    return " ".join(f"{SYMBOLS.get(die[0], die[0])}{die[1:]}" for die in roll.split())


def written(colours: str, roll: dict[str, str], gender: str | None, lang: str) -> str:
    """`k,w` and the roll -> "černou 4, bílou 1" (gendered) or "černá 4, bílá 1"."""
    parts = []
    for colour in colours.split(","):
        word = COLOUR_NAMES.get(colour, colour)
        word = t(word, lang) if gender is None else tx(OBJECT, word, lang)
        value = roll.get(colour)
        parts.append(f"{word} {value}" if value else word)
    return ", ".join(parts)


def _ends_turn(text: str) -> bool:
    return text.startswith(("write ", "cross "))


def _first_turn(events: Sequence[Event], players: int, view: TrefaView | None) -> int | None:
    """Whose turn the first roll is: None when a `first N` event says it in order; else
    the seat of the first decision (the roller decides on their own roll), else the
    view's active seat (nothing decided yet)."""
    if any(kind == CHANCE and starting_seat(text) is not None for kind, _, text in events):
        return None
    for kind, seat, _ in events:
        if kind != CHANCE and seat is not None:
            return seat
    active = view.get("active") if view is not None else None
    return active if isinstance(active, int) else None


def lines(
    events: Sequence[Event],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
    view: TrefaView | None = None,
) -> list[str | None]:
    said: list[str | None] = []
    players = max(len(names), 1)
    turn = _first_turn(events, players, view)
    roll: dict[str, str] = {}
    previous = ""
    for kind, seat, text in events:
        if text == HIDDEN:
            said.append(None)
            continue
        if kind == CHANCE:
            starter = starting_seat(text)
            if starter is not None:
                turn = starter
                said.append(chance_line(text, names, lang))
                continue
            roll = {die[0]: die[1:] for die in text.split() if die}
            if turn is None:
                said.append(t("Dice: {dice}", lang, dice=dice_text(text)))
            else:
                said.append(tg(ROLLED, gender_at(genders, turn), lang, name=name_of(names, turn), dice=dice_text(text)))
            continue
        name, gender = name_of(names, seat), gender_at(genders, seat)
        head, _, rest = text.partition(" ")
        if text == "reroll":
            said.append(tg(REROLLED, gender, lang, name=name))
        elif text == "stop":
            said.append(tg(STOPPED, gender, lang, name=name))
        elif head == "write":
            said.append(tg(WROTE, gender, lang, name=name, dice=written(rest, roll, gender, lang)))
        elif head == "cross" and rest in CROSSED:
            chosen = CROSSED if previous == "stop" else FORCED
            said.append(tg(chosen[rest], gender, lang, name=name))
        else:
            said.append(f"{name}: {text}")
        if _ends_turn(text) and seat is not None:
            turn = (seat + 1) % players
        previous = text
    return said
