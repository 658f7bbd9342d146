"""Every Trefa message has a Czech and a Slovak translation with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import hraj
from hraj.games.trefa import rules
from hraj.games.trefa import tui as view_module
from hraj.i18n import error_text
from tests.catalogs import po_strings

SOURCES = [
    Path(hraj.__file__).parent / "games" / "trefa" / name for name in ("rules.py", "sheets.py", "bots.py", "tui.py")
]
CALL = re.compile(r"(?:Action|Option|SheetError|\bt)\(\s*\"((?:[^\"\\]|\\.)+)\"")
CALL_SINGLE = re.compile(r"\bt\(\s*'([^']+)'")
FAIL = re.compile(r"_fail\(\s*[\w.+ \"]+,\s*['\"](.+?)['\"],?\s*(?:\)|\n|\w+=)")
HELP = re.compile(r"\bhelp = \"(.+)\"")


def messages_in_source() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        found.update(match.replace('\\"', '"') for match in CALL.findall(text))
        found.update(CALL_SINGLE.findall(text))
        found.update("Sheet file {where}: " + match for match in FAIL.findall(text))
        found.update(HELP.findall(text))
    found.update(rules.FIELD_FILLED + rules.DIE_TOO_HIGH)
    found.update(view_module.COLOUR_LABELS.values())
    found.update(view_module.PHASES.values())
    found.add(view_module.NOTATION_HELP)
    found.discard("Sheet file {where}: ")  # the prefix that every _fail message starts with
    found.update(option.help for option in rules.Trefa.options_spec.values())
    return found


def catalog(lang: str) -> dict[str, str]:
    """Every catalog of `lang`: the game's own, and the shared ones for words games share."""
    return po_strings(lang)


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_source_scan_finds_the_messages() -> None:
    found = messages_in_source()
    assert "Only one reroll is allowed in a turn." in found
    assert "Sheet file {where}: unknown field {field}." in found
    assert "fits: {dice}" in found
    assert 'Sheet file {where}: it must start with "format": "{format}" and "version": {version}.' in found
    assert len(found) > 60


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    translations = catalog(lang)
    missing = sorted(messages_in_source() - set(translations))
    assert missing == []
    for message, translated in po_strings(lang, "trefa").items():
        assert translated, f"{lang}: empty translation of {message!r}"
        assert fields(translated) == fields(message), message


def test_the_english_catalog_exists_and_adds_nothing() -> None:
    english = po_strings("en", "trefa")
    assert english and all(text in ("", msgid) for msgid, text in english.items())


def test_an_illegal_write_reads_in_czech() -> None:
    state = rules.TrefaState.from_position(rules.Trefa(players=1), "0: a")
    state.apply_chance("k1 w4 r1 y4 g2 b3")
    with pytest.raises(hraj.IllegalAction) as caught:
        state.apply(0, "write w")
    assert error_text(caught.value, "cs") == "Bílá kostka ukazuje 4, víc než předtištěné 2."
