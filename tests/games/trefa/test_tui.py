"""The Trefa terminal renderer: sheets, dice and the current row, readable without colour."""

from __future__ import annotations

from collections.abc import Iterator

from rich.console import Console

import hraj
from hraj.games.trefa import tui as view_module
from hraj.games.trefa.rules import Trefa, TrefaState
from hraj.tui.play import TerminalTable, parse_seats
from tests.games.trefa.playouts import most_moves


def draw(state: TrefaState, seat: int | None, lang: str = "en", names: tuple[str, ...] = ("Sarah", "Emma")) -> str:
    console = Console(record=True, width=100, color_system=None)
    console.print(view_module.render(state.view(seat), lang, names))
    return console.export_text()


def sarahs_turn() -> TrefaState:
    state = TrefaState.from_position(Trefa(players=2, first=0), "0: a 5x4221 6..3.. / b 4.....")
    state.apply_chance("k1 w4 r1 y4 g2 b3")
    return state


def test_sheets_show_each_field_with_its_colour_letter_and_printed_number() -> None:
    text = draw(sarahs_turn(), 0)
    lines = text.splitlines()
    first_row = next(line for line in lines if " a1 " in line)
    # sheet a row 1 is y r g b w k printing 6 5 4 3 2 1; 5 x 4 2 2 1 written, hits marked !
    assert "y6:5 " in first_row and "r5:✗" in first_row and "g4:4!" in first_row and "k1:1!" in first_row
    assert "= " in first_row and "20" in first_row
    assert "(3 hits)" in first_row


def test_the_current_row_is_marked() -> None:
    lines = draw(sarahs_turn(), 0).splitlines()
    assert next(line for line in lines if " a2 " in line).lstrip().startswith("▶")
    assert not next(line for line in lines if " a1 " in line).lstrip().startswith("▶")
    assert next(line for line in lines if " b1 " in line).lstrip().startswith("▶")


def test_dice_and_what_fits_are_shown() -> None:
    text = draw(sarahs_turn(), 0)
    assert "k1" in text and "w4" in text and "b3" in text
    # the current row a2 (k6 w5 r4 y3 b2 g1) holds k6 and y3: white 4, red 1 and green... green 2 > 1
    assert "fits: w4 r1" in text
    assert "Active player: Sarah" in text


def test_kept_dice_are_starred_after_a_reroll() -> None:
    state = sarahs_turn()
    state.apply(0, "reroll")
    state.apply_chance("k1 w3 r1 y5 g6 b2")
    text = draw(state, 0)
    assert "k1*" in text and "r1*" in text and "w3 " in text
    assert "after the reroll" in text


def test_czech_words_from_the_glossary() -> None:
    text = draw(sarahs_turn(), 0, lang="cs")
    assert "výsledkový list a" in text
    assert "celkové skóre" in text
    assert "Kostky" in text
    assert "hodí se: w4 r1" in text
    assert "(tref: 3)" in text


def test_the_placeholder_note_is_shown_at_the_start_and_the_end_only() -> None:
    start = TrefaState.from_position(Trefa(players=2, first=0), "0: a / b")
    assert "placeholders" in draw(start, None)
    state = sarahs_turn()
    state.apply(0, "write w")
    text = draw(state, None)
    assert "placeholders" not in text
    assert "1×1 · 2×3 · 3×6 · 4×10 · 5×15 · 6×21" in text


def test_with_more_than_two_players_the_other_sheets_take_a_line_each() -> None:
    state = TrefaState.from_position(Trefa(players=3, first=0), "0: a 5x4221 6..3.. / b 4..... / c")
    state.apply_chance("k1 w4 r1 y4 g2 b3")
    text = draw(state, 0, names=("Sarah", "Emma", "Zoe"))
    lines = text.splitlines()
    assert all(f" a{row} " in text for row in range(1, 6))  # Sarah's own sheet in full
    emma = next(line for line in lines if line.startswith("Emma"))
    assert "▶ b1" in emma and "r6:4" in emma and "Σ 4" in emma
    assert not any(" b2 " in line for line in lines)  # Emma's other rows are left out


def test_describe_names_the_colours() -> None:
    assert view_module.describe("write k,y,b", "en") == "write: black (k), yellow (y), blue (b)"
    assert view_module.describe("cross w", "cs") == "vyškrtnuto pole: bílá (w)"
    assert view_module.describe("reroll", "sk") == "prehodiť kocky"


def test_a_person_plays_trefa_to_the_end_against_a_bot() -> None:
    console = Console(record=True, width=100, color_system=None)

    def answers() -> Iterator[str]:
        yield "write z"  # not an action: explained, then asked again
        yield from ["1"] * most_moves(2)
        raise AssertionError(f"the game did not end within {most_moves(2)} moves")

    replies = answers()
    game = hraj.game("trefa", players=2, first=0)
    table = TerminalTable(
        game,
        parse_seats("trefa", "me,expectimax", seed=5, lang="cs"),
        lang="cs",
        seed=5,
        console=console,
        ask=lambda prompt: next(replies),
    )
    state = table.run()
    assert state.is_over
    text = console.export_text()
    assert "není tah hry Trefa" in text
    assert "výsledkový list b" in text
