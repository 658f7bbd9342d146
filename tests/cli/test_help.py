"""Help pages in Czech, Slovak and English: no word of Click's or Typer's English left."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hraj.core import GAMES
from tests.cli.helpers import hraj

COMMANDS = ["games", "play", "replay", "analyze", "arena", "export", "bench", "rules", "serve", "verify", "backup"]
ENGLISH_MACHINERY = [
    "Usage",
    "Options",
    "Commands",
    "Arguments",
    "Show this message and exit.",
    "[default:",
    "<list[str]>",
    "<int range>",
    "x>=1",
    "TEXT",
    "INTEGER",
    "RECORD",
    "TARGET",
]


@pytest.mark.parametrize("lang", ["cs", "sk"])
@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_pages_have_no_english_machinery(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str, command: str | None
) -> None:
    ran = hraj(capsys, monkeypatch, *([command] if command else []), "--help", lang=lang)
    assert ran.code == 0, ran
    leftovers = [word for word in ENGLISH_MACHINERY if word in ran.out]
    assert leftovers == [], ran.out


def test_lang_on_the_command_line_changes_the_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    english = hraj(capsys, monkeypatch, "--lang", "en", "--help", lang="cs")
    assert "Usage: hraj" in english.out and "Play a game in the terminal" in english.out
    slovak = hraj(capsys, monkeypatch, "play", "--help", "--lang", "sk", lang="cs")
    assert "Použitie: hraj play [VOĽBY] HRA" in slovak.out
    assert "Ukáže tohto pomocníka a skončí." in slovak.out
    czech = hraj(capsys, monkeypatch, "arena", "--help", lang="cs")
    assert "[výchozí: 1000]" in czech.out and "-n, --games ČÍSLO" in czech.out


def test_hraj_lang_from_the_environment_changes_the_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = hraj(capsys, monkeypatch, "--help", lang="sk")
    assert "Príkazy:" in ran.out and "Zahrajte si hru v termináli" in ran.out


def test_lang_on_the_line_also_changes_error_messages(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = hraj(capsys, monkeypatch, "--lang", "en", "nonsense", lang="cs")
    assert ran.code == 2 and ran.err.startswith("Error: There is no command nonsense")


def test_the_server_commands_are_listed_without_loading_the_server(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = hraj(capsys, monkeypatch, "--help", lang="en")
    assert "serve" in ran.out and "verify" in ran.out


def test_help_texts_name_the_registered_games_and_their_files(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games and the files they read come from the registry, in the page's language."""
    play = hraj(capsys, monkeypatch, "play", "--help", lang="en")
    assert ", ".join(GAMES) in " ".join(play.out.split())
    replay = " ".join(hraj(capsys, monkeypatch, "replay", "--help", lang="cs").out.split())
    assert "záznam hry hraj (.json), soubor vrhcábů .mat nebo pozice vrhcábů jako XGID či ID gnubg" in replay
    export = " ".join(hraj(capsys, monkeypatch, "export", "--help", lang="sk").out.split())
    assert "Backgammon: mat (celý zápas, predvolený)" in export


def test_the_command_list_loads_no_game() -> None:
    """`hraj --help` stays fast: its texts name no game, so it imports none."""
    script = (
        "import sys\nfrom hraj.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in sys.modules if name.startswith('hraj.games.')))"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert ran.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("width", [60, 80, 100])
@pytest.mark.parametrize("lang", ["cs", "sk", "en"])
def test_the_quick_help_page_is_the_page_the_commands_draw(lang: str, width: int) -> None:
    """`hraj --help` draws its page without Typer (hraj.cli.summary): it must be the page
    the command line itself would draw, in every language and width."""
    import typer
    from typer._click import Context

    from hraj.cli import summary
    from hraj.cli.app import app
    from hraj.cli.help import help_page
    from hraj.cli.summary import page
    from hraj.i18n import DEFAULT_LANG, LANGS

    group = typer.main.get_command(app)
    assert page(lang, width) == help_page(group, Context(group, info_name="hraj"), lang, width)
    assert (summary.LANGS, summary.DEFAULT_LANG) == (LANGS, DEFAULT_LANG)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ([], 2),
        (["--help"], 0),
        (["-l", "en", "--help"], 0),
        (["--help", "--lang=sk"], 0),
        (["--lang", "de", "--help"], None),
        (["games", "--help"], None),
        (["--lang", "en"], None),
        (["play", "qwixx"], None),
    ],
)
def test_only_the_help_page_itself_takes_the_quick_way(args: list[str], code: int | None) -> None:
    from hraj.cli.summary import quick_help

    assert quick_help(args) == code


def test_the_help_page_loads_neither_typer_nor_babel_nor_the_games_core() -> None:
    script = (
        "import sys\nfrom hraj.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in {'typer', 'babel', 'rich'}"
        " or name.startswith('hraj.core')))"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert ran.stdout.strip().splitlines()[-1] == "[]"
    assert "Příkazy:" in ran.stdout
