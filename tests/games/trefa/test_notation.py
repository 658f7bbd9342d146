"""Trefa notation: actions, rolls, and the compact position text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hraj
from hraj.core.start import First
from hraj.games.trefa.rules import REROLL_MOVE, STOP, Move, Roll, Trefa, TrefaState, write

GAME = Trefa(players=2)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("reroll", REROLL_MOVE),
        (" REROLL ", REROLL_MOVE),
        ("přehodit", REROLL_MOVE),
        ("stop", STOP),
        ("write k,y,b", write("kyb")),
        ("write b y k", write("kyb")),
        ("Write KYB", write("kyb")),
        ("zapsat w", write("w")),
    ],
)
def test_actions_parse_leniently(text: str, action: Move) -> None:
    assert GAME.parse_action(text) == action


def test_writes_print_in_canonical_colour_order() -> None:
    assert str(GAME.parse_action("write b,g,y,r,w,k")) == "write k,w,r,y,g,b"
    assert str(REROLL_MOVE) == "reroll" and str(STOP) == "stop"


@pytest.mark.parametrize("text", ["write", "write k,k", "write x", "writ k", "k", "pass", "reroll k", ""])
def test_non_actions_are_invalid(text: str) -> None:
    with pytest.raises(hraj.InvalidAction):
        GAME.parse_action(text)


@given(st.sets(st.sampled_from("kwrygb"), min_size=1), st.randoms())
def test_any_write_prints_and_parses_back(colours: set[str], rng: random.Random) -> None:
    letters = list(colours)
    rng.shuffle(letters)
    move = GAME.parse_action("write " + " ".join(letters))
    assert GAME.parse_action(str(move)) == move
    assert sorted(str(move).removeprefix("write ").split(",")) == sorted(colours)


@given(st.tuples(*[st.integers(1, 6)] * 6), st.randoms())
def test_any_roll_prints_and_parses_back_in_any_order(dice: tuple[int, ...], rng: random.Random) -> None:
    roll = Roll(*dice)
    parts = str(roll).split()
    rng.shuffle(parts)
    assert GAME.parse_chance(" ".join(parts)) == roll
    assert str(roll) == " ".join(f"{c}{v}" for c, v in zip("kwrygb", dice, strict=True))


@pytest.mark.parametrize("text", ["k1 w2 r3 y4 g5", "k1 w2 r3 y4 g5 b7", "k1 k2 r3 y4 g5 b6", "k1 w2 r3 y4 g5 b6 x"])
def test_non_rolls_are_invalid(text: str) -> None:
    with pytest.raises(hraj.InvalidAction):
        GAME.parse_chance(text)


def test_first_prints_and_parses() -> None:
    assert GAME.parse_chance("first 1") == First(1)
    assert str(First(1)) == "first 1"


def test_position_text_round_trips_after_a_seeded_game() -> None:
    game = Trefa(players=3)
    state = game.new_state()
    rng = random.Random(11)
    for _ in range(40):
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply(state.to_act[0], rng.choice(state.legal_actions(state.to_act[0])))
    while not state.is_chance or state.view(None)["phase"] != "roll":
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply(state.to_act[0], rng.choice(state.legal_actions(state.to_act[0])))
    text = state.position()
    again = TrefaState.from_position(game, text)
    assert again.view(None)["sheets"] == state.view(None)["sheets"]
    assert again.position() == text
    assert text.startswith(f"{state.view(None)['active']}: a ")


def test_position_text_of_a_fresh_game() -> None:
    state = TrefaState.from_position(Trefa(players=2, first=0), "1: a / b")
    assert state.position() == "1: a / b"
    assert state.is_chance and state.view(None)["active"] == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a / b", "starts with the active seat"),
        ("0: a", "1 sheets for 2 players"),
        ("5: a / b", "Seat 5 is not at this table"),
        ("0: b / a", "Seat 0 plays sheet a"),
        ("0: a 6....z / b", "is not a row"),
        ("0: a 66.... / b", "higher than the one printed"),
        ("0: a 6..... 5..... / b", "not full"),
    ],
)
def test_bad_position_text_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(hraj.InvalidAction, match=reason):
        TrefaState.from_position(Trefa(players=2, first=0), text)
