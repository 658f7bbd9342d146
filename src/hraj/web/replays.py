"""Replays step by turn: where each turn of a recorded game ends, and what a step shows.

A turn is one player's decisions together with the chance that belongs to them: the
dice rolled for the turn, a card drawn into the player's hand. A record lists every
roll and every card as an event of its own (a 3-player deal of 15 cards each is 45 events);
a replay that stepped through them one by one would make the viewer click through
the deal card by card. Here the events before the first decision (the deal, the
opening roll) are one step, and every later step ends where another seat begins to
decide; the public chance just before that seat's first decision (its roll) opens its
step, while a card only its drawer could see stays with the drawer's turn.

Nothing here names a game: it reads the event kinds and what the spectator could see.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from hraj.core.game import Game, State
from hraj.core.record import AUTO, CHANCE, HIDDEN, MOVE, Event
from hraj.core.registry import game_part


def turn_ends(events: Sequence[Event], private: frozenset[int] = frozenset()) -> list[int]:
    """How many events each step of a replay has played when it ends (increasing; the last
    is `len(events)`). `private` are the indices of chance events only one seat could
    read while the game ran (cards into a hand): they never open a step."""
    ends: list[int] = []
    actor: int | None = None
    opened: int | None = None  # where the public chance since the last decision began
    for index, (kind, seat, _) in enumerate(events):
        if kind == CHANCE:
            if opened is None and index not in private:
                opened = index
            continue
        if seat is None or kind not in (MOVE, AUTO):
            continue
        if actor is None:
            if index > 0:
                ends.append(index)  # the opening: the deal or the first roll
        elif seat != actor:
            cut = opened if opened is not None else index
            if cut > (ends[-1] if ends else 0):
                ends.append(cut)
        actor = seat
        opened = None
    if events and (not ends or ends[-1] != len(events)):
        ends.append(len(events))
    return ends


def private_chances(game: Game[Any, Any], events: Sequence[Event]) -> frozenset[int]:
    """The chance events a spectator could not read while the game ran (dealt and drawn
    cards), found from the position before the last decision, which is not over yet."""
    last = max((index for index, (kind, _, _) in enumerate(events) if kind == MOVE), default=0)
    state = game.replay_events(events[:last], whole=False)
    if state.is_over:
        return frozenset()
    return frozenset(
        index for index, (kind, _, text) in enumerate(state.events_for(None)) if kind == CHANCE and text == HIDDEN
    )


@functools.lru_cache(maxsize=64)
def _steps(game: Game[Any, Any], events: tuple[Event, ...]) -> tuple[int, ...]:
    return tuple(turn_ends(events, private_chances(game, events)))


def replay_steps(game: Game[Any, Any], events: Sequence[Event]) -> list[int]:
    """`turn_ends` of a whole record (remembered for the latest records asked for)."""
    return list(_steps(game, tuple(events)))


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
