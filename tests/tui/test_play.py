"""Terminal play: a scripted person finishes a whole Qwixx game; bad input is explained."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator

import pytest
from rich.console import Console

import hraj
from hraj.tui.play import QuitGame, TerminalTable, parse_seats
from hraj.tui.screen import ERASE_SCROLLBACK


def scripted(answers: Iterator[str], prompts: list[str]) -> Callable[[str], str]:
    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    return ask


def always_first_choice() -> Iterator[str]:
    while True:
        yield "1"


def test_a_person_plays_qwixx_to_the_end_against_bots() -> None:
    console = Console(record=True, width=120, color_system=None)
    prompts: list[str] = []
    players = parse_seats("qwixx", "me,greedy,random", seed=3, lang="en")
    game = hraj.game("qwixx", players=3)
    table = TerminalTable(
        game, players, lang="en", seed=3, console=console, ask=scripted(always_first_choice(), prompts)
    )
    state = table.run()
    assert state.is_over
    text = console.export_text()
    assert "Final scores" in text and "Winner" in text
    assert "Player 1 took a misthrow (−5)" in text  # passing every turn; forced steps are shown
    assert prompts, "the person was asked for moves"


def test_bad_input_gets_a_reason_in_czech_and_changes_nothing() -> None:
    console = Console(record=True, width=120, color_system=None)
    answers = iter(["r13", "z5", "?", "q"])
    game = hraj.game("qwixx", players=2, first=0)
    players = parse_seats("qwixx", "me,greedy", seed=1, lang="cs")
    table = TerminalTable(game, players, lang="cs", seed=1, console=console, ask=scripted(answers, []))
    with pytest.raises(QuitGame):
        table.run()
    text = console.export_text()
    assert "2 až 12" in text  # r13: rows hold 2 to 12
    assert "písmeno řady" in text  # z5 is no action
    assert all(kind != "move" for kind, _, _ in table.game_state.events())


def test_an_illegal_move_is_explained_by_the_rules() -> None:
    console = Console(record=True, width=120, color_system=None)
    game = hraj.game("qwixx", players=2, first=0)
    state = game.new_state()
    state.apply_chance("w1 w1 r1 y1 g1 b1")  # white sum 2
    players = parse_seats("qwixx", "me,random", seed=1, lang="en")
    table = TerminalTable(game, players, lang="en", seed=1, console=console, ask=scripted(iter(["y5", "q"]), []))
    with pytest.raises(QuitGame):
        table.run(state)
    assert "only 2 may be crossed" in console.export_text()


def test_unknown_seat_words_are_refused_with_the_choices() -> None:
    with pytest.raises(hraj.InvalidOption, match="greedy"):
        parse_seats("qwixx", "me,grumpy", seed=0, lang="en")


def test_two_people_at_one_terminal_do_not_see_each_others_white_sum_answer() -> None:
    console = Console(record=True, width=120, color_system=None)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 12:
            return "q"
        return "" if "nobody else looks" in prompt else "pass"

    game = hraj.game("qwixx", players=2, first=0)
    table = TerminalTable(
        game,
        parse_seats("qwixx", "human:Eva,human:Petr", seed=1, lang="en"),
        lang="en",
        seed=1,
        console=console,
        ask=ask,
    )
    with pytest.raises(QuitGame):
        table.run()
    # Both answer the first white sum: Eva types hers, then the screen is cleared and
    # handed over before Petr's sheet and prompt appear.
    assert prompts[0] == "[bold]Eva[/bold] > "
    assert prompts[1].startswith("Petr, it is your turn. Make sure nobody else looks")
    assert prompts[2] == "[bold]Petr[/bold] > "


def test_hint_ranks_the_options_and_undo_takes_back_the_last_move() -> None:
    from hraj.core.bot import make_bot

    console = Console(record=True, width=120, color_system=None)
    answers = iter(["hint", "undo", "1", "undo", "q"])
    game = hraj.game("backgammon")
    players = parse_seats("backgammon", "me,pubeval", seed=4, lang="en")
    table = TerminalTable(
        game,
        players,
        lang="en",
        seed=4,
        console=console,
        ask=lambda _: next(answers),
        advisor=make_bot("backgammon", "pubeval", 1),
    )
    with pytest.raises(QuitGame):
        table.run()
    text = console.export_text()
    assert "Hint: equity (points a game)" in text  # every option ranked, with its equity
    assert "The values are estimates of a simple bot" not in text  # the net values every option
    assert "You have made no move to undo." in text
    assert "Your last move is taken back." in text
    assert [kind for kind, seat, _ in table.game_state.events() if kind == "move" and seat == 0] == []


def test_undo_is_refused_when_another_person_plays() -> None:
    console = Console(record=True, width=120, color_system=None)
    answers = iter(["undo", "q"])
    game = hraj.game("backgammon")
    players = parse_seats("backgammon", "me,me", seed=4, lang="en")
    table = TerminalTable(game, players, lang="en", seed=4, console=console, ask=lambda _: next(answers))
    with pytest.raises(QuitGame):
        table.run()
    assert "Undo is only for a game against bots." in console.export_text()


def test_all_lists_every_legal_move_when_there_are_many() -> None:
    console = Console(record=True, width=120, color_system=None)
    state = hraj.game("backgammon", first=0).new_state()
    while state.is_chance or len(state.legal_actions(state.to_act[0])) <= 40:
        if state.is_chance:
            state.apply_chance(state.sample_chance(random.Random(len(state.events()))))
        else:
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    table = TerminalTable(
        state.game, parse_seats("backgammon", "me,me", seed=1, lang="en"), lang="en", seed=1, console=console
    )
    table.game_state = state
    table.list_choices(legal, rows=5)
    assert "more: type all to list them." in console.export_text()
    table.list_choices(legal, everything=True)
    assert str(legal[-1]) in console.export_text()


def test_a_number_past_the_choices_is_out_of_range_and_changes_nothing() -> None:
    console = Console(record=True, width=120, color_system=None)
    game = hraj.game("qwixx", players=2, first=0)
    state = game.new_state()
    state.apply_chance("w1 w2 r1 y1 g1 b1")  # white 3: pass, r3, y3, g3, b3
    answers = iter(["9", "0", "q"])
    players = parse_seats("qwixx", "me,random", seed=1, lang="cs")
    table = TerminalTable(game, players, lang="cs", seed=1, console=console, ask=scripted(answers, []))
    with pytest.raises(QuitGame):
        table.run(state)
    assert console.export_text().count("Je jen 5 možností: napište číslo od 1 do 5.") == 2
    assert not any(kind == "move" for kind, _, _ in table.game_state.events())


def test_a_name_may_give_the_gender_the_log_uses() -> None:
    players = parse_seats("qwixx", "human:Eva:f,human:Petr:m,human:Ája,me,greedy", seed=3, lang="cs")
    assert [(p.name, p.gender) for p in players] == [
        ("Eva", "f"),
        ("Petr", "m"),
        ("Ája", None),
        ("Hráč 4", "m"),
        ("Bot (Začátečník)", "m"),
    ]


def test_the_terminal_log_is_in_sentences_in_the_players_gender() -> None:
    console = Console(record=True, width=120, color_system=None)
    players = parse_seats("qwixx", "human:Eva:f,greedy", seed=3, lang="cs")
    game = hraj.game("qwixx", players=2, first=0)
    table = TerminalTable(game, players, lang="cs", seed=3, console=console, ask=scripted(iter(["q"]), []))
    with pytest.raises(QuitGame):
        table.run()
    assert "Eva hodila" in console.export_text()


def test_handing_the_keyboard_over_clears_the_scrollback_too() -> None:
    """Two people at one screen: before the next one's turn the screen and the terminal's
    scrollback (ESC[3J) are cleared, so Petr cannot scroll up to Eva's hand."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, height=24, color_system=None)
    handoffs: list[str] = []

    def ask(prompt: str) -> str:
        if "nobody else looks" in prompt:
            handoffs.append(out.getvalue())
            return ""
        if len(handoffs) >= 3:
            return "q"
        return "1"

    game = hraj.game("abluxxen", players=3, first=0)
    players = parse_seats("abluxxen", "human:Eva:f,human:Petr:m,greedy", seed=5, lang="en")
    table = TerminalTable(game, players, lang="en", seed=5, console=console, ask=ask)
    with pytest.raises(QuitGame):
        table.run()
    assert len(handoffs) >= 3
    for shown in handoffs[1:]:  # every handoff after a hand was shown
        assert "Your hand" in shown
        assert shown.rfind(ERASE_SCROLLBACK) > shown.rindex("Your hand")
