"""Every usage error of every command is one line in the user's language and exit code 2."""

from __future__ import annotations

import signal

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
        (("nonsense",), "Příkaz nonsense neexistuje; vyber si z: games, play, replay"),
        (("arena",), "Chybí argument HRA. Nápověda: hraj arena --help"),
        (("play", "qwixx", "--seed", "abc"), "Neplatná hodnota --seed: abc není celé číslo."),
        (("arena", "qwixx", "-n", "0"), "Neplatná hodnota --games: 0 není celé číslo od 1 výš."),
        (("play", "qwixx", "--sed", "1"), "Volba --sed neexistuje. Myslíš --seed?"),
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
