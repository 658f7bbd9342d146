"""Every sentence of every game's log is in the catalogs of all three languages, in each
of the three gender contexts, with the fields of its English msgid."""

from __future__ import annotations

import string

import pytest

import hraj
from hraj.core.registry import game_part
from hraj.i18n import GENDER_CONTEXTS, tg
from tests.catalogs import messages, po_files

CONTEXTS = tuple(GENDER_CONTEXTS.values())


def sentences() -> list[str]:
    found: list[str] = []
    for game_id in hraj.GAMES:
        narrator = game_part(game_id, "log")
        assert narrator is not None, f"{game_id} has no log module"
        found.extend(narrator.SENTENCES)
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def log_catalog(lang: str) -> dict[tuple[str | None, str], object]:
    """Every catalog of `lang` (each game's own holds its sentences) by context and msgid."""
    return {
        (message.context, message.id if isinstance(message.id, str) else message.id[0]): message.string
        for path in po_files(lang)
        for message in messages(path, lang)
    }


def test_every_game_has_log_sentences() -> None:
    assert len(sentences()) > 40


@pytest.mark.parametrize("lang", ["cs", "sk", "en"])
def test_every_sentence_is_in_the_catalog_under_every_gender(lang: str) -> None:
    messages = log_catalog(lang)
    missing = [(context, text) for text in sentences() for context in CONTEXTS if (context, text) not in messages]
    assert missing == []


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_translations_keep_the_fields_and_differ_by_gender(lang: str) -> None:
    for text in sentences():
        said = {gender: tg(text, gender, lang, **dict.fromkeys(fields(text), "X")) for gender in ("m", "f", None)}
        assert all("{" not in line for line in said.values()), text
        assert len(set(said.values())) == 3, (text, said)
