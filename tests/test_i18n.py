"""Every user-facing text of the core, the command and Qwixx has Czech and Slovak."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from hraj.i18n import LANGS, catalog, check_lang, t

SOURCE = Path(__file__).resolve().parents[1] / "src" / "hraj"
KEYWORDS = dict.fromkeys(
    ("t", "_", "HrajError", "InvalidAction", "IllegalAction", "InvalidOption", "InvalidRecord"), (1,)
) | {"Option": (2,)}
FILES = [
    *sorted((SOURCE / "core").glob("*.py")),
    SOURCE / "cli.py",
    SOURCE / "i18n.py",
    SOURCE / "tui" / "play.py",
    *sorted((SOURCE / "games" / "qwixx").glob("*.py")),
    *sorted((SOURCE / "bots").glob("*.py")),
]


def messages() -> list[str]:
    found: list[str] = []
    for path in FILES:
        for _, message, _, _ in extract_from_file("python", path, keywords=KEYWORDS):
            text = message[0] if isinstance(message, tuple) else message
            if text and text not in found and not text.startswith("-"):
                found.append(text)
    return found


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_message_is_translated(lang: str) -> None:
    missing = [text for text in messages() if text not in catalog(lang)]
    assert not missing, f"missing {lang} translations: {missing}"


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_translations_keep_every_placeholder(lang: str) -> None:
    import string

    for msgid, text in catalog(lang).items():
        fields = {name for _, name, _, _ in string.Formatter().parse(msgid) if name}
        assert {name for _, name, _, _ in string.Formatter().parse(text) if name} == fields, msgid


def test_english_is_the_message_itself_and_params_fill_in() -> None:
    assert t("Player {n}", "en", n=2) == "Player 2"
    assert t("Player {n}", "cs", n=2) == "Hráč 2"
    assert set(LANGS) == {"cs", "sk", "en"}


def test_unknown_language_is_refused() -> None:
    with pytest.raises(Exception, match="Unknown language"):
        check_lang("de")
