"""The rules pages: every game has one per language, with the same sections, its options
named, every ruling of hraj marked, and only real notation in the "typing moves" section.

The pages are Markdown in each game's folder, `src/hraj/games/<game>/rules/<lang>.md`; the browser shows them
at `/rules/<game>`.
"""

from __future__ import annotations

import re

import pytest

import hraj
from hraj.core import HrajError, game_class
from hraj.core.bot import bot_names
from hraj.core.registry import game_folder

LANGS = ("cs", "sk", "en")

#: The second-level headings of every page, in this order.
SECTIONS = {
    "cs": (
        "Co potřebujete",
        "Cíl hry",
        "Příprava",
        "Průběh tahu",
        "Zvláštní případy",
        "Konec hry a bodování",
        "Varianty a volby",
        "Zápis tahů v hraj",
    ),
    "sk": (
        "Čo potrebujete",
        "Cieľ hry",
        "Príprava",
        "Priebeh ťahu",
        "Osobitné prípady",
        "Koniec hry a bodovanie",
        "Varianty a voľby",
        "Zápis ťahov v hraj",
    ),
    "en": (
        "What you need",
        "Goal",
        "Set-up",
        "A turn step by step",
        "Special cases",
        "End and scoring",
        "Variants and options",
        "Typing moves in hraj",
    ),
}
VARIANTS_SECTION = 6
TYPING_SECTION = 7

#: How a page marks a ruling of hraj where the rulebook is silent.
RULING = {"cs": "Rozhodnutí hraj", "sk": "Rozhodnutie hraj", "en": "hraj ruling"}

PAGES = [pytest.param(game_id, lang, id=f"{game_id}.{lang}") for game_id in hraj.GAMES for lang in LANGS]

_CODE = re.compile(r"`([^`]+)`")


def page(game_id: str, lang: str) -> str:
    return (game_folder(game_id) / "rules" / f"{lang}.md").read_text(encoding="utf-8")


def sections(text: str) -> list[tuple[str, str]]:
    """The second-level sections of a page: (heading, body) in order."""
    parts = re.split(r"^## +(.+?) *$", text, flags=re.MULTILINE)
    return [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]


def code_spans(text: str) -> list[str]:
    return _CODE.findall(text)


def command_options(command: str) -> dict[str, str]:
    """The `-o NAME=VALUE` pairs of a `hraj ...` command line."""
    words = command.split()
    pairs = [words[i + 1] for i, word in enumerate(words[:-1]) if word in {"-o", "--option"}]
    return dict(pair.split("=", 1) for pair in pairs)


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_every_game_has_a_page_in_every_language(game_id: str, lang: str) -> None:
    text = page(game_id, lang)
    assert text.strip(), f"{game_id}.{lang}.md is empty"
    titles = re.findall(r"^# +(.+)$", text, flags=re.MULTILINE)
    assert len(titles) == 1, f"{game_id}.{lang}.md needs exactly one title, has {titles}"


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_page_has_the_sections_in_order_each_with_text(game_id: str, lang: str) -> None:
    found = sections(page(game_id, lang))
    assert tuple(heading for heading, _ in found) == SECTIONS[lang]
    for heading, body in found:
        assert len(body.split()) >= 10, f"{game_id}.{lang}.md: section {heading!r} says almost nothing"


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_variants_section_names_every_option(game_id: str, lang: str) -> None:
    body = sections(page(game_id, lang))[VARIANTS_SECTION][1]
    named = {span.split("=", 1)[0] for span in code_spans(body)}
    missing = set(game_class(game_id).options_spec) - named
    assert not missing, f"{game_id}.{lang}.md does not explain the options {sorted(missing)}"


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_option_values_shown_are_valid(game_id: str, lang: str) -> None:
    """`name=value` spans and the options of `hraj` commands are accepted by the game."""
    spec = game_class(game_id).options_spec
    for span in code_spans(page(game_id, lang)):
        if span.startswith("hraj "):
            hraj.game(game_id, **command_options(span))  # raises InvalidOption if the page is wrong
        elif re.fullmatch(r"[a-z_]+=\S+", span):
            name, value = span.split("=", 1)
            assert name in spec, f"{game_id}.{lang}.md shows the unknown option {span}"
            spec[name].check(value)


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_typing_section_shows_only_real_notation(game_id: str, lang: str) -> None:
    """Every code span of "typing moves" parses as an action or a chance outcome of the
    game, or is a `hraj` command, an option or the name of one of the game's bots."""
    game = hraj.game(game_id)
    bots = set(bot_names(game_id))
    body = sections(page(game_id, lang))[TYPING_SECTION][1]
    spans = code_spans(body)
    assert len(spans) >= 5, f"{game_id}.{lang}.md shows too few examples of the notation"
    for span in spans:
        if span.startswith("hraj ") or re.fullmatch(r"[a-z_]+=\S+", span) or span in bots:
            continue
        try:
            game.parse_action(span)
        except HrajError:
            try:
                game.parse_chance(span)
            except HrajError:
                pytest.fail(f"{game_id}.{lang}.md: {span!r} is no action and no chance outcome of {game_id}")


@pytest.mark.parametrize("game_id", hraj.GAMES)
def test_rulings_are_marked_alike_in_every_language(game_id: str) -> None:
    counts = {lang: page(game_id, lang).count(RULING[lang]) for lang in LANGS}
    assert counts["cs"] >= 1, f"{game_id}: the Czech page marks no ruling"
    assert len(set(counts.values())) == 1, f"{game_id}: rulings marked {counts} times"


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_page_is_plain_markdown_without_images_or_html(game_id: str, lang: str) -> None:
    text = page(game_id, lang)
    assert "![" not in text
    assert not re.search(r"<[a-zA-Z/][^>]*>", text), f"{game_id}.{lang}.md contains HTML"
    assert "```" not in text, "code blocks overflow a phone screen; use inline code"


def test_no_page_for_an_unknown_game() -> None:
    games = {game_id for game_id in hraj.GAMES if any((game_folder(game_id) / "rules").glob("*.md"))}
    assert games == set(hraj.GAMES)
