"""The draw of the seat that starts, as every game writes and reads it."""

from __future__ import annotations

import pytest

from hraj.core.start import First, parse_first


@pytest.mark.parametrize("text", ["first 2", "FIRST 2", "  first   2 ", "First\t2"])
def test_the_draw_is_read_in_any_case_with_any_spaces_and_printed_one_way(text: str) -> None:
    assert parse_first(text) == First(2)
    assert str(parse_first(text)) == "first 2"


@pytest.mark.parametrize("text", ["first", "first 12", "first x", "first -1", "first ٣", "firsts 1", "2", "first 1 2"])
def test_text_that_is_no_draw_is_left_to_the_game(text: str) -> None:
    """A seat is one plain digit: a digit of another script is no seat."""
    assert parse_first(text) is None
