"""Abluxxen for learning agents: no hidden card reaches another seat's observation."""

from __future__ import annotations

import random

import numpy as np

import hraj
from hraj.games.abluxxen.rl import NUM_ACTIONS, move_id
from hraj.games.abluxxen.rules import JOKER, AbluxxenState, Move, play
from hraj.rl import codec, observe


def test_sets_ids_cover_eight_cards_and_five_jokers():
    assert move_id(play(JOKER)) == 25
    assert move_id(play(13, *[13] * 7, *[JOKER] * 5)) == NUM_ACTIONS - 1
    assert move_id(Move("shadow", 13)) == 25 - 1


def midgame(seed: int, decisions: int) -> AbluxxenState:
    rng = random.Random(seed)
    state = hraj.game("abluxxen", players=3).new_state()
    while decisions:
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            decisions -= 1
    assert isinstance(state, AbluxxenState)
    return state


def test_states_that_differ_only_in_hidden_cards_look_the_same_to_the_seat():
    state = midgame(seed=5, decisions=12)
    rl = codec(state.game)
    rng = random.Random(1)
    for seat in range(3):
        mine = observe(rl, state, seat)
        others_differ = False
        for _ in range(5):
            guess = state.determinize(seat, rng)
            assert guess.hands[seat] == state.hands[seat]
            others_differ |= guess.hands != state.hands
            assert np.array_equal(observe(rl, guess, seat), mine)
        assert others_differ, "the hidden cards were never dealt differently: the check proves nothing"


def test_a_seat_sees_its_own_hand():
    state = midgame(seed=2, decisions=4)
    rl = codec(state.game)
    guess = state.determinize(0, random.Random(3))
    assert guess.hands[1] != state.hands[1]
    assert not np.array_equal(observe(rl, guess, 1), observe(rl, state, 1))
