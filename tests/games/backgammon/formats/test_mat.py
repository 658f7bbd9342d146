"""`.mat` text: gnubg's layout read and written back, the dialects of other programs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.mat import (
    BEAVER,
    DOUBLE,
    DROP,
    ROLL,
    TAKE,
    WIN,
    MatAction,
    MatGame,
    MatMatch,
    format_mat,
    format_play,
    parse_mat,
    parse_play,
)

DATA = Path(__file__).parent / "data"


def _summary(game: MatGame) -> list[tuple[int, str, str]]:
    """(side, kind, what) for each cell, to compare games briefly."""
    out = []
    for action in game.actions:
        roll = f"{action.dice[0]}{action.dice[1]}: {action.moves}"
        what = roll if action.kind == ROLL else str(action.value or "")
        out.append((action.side, action.kind, what))
    return out


def test_gnubg_export_is_read_cell_by_cell():
    match = parse_mat((DATA / "gnubg_5_point_match.mat").read_text())
    assert match.length == 5
    assert match.header("player 1") == "Alice"
    assert match.header("Crawford") == "On"
    assert [(game.number, game.names, game.scores) for game in match.games] == [
        (1, ("Alice", "Bob"), (0, 0)),
        (2, ("Alice", "Bob"), (1, 0)),
        (3, ("Alice", "Bob"), (3, 0)),
    ]
    assert _summary(match.games[0]) == [
        (0, ROLL, "31: 8/5 6/5"),
        (1, ROLL, "64: 24/18 13/9"),
        (0, ROLL, "62: 13/7* 13/11"),
        (1, ROLL, "41: 25/21 24/23"),
        (0, DOUBLE, "2"),
        (1, DROP, ""),
        (0, WIN, "1"),
    ]
    # Game 2 opens in the right column; game 3 ends with a drop on the left.
    assert _summary(match.games[1])[:4] == [
        (1, ROLL, "52: 13/8 13/11"),
        (0, ROLL, "43: 24/20 13/10"),
        (1, DOUBLE, "2"),
        (0, TAKE, ""),
    ]
    assert _summary(match.games[2])[-2:] == [(0, DROP, ""), (1, WIN, "1")]


def test_gnubg_export_is_written_back_byte_for_byte():
    text = (DATA / "gnubg_5_point_match.mat").read_text()
    assert format_mat(parse_mat(text)) == text


def test_jellyfish_dialect_without_headers_with_combined_moves_and_a_bear_off_win():
    text = """
 3 point match

 Game 1
 jelly : 0                            fish : 0
  1) 65: 24/13                        31: 8/5 6/5
  2) 55: 13/3(2)                      66: 24/18(2) 13/7(2)
  3) 21: bar/23 6/off                 43: Cannot Move
  4)  Doubles => 2                    Takes
  5) 62: 6/off 2/off                  Wins 2 points and the match
