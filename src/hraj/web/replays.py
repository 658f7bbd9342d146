"""Replays step by turn: where each turn of a recorded game ends, and what a step shows.

A turn is one player's decisions together with the chance that belongs to them: the
dice rolled for the turn, a card drawn into the player's hand. A record lists every
roll and every card as an event of its own (a 3-player deal of 15 cards each is 45 events);
a replay that stepped through them one by one would make the viewer click through
the deal card by card. Here the events before the first decision (the deal, the
opening roll) are one step, and every later step ends where another seat begins to
decide; the public chance just before that seat's first decision (its roll) opens its
step, while a card only its drawer could see stays with the drawer's turn.

Answers that several seats give to one question at once (every player's answer to the
same roll) are nobody's turn: they take effect together, so stepping through
them one seat at a time would show the same table again and again. They make one step
with the chance that opened them, which ends where a seat decides alone (the active
player's own dice) or the next public chance comes. A forced step that follows a
decision with no chance between (a penalty for crossing nothing) shows in that
decision's step: a step's table already carries the forced steps after its last event.

Nothing here names a game: it reads the event kinds and what the spectator could see.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from hraj.core.game import AskedTogether, Game, State
from hraj.core.record import AUTO, CHANCE, HIDDEN, MOVE, Event
from hraj.core.registry import game_part

#: The actor of answers given at once: the whole table, no seat alone.
_TABLE = -1
#: The actor after a step of such answers ended at a chance: nobody yet.
_NOBODY = -2


def turn_ends(
    events: Sequence[Event], private: frozenset[int] = frozenset(), together: frozenset[int] = frozenset()
) -> list[int]:
    """How many events each step of a replay has played when it ends (increasing; the last
    is `len(events)`). `private` are the indices of chance events only one seat could
    read while the game ran (cards into a hand): they never open a step. `together` are
    the indices of decisions several seats were asked at once (see the module's text)."""
    ends: list[int] = []
    actor: int | None = None
    opened: int | None = None  # where the public chance since the last decision began
    for index, (kind, seat, _) in enumerate(events):
        if kind == CHANCE:
            if index in private:
                continue
            if actor == _TABLE:  # the answers given at once are over: their step ends here
                ends.append(index)
                actor = _NOBODY
            if opened is None:
                opened = index
            continue
        if seat is None or kind not in (MOVE, AUTO):
            continue
        if kind == AUTO and opened is None and actor is not None:
            continue  # the rules' answer to the decision before: its step already shows it
        decider = _TABLE if index in together else seat
        if actor is None:
            if index > 0:
                ends.append(index)  # the opening: the deal or the first roll
        elif decider != actor:
            cut = opened if opened is not None else index
            if cut > (ends[-1] if ends else 0):
                ends.append(cut)
        actor = decider
        opened = None
    if events and (not ends or ends[-1] != len(events)):
        ends.append(len(events))
    return ends


def private_chances(game: Game[Any, Any], events: Sequence[Event]) -> frozenset[int]:
    """The chance events a spectator could not read while the game ran (dealt and drawn
    cards), found from the position before the last decision, which is not over yet."""
    return _read(game, events)[0]


def asked_together(game: Game[Any, Any], events: Sequence[Event]) -> frozenset[int]:
    """The decisions of a record that several seats were asked at once."""
    return _read(game, events)[1]


def _read(game: Game[Any, Any], events: Sequence[Event]) -> tuple[frozenset[int], frozenset[int]]:
    """`private_chances` and `asked_together` from one replay of the record."""
    last = max((index for index, (kind, _, _) in enumerate(events) if kind == MOVE), default=0)
    watch = AskedTogether(events)
    state = game.replay_events(events[:last], whole=False, before=watch)
    if last < len(events):
        watch(last, state)
    together = frozenset(watch.indices)
    if state.is_over:
        return frozenset(), together
    private = frozenset(
        index for index, (kind, _, text) in enumerate(state.events_for(None)) if kind == CHANCE and text == HIDDEN
    )
    return private, together


@functools.lru_cache(maxsize=64)
def _steps(game: Game[Any, Any], events: tuple[Event, ...]) -> tuple[int, ...]:
    private, together = _read(game, events)
    return tuple(turn_ends(events, private, together))


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
