"""Trefa sheets as data: the shipped file, the seed's constraints on it, and the loader's checks."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import hraj
from hraj.games.trefa.rules import Trefa
from hraj.games.trefa.sheets import COLOURS, SheetError, default_sheets, load_sheets, parse_sheets


def printed(row: str, colour: str) -> int:
    """The printed number of a colour's field in a row of the shipped sheets (6 5 4 3 2 1)."""
    return (6, 5, 4, 3, 2, 1)[row.index(colour)]


def shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((Path(hraj.__file__).parent / "games" / "trefa" / "sheets.json").read_text())
    return data


def test_shipped_sheets_are_six_types_of_five_rows_each_a_colour_permutation() -> None:
    sheets = default_sheets()
    assert sheets.letters == ("a", "b", "c", "d", "e", "f")
    for rows in sheets.types.values():
        assert len(rows) == 5
        for row in rows:
            assert sorted(row.colours) == [0, 1, 2, 3, 4, 5]
            assert row.numbers == (6, 5, 4, 3, 2, 1)
    assert sheets.hit_bonus == (0, 1, 3, 6, 10, 15, 21)


def test_shipped_sheets_are_marked_unverified() -> None:
    sheets = default_sheets()
    assert sheets.verified is False
    assert "Placeholder" in sheets.source_note
    assert hraj.game("trefa").new_state().view(None)["sheets_verified"] is False


def test_sarahs_row_is_sheet_a_row_1() -> None:
    row = str(default_sheets().types["a"][0])
    assert printed(row, "k") == 1
    assert printed(row, "b") == 3
    assert printed(row, "w") == 2
    assert printed(row, "y") in (5, 6)
    assert printed(row, "g") >= 2


def test_emmas_row_is_sheet_b_row_1() -> None:
    row = str(default_sheets().types["b"][0])
    # the cross-out: white lies left of green, white prints < 6, green < 5
    assert row.index("w") < row.index("g")
    assert printed(row, "w") < 6 and printed(row, "g") < 5
    # the completed row 5 0 4 2 2 1 crossed its second field: white
    assert row[1] == "w"


def test_a_sheet_file_of_ones_own_is_an_option(tmp_path: Path) -> None:
    data = shipped()
    data["sheets"]["a"][0] = {"colours": "kwrygb", "numbers": [1, 2, 3, 4, 5, 6]}
    data["verified"] = True
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    game = Trefa(players=1, sheet_file=str(path))
    assert game.sheet_set.verified is True
    state = game.new_state()
    state.apply_chance("k1 w2 r3 y4 g5 b6")
    assert state.legal_actions(0)[0] == game.parse_action("reroll")
    assert str(state.legal_actions(0)[1]) == "write k,w,r,y,g,b"
    state.apply(0, "write k,w,r,y,g,b")
    assert state.view(None)["sheets"][0]["rows"][0]["points"] == 21 + 21


def test_a_missing_sheet_file_is_an_invalid_option(tmp_path: Path) -> None:
    with pytest.raises(hraj.InvalidOption, match="Cannot read the sheet file"):
        hraj.game("trefa", sheet_file=str(tmp_path / "nope.json"))


def test_a_sheet_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{sheets: ")
    with pytest.raises(SheetError, match="not valid JSON"):
        load_sheets(str(path))


def _broken(change: str) -> dict[str, Any]:
    data = copy.deepcopy(shipped())
    if change == "five sheets":
        del data["sheets"]["f"]
    elif change == "four rows":
        data["sheets"]["c"].pop()
    elif change == "a colour twice":
        data["sheets"]["d"][2] = "kkrygb"
    elif change == "five colours":
        data["sheets"]["d"][2] = "krygb"
    elif change == "printed 7":
        data["numbers"] = [7, 5, 4, 3, 2, 1]
    elif change == "five numbers":
        data["sheets"]["a"][1] = {"colours": "kwrygb", "numbers": [6, 5, 4, 3, 2]}
    elif change == "bonus too short":
        data["hit_bonus"] = [0, 1, 3, 6, 10, 15]
    elif change == "verified text":
        data["verified"] = "no"
    elif change == "capital letter":
        data["sheets"]["A"] = data["sheets"].pop("a")
    elif change == "unknown field":
        data["colour"] = "x"
    elif change == "wrong format":
        data["format"] = "qwixx"
    return data


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("five sheets", "map 6 sheet letters to their rows; found 5"),
        ("four rows", "sheet c must have 5 rows, not 4"),
        ("a colour twice", "sheet d row 3: a row must list each of the six colours"),
        ("five colours", "sheet d row 3: a row must list each of the six colours"),
        ("printed 7", "numbers: printed numbers must be 6 whole numbers from 1 to 6"),
        ("five numbers", "sheet a row 2: printed numbers must be 6 whole numbers"),
        ("bonus too short", "hit_bonus must list 7 whole numbers"),
        ("verified text", "verified must be true or false"),
        ("capital letter", "one lower-case letter, not A"),
        ("unknown field", "unknown field colour"),
        ("wrong format", '"format": "hraj-trefa-sheets"'),
    ],
)
def test_the_loader_refuses_a_broken_sheet_file_and_says_why(change: str, reason: str) -> None:
    with pytest.raises(SheetError) as caught:
        parse_sheets(_broken(change), "mine.json")
    assert reason in caught.value.reason
    assert caught.value.reason.startswith("Sheet file mine.json")
    assert isinstance(caught.value, hraj.HrajError)


def test_colour_letters_are_the_notation_letters() -> None:
    assert COLOURS == "kwrygb"