"""
    match = parse_mat(text)
    game = match.games[0]
    assert game.names == ("jelly", "fish")
    kinds = [(action.side, action.kind) for action in game.actions]
    assert kinds == [(0, ROLL), (1, ROLL)] * 3 + [(0, DOUBLE), (1, TAKE), (0, ROLL), (1, WIN)]
    assert game.actions[5].moves == ""  # "Cannot Move"
    assert game.result == MatAction(1, WIN, value=2)


def test_xg_question_marks_are_a_roll_without_a_play():
    text = " 1 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: ???                   Wins 1 point\n"
    actions = parse_mat(text).games[0].actions
    assert actions == [MatAction(0, ROLL, dice=(3, 1)), MatAction(1, WIN, value=1)]


def test_beavers_and_raccoons_are_cube_actions():
    text = " 0 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5          Doubles => 2\n  2)  Beavers => 4\n"
    actions = parse_mat(text).games[0].actions
    assert [action.kind for action in actions] == [ROLL, DOUBLE, BEAVER]
    raccoon = parse_mat(text.replace("Beavers", "Raccoons")).games[0].actions[-1]
    assert (raccoon.kind, raccoon.value) == (BEAVER, 4)


def test_comments_before_the_match_line_are_kept():
    match = parse_mat('; a note\n# another\n; [Event "Club"]\n 1 point match\n')
    assert match.comments == ["a note", "another"]
    assert match.headers == [("Event", "Club")]
    assert match.games == []


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("13/8 13/11", [(13, 8), (13, 11)]),
        ("13/8* 6/5*", [(13, 8), (6, 5)]),
        ("bar/22 25/20", [(25, 22), (25, 20)]),
        ("6/0 6/off 5/OFF", [(6, 0), (6, 0), (5, 0)]),
        ("13/8(2) 6/1(2)", [(13, 8), (13, 8), (6, 1), (6, 1)]),
        ("24/18/13", [(24, 18), (18, 13)]),
        ("8/5*/3", [(8, 5), (5, 3)]),
        ("24/13", [(24, 13)]),
        ("", []),
    ],
)
def test_play_variants_of_gnubg_and_jellyfish(text, moves):
    assert parse_play(text) == moves


@pytest.mark.parametrize("text", ["13", "13/14", "off/3", "6/bar", "26/20", "13/8(5)", "x/3", "3/3"])
def test_plays_that_are_no_moves_are_refused(text):
    with pytest.raises(FormatError):
        parse_play(text)


def test_plays_are_written_one_step_per_die_with_hit_marks():
    assert format_play([(25, 22), (6, 0)], [True, False]) == "25/22* 6/0"


@pytest.mark.parametrize(
    "text",
    [
        "no match line here\n",
        " 5 point match\n 1) 31: 8/5 6/5\n",  # a move before any game
        " 5 point match\n Game 1\n no scores\n",
        " 5 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5  hello there friend\n",
        " 5 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5   42: 8/4   Takes\n",
    ],
)
def test_text_that_is_no_match_is_refused_with_the_line(text):
    with pytest.raises(FormatError):
        parse_mat(text)


names = st.text(alphabet="abcdefghij ABC", min_size=1, max_size=12).map(str.strip).filter(bool)
plays = st.lists(
    st.tuples(st.integers(1, 25), st.integers(1, 6)).map(lambda move: (move[0], max(move[0] - move[1], 0))),
    max_size=4,
).map(lambda steps: format_play(steps, [False] * len(steps)))
rolls = st.builds(lambda dice, moves: (ROLL, dice, moves, 0), st.tuples(st.integers(1, 6), st.integers(1, 6)), plays)
cubes = st.one_of(
    st.builds(lambda value: (DOUBLE, (0, 0), "", value), st.integers(1, 15).map(lambda power: 1 << power)),
    st.just((TAKE, (0, 0), "", 0)),
)


@st.composite
def games(draw: st.DrawFn, number: int) -> MatGame:
    # Players usually alternate, but not always (a beaver taken, then the doubler rolls).
    first = draw(st.integers(0, 1))
    cells = draw(st.lists(st.tuples(st.one_of(rolls, cubes), st.booleans()), max_size=12))
    actions = []
    side = first
    for (kind, dice, moves, value), alternate in cells:
        actions.append(MatAction(side, kind, dice, moves, value))
        side = 1 - side if alternate else side
    ending = draw(st.sampled_from(["none", "win", "drop"]))
    if ending == "drop":
        actions.append(MatAction(side, DROP))
        actions.append(MatAction(1 - side, WIN, value=draw(st.integers(1, 64))))
    elif ending == "win":
        actions.append(MatAction(draw(st.integers(0, 1)), WIN, value=draw(st.integers(1, 64))))
    scores = (draw(st.integers(0, 30)), draw(st.integers(0, 30)))
    return MatGame(number, (draw(names), draw(names)), scores, actions)


@st.composite
def matches(draw: st.DrawFn) -> MatMatch:
    count = draw(st.integers(0, 3))
    headers = draw(st.lists(st.tuples(st.sampled_from(["Site", "Player 1", "Event"]), names), max_size=3))
    return MatMatch(draw(st.integers(0, 25)), headers, [], [draw(games(number)) for number in range(1, count + 1)])


@given(matches())
def test_written_matches_read_back_identically(match):
    assert parse_mat(format_mat(match)) == match


def _lines(*actions: MatAction) -> str:
    """The move lines of a one-game match holding `actions`."""
    text = format_mat(MatMatch(7, [], [], [MatGame(1, ("a", "b"), (0, 0), list(actions))]))
    return text.split("a : 0", 1)[1].split("\n", 1)[1]


def test_gnubg_layout_a_four_step_play_overflows_its_column_by_one_space():
    lines = _lines(
        MatAction(0, ROLL, (3, 3), "24/21 24/21 13/10 13/10"),
        MatAction(1, ROLL, (6, 2), "24/22 22/16"),
    )
    assert lines == "  1) 33: 24/21 24/21 13/10 13/10 62: 24/22 22/16 \n"
    assert parse_mat(" 7 point match\n Game 1\n a : 0  b : 0\n" + lines).games[0].actions[1].side == 1


def test_gnubg_layout_a_dance_leaves_the_bare_roll():
    lines = _lines(MatAction(0, ROLL, (2, 1)), MatAction(1, ROLL, (5, 3), "23/18 18/15"))
    assert lines == "  1) 21:                         53: 23/18 18/15 \n"


def test_gnubg_layout_a_bear_off_win_on_the_left_goes_below_the_padded_cell():
    lines = _lines(MatAction(0, ROLL, (6, 6), "6/0 6/0 5/0 5/0"), MatAction(0, WIN, value=2))
    assert lines == "  1) 66: 6/0 6/0 5/0 5/0         \n      Wins 2 points\n\n"


def test_gnubg_layout_a_roll_then_resignation_on_the_right():
    lines = _lines(MatAction(0, ROLL, (6, 2), "13/7* 24/22"), MatAction(1, ROLL, (5, 1)), MatAction(0, WIN, value=1))
    assert lines == "  1) 62: 13/7* 24/22             51: \n      Wins 1 point\n\n"
