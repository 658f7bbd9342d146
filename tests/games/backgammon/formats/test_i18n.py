"""Every error the backgammon formats raise has Czech and Slovak (domain `backgammon`):
a broken `.mat` file, Position ID, Match ID or XGID is explained in the player's language."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from hraj.games.backgammon.formats import FormatError, records_from_mat
from hraj.games.backgammon.formats.mat_record import DEFAULT_NAMES
from hraj.games.backgammon.formats.xgid import decode_xgid
from hraj.i18n import catalog, error_text
from tests.catalogs import po_strings

SOURCE = Path(__file__).resolve().parents[4] / "src" / "hraj"
FORMATS = SOURCE / "games" / "backgammon" / "formats"
#: Error templates, and the words passed as their parameters (a side, an XGID field's name).
KEYWORDS = dict.fromkeys(("FormatError", "HrajError", "InvalidRecord"), (1,)) | {"check_row": (2,), "_integer": (2,)}
#: Words that reach an error's parameters from a constant: the `.mat` stand-in names, a chance turn.
WORDS = [*DEFAULT_NAMES, "the dice"]


def messages() -> list[str]:
    found: list[str] = []
    for path in sorted(FORMATS.glob("*.py")):
        for _, message, _, _ in extract_from_file("python", path, keywords=KEYWORDS):
            text = message[0] if isinstance(message, tuple) else message
            if text and text not in found:
                found.append(text)
    return found + WORDS


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_extraction_finds_the_templates_and_their_words() -> None:
    found = messages()
    assert "This is not a .mat file: it has no `N point match` line." in found
    assert "The {name} field of an XGID is a whole number, not {text}." in found
    assert "the player on roll" in found and "match length" in found  # parameters that are words
    assert "{side} cannot roll now." in found  # an InvalidRecord of a .mat that breaks the rules
    assert len(found) >= 55


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_format_error_is_translated(lang: str) -> None:
    missing = [text for text in messages() if text not in catalog(lang)]
    assert not missing, f"missing {lang} translations in backgammon.po: {missing}"


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_format_translations_keep_every_placeholder(lang: str) -> None:
    translated = catalog(lang)
    for text in messages():
        assert fields(translated[text]) == fields(text), text


def test_the_english_catalog_lists_the_format_errors_untranslated() -> None:
    english = po_strings("en")
    assert set(messages()) <= set(english)
    assert all(english[text] in ("", text) for text in messages())


def test_a_broken_mat_file_is_explained_in_czech_and_slovak() -> None:
    with pytest.raises(FormatError) as caught:
        records_from_mat("5 point match\n\nasdf qwer\n")
    assert error_text(caught.value, "cs") == "Řádek 3: čekal jsem `Game 1`, ale je tam asdf qwer"
    assert error_text(caught.value, "sk") == "Riadok 3: čakal som `Game 1`, ale je tam asdf qwer"
    assert error_text(caught.value, "en") == "Line 3: expected `Game 1`, found asdf qwer"


def test_a_field_name_inside_an_error_is_translated_too() -> None:
    with pytest.raises(FormatError) as caught:
        decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:x:10")
    assert error_text(caught.value, "cs") == "Údaj „délka zápasu“ v XGID musí být celé číslo, ne x."
