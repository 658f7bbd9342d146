"""Backgammon's log in sentences: the opening roll, who rolled and played, the cube, the result."""

from __future__ import annotations

import pytest

from hraj.games.backgammon.log import lines
from hraj.games.backgammon.rules import Backgammon

NAMES = ["Eva", "Bot"]
EVENTS = [
    ("chance", None, "45"),
    ("move", 1, "13/9 13/8"),
    ("move", 0, "double"),
    ("move", 1, "take"),
    ("chance", None, "63"),
    ("move", 0, "24/18 13/10"),
    ("move", 1, "roll"),
    ("chance", None, "66"),
    ("auto", 1, "no move"),
    ("move", 0, "resign 2"),
    ("move", 1, "accept"),
    ("auto", 1, "wins 4"),
]


def test_czech_sentences_in_both_genders() -> None:
    said = lines(EVENTS, NAMES, ["f", "m"], "cs")
    assert said == [
        "Úvodní hod: Eva 4, Bot 5",
        "Bot zahrál 12/16 12/17",
        "Eva zdvojila",
        "Bot přijal zdvojení",
        "Eva hodila 6 a 3",
        "Eva zahrála 24/18 13/10",
        "Bot se rozhodl hodit",
        "Bot hodil 6 a 6",
        "Bot nemohl táhnout",
        "Eva nabídla vzdání gammonu",
        "Bot přijal vzdání",
        "Bot vyhrál 4 body",
    ]


@pytest.mark.parametrize(
    ("count", "gender", "expected"),
    [
        (1, "f", "Eva vyhrála 1 bod"),
        (2, "f", "Eva vyhrála 2 body"),
        (8, "f", "Eva vyhrála 8 bodů"),
        (2, None, "Eva – výhra: 2 body"),
        (5, "m", "Eva vyhrál 5 bodů"),
    ],
)
def test_a_win_is_counted_in_the_three_czech_plural_forms(count: int, gender: str | None, expected: str) -> None:
    assert lines([("auto", 0, f"wins {count}")], NAMES, [gender, "m"], "cs") == [expected]


def test_the_neutral_wording_slovak_and_english() -> None:
    assert lines(EVENTS, NAMES, [None, "m"], "cs")[4] == "Eva – hozeno: 6 a 3"
    assert lines(EVENTS, NAMES, [None, "m"], "cs")[9] == "Eva – nabídnuto vzdání gammonu"
    assert lines(EVENTS, NAMES, ["f", "m"], "sk")[11] == "Bot vyhral 4 body"
    assert lines(EVENTS, NAMES, ["f", "m"], "sk")[0] == "Úvodný hod: Eva 4, Bot 5"
    assert lines(EVENTS, NAMES, [None, None], "en")[4:6] == ["Eva rolled 6 and 3", "Eva played 24/18 13/10"]


def test_the_seed_variant_has_no_opening_roll() -> None:
    events = [("chance", None, "first 1"), ("chance", None, "31")]
    view = Backgammon(variant="seed").new_state().view(None)
    assert lines(events, NAMES, ["f", "m"], "cs", view) == ["Začíná Bot", "Bot hodil 3 a 1"]


def test_a_play_reads_in_the_point_numbers_of_the_reader_s_board() -> None:
    """The board of seat 0 (and of a spectator) labels the opponent's 16/13 10/9 as
    9/12 15/16: the log says what the board shows."""
    events = [("chance", None, "21"), ("move", 1, "16/13 10/9")]
    spectator = Backgammon().new_state().view(None)
    assert lines(events, NAMES, ["f", "m"], "en", spectator)[1] == "Bot played 9/12 15/16"
    mine = Backgammon().new_state().view(1)
    assert lines(events, NAMES, ["f", "m"], "en", mine)[1] == "Bot played 16/13 10/9"
    assert lines([("chance", None, "61"), ("move", 1, "bar/20 6/off")], NAMES, ["f", "m"], "en")[1] == (
        "Bot played bar/5 19/off"
    )
