"""Pig in the browser: the parts of its `table.html`, and its words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

OPTION_FORMS: list[dict[str, Any]] = [{"name": "goal", "label": "points that win", "kind": "number"}]


def describe(action: str, lang: str, names: Sequence[str] = ()) -> str:
    return {"roll": "roll again", "hold": "hold"}.get(action, action)


def describe_chance(text: str, names: Sequence[str], lang: str) -> str | None:
    return f"⚀ {text[0]}–{text[1]}" if len(text) == 2 else None


def status(view: Mapping[str, Any], who: str, lang: str) -> str | None:
    return f"{who}: +{view['turn_total']}, roll or hold?"


def build(view: Mapping[str, Any], names: Sequence[str], lang: str, params: Mapping[str, str]) -> dict[str, Any]:
    rows = [
        {"name": names[seat] if seat < len(names) else str(seat), "score": score, "active": seat == view["active"]}
        for seat, score in enumerate(view["scores"])
    ]
    return {"rows": rows, "dice": view["dice"] or [], "turn_total": view["turn_total"], "goal": view["goal"]}
