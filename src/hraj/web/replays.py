"""Replays step by move: what the review of a finished game shows at each move.

A replay counts moves the one way every part of hraj counts them
(`hraj.core.record.move_events`): move n is the n-th decision of a seat, and the replay
at move n shows the position where that decision was made (the dice or card that came
before it already on the table), so the analysis of move n sits beside the board it
was made on. After the last move comes the end: the final position, who won and how
the score was made.

Nothing here names a game: it reads the event kinds, the game's `describe` words and
what the spectator could see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from hraj.core.game import State
from hraj.core.record import Event, move_events
from hraj.core.registry import game_part
from hraj.web import tables


class MoveRow(TypedDict):
    """One line of the numbered move list: the move, who made it, in words."""

    number: int
    seat: int
    name: str
    text: str


def move_list(game_id: str, events: Sequence[Event], names: Sequence[str], lang: str) -> list[MoveRow]:
    """Every move of a record, numbered from 1, in the game's words."""
    rows: list[MoveRow] = []
    for number, index in enumerate(move_events(events), start=1):
        _, seat, text = events[index]
        assert seat is not None
        name = names[seat] if 0 <= seat < len(names) else str(seat + 1)
        rows.append({"number": number, "seat": seat, "name": name, "text": tables.describe(game_id, text, lang, names)})
    return rows


def position_end(events: Sequence[Event], move: int) -> int:
    """How many events the replay has played when it shows move `move` (1-based): every
    event before that move's own; past the last move, all of them (the end)."""
    moves = move_events(events)
    return moves[move - 1] if 1 <= move <= len(moves) else len(events)


def previous_end(events: Sequence[Event], move: int) -> int:
    """Where the events that lead to move `move` begin: at the move before it (which they
    say was made), or at the start."""
    moves = move_events(events)
    if move <= 1 or not moves:
        return 0
    return moves[min(move, len(moves) + 1) - 2]


def revealed_view(game_id: str, state: State[Any, Any], players: int) -> Mapping[str, object]:
    """The spectator's view of a finished game's position, with every hand shown: once a
    game is over its record hides nothing, so a replay shows what each seat held. A game
    with hidden hands merges the seats' own views in its web module (`reveal_hands`)."""
    view = state.view(None)
    look = game_part(game_id, "web")
    reveal = getattr(look, "reveal_hands", None)
    if reveal is None or not state.game.hidden_hands:
        return view
    merged: Mapping[str, object] = reveal(view, [state.view(seat) for seat in range(players)])
    return merged
