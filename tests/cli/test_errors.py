"""Every usage error of every command is one line in the user's language and exit code 2."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from hraj.cli import main
from tests.cli.helpers import hraj

BAD_LINES = [
    ("nonsense",),
    ("play",),
    ("play", "qwixx", "--seed", "abc"),
    ("play", "qwixx", "--seed"),
    ("play", "qwixx", "--nope"),
    ("play", "chess"),
    ("play", "qwixx", "-o", "players"),
    ("play", "qwixx", "--seats", "me,nobot"),
    ("arena", "qwixx", "-n", "0"),
    ("arena", "qwixx", "--games", "many"),
    ("arena", "qwixx", "-o", "players=9"),
    ("replay",),
    ("replay", "a.json", "b.json"),
    ("replay", "--step=yes", "a.json"),
    ("bench", "--seconds", "x"),
    ("bench", "--seconds", "0"),
    ("games", "extra"),
    ("games", "--lang", "de"),
    ("--lang", "de", "games"),
    ("--lang",),
    ("rules",),
    ("rules", "chess"),
    ("verify",),
    ("serve", "--port", "x"),
]


@pytest.mark.parametrize("args", BAD_LINES, ids=" ".join)
@pytest.mark.parametrize("lang", ["cs", "en"])
def test_a_bad_command_line_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], lang: str
) -> None:
    ran = hraj(capsys, monkeypatch, *args, lang=lang)
    assert ran.code == 2, ran
    assert "Traceback" not in ran.err
    assert len(ran.err.strip().splitlines()) == 1, ran.err
    assert ran.err.startswith("Chyba: " if lang == "cs" else "Error: ")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("nonsense",), "Příkaz nonsense neexistuje; vyberte si z: games, play, replay"),
        (("arena",), "Chybí argument HRA. Nápověda: hraj arena --help"),
        (("play", "qwixx", "--seed", "abc"), "Neplatná hodnota --seed: abc není celé číslo."),
        (("arena", "qwixx", "-n", "0"), "Neplatná hodnota --games: 0 není celé číslo od 1 výš."),
        (("play", "qwixx", "--sed", "1"), "Volba --sed neexistuje. Myslíte --seed?"),
        (("arena", "qwixx", "--seed"), "Volba --seed potřebuje hodnotu."),
        (("games", "x"), "Nečekaný argument: x."),
    ],
)
def test_usage_errors_are_said_in_czech(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], expected: str
) -> None:
    ran = hraj(capsys, monkeypatch, *args, lang="cs")
    assert expected in ran.err


def test_no_command_shows_the_help_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = hraj(capsys, monkeypatch, lang="cs")
    assert ran.code == 2
    assert "Použití: hraj" in ran.out and "Příkazy:" in ran.out


def test_seats_and_options_are_counted_in_natural_czech(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = hraj(capsys, monkeypatch, "arena", "backgammon", "-s", "pubeval,random,random", lang="cs")
    assert ran.code == 2
    assert "Hra Vrhcáby: počet hráčů je s těmito volbami 2, počet zadaných míst je ale 3." in ran.err


def test_a_defect_is_one_line_unless_debugging_is_asked_for(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("hraj.cli.bench.playouts_per_second", broken)
    ran = hraj(capsys, monkeypatch, "bench", "qwixx", "--seconds", "0.1", lang="cs")
    assert ran.code == 1
    assert ran.err.strip() == (
        "Chyba: hraj nečekaně selhal (ZeroDivisionError: division by zero). Podrobnosti ukáže HRAJ_DEBUG=1."
    )
    monkeypatch.setenv("HRAJ_DEBUG", "1")
    before = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(ZeroDivisionError):
            main(["bench", "qwixx", "--seconds", "0.1"])
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("play", "trefa", "-o", "sheets=zzz"),
            "Volba sheets=zzz pro hru trefa neplatí: každý hráč dostane jiný typ listu.",
        ),
        (("play", "trefa", "-o", "sheets=a1"), "čekám jedno písmeno listu pro každé místo, např. abc."),
        (("play", "trefa", "-o", "sheet_file=/nonexist"), "nelze přečíst: takový soubor ani složka neexistuje."),
        (("play", "trefa", "-o", "sheet_file={garbage}"), "není platný JSON (řádek 1)."),
        (("verify", "/nonexist.json"), "Soubor /nonexist.json nejde přečíst: takový soubor ani složka neexistuje"),
        (("replay", "{empty}"), "neobsahuje žádný záznam."),
        (("analyze", "{empty}"), "neobsahuje žádný záznam."),
        (("replay", "4HPwATDgc/ABMA:!!!!"), "!!!! za Position ID není Match ID"),
        (("analyze", "{empty}", "--worst", "0"), "Neplatná hodnota --worst: 0 není celé číslo od 1 výš."),
        (("analyze", "{empty}", "--worst", "-1"), "Neplatná hodnota --worst: -1 není celé číslo od 1 výš."),
    ],
)
def test_refused_files_and_values_are_one_czech_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: tuple[str, ...],
    expected: str,
) -> None:
    """No English from the system or a library inside the Czech line, and the usual prefix."""
    garbage, empty = tmp_path / "garbage.json", tmp_path / "empty.json"
    garbage.write_text("this is no JSON", encoding="utf-8")
    empty.write_text("[]", encoding="utf-8")
    ran = hraj(capsys, monkeypatch, *(arg.format(garbage=garbage, empty=empty) for arg in args), lang="cs")
    assert ran.code == 2, ran
    assert ran.err.startswith("Chyba: ") and len(ran.err.strip().splitlines()) == 1, ran.err
    assert expected in ran.err
