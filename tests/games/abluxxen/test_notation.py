"""Abluxxen notation: actions, chance outcomes and the compact position text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hraj
from hraj.core.start import First
from hraj.games.abluxxen.rules import (
    JOKER,
    PLAY,
    Abluxxen,
    AbluxxenState,
    Card,
    Move,
    play,
)
from hraj.games.abluxxen.view import AbluxxenView

GAME = Abluxxen(players=4)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play 4 4 4 J", "play 4 4 4 J"),
        ("J 4 4 4", "play 4 4 4 J"),
        ("PLAY 4, j, 4", "play 4 4 J"),
        ("play žolík žolík", "play J J"),
        ("13", "play 13"),
        ("take", "take"),
        (" Leave ", "leave"),
        ("back", "back"),
        ("discard", "discard"),
        ("pass", "pass"),
        ("draw deck", "draw deck"),
        ("draw pile", "draw deck"),
        ("deck", "draw deck"),
        ("draw slot 3", "draw slot 3"),
        ("slot 6", "draw slot 6"),
        ("draw 1", "draw slot 1"),
        ("shadow 5", "shadow 5"),
    ],
)
def test_actions_parse_leniently_and_print_canonically(text: str, canonical: str) -> None:
    assert str(GAME.parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "play", "play 4 5", "play 14", "play 0", "draw slot 7", "draw slot 0", "shadow 13", "shadow J", "take it"],
)
def test_non_actions_are_refused(text: str) -> None:
    with pytest.raises(hraj.InvalidAction):
        GAME.parse_action(text)


@given(
    value=st.integers(min_value=1, max_value=13),
    numbers=st.integers(min_value=0, max_value=8),
    jokers=st.integers(min_value=0, max_value=5),
)
def test_every_play_prints_and_parses_back(value: int, numbers: int, jokers: int) -> None:
    if numbers + jokers == 0:
        return
    move = play(*([value] * numbers + [JOKER] * jokers))
    assert GAME.parse_action(str(move)) == move
    assert move.cards == tuple(sorted(move.cards))


@given(st.sampled_from([*range(1, 14), JOKER]))
def test_cards_print_and_parse_back(card: int) -> None:
    assert GAME.parse_chance(str(Card(card))) == Card(card)


def test_first_and_card_outcomes_differ() -> None:
    assert GAME.parse_chance("first 3") == First(3)
    assert GAME.parse_chance("3") == Card(3)
    assert GAME.parse_chance("first 3") != GAME.parse_chance("3")
    for text in ("0", "14", "first", "3 4", "x"):
        with pytest.raises(hraj.InvalidAction):
            GAME.parse_chance(text)


def test_jokers_alone_print_as_a_play_of_jokers() -> None:
    assert str(Move("play", 0, 0, 2)) == "play J J"


@pytest.mark.parametrize("players", [2, 3, 5])
def test_position_text_round_trips_at_the_start_of_every_turn(players: int) -> None:
    game = Abluxxen(players=players)
    rng = random.Random(players)
    state = game.new_state()
    turns = 0
    while not state.is_over:
        if state.phase == PLAY:
            turns += 1
            text = state.position()
            again = AbluxxenState.from_position(game, text)
            assert again.position() == text
            assert again.pile == state.pile
            view, view_again = state.view(state.active), again.view(state.active)
            assert without_known(view_again) == without_known(view)
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert turns > 5


def test_position_example() -> None:
    state = AbluxxenState.from_position(
        Abluxxen(players=2), "1: 1,1,4,J [7,7,7 3] / 5,5 [] ; display 3 5 8 13+J - 2 ; discard 4,4 ; shadow 2,2 6"
    )
    assert state.active == 1
    assert state.layers[0] == [(7, 7, 7), (3,)]
    assert state.display == [[3], [5], [8], [13, JOKER], [], [2]]
    assert state.shadow[2] == 2
    assert state.pile_size == 109 - 21
    assert state.position() == ("1: 1,1,4,J [7,7,7 3] / 5,5 [] ; display 3 5 8 13+J - 2 ; discard 4,4 ; shadow 2,2 6")


@pytest.mark.parametrize(
    "text",
    [
        "0 1,1 [] / 2 [] / 3 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -",
        "0: 1,1 [] / 2 [] / 3 [] ; display 1 2 3 4 5 6 ; discard -",
        "0: 1,1 / 2 [] / 3 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -",
        "0: 1,1 [3,4] / 2 [] / 3 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -",
        "0: 1,1 [] / 2 [] / 3 [] / 4 [] ; display 1 2 3 4 5 ; discard -",
        "0: 1,1,1,1,1,1,1,1,1 [] / 2 [] / 3 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -",
        "9: 1 [] / 2 [] / 3 [] / 4 [] ; display 1 2 3 4 5 6 ; discard -",
    ],
)
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(hraj.InvalidAction):
        AbluxxenState.from_position(GAME, text)


@given(st.text(max_size=30))
def test_any_text_is_an_action_or_an_invalid_action(text: str) -> None:
    try:
        action = GAME.parse_action(text)
    except hraj.InvalidAction:
        return
    assert GAME.parse_action(str(action)) == action


@given(st.text(max_size=12))
def test_any_text_is_a_card_or_an_invalid_action(text: str) -> None:
    try:
        outcome = GAME.parse_chance(text)
    except hraj.InvalidAction:
        return
    assert GAME.parse_chance(str(outcome)) == outcome


def without_known(view: AbluxxenView) -> dict[str, object]:
    """A view without what is publicly known of each hand: the history is not part of a position."""
    seats = [{key: value for key, value in seat.items() if key != "known"} for seat in view["seats"]]
    return {**view, "seats": seats}
