"""`hraj play` and `hraj arena`: true exit codes, the record kept, default seats, plain text."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from hraj.cli.errors import Interrupted
from hraj.tui.play import TerminalTable
from tests.cli.helpers import hraj


def typed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def saved_qwixx(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: Path, answers: str
) -> dict[str, Any]:
    """A Qwixx game of Eva against greedy, left after `answers` and saved to `path`: its record."""
    typed(monkeypatch, answers)
    first = hraj(capsys, monkeypatch, "play", "qwixx", "-s", "human:Eva,greedy", "--seed", "3", "--save", str(path))
    assert first.code == 0, first.err
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


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
    saved = saved_qwixx(capsys, monkeypatch, path, "1\n1\nq\n")
    assert saved["seats"] == "human:Eva,greedy"
    typed(monkeypatch, "q\n")
    again = hraj(capsys, monkeypatch, "play", "--resume", str(path), "--save", str(path))
    assert again.code == 0, again.err
    assert "Eva >" in again.out
    resumed = json.loads(path.read_text(encoding="utf-8"))
    assert resumed["events"][: len(saved["events"])] == saved["events"]
    assert resumed["players"] == ["Eva", "Bot (Beginner)"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[1]", "Záznam neuvádí žádnou hru."),
        ('"qwixx"', "Záznam neuvádí žádnou hru."),
        ("[]", "{path} neobsahuje žádný záznam."),
    ],
)
def test_a_saved_game_that_is_no_record_is_refused_in_one_line(
    text: str, reason: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A file whose record is not a JSON object once failed with an AttributeError."""
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    ran = hraj(capsys, monkeypatch, "play", "--resume", str(path), lang="cs")
    assert ran.code == 2 and ran.err.strip() == "Chyba: " + reason.format(path=path)


def test_play_needs_a_game_or_a_saved_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ran = hraj(capsys, monkeypatch, "play", lang="cs")
    assert ran.code == 2 and ran.err.strip() == "Chyba: Zadejte hru, nebo uloženou hru pomocí --resume."


@pytest.mark.parametrize(("lang", "title"), [("cs", "Qwixx — pravidla"), ("en", "Qwixx")])
def test_rules_are_shown_in_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str, title: str
) -> None:
    ran = hraj(capsys, monkeypatch, "rules", "qwixx", lang=lang)
    assert ran.code == 0, ran.err
    assert title in ran.out and "#" not in ran.out.splitlines()[0]


def test_a_resumed_game_is_saved_back_to_its_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "r1.json"
    saved = saved_qwixx(capsys, monkeypatch, path, "1\nq\n")
    typed(monkeypatch, "1\n1\nq\n")
    again = hraj(capsys, monkeypatch, "play", "--resume", str(path))
    assert again.code == 0, again.err
    assert "Game left unfinished." in again.out and "Record saved to" in again.out
    resumed = json.loads(path.read_text(encoding="utf-8"))
    assert len(resumed["events"]) > len(saved["events"])
    assert resumed["events"][: len(saved["events"])] == saved["events"]


def test_a_resumed_game_played_to_the_end_is_saved_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hraj.core import game_class

    path = tmp_path / "r1.json"
    typed(monkeypatch, "1\nq\n")
    assert hraj(capsys, monkeypatch, "play", "trefa", "-s", "me", "--seed", "5", "--save", str(path)).code == 0
    typed(monkeypatch, "1\n" * 200)  # a solo Trefa game takes at most 60 decisions
    again = hraj(capsys, monkeypatch, "play", "--resume", str(path))
    assert again.code == 0, again.err
    record = json.loads(path.read_text(encoding="utf-8"))
    assert game_class("trefa")(**record["options"]).replay(record).is_over


def test_a_resumed_game_from_a_file_of_several_records_is_not_written_over(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    single = tmp_path / "one.json"
    typed(monkeypatch, "1\nq\n")
    assert hraj(capsys, monkeypatch, "play", "trefa", "-s", "me", "--seed", "5", "--save", str(single)).code == 0
    several = tmp_path / "several.json"
    several.write_text(f"[{single.read_text(encoding='utf-8')}]", encoding="utf-8")
    before = several.read_text(encoding="utf-8")
    typed(monkeypatch, "1\nq\n")
    again = hraj(capsys, monkeypatch, "play", "--resume", str(several))
    assert again.code == 0, again.err
    assert several.read_text(encoding="utf-8") == before and "Record saved" not in again.out
