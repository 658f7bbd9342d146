"""Abluxxen hints: a play's reasons (captures, cards left in hand), from the seat's own view."""

from __future__ import annotations

import random

import pytest

import hraj
from hraj.analysis.game import hint
from hraj.analysis.text import reason_text
from hraj.games.abluxxen.rules import PLAY, AbluxxenState, Move
from hraj.games.abluxxen.search import SearchBot


def test_a_play_says_how_many_cards_stay_in_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SearchBot, "deals", 2)
    monkeypatch.setattr(SearchBot, "horizon", 1)
    state = hraj.game("abluxxen", players=3).new_state()
    rng = random.Random(2)
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng))
    assert isinstance(state, AbluxxenState) and state.phase == PLAY
    seat = state.to_act[0]
    options, _ = hint(state, seat, seed=1)
    assert len(options) == min(len(state.legal_actions(seat)), SearchBot.width)  # the plays the bot weighs
    for option in options:
        assert isinstance(option.action, Move)
        left = state.hand_size(seat) - len(option.action.cards)
        assert option.reasons[-1].count == left
        assert reason_text(option.reasons[-1], "cs").startswith("v ruce zůst")
