"""eXtreme Gammon's XGID: published examples, every field, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.position_id import START_ROW
from hraj.games.backgammon.formats.xgid import Xgid, decode_xgid, encode_xgid

from .strategies import rows

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def _points(row: tuple[int, ...]) -> dict[int, int]:
    return {index + 1: count for index, count in enumerate(row) if count}


def test_spec_example_starting_position_xgid():
    xgid = decode_xgid(START)
    assert xgid.bottom == START_ROW
    assert xgid.top == START_ROW
    assert (xgid.cube_value, xgid.cube_owner, xgid.turn, xgid.dice, xgid.cube_action) == (1, 0, 1, (0, 0), "")
    assert (xgid.scores, xgid.rules, xgid.match_length, xgid.max_cube) == ((0, 0), 0, 0, 1024)
    assert xgid.money
    assert encode_xgid(xgid) == START


def test_3_point_match_top_to_play_63_with_a_2_cube_owned_by_bottom():
    text = "XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8"
    xgid = decode_xgid(text)
    assert _points(xgid.bottom) == {3: 2, 6: 5, 8: 2, 13: 4, 14: 2}
    # Lower-case letters on the bottom player's point p are the top player's point 25 - p.
    assert _points(xgid.top) == {24: 1, 15: 1, 13: 4, 8: 2, 6: 2, 5: 3, 4: 2}
    assert (xgid.cube_value, xgid.cube_owner, xgid.turn, xgid.dice) == (2, 1, -1, (6, 3))
    assert (xgid.match_length, xgid.max_cube, xgid.crawford) == (3, 256, False)
    assert encode_xgid(xgid) == text


def test_money_game_with_jacoby_and_beavers_and_an_8_cube_owned_by_top():
    text = "XGID=-b--B-C-CA-AdC-a-c-e-A--A-:3:-1:1:62:0:0:3:0:10"
    xgid = decode_xgid(text)
    assert (xgid.cube_value, xgid.cube_owner, xgid.jacoby, xgid.beavers, xgid.crawford) == (8, -1, True, True, False)
    assert encode_xgid(xgid) == text


def test_bars_are_the_first_character_for_top_and_the_last_for_bottom():
    xgid = decode_xgid("XGID=b-----E-C---eE---c-e----AA:0:0:1:00:0:0:0:0:10")
    assert xgid.top[24] == 2
    assert xgid.bottom[24] == 1


def test_crawford_flag_in_a_match_and_a_double_offered():
    xgid = decode_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:4:2:1:5:10")
    assert xgid.crawford and not xgid.jacoby
    assert (xgid.cube_action, xgid.dice, xgid.turn, xgid.scores) == ("D", (0, 0), -1, (4, 2))
    assert encode_xgid(xgid) == "XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:4:2:1:5:10"


def test_nine_fields_without_maximum_cube_and_without_prefix():
    xgid = decode_xgid("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0")
    assert xgid.max_cube is None
    assert xgid.dice == (5, 2)
    assert encode_xgid(xgid) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0"


xgids = st.builds(
    lambda board, cube, owner, turn, dice, action, scores, rules, length, max_cube: Xgid(
        bottom=board[0],
        top=board[1],
        cube_value=1 << cube,
        cube_owner=owner,
        turn=turn,
        dice=(0, 0) if action else dice,
        cube_action=action,
        scores=scores,
        rules=rules,
        match_length=length,
        max_cube=max_cube,
    ),
    rows(),
    st.integers(0, 15),
    st.sampled_from([-1, 0, 1]),
    st.sampled_from([-1, 1]),
    st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.sampled_from(["", "D", "B", "R"]),
    st.tuples(st.integers(0, 99), st.integers(0, 99)),
    st.integers(0, 3),
    st.integers(0, 99),
    st.one_of(st.none(), st.integers(0, 15).map(lambda power: 1 << power)),
)


@given(xgids)
def test_encode_then_decode_gives_the_xgid_back(xgid):
    assert decode_xgid(encode_xgid(xgid)) == xgid


@given(st.text(alphabet="-abcAB:0123456789XGID=D", max_size=60))
def test_arbitrary_text_decodes_to_an_xgid_that_encodes_back_or_is_refused(text):
    try:
        xgid = decode_xgid(text)
    except FormatError:
        return
    assert decode_xgid(encode_xgid(xgid)) == xgid


@pytest.mark.parametrize(
    "text",
    [
        "",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0",  # 8 fields
        "XGID=-b----E-C---eE---c-e---B-:0:0:1:00:0:0:0:0:10",  # 25 characters
        "XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10",  # 26 checkers
        "XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10",  # 16 on a point
        "XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",  # bottom checker on top's bar
        "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",  # cube owner 2
        "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",  # turn 0
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10",  # die 7
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:X:0:0:0:0:10",  # unknown cube action
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",  # cube not a number
        "XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10",  # cube beyond 2^15
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10",  # rules beyond 3
    ],
)
def test_malformed_xgids_are_refused(text):
    with pytest.raises(FormatError):
        decode_xgid(text)
