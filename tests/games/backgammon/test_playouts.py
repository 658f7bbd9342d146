"""Random playouts play backgammon games out: no random doubles or resignations unless asked."""

from __future__ import annotations

import random

from hraj.core import random_playout
from hraj.games.backgammon.rules import WIN_KINDS, Backgammon, BackgammonState


def test_random_playouts_end_every_game_by_bearing_off() -> None:
    for options in ({"cube": False}, {}, {"match_length": 3}):
        game = Backgammon(**options)
        for seed in range(5):
            state = random_playout(game.new_state(), random.Random(seed))
            assert isinstance(state, BackgammonState)
            assert state.games and all(how in WIN_KINDS.values() for _, _, how in state.games)
            words = {text.split()[0] for kind, _, text in state.events() if kind == "move"}
            assert not words & {"double", "beaver", "resign", "accept", "drop"}


def test_every_action_asks_for_random_doubles_and_resignations_too() -> None:
    hows = set()
    for seed in range(10):
        state = random_playout(Backgammon().new_state(), random.Random(seed), every_action=True)
        assert isinstance(state, BackgammonState)
        hows.add(state.games[-1][2])
    assert hows & {"resign", "drop"}
