"""Every English msgid the browser UI translates, gathered from its templates and code."""

from __future__ import annotations

import re
from pathlib import Path

import hraj
from hraj.core import game_class
from hraj.core.registry import game_folder, game_part
from hraj.web import TEMPLATE_DIR, pages, tables

WEB_DIR = Path(tables.__file__).parent
_TEMPLATE_CALL = re.compile(r"""\b_\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")""")
_PYTHON_CALL = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)\"""")
#: `n_('{count} player', '{count} players', n)` in templates, `tn("...", "...", n)` in code.
_TEMPLATE_PLURAL = re.compile(r"""\bn_\(\s*'((?:[^'\\]|\\.)*)',\s*'((?:[^'\\]|\\.)*)'""")
_PYTHON_PLURAL = re.compile(r"""\btn\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)\"""")


def web_msgids() -> set[str]:
    found: set[str] = set()
    templates = [*TEMPLATE_DIR.rglob("*.html"), *(game_folder(g) / "table.html" for g in hraj.GAMES)]
    for path in templates:
        for single, double in _TEMPLATE_CALL.findall(path.read_text(encoding="utf-8")):
            found.add(single or double)
    looks = [game_part(g, "web") for g in hraj.GAMES]
    sources = [*WEB_DIR.glob("*.py"), *(Path(str(look.__file__)) for look in looks if look is not None)]
    for path in sources:
        found.update(_PYTHON_CALL.findall(path.read_text(encoding="utf-8")))
    for look in looks:
        for table in ("COLOUR_NAMES", "WORDS", "RESIGN_LEVELS", "HINTS", "GAME_ENDS"):
            found.update(getattr(look, table, {}).values())
        found.update(getattr(look, "WIN_KINDS", ()))
    found.update(pages.SCRIPT_STRINGS)
    found.update(pages.ERROR_TITLES.values())
    found.update(pages.ERROR_TEXTS.values())
    found.update(singular for singular, _ in web_plurals())
    for look in looks:
        for form in getattr(look, "OPTION_FORMS", []):
            found.add(form["label"])
            found.update(text for _, text in form.get("choices", []))
    found.update(game_class(game_id).name for game_id in hraj.GAMES)
    found.discard("")
    return found


def web_plurals() -> set[tuple[str, str]]:
    """Every (singular, plural) msgid pair the browser UI counts with."""
    found: set[tuple[str, str]] = set()
    templates = [*TEMPLATE_DIR.rglob("*.html"), *(game_folder(g) / "table.html" for g in hraj.GAMES)]
    for path in templates:
        found.update(_TEMPLATE_PLURAL.findall(path.read_text(encoding="utf-8")))
    looks = [game_part(g, "web") for g in hraj.GAMES]
    sources = [*WEB_DIR.glob("*.py"), *(Path(str(look.__file__)) for look in looks if look is not None)]
    for path in sources:
        found.update(_PYTHON_PLURAL.findall(path.read_text(encoding="utf-8")))
    return found
