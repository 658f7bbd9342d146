"""Backgammon's log as sentences: "Bot hodil 6 a 3", "Eva zahrála 13/8 13/9".

A roll belongs to the player on roll, followed through the events: a play or `no
move` passes the turn, `roll` and `double` keep it with who said them. A game starts
with the opening roll (one die each, seat 0's first) unless the seed variant, or the
chance event `first N`, names who rolls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hraj.core.record import CHANCE, HIDDEN, Event, starting_seat
from hraj.games.backgammon.view import BackgammonView
from hraj.i18n import chance_line, gender_at, name_of, t, tg, tgn

ROLLED = "{name} rolled {a} and {b}"
OPENING = "Opening roll: {first} {a}, {second} {b}"
DICE = "Rolled {a} and {b}"
PLAYED = "{name} played {play}"
WORDS = {
    "roll": "{name} chose to roll",
    "double": "{name} doubled",
    "take": "{name} took the double",
    "drop": "{name} dropped the double and the game",
    "beaver": "{name} beavered (redoubled at once)",
    "accept": "{name} accepted the resignation",
    "decline": "{name} declined the resignation",
    "no move": "{name} could not move",
}
RESIGNS = {
    "1": "{name} offered to resign a single game",
    "2": "{name} offered to resign a gammon",
    "3": "{name} offered to resign a backgammon",
}
WON = ("{name} won {count} point", "{name} won {count} points")
SENTENCES = (ROLLED, PLAYED, *WORDS.values(), *RESIGNS.values())


def _next_player(events: Sequence[Event], index: int, view: BackgammonView | None) -> int | None:
    """Who acts after the roll at `index`: the seat of the next decision, else (the roll
    is the newest event) the view's player on roll."""
    for kind, seat, _ in events[index + 1 :]:
        if kind != CHANCE and seat is not None:
            return seat
    turn = view.get("turn") if view is not None else None
    return turn if isinstance(turn, int) else None


def lines(
    events: Sequence[Event],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
    view: BackgammonView | None = None,
) -> list[str | None]:
    said: list[str | None] = []
    seed_rules = view is not None and view.get("variant") == "seed"
    turn: int | None = None
    for index, (kind, seat, text) in enumerate(events):
        if text == HIDDEN:
            said.append(None)
            continue
        if kind == CHANCE:
            starter = starting_seat(text)
            if starter is not None:
                turn = starter
                said.append(chance_line(text, names, lang))
            elif re.fullmatch(r"[1-6][1-6]", text):
                a, b = text[0], text[1]
                if turn is None:
                    # A game's first roll: the opening roll (one die each), unless the one
                    # who plays it is not the higher die's seat (the `first` option).
                    starter = 0 if a > b else 1
                    player = _next_player(events, index, view)
                    if not seed_rules and a != b and player in (None, starter):
                        said.append(t(OPENING, lang, first=name_of(names, 0), a=a, second=name_of(names, 1), b=b))
                        turn = starter
                        continue
                    turn = player
                if turn is None:
                    said.append(t(DICE, lang, a=a, b=b))
                else:
                    said.append(tg(ROLLED, gender_at(genders, turn), lang, name=name_of(names, turn), a=a, b=b))
            else:
                said.append(chance_line(text, names, lang))
            continue
        name, gender = name_of(names, seat), gender_at(genders, seat)
        head, _, rest = text.partition(" ")
        if text in WORDS:
            said.append(tg(WORDS[text], gender, lang, name=name))
        elif head == "resign" and rest in RESIGNS:
            said.append(tg(RESIGNS[rest], gender, lang, name=name))
        elif head == "wins" and rest.isdigit():
            said.append(tgn(*WON, int(rest), gender, lang, name=name))
        elif "/" in text:
            said.append(tg(PLAYED, gender, lang, name=name, play=text))
        else:
            said.append(f"{name}: {text}")
        if seat is not None:
            if "/" in text or text == "no move":
                turn = 1 - seat
            elif text in ("roll", "double"):
                turn = seat
            elif head == "wins":
                # The next game opens with the opening roll; in the seed variant its
                # loser starts with two dice.
                turn = 1 - seat if seed_rules else None
    return said
