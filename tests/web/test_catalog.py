"""Every string of the browser UI is translated to Czech and Slovak, with the same fields."""

from __future__ import annotations

import re
import string

import pytest

from hraj.i18n import catalog
from tests.web.msgids import web_msgids, web_plurals


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_web_string_is_translated(lang: str) -> None:
    messages = catalog(lang)
    missing = sorted(msgid for msgid in web_msgids() if msgid not in messages)
    assert missing == []


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_translations_keep_the_fields_of_their_msgid(lang: str) -> None:
    messages = catalog(lang)
    wrong = [msgid for msgid in web_msgids() if msgid in messages and fields(messages[msgid]) != fields(msgid)]
    assert wrong == []


def test_the_msgids_are_found_in_templates_and_code() -> None:
    found = web_msgids()
    # One from a template, one from Python code, one from a table of words.
    assert {"Your turn", "The game is over.", "draw from the pile"} <= found


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_counted_phrase_has_the_three_plural_forms(lang: str) -> None:
    from hraj.i18n import tn

    for singular, plural in web_plurals():
        fields = {field: "X" for field in re.findall(r"{(\w+)}", singular) if field != "count"}
        forms = {tn(singular, plural, count, lang, **fields) for count in (1, 2, 5)}
        assert len(forms) == 3, (singular, forms)
        assert all("{" not in form for form in forms), singular


def test_players_are_counted_as_czech_counts_them() -> None:
    from hraj.i18n import tn

    said = [tn("{count} player", "{count} players", n, "cs") for n in (1, 2, 5)]
    assert said == ["1 hráč", "2 hráči", "5 hráčů"]
