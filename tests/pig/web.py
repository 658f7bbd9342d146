"""Pig in the browser: the parts of its `table.html`, and its words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hraj.i18n import t_in

#: Pig's words are in its own catalog, `locale/<lang>/LC_MESSAGES/pig.po`.
GAME = "pig"
ACTIONS = {"roll": "roll again", "hold": "hold"}

OPTION_FORMS: list[dict[str, Any]] = [{"name": "goal", "label": "points that win", "kind": "number"}]


def describe(action: str, lang: str, names: Sequence[str] = ()) -> str:
    return t_in(GAME, ACTIONS[action], lang) if action in ACTIONS else action


def describe_chance(text: str, names: Sequence[str], lang: str) -> str | None:
    return f"⚀ {text[0]}–{text[1]}" if len(text) == 2 else None


def status(view: Mapping[str, Any], who: str, lang: str) -> str | None:
    return t_in(GAME, "{who}: +{points}, roll or hold?", lang, who=who, points=view["turn_total"])


def build(view: Mapping[str, Any], names: Sequence[str], lang: str, params: Mapping[str, str]) -> dict[str, Any]:
    rows = [
        {"name": names[seat] if seat < len(names) else str(seat), "score": score, "active": seat == view["active"]}
        for seat, score in enumerate(view["scores"])
    ]
    return {"rows": rows, "dice": view["dice"] or [], "turn_total": view["turn_total"], "goal": view["goal"]}
