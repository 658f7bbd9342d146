"""Every user-facing text of the core, the command and Qwixx has Czech and Slovak."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from hraj.core import GAMES
from hraj.i18n import LANGS, catalog, check_lang, number, percent, t, tn
from tests.catalogs import gaps_of_game, po_files

SOURCE = Path(__file__).resolve().parents[1] / "src" / "hraj"
KEYWORDS = dict.fromkeys(
    ("t", "_", "HrajError", "InvalidAction", "IllegalAction", "InvalidOption", "InvalidRecord"), (1,)
) | {"Option": (2,), "tn": (1, 2), "_n": (1, 2)}
FILES = [
    *sorted((SOURCE / "core").glob("*.py")),
    *sorted((SOURCE / "cli").glob("*.py")),
    SOURCE / "i18n.py",
    SOURCE / "tui" / "play.py",
    SOURCE / "tui" / "replay.py",
    SOURCE / "tui" / "screen.py",
    SOURCE / "games" / "qwixx" / "tui.py",
    *sorted((SOURCE / "games" / "qwixx").glob("*.py")),
    *sorted((SOURCE / "bots").glob("*.py")),
    *sorted((SOURCE / "analysis").glob("*.py")),
    SOURCE / "tui" / "analysis.py",
    *sorted((SOURCE / "games").glob("*/hints.py")),
    *sorted((SOURCE / "games").glob("*/formats/__init__.py")),
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


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        ("cs", {1: "Je jen 1 možnost", 2: "Jsou jen 2 možnosti", 4: "Jsou jen 4 možnosti", 5: "Je jen 5 možností"}),
        ("sk", {1: "Je len 1 možnosť", 3: "Sú len 3 možnosti", 11: "Je len 11 možností"}),
        ("en", {1: "There is only 1 choice", 2: "There are 2 choices"}),
    ],
)
def test_counted_phrases_take_the_languages_plural_forms(lang: str, counts: dict[int, str]) -> None:
    for count, expected in counts.items():
        text = tn(
            "There is only {count} choice: type 1.",
            "There are {count} choices: type a number from 1 to {count}.",
            count,
            lang,
        )
        assert text.startswith(expected + ":"), text


def test_large_counts_are_grouped_as_the_language_writes_them() -> None:
    assert tn("{game}: {count} game", "{game}: {count} games", 1622, "cs", game="Qwixx") == "Qwixx: 1\u00a0622 her"
    assert tn("{game}: {count} game", "{game}: {count} games", 1622, "en", game="Qwixx") == "Qwixx: 1,622 games"


def test_numbers_and_percentages_follow_the_language() -> None:
    assert number(1622, "cs") == "1\u00a0622"
    assert number(3.25, "sk", digits=2) == "3,25"
    assert number(1622, "en") == "1,622"
    assert percent(0.999, "cs") == "99,9\u00a0%"
    assert percent(0.999, "sk") == "99,9\u00a0%"
    assert percent(0.999, "en") == "99.9%"


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_catalog_declares_three_plural_forms(lang: str) -> None:
    for path in po_files(lang):
        with path.open("rb") as handle:
            parsed = read_po(handle)
        assert parsed.num_plurals == 3, path.name
        assert parsed.plural_expr == "((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2)", path.name


@pytest.mark.parametrize("lang", ["cs", "sk"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_games_own_catalog_is_complete(game_id: str, lang: str) -> None:
    """A game's phrases live in its own folder; its catalog has every msgid of its English
    one, translated with the same fields."""
    assert gaps_of_game(game_id, lang) == []


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_no_translation_words_a_gender_with_a_bracket(lang: str) -> None:
    """docs/language.md: never "vyhrál(a)"; a sentence about a player takes their gender
    or a wording that needs none."""
    bracketed = re.compile(r"\w\((a|o|y|i|á)\)")
    for path in po_files(lang):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                texts = message.string if isinstance(message.string, (list, tuple)) else [message.string]
                for text in texts:
                    assert not bracketed.search(text or ""), f"{path.name}: {text}"
