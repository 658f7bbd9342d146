"""Every user-facing text of the core, the command and Qwixx has Czech and Slovak."""

from __future__ import annotations

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
        ("cs", {1: "1 povolený tah", 2: "2 povolené tahy", 4: "4 povolené tahy", 5: "5 povolených tahů"}),
        ("sk", {1: "1 povolený ťah", 3: "3 povolené ťahy", 11: "11 povolených ťahov"}),
        ("en", {1: "1 legal move", 2: "2 legal moves"}),
    ],
)
def test_counted_phrases_take_the_languages_plural_forms(lang: str, counts: dict[int, str]) -> None:
    for count, expected in counts.items():
        text = tn(
            "{count} legal move, for example: {examples}",
            "{count} legal moves, for example: {examples}",
            count,
            lang,
            examples="x",
        )
        assert text.startswith(expected + ","), text


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
