"""The terminal backgammon board: drawn from a seat's view, from that seat's side."""

from __future__ import annotations

import pytest
from rich.console import Console

import hraj
from hraj.games.backgammon import tui as board
from hraj.games.backgammon.rules import Backgammon, BackgammonState
from hraj.i18n import t
from hraj.tui.play import QuitGame, TerminalTable, parse_seats

NAMES = ["Eva", "Petr"]


def text_of(state: BackgammonState, seat: int | None, lang: str = "en") -> str:
    console = Console(record=True, width=100)
    console.print(board.render(state.view(seat), lang, NAMES))
    return console.export_text()


def rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(" |")]


def test_point_numbers_from_the_viewers_side() -> None:
    text = text_of(Backgammon().new_state(), 0)
    lines = text.splitlines()
    top = next(line for line in lines if "13 14 15" in line)
    bottom = next(line for line in lines if "12 11 10" in line)
    assert top.split()[:13] == [*map(str, range(13, 19)), "BAR", *map(str, range(19, 25))]
    assert bottom.split() == [*map(str, range(12, 6, -1)), "BAR", *map(str, range(6, 0, -1))]


def test_the_board_and_what_goes_with_it_fit_15_lines_of_80_columns() -> None:
    state = Backgammon(match_length=5).new_state()
    state.apply_chance("31")
    console = Console(record=True, width=80, color_system=None)
    console.print(board.render(state.view(0), "cs", ["Kristýna Nováková", "Petr"]))
    lines = console.export_text().splitlines()
    assert len(lines) == 15 and max(len(line.rstrip()) for line in lines) <= 80
    assert "Kristýna Nováková" in lines[0]  # whose turn, beside the board's top


def test_start_position_checkers() -> None:
    text = text_of(Backgammon().new_state(), 0)
    top_edge = rows(text)[0].split("|")
    # top row: my 13 point (5 O) leftmost, the opponent's 6 point = my 19 (5 X), my 24 point (2 O) rightmost
    assert top_edge[1].split() == ["O", ".", ".", ".", "X", "."]
    assert top_edge[3].split() == ["X", ".", ".", ".", ".", "O"]
    bottom_edge = rows(text)[-1].split("|")
    assert bottom_edge[1].split() == ["X", ".", ".", ".", "O", "."]  # their 13 = my 12; my 8
    assert bottom_edge[3].split() == ["O", ".", ".", ".", ".", "X"]  # my 6; their 24 = my 1
    assert text.count("pips 167") == 2


def test_each_seat_sees_its_own_side() -> None:
    # seat 0 keeps two checkers on its 12 point (seat 1's 13)
    seat0 = [0] * 11 + [2] + [0] * 13
    state = BackgammonState.from_position(Backgammon(), (seat0, [1] + [0] * 23 + [1]), turn=1, dice=(6, 5))
    mine = rows(text_of(state, 1))
    # seat 1's checker on its 1 point is bottom right; its bar checker in the bottom bar cell
    assert mine[-1].split("|")[3].split()[-1] == "O" and mine[-1].split("|")[2].strip() == "O"
    theirs = rows(text_of(state, 0))
    # for seat 0, seat 1's 1 point is seat 0's 24 point: top right, marked X; its bar at the top
    assert theirs[0].split("|")[3].split()[-1] == "X" and theirs[0].split("|")[2].strip() == "X"


def test_more_than_five_checkers_show_the_count() -> None:
    seat1 = [0] * 11 + [2] + [0] * 13
    state = BackgammonState.from_position(Backgammon(), (seat1, [0] * 5 + [12] + [0] * 19), turn=0)
    assert rows(text_of(state, 0))[-5].split("|")[3].split()[0] == "12"


def test_cube_dice_and_match_score() -> None:
    state = Backgammon(match_length=5).new_state()
    state.apply_chance("31")
    text = text_of(state, None)
    assert "Dice of Eva: 3 1" in text and "Match to 5: Eva 0, Petr 0" in text and "Cube: 1" in text


def test_resignation_offer_is_shown() -> None:
    state = Backgammon().new_state()
    state.apply_chance("31")
    state.apply(0, "resign 2")
    panel = " ".join(line.plain for line in board.panel(state.view(1), 1, "en", NAMES))
    assert "Eva offers to resign a gammon: accept or decline?" in panel


def test_czech_board() -> None:
    state = Backgammon().new_state()
    state.apply_chance("31")
    text = text_of(state, 0, "cs")
    assert t("{name} to play", "cs", name="Eva") in text
    assert "Eva" in text and "167" in text
    assert t("roll", "cs") != "roll"


def test_notation_help_is_translated() -> None:
    assert t(board.NOTATION_HELP, "cs") != board.NOTATION_HELP
    assert "bar/22" in t(board.NOTATION_HELP, "cs")


def test_describe_decisions() -> None:
    assert board.describe("24/18 13/11", "cs") == "24/18 13/11"
    assert board.describe("resign 2", "en") == "resign a gammon"


def test_a_person_plays_a_match_to_the_end_against_pubeval() -> None:
    console = Console(record=True, width=120, color_system=None)
    game = hraj.game("backgammon", match_length=3)
    players = parse_seats("backgammon", "me,pubeval", seed=4, lang="cs")
    table: TerminalTable | None = None
    asked: list[str] = []

    def person(prompt: str) -> str:
        # types the first legal action in full notation (numbers stop at 40 choices)
        assert table is not None
        asked.append(prompt)
        state = table.game_state
        return str(state.legal_actions(state.to_act[0])[0])

    table = TerminalTable(game, players, lang="cs", seed=4, console=console, ask=person)
    state = table.run()
    assert isinstance(state, BackgammonState)
    assert state.is_over and asked
    assert max(state.view(None)["match"]["score"]) >= 3
    assert t("Winner: {names}", "cs", names="").strip() in console.export_text()


def test_a_typed_combined_move_is_played_and_logged_canonically() -> None:
    console = Console(record=True, width=120, color_system=None)
    game = hraj.game("backgammon", first=0, cube=False)
    state = game.new_state()
    state.apply_chance("65")
    answers = iter(["24/13", "q"])
    players = parse_seats("backgammon", "me,pubeval", seed=1, lang="en")
    table = TerminalTable(game, players, lang="en", seed=1, console=console, ask=lambda _: next(answers))
    with pytest.raises(QuitGame):
        table.run(state)
    assert ("move", 0, "24/18 18/13") in table.game_state.events()
    assert "24/13 is recorded as 24/18 18/13." in console.export_text()
