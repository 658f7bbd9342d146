"""Every string of the browser UI is translated to Czech and Slovak, with the same fields."""

from __future__ import annotations

import string

import pytest

from hraj.i18n import catalog
from tests.web.msgids import web_msgids


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
