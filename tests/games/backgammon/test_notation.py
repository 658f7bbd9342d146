"""Backgammon notation: lenient parsing, canonical printing, typed plays resolved by position."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hraj
from hraj.core.start import First
from hraj.games.backgammon.moves import BAR, OFF
from hraj.games.backgammon.notation import Decision, Play, Roll, parse_action, parse_chance
from hraj.games.backgammon.rules import Backgammon

from .helpers import START, position


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("24/18 13/11", ((24, 18), (13, 11))),
        ("13/11(2)", ((13, 11), (13, 11))),
        ("bar/22", ((BAR, 22),)),
        ("b/22 25/20", ((BAR, 22), (BAR, 20))),
        ("6/off 5/0", ((6, OFF), (5, OFF))),
        ("6/4*", ((6, 4),)),
        ("24/18/13", ((24, 18), (18, 13))),
        ("  8/5,  6/5 ", ((8, 5), (6, 5))),
        ("BAR/22 6/OFF", ((BAR, 22), (6, OFF))),
        ("8/4*/2(2)", ((8, 4), (4, 2), (8, 4), (4, 2))),
    ],
)
def test_plays_parse_leniently(text: str, steps: tuple[tuple[int, int], ...]) -> None:
    action = parse_action(text)
    assert isinstance(action, Play) and action.steps == steps


def test_hit_marks_are_kept_apart_from_the_steps() -> None:
    assert parse_action("6/4* 24/23*") == Play(((6, 4), (24, 23)), (4, 23))


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("roll", "roll"),
        (" Double ", "double"),
        ("take", "take"),
        ("pass", "drop"),
        ("drop", "drop"),
        ("beaver", "beaver"),
        ("resign 2", "resign 2"),
        ("resign backgammon", "resign 3"),
        ("accept", "accept"),
        ("decline", "decline"),
    ],
)
def test_decisions_parse(text: str, printed: str) -> None:
    action = parse_action(text)
    assert isinstance(action, Decision) and str(action) == printed


@pytest.mark.parametrize(
    "text",
    [
        "",
        "24",
        "24-18",
        "18/24",
        "off/3",
        "6/bar",
        "25/25",
        "0/off",
        "30/20",
        "resign 4",
        "13/11(5)",
        "a/b",
        "1/off 2/off 3/off 4/off 5/off",
    ],
)
def test_nonsense_is_invalid(text: str) -> None:
    with pytest.raises(hraj.InvalidAction):
        parse_action(text)


def test_chance_notation() -> None:
    assert parse_chance("31") == Roll(3, 1)
    assert parse_chance("3-1") == Roll(3, 1)
    assert parse_chance("first 1") == First(1)
    for text in ["", "7 1", "0 3", "311", "first 2"]:
        with pytest.raises(hraj.InvalidAction):
            parse_chance(text)


def test_normal_rolls_are_written_high_first_whatever_was_typed() -> None:
    state = position(START, START, game=Backgammon(cube=False))
    state.apply(0, "roll")
    state.apply_chance("13")
    assert state.dice == (3, 1) and state.events()[-1][2] == "31"


@given(st.lists(st.tuples(st.integers(1, 25), st.integers(0, 24)), min_size=1, max_size=4))
def test_canonical_plays_print_and_parse_back(pairs: list[tuple[int, int]]) -> None:
    steps = tuple((a, b) for a, b in pairs if b < a and not (a == BAR and b == OFF))
    if not steps:
        return
    play = Play(steps)
    assert parse_action(str(play)) == play


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("8/7 13/7", "13/7 8/7"),  # any order
        ("24/13", "24/18 18/13"),  # one checker, both dice
        ("24/18/13", "24/18 18/13"),
        ("13/8 24/18", "24/18 13/8"),
    ],
)
def test_typed_plays_are_logged_in_canonical_form(typed: str, canonical: str) -> None:
    state = Backgammon().new_state()
    state.apply_chance("61" if typed.startswith("8/7") else "65")
    state.apply(state.turn, typed)
    assert state.events()[-1][2] == canonical


def test_doubles_typed_with_repeats() -> None:
    state = Backgammon().new_state()
    state.apply_chance("21")
    state.apply(0, "13/11 6/5")
    state.apply(1, "roll")
    state.apply_chance("22")
    state.apply(1, "13/11(2) 6/4(2)")
    assert state.events()[-1][2] == "13/11 13/11 6/4 6/4"


def test_a_blocked_point_is_named_in_the_reason() -> None:
    state = Backgammon().new_state()
    state.apply_chance("65")
    with pytest.raises(hraj.IllegalAction, match="19 is blocked"):
        state.apply(0, "24/19 19/13")


def test_every_legal_play_prints_uniquely_and_parses_back() -> None:
    state = position(START, START, (6, 6))
    texts = [str(a) for a in state.legal_actions(0)]
    assert len(texts) == len(set(texts))
    assert [parse_action(text) for text in texts] == state.legal_actions(0)
