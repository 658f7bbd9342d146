"""Every Abluxxen message a player can meet has a Czech and a Slovak translation."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hraj.games.abluxxen import tui as terminal
from hraj.games.abluxxen.rules import Abluxxen
from hraj.i18n import catalog, t

RULES = Path(__file__).parents[3] / "src" / "hraj" / "games" / "abluxxen" / "rules.py"


def error_templates() -> set[str]:
    """Every error template of the rules module: the first argument of each error it
    makes, and the prompts it refuses out-of-turn actions with."""
    templates = set()
    for node in ast.walk(ast.parse(RULES.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            first = node.args[0]
            if node.func.id in {"InvalidAction", "IllegalAction"} and isinstance(first, ast.Constant):
                templates.add(str(first.value))
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            names = [target.id for target in node.targets if isinstance(target, ast.Name)]
            if names == ["prompts"]:
                templates.update(str(v.value) for v in node.value.values if isinstance(v, ast.Constant))
    return templates


def terminal_messages() -> set[str]:
    return {terminal.NOTATION_HELP, *terminal.PHASES.values()}


def test_the_rules_raise_errors_worth_translating() -> None:
    assert len(error_templates()) > 20


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_message_is_translated(lang: str) -> None:
    messages = catalog(lang)
    options = {spec.help for name, spec in Abluxxen.options_spec.items() if name != "first"}
    missing = sorted(text for text in error_templates() | terminal_messages() | options if text not in messages)
    assert missing == []


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_translations_keep_their_placeholders(lang: str) -> None:
    for template in error_templates():
        fields = dict.fromkeys(("text", "cards", "slot", "value", "found", "players", "seat", "layer"), "X")
        assert "{" not in t(template, lang, **fields)
