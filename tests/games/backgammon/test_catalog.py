"""The backgammon catalogs: every message the game and its board show has a Czech and a
Slovak translation with the same `{fields}`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import hraj.games.backgammon.rules
import hraj.games.backgammon.tui
from tests.catalogs import po_strings

SOURCES = [
    Path(hraj.games.backgammon.rules.__file__),
    Path(hraj.games.backgammon.rules.__file__).with_name("notation.py"),
    Path(hraj.games.backgammon.tui.__file__),
]
MESSAGE_CALLS = {"IllegalAction", "InvalidAction", "InvalidOption", "t"}


def messages_in_code() -> set[str]:
    """English templates passed to errors, to `t` and as option help, and the tables of words."""
    found: set[str] = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                args = node.args[1:2] if name == "Option" else node.args[:1] if name in MESSAGE_CALLS else []
                found.update(a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    found.add(hraj.games.backgammon.tui.NOTATION_HELP)
    found.update(hraj.games.backgammon.tui.WORDS.values())
    found.update(hraj.games.backgammon.tui.LEVELS.values())
    return found


def catalog(lang: str) -> dict[str, str]:
    """Every catalog of `lang`: the game's own, and the shared ones for words games share."""
    return po_strings(lang)


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_message_is_translated(lang: str) -> None:
    translations = catalog(lang)
    missing = sorted(m for m in messages_in_code() if not translations.get(m))
    assert missing == []


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_translations_keep_the_fields(lang: str) -> None:
    for english, translated in po_strings(lang, "backgammon").items():
        assert sorted(re.findall(r"\{\w+\}", english)) == sorted(re.findall(r"\{\w+\}", translated)), english


def test_english_catalog_lists_the_messages_untranslated() -> None:
    english = catalog("en")
    assert messages_in_code() <= set(english)
    assert all(english[text] in ("", text) for text in messages_in_code())
