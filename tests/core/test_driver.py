"""The seeded driver: the chance of a seed does not depend on the bots that play."""

from __future__ import annotations

import random
from typing import Any

import pytest

import hraj
from hraj.core.bot import make_bot
from hraj.core.driver import GameDidNotEnd, play_game
from hraj.core.game import Seat, State


def test_dealing_the_unseen_cards_to_a_bot_draws_nothing_from_the_games_dice() -> None:
    played: list[tuple[Seat, object]] = []

    def first_legal(seen: State[Any, Any], seat: Seat) -> object:
        action = seen.legal_actions(seat)[0]
        played.append((seat, action))
        return action

    game = hraj.game("abluxxen", players=3)
    driven = play_game(game.new_state(), [first_legal] * 3, random.Random(11))

    # The same decisions with no bot looking at a dealt state: the same cards must come.
    rng = random.Random(11)
    state = game.new_state()
    decisions = iter(played)
    while not state.is_over:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng), check=False)
        else:
            seat, action = next(decisions)
            state.apply(seat, action)
    assert [str(event) for event in state.events()] == [str(event) for event in driven.events()]


def test_a_game_that_outlasts_its_move_bound_fails_with_the_last_events() -> None:
    # Each seat has at least one decision per turn, so five moves never finish a game.
    game = hraj.game("qwixx", players=2, first=0)
    with pytest.raises(GameDidNotEnd, match=r"did not end within 5 moves; the last events: .*w\d w\d"):
        play_game(game.new_state(), [make_bot("qwixx", "greedy")] * 2, random.Random(3), max_moves=5)
