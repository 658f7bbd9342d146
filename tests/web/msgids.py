"""Every English msgid the browser UI translates, gathered from its templates and code."""

from __future__ import annotations

import re
from pathlib import Path

import hraj
from hraj.core import game_class
from hraj.core.registry import game_folder
from hraj.web import TEMPLATE_DIR, pages, tables

WEB_DIR = Path(tables.__file__).parent
_TEMPLATE_CALL = re.compile(r"""\b_\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")""")
_PYTHON_CALL = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)\"""")


def web_msgids() -> set[str]:
    found: set[str] = set()
    templates = [*TEMPLATE_DIR.rglob("*.html"), *(game_folder(g) / "table.html" for g in hraj.GAMES)]
    for path in templates:
        for single, double in _TEMPLATE_CALL.findall(path.read_text(encoding="utf-8")):
            found.add(single or double)
    for path in WEB_DIR.glob("*.py"):
        found.update(_PYTHON_CALL.findall(path.read_text(encoding="utf-8")))
    found.update(tables.COLOUR_NAMES.values())
    for table in (tables.BACKGAMMON_WORDS, tables.RESIGN_LEVELS, tables.ABLUXXEN_WORDS):
        found.update(table.values())
    found.update(tables.BACKGAMMON_HINTS.values())
    found.update(tables.ABLUXXEN_HINTS.values())
    found.update(tables.WIN_KINDS)
    found.update(pages.SCRIPT_STRINGS)
    for forms in pages.OPTION_FORMS.values():
        for form in forms:
            found.add(form["label"])
            found.update(text for _, text in form.get("choices", []))
    found.update(game_class(game_id).name for game_id in hraj.GAMES)
    found.discard("")
    return found
