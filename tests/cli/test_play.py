"""`hraj play` and `hraj arena`: true exit codes, the record kept, default seats, plain text."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from hraj.cli.errors import Interrupted
from hraj.tui.play import TerminalTable
from tests.cli.helpers import hraj


def typed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_ctrl_c_in_play_saves_the_record_says_interrupted_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def ctrl_c(self: TerminalTable, seat: int) -> None:
        raise Interrupted  # what the SIGINT handler raises

    monkeypatch.setattr(TerminalTable, "play_person", ctrl_c)
    path = tmp_path / "game.json"
    ran = hraj(
        capsys, monkeypatch, "play", "qwixx", "-s", "human:Eva,greedy", "--seed", "3", "--save", str(path), lang="cs"
    )
    assert ran.code == 130
    assert ran.err.strip() == "Přerušeno."
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["game"] == "qwixx" and record["players"] == ["Eva", "Bot (Začátečník)"]


def test_ctrl_c_raises_interrupted_past_typer() -> None:
    import signal

    from hraj.cli.errors import catch_ctrl_c

    before = signal.getsignal(signal.SIGINT)
    try:
        catch_ctrl_c()
        with pytest.raises(Interrupted):
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, before)


def test_an_unwritable_save_path_is_refused_before_the_game_starts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    typed(monkeypatch, "")
    target = tmp_path / "missing-folder" / "x.json"
    ran = hraj(capsys, monkeypatch, "play", "qwixx", "--save", str(target), lang="cs")
    assert ran.code == 2
    assert ran.err.strip() == f"Chyba: Do souboru {target} nejde zapisovat: takový soubor ani složka neexistuje"
    assert ran.out == ""  # no board was drawn


def test_names_with_markup_characters_are_printed_as_typed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typed(monkeypatch, "q\n")
    ran = hraj(capsys, monkeypatch, "play", "qwixx", "--seats", "human:[/],greedy", "--seed", "1", lang="en")
    assert ran.code == 0, ran.err
    assert "[/]" in ran.out and "Game left unfinished." in ran.out


@pytest.mark.parametrize("game", ["backgammon", "qwixx", "trefa", "abluxxen"])
def test_play_with_default_seats_meets_the_games_best_bot(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    typed(monkeypatch, "q\n")
    ran = hraj(capsys, monkeypatch, "play", game, "--seed", "2", lang="cs")
    assert ran.code == 0, ran.err
    assert "Hra zůstala nedohraná." in ran.out


def test_arena_backgammon_with_default_seats_writes_czech_numbers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = hraj(capsys, monkeypatch, "arena", "backgammon", "-n", "2", lang="cs")
    assert ran.code == 0, ran.err
    assert "Vrhcáby: 2 hry" in ran.out
    assert "expert" in ran.out and "net" in ran.out  # the strongest level against the default
    assert re.search(r"\d+,\d\u00a0% ± \d+,\d\u00a0%", ran.out), ran.out


def test_end_of_input_leaves_the_game_and_still_saves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    typed(monkeypatch, "")
    path = tmp_path / "game.json"
    ran = hraj(capsys, monkeypatch, "play", "trefa", "-s", "me", "--seed", "5", "--save", str(path), lang="sk")
    assert ran.code == 0, ran.err
    assert json.loads(path.read_text(encoding="utf-8"))["players"] == ["Hráč 1"]


def test_a_saved_game_resumes_with_its_players_in_their_seats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    typed(monkeypatch, "1\n1\nq\n")
    first = hraj(capsys, monkeypatch, "play", "qwixx", "-s", "human:Eva,greedy", "--seed", "3", "--save", str(path))
    assert first.code == 0, first.err
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["seats"] == "human:Eva,greedy"
    typed(monkeypatch, "q\n")
    again = hraj(capsys, monkeypatch, "play", "--resume", str(path), "--save", str(path))
    assert again.code == 0, again.err
    assert "Eva >" in again.out
    resumed = json.loads(path.read_text(encoding="utf-8"))
    assert resumed["events"][: len(saved["events"])] == saved["events"]
    assert resumed["players"] == ["Eva", "Bot (Beginner)"]


@pytest.mark.parametrize("text", ["[1]", '"qwixx"', "[]"])
def test_a_saved_game_that_is_no_record_is_refused_in_one_line(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A file whose record is not a JSON object once failed with an AttributeError."""
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    ran = hraj(capsys, monkeypatch, "play", "--resume", str(path), lang="cs")
    assert ran.code == 2 and ran.err.strip() == "Chyba: Záznam neuvádí žádnou hru."


def test_play_needs_a_game_or_a_saved_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ran = hraj(capsys, monkeypatch, "play", lang="cs")
    assert ran.code == 2 and ran.err.strip() == "Chyba: Zadej hru, nebo uloženou hru pomocí --resume."


@pytest.mark.parametrize(("lang", "title"), [("cs", "Qwixx — pravidla"), ("en", "Qwixx")])
def test_rules_are_shown_in_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str, title: str
) -> None:
    ran = hraj(capsys, monkeypatch, "rules", "qwixx", lang=lang)
    assert ran.code == 0, ran.err
    assert title in ran.out and "#" not in ran.out.splitlines()[0]
