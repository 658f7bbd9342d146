"""Help pages in Czech, Slovak and English: no word of Click's or Typer's English left."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hraj.core import GAMES
from tests.cli.helpers import hraj

COMMANDS = ["games", "play", "replay", "arena", "bench", "rules", "serve", "verify"]
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
    assert "Príkazy:" in ran.out and "Zahraj si hru v termináli" in ran.out


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
