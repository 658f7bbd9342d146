"""gnubg's Position ID: the manual's worked example, conventions and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.position_id import (
    START_ROW,
    TanBoard,
    board_from_key,
    decode_position_id,
    encode_position_id,
    position_key,
)

from .strategies import boards

EMPTY = (0,) * 25


def test_manual_starting_position_key_and_id_4hpwatdgc_abma():
    board = TanBoard.start()
    assert position_key(board) == bytes.fromhex("E073F00130E073F00130")
    assert encode_position_id(board) == "4HPwATDgc/ABMA"
    assert decode_position_id("4HPwATDgc/ABMA") == board


def test_manual_starting_position_bit_string():
    # The manual's bit string, first bit first; the key holds it lowest bit first.
    bits = "00000111110011100000111110000000000011000000011111001110000011111000000000001100"
    key = position_key(TanBoard.start())
    as_bits = "".join(str(key[index // 8] >> (index % 8) & 1) for index in range(80))
    assert as_bits == bits


def test_start_row_is_two_on_24_five_on_13_three_on_8_five_on_6():
    assert {index + 1: count for index, count in enumerate(START_ROW) if count} == {6: 5, 8: 3, 13: 5, 24: 2}


def test_player_on_roll_is_the_second_half_of_the_key():
    # 4OvgATDgc+QBUA is published with its board diagram, in which the player on roll
    # has a checker on the bar and the other has none: that checker is in the second half.
    board = decode_position_id("4OvgATDgc+QBUA")
    assert board.on_roll[24] == 1
    assert board.not_on_roll[24] == 0
    assert sum(board.on_roll) == 15
    assert sum(board.not_on_roll) == 15


def test_a_lone_checker_of_the_player_on_roll_comes_after_the_25_places_of_the_other():
    board = TanBoard(EMPTY, (1, *EMPTY[1:]))
    bits = int.from_bytes(position_key(board), "little")
    assert bits == 1 << 25  # 25 zeros for the empty first row, then the checker


def test_swapped_board_changes_the_id_of_an_asymmetric_position():
    board = decode_position_id("4OvgATDgc+QBUA")
    assert encode_position_id(board.swapped()) != "4OvgATDgc+QBUA"
    assert board.swapped().swapped() == board


def test_off_counts_checkers_borne_off():
    board = TanBoard((3, *EMPTY[1:]), EMPTY)
    assert board.off() == (12, 15)


@given(boards())
def test_encode_then_decode_gives_the_board_back(board):
    position_id = encode_position_id(board)
    assert len(position_id) == 14
    assert decode_position_id(position_id) == board


@given(st.binary(min_size=10, max_size=10))
def test_every_key_either_decodes_to_a_board_that_encodes_back_or_is_refused(key):
    try:
        board = board_from_key(key)
    except FormatError:
        return
    assert position_key(board) == key


@pytest.mark.parametrize(
    "text",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB-A", "4HPwATDgc/ABMB", "//////////////"],
)
def test_malformed_ids_are_refused(text):
    with pytest.raises(FormatError):
        decode_position_id(text)


def test_surrounding_spaces_are_ignored():
    assert decode_position_id("  4HPwATDgc/ABMA\n") == TanBoard.start()


def test_more_than_fifteen_checkers_are_refused():
    with pytest.raises(FormatError):
        TanBoard((16, *EMPTY[1:]), EMPTY)


def test_both_players_on_one_point_are_refused():
    # The on-roll player's 1 point is the other player's 24 point (index 23).
    with pytest.raises(FormatError):
        TanBoard((*EMPTY[:23], 1, 0), (1, *EMPTY[1:]))


def test_both_players_on_the_bar_against_closed_boards_are_refused():
    closed = (2, 2, 2, 2, 2, 2) + (0,) * 18 + (1,)
    with pytest.raises(FormatError):
        TanBoard(closed, closed)
