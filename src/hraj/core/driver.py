"""Seeded drivers: resolve chance from a generator and run games to their end.

Play, tests and arenas all go through here, so the same seed always gives the same
dice and cards, and every game can be replayed from its record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from hraj.core.game import Seat, State

#: Chooses an action for a seat of a state (the state already seen through that seat):
#: an action of that game, or its notation, which goes back to `State.apply` unread.
Chooser = Callable[[State[Any, Any], Seat], object]


def resolve_chance(state: State[Any, Any], rng: random.Random) -> None:
    """Resolve every pending chance event in a row, drawing from `rng`."""
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng), check=False)


def random_playout(
    state: State[Any, Any], rng: random.Random, max_steps: int = 1_000_000, *, every_action: bool = False
) -> State[Any, Any]:
    """Play uniformly random actions (and random chance) until the game ends.

    The actions are `state.playout_actions`, or every legal action with `every_action`
    (e.g. doubling the stake and resigning too)."""
    choices = state.legal_actions if every_action else state.playout_actions
    steps = 0
    while not state.is_over:
        steps += 1
        if steps > max_steps:
            raise RuntimeError("random playout did not end")
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng), check=False)
            continue
        seat = state.to_act[0]
        state.apply(seat, rng.choice(choices(seat)), check=False)
    return state


#: Decisions after which `play_game` gives up: far more than any real game or match
#: takes, so that a rule that lets a turn repeat forever fails instead of hanging.
MAX_MOVES = 100_000


class GameDidNotEnd(RuntimeError):
    """A driven game took more decisions than its bound: a rule lets it go on forever."""


def play_game(
    state: State[Any, Any],
    choosers: Sequence[Chooser],
    rng: random.Random,
    on_step: Callable[[State[Any, Any]], None] | None = None,
    max_moves: int = MAX_MOVES,
) -> State[Any, Any]:
    """Play to the end with one chooser per seat; chance comes from `rng`.

    Each chooser receives `state.determinize(seat, ...)`, never the state itself, so
    a bot cannot see what its seat may not. The unseen cards are dealt from a generator
    of their own, seeded from `rng`'s state without drawing from it: the chance events
    of a seed stay the same whichever bots play, so two bots can be compared on the
    same cards.

    More than `max_moves` decisions raise `GameDidNotEnd` naming the last ones, so a
    loop in the rules or a bot fails at once rather than hanging.
    """
    unseen = random.Random(repr(rng.getstate()))
    moves = 0
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng), check=False)
        else:
            moves += 1
            if moves > max_moves:
                last = "; ".join(text for _, _, text in state.events()[-6:])
                raise GameDidNotEnd(f"the game did not end within {max_moves} moves; the last events: {last}")
            seat = state.to_act[0]
            action = choosers[seat](state.determinize(seat, unseen), seat)
            state.apply(seat, action)
        if on_step is not None:
            on_step(state)
    return state
