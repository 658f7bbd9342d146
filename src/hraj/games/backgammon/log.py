"""Backgammon's log as sentences: "Bot hodil 6 a 3", "Eva zahrála 13/8 13/9".

A play is written in the reader's point numbers, the ones the board shows them (a
spectator and the replay see seat 0's side): the opponent's "24/18 13/11" reads
"1/7 12/14", so the log and the board never disagree. A roll belongs to the player on
roll, followed through the events: a play or `no move` passes the turn, `roll` and
`double` keep it with who said them. A game starts with the opening roll (one die
each, seat 0's first) unless the seed variant, or the chance event `first N`, names
who rolls.
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


def seen_from(play: str, mover: int, reader: int) -> str:
    """A play in the point numbers of `reader`'s side of the board (the mover's own when
    they are the same seat): point p of one side is point 25 − p of the other."""
    if mover == reader:
        return play

    def point(text: str) -> str:
        return str(25 - int(text)) if text.isdigit() else text

    return " ".join("/".join(point(part) for part in step.split("/")) for step in play.split())


def reader_of(view: BackgammonView | None) -> int:
    """Whose side of the board the reader sees: their own seat, else seat 0's."""
    seat = view.get("seat") if view is not None else None
    return seat if seat in (0, 1) else 0


def lines(
    events: Sequence[Event],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
    view: BackgammonView | None = None,
) -> list[str | None]:
    said: list[str | None] = []
    seed_rules = view is not None and view.get("variant") == "seed"
    reader = reader_of(view)
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
        elif "/" in text and seat is not None:
            said.append(tg(PLAYED, gender, lang, name=name, play=seen_from(text, seat, reader)))
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
