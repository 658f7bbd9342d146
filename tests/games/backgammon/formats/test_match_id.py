"""gnubg's Match ID: the manual's worked example, every field, round trips."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.match_id import (
    FIELDS,
    GameState,
    MatchKey,
    Resignation,
    decode_match_id,
    encode_match_id,
    match_key_bytes,
    match_key_from_bytes,
)
from hraj.games.backgammon.formats.position_id import encode_unpadded

MANUAL_EXAMPLE = MatchKey(
    cube_value=2,
    cube_owner=0,
    on_roll=1,
    crawford=False,
    game_state=GameState.PLAYING,
    turn=1,
    double_offered=False,
    resignation=Resignation.NONE,
    dice=(5, 2),
    match_length=9,
    scores=(2, 4),
    jacoby=True,  # the manual's 66 bits leave bit 67 clear
)


def test_manual_example_qykqasaaiaaa_9_point_match_2_4_player_0_owns_a_2_cube_player_1_rolled_52():
    assert match_key_bytes(MANUAL_EXAMPLE) == bytes.fromhex("41892A012000200000")
    assert encode_match_id(MANUAL_EXAMPLE) == "QYkqASAAIAAA"
    assert decode_match_id("QYkqASAAIAAA") == MANUAL_EXAMPLE


def test_gnubg_sets_bit_67_when_the_jacoby_rule_is_not_in_use():
    # gnubg 1.07's `new match 5` shows 4HPwATDgc/ABMA:MAGnAAAAAAAE; the manual's example
    # as gnubg writes it in a match carries the same bit.
    key = decode_match_id("MAGnAAAAAAAE")
    assert (key.match_length, key.jacoby, key.game_state) == (5, False, GameState.PLAYING)
    assert encode_match_id(key) == "MAGnAAAAAAAE"
    assert encode_match_id(dataclasses.replace(MANUAL_EXAMPLE, jacoby=False)) == "QYkqASAAIAAE"
    assert decode_match_id("MAEAAAAAAAAA").jacoby and not decode_match_id("MAEAAAAAAAAE").jacoby


def test_bits_after_the_67th_are_refused():
    with pytest.raises(FormatError, match="67th"):
        decode_match_id("MAGnAAAAAAAI")


def test_manual_example_bit_string_field_by_field():
    # The manual prints each field lowest bit first:
    # 1000 00 1 0 100 1 0 00 101 010 100100000000000 010000000000000 001000000000000
    manual = "1000 00 1 0 100 1 0 00 101 010 100100000000000 010000000000000 001000000000000"
    expected = manual.split()
    bits = int.from_bytes(match_key_bytes(MANUAL_EXAMPLE), "little")
    printed = []
    for _, width in FIELDS:
        printed.append("".join(str(bits >> index & 1) for index in range(width)))
        bits >>= width
    assert printed == [*expected, "0"]


def test_cagaaaaaaaaa_is_a_money_game_not_started_player_1_to_roll_centred_cube():
    key = decode_match_id("cAgAAAAAAAAA")
    assert key == MatchKey(cube_value=1, cube_owner=None, on_roll=1, game_state=GameState.NONE, turn=1, jacoby=True)
    assert key.money
    assert encode_match_id(key) == "cAgAAAAAAAAA"


def test_cinpaaaaaaaa_7_point_match_player_1_rolled_32():
    key = decode_match_id("cInpAAAAAAAA")
    assert (key.match_length, key.on_roll, key.turn, key.dice, key.cube_owner) == (7, 1, 1, (3, 2), None)


def test_double_offered_and_resignation_fields():
    key = MatchKey(cube_value=4, cube_owner=1, on_roll=0, turn=1, double_offered=True)
    assert decode_match_id(encode_match_id(key)).double_offered
    resigned = MatchKey(on_roll=0, turn=1, resignation=Resignation.GAMMON)
    assert decode_match_id(encode_match_id(resigned)).resignation is Resignation.GAMMON


def test_largest_values_fit():
    key = MatchKey(cube_value=1 << 15, cube_owner=1, match_length=32767, scores=(32767, 32766), dice=(6, 6))
    assert decode_match_id(encode_match_id(key)) == key


keys = st.builds(
    MatchKey,
    cube_value=st.integers(0, 15).map(lambda power: 1 << power),
    cube_owner=st.sampled_from([None, 0, 1]),
    on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    turn=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.sampled_from(list(Resignation)),
    dice=st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    match_length=st.integers(0, 32767),
    scores=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
)


@given(keys)
def test_encode_then_decode_gives_the_key_back(key):
    match_id = encode_match_id(key)
    assert len(match_id) == 12
    assert decode_match_id(match_id) == key


@given(st.binary(min_size=9, max_size=9))
def test_every_9_bytes_decode_to_a_key_that_encodes_back_or_are_refused(data):
    try:
        key = match_key_from_bytes(data)
    except FormatError:
        return
    assert match_key_bytes(key) == data


def _with_field(name: str, value: int) -> str:
    """The manual's example with one raw field replaced."""
    raw = MANUAL_EXAMPLE.fields() | {name: value}
    bits = 0
    position = 0
    for field_name, width in FIELDS:
        bits |= raw[field_name] << position
        position += width
    return encode_unpadded(bits.to_bytes(9, "little"))


@pytest.mark.parametrize(
    ("name", "value"),
    [("cube_owner", 2), ("game_state", 5), ("game_state", 7), ("die1", 7), ("die1", 0), ("die2", 0)],
)
def test_field_values_no_game_has_are_refused(name, value):
    with pytest.raises(FormatError):
        decode_match_id(_with_field(name, value))


@pytest.mark.parametrize("text", ["", "QYkqASAAIAA", "QYkqASAAIAAAA", "QYkqASAA-AAA", "////////////"])
def test_malformed_ids_are_refused(text):
    with pytest.raises(FormatError):
        decode_match_id(text)


@pytest.mark.parametrize(
    "arguments",
    [{"cube_value": 3}, {"cube_value": 0}, {"cube_value": 1 << 16}, {"cube_owner": 2}, {"dice": (0, 4)}],
)
def test_impossible_keys_are_refused(arguments):
    with pytest.raises(FormatError):
        MatchKey(**arguments)
