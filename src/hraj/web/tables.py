"""What each game's table shows, computed from a seat's view for the templates.

One `build` per game turns a view into plain rows, cells and cards; `describe` turns
an action's notation into words for buttons and the log; `status` says whose turn it
is and what they decide. Nothing here decides legality: a cell, die, card or point is
clickable exactly when the notation it sends is in `view["legal"]`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hraj.i18n import t

# Colour rows and dice carry a shape as well as a colour, for colour-blind players.
COLOUR_NAMES = {"k": "black", "w": "white", "r": "red", "y": "yellow", "g": "green", "b": "blue"}
SYMBOLS = {"k": "■", "w": "□", "r": "▲", "y": "★", "g": "♣", "b": "◆"}

QWIXX_ROWS = ("r", "y", "g", "b")
QWIXX_NUMBERS = {"r": range(2, 13), "y": range(2, 13), "g": range(12, 1, -1), "b": range(12, 1, -1)}
QWIXX_MAX_PENALTIES = 4

TREFA_COLOURS = ("k", "w", "r", "y", "g", "b")

JOKER = 14
BAR, OFF = 25, 0

# Words (English msgids) for actions and phases.
BACKGAMMON_WORDS = {
    "roll": "roll",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "accept": "accept",
    "decline": "decline",
    "no move": "no legal move",
}
RESIGN_LEVELS = {"1": "single game", "2": "gammon", "3": "backgammon"}
WIN_KINDS = ("single", "gammon", "backgammon")
ABLUXXEN_WORDS = {
    "take": "take the cards",
    "leave": "leave the cards",
    "back": "take my cards back",
    "discard": "discard them",
    "draw deck": "draw from the pile",
    "pass": "no draw",
}
BACKGAMMON_HINTS = {
    "cube": "{who}: roll or double",
    "move": "{who}: move the checkers",
    "doubled": "{who}: take or drop the double",
    "beavered": "{who}: take or drop the beaver",
    "resigned": "{who}: accept or decline the resignation",
}
ABLUXXEN_HINTS = {
    "play": "{who}: play a set of equal cards",
    "shadow": "{who}: capture from the shadow offer",
    "choose": "{who}: take the captured cards, or leave them",
    "victim": "{who}: take your cards back, or discard them",
    "draw": "{who}: draw from the display or the pile",
    "optional_draw": "{who}: you may draw one card",
}


def card_text(card: int) -> str:
    return "J" if card == JOKER else str(card)


# --- words for actions and chance ------------------------------------------------------------


def describe(game_id: str, action: str, lang: str, names: Sequence[str] = ()) -> str:
    """An action's notation in words, for a button or a line of the log."""
    words = action.split()
    head = words[0] if words else ""
    if game_id == "qwixx":
        if action == "pass":
            return t("pass", lang)
        if action == "penalty":
            return t("misthrow (penalty)", lang)
        if action[:1] in COLOUR_NAMES and action[1:].isdigit():
            return f"{SYMBOLS[action[0]]} {t(COLOUR_NAMES[action[0]], lang)} {action[1:]}"
    elif game_id == "trefa":
        if action == "reroll":
            return t("reroll the dice", lang)
        if action == "stop":
            return t("stop (cross out a field)", lang)
        if head in ("write", "cross") and len(words) == 2:
            colours = ", ".join(t(COLOUR_NAMES.get(c, c), lang) for c in words[1].split(","))
            if head == "write":
                return t("write {dice}", lang, dice=colours)
            return t("cross out {dice}", lang, dice=colours)
    elif game_id == "backgammon":
        if action in BACKGAMMON_WORDS:
            return t(BACKGAMMON_WORDS[action], lang)
        if head == "resign" and len(words) == 2:
            level = RESIGN_LEVELS.get(words[1], words[1])
            return t("resign ({level})", lang, level=t(level, lang))
        if head == "wins" and len(words) == 2:
            return t("wins {points} point(s)", lang, points=words[1])
    elif game_id == "abluxxen":
        if action in ABLUXXEN_WORDS:
            return t(ABLUXXEN_WORDS[action], lang)
        if head == "play":
            return t("play {cards}", lang, cards=" ".join(words[1:]))
        if head == "draw" and len(words) == 3 and words[1] == "slot":
            return t("draw from display slot {slot}", lang, slot=words[2])
        if head == "shadow" and len(words) == 2:
            return t("capture the shadow {value}s", lang, value=words[1])
        if head == "capture" and len(words) == 2 and words[1].isdigit():
            seat = int(words[1])
            return t("captures from {name}", lang, name=names[seat] if seat < len(names) else words[1])
    return action


def describe_chance(game_id: str, text: str, names: Sequence[str], lang: str) -> str:
    """A chance outcome in words for the log (only public outcomes reach this)."""
    words = text.split()
    if len(words) == 2 and words[0] == "first" and words[1].isdigit():
        seat = int(words[1])
        return t("{name} starts", lang, name=names[seat] if seat < len(names) else words[1])
    if game_id == "backgammon" and re.fullmatch(r"\d\d", text):
        return t("Dice: {dice}", lang, dice=f"{text[0]}–{text[1]}")
    if game_id in ("qwixx", "trefa"):
        dice = " ".join(f"{SYMBOLS.get(w[0], w[0])}{w[1:]}" for w in words)
        return t("Dice: {dice}", lang, dice=dice)
    return t("Chance: {outcome}", lang, outcome=text)


def status(game_id: str, view: Mapping[str, Any], names: Sequence[str], lang: str) -> str:
    """One line: whose turn it is and what they are deciding."""
    if view.get("outcome") is not None:
        return t("The game is over.", lang)
    to_act = [names[s] for s in view.get("to_act") or [] if s < len(names)]
    phase = view.get("phase")
    who = ", ".join(to_act)
    if not to_act:
        return t("Waiting for the dice or cards…", lang)
    if game_id == "qwixx":
        dice = view.get("dice") or {}
        if phase == "white":
            return t(
                "White sum {sum}: everyone may cross it or pass. Waiting for: {who}",
                lang,
                sum=int(dice.get("w1", 0)) + int(dice.get("w2", 0)),
                who=who,
            )
        if phase == "colour":
            return t("{who}: a white die plus a coloured die, or pass", lang, who=who)
    if game_id == "trefa":
        if phase == "first_throw":
            return t("{who}: write dice, reroll, or stop", lang, who=who)
        if phase == "second_throw":
            return t("{who}: write dice after the reroll", lang, who=who)
    if game_id == "backgammon" and phase in BACKGAMMON_HINTS:
        return t(BACKGAMMON_HINTS[str(phase)], lang, who=who)
    if game_id == "abluxxen" and phase in ABLUXXEN_HINTS:
        return t(ABLUXXEN_HINTS[str(phase)], lang, who=who)
    return t("To act: {who}", lang, who=who)


# --- the tables ------------------------------------------------------------------------------


def build(
    game_id: str, view: Mapping[str, Any], names: Sequence[str], lang: str, params: Mapping[str, str]
) -> dict[str, Any]:
    builders = {"qwixx": qwixx, "trefa": trefa, "backgammon": backgammon, "abluxxen": abluxxen}
    builder = builders.get(game_id)
    return {} if builder is None else builder(view, names, lang, params)


def _seat_order(view: Mapping[str, Any], count: int) -> list[int]:
    """The viewer's own seat first, then the others in seat order."""
    viewer = view.get("seat")
    seats = list(range(count))
    if isinstance(viewer, int) and 0 <= viewer < count:
        seats = [viewer] + [s for s in seats if s != viewer]
    return seats


def qwixx(view: Mapping[str, Any], names: Sequence[str], lang: str, params: Mapping[str, str]) -> dict[str, Any]:
    legal = set(view.get("legal") or [])
    locked = set(view.get("locked") or [])
    sheets = []
    for seat in _seat_order(view, len(view["sheets"])):
        sheet = view["sheets"][seat]
        rows = []
        for row in QWIXX_ROWS:
            data = sheet["rows"][row]
            crossed = set(data["crossed"])
            numbers = list(QWIXX_NUMBERS[row])
            last_cross = max((i for i, n in enumerate(numbers) if n in crossed), default=-1)
            cells = []
            for index, number in enumerate(numbers):
                action = f"{row}{number}"
                cells.append(
                    {
                        "number": number,
                        "crossed": number in crossed,
                        "gone": number not in crossed and (index < last_cross or row in locked),
                        "action": action if seat == view.get("seat") and action in legal else None,
                    }
                )
            rows.append(
                {
                    "key": row,
                    "symbol": SYMBOLS[row],
                    "name": t(COLOUR_NAMES[row], lang),
                    "cells": cells,
                    "lock": bool(data["lock"]),
                    "locked": row in locked,
                    "crosses": data["crosses"],
                    "points": data["points"],
                }
            )
        sheets.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat),
                "rows": rows,
                "penalties": sheet["penalties"],
                "penalty_boxes": [i < sheet["penalties"] for i in range(QWIXX_MAX_PENALTIES)],
                "score": sheet["score"],
                "active": seat == view.get("active"),
                "mine": seat == view.get("seat"),
            }
        )
    dice = []
    raw = view.get("dice")
    if raw:
        for key in ("w1", "w2", *QWIXX_ROWS):
            value = raw.get(key)
            if value is not None:
                colour = "w" if key.startswith("w") else key
                dice.append(
                    {"colour": colour, "value": value, "symbol": SYMBOLS[colour], "name": t(COLOUR_NAMES[colour], lang)}
                )
    return {
        "sheets": sheets,
        "dice": dice,
        "white_sum": (raw["w1"] + raw["w2"]) if raw else None,
        "bar": [a for a in view.get("legal") or [] if a == "pass"],
        "answered": bool(view.get("answered")),
        "my_answer": describe("qwixx", view["my_answer"], lang) if view.get("my_answer") else None,
    }


def trefa(view: Mapping[str, Any], names: Sequence[str], lang: str, params: Mapping[str, str]) -> dict[str, Any]:
    legal = list(view.get("legal") or [])
    writes = [a for a in legal if a.startswith("write ")]
    writable = set(view.get("writable") or [])
    kept = set(view.get("kept") or [])
    dice = []
    raw = view.get("dice")
    if raw:
        for order, colour in enumerate(TREFA_COLOURS):
            dice.append(
                {
                    "colour": colour,
                    "order": order,
                    "value": raw[colour],
                    "symbol": SYMBOLS[colour],
                    "name": t(COLOUR_NAMES[colour], lang),
                    "kept": colour in kept,
                    "pick": bool(writes) and colour in writable,
                }
            )
    sheets = []
    for seat in _seat_order(view, len(view["sheets"])):
        sheet = view["sheets"][seat]
        rows = []
        for number, row in enumerate(sheet["rows"]):
            rows.append(
                {
                    "number": number + 1,
                    "current": number == sheet["current_row"],
                    "fields": [
                        {**field, "symbol": SYMBOLS[field["colour"]], "name": t(COLOUR_NAMES[field["colour"]], lang)}
                        for field in row["fields"]
                    ],
                    "complete": row["complete"],
                    "hits": row["hits"],
                    "points": row["points"],
                }
            )
        sheets.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat),
                "letter": sheet["letter"],
                "rows": rows,
                "score": sheet["score"],
                "active": seat == view.get("active"),
                "mine": seat == view.get("seat"),
            }
        )
    return {
        "dice": dice,
        "sheets": sheets,
        "writes": writes,
        "rerolled": view.get("rerolled"),
        "bar": [a for a in legal if not a.startswith("write ")],
    }


# --- backgammon ------------------------------------------------------------------------------


def _point_text(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _point_number(text: str) -> int | None:
    text = text.strip().lower()
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    return int(text) if text.isdigit() and 1 <= int(text) <= 24 else None


def _steps_of(play: str) -> list[str]:
    """`24/18 13/11` -> ["24/18", "13/11"]; a play is a list of single-die steps."""
    return [step for step in play.split() if "/" in step]


def backgammon(view: Mapping[str, Any], names: Sequence[str], lang: str, params: Mapping[str, str]) -> dict[str, Any]:
    viewer = view.get("seat")
    me = viewer if viewer in (0, 1) else 0
    them = 1 - me
    mine = list(view["boards"][me])
    theirs = list(view["boards"][them])
    legal = list(view.get("legal") or [])
    plays = [a for a in legal if "/" in a]
    others = [a for a in legal if "/" not in a]

    # The steps chosen so far (display only; legality comes from `plays`).
    chosen = [s for s in (params.get("steps") or "").split(",") if s]
    candidates = [p for p in plays if not Counter(chosen) - Counter(_steps_of(p))]
    if chosen and not candidates:
        chosen, candidates = [], plays
    for step in chosen:
        origin_text, _, target_text = step.partition("/")
        origin, target = _point_number(origin_text), _point_number(target_text)
        if origin is None or target is None or mine[origin] == 0:
            continue
        mine[origin] -= 1
        mine[target] += 1
        if target != OFF and theirs[BAR - target] == 1:
            theirs[BAR - target] = 0
            theirs[BAR] += 1
    complete = [p for p in candidates if Counter(_steps_of(p)) == Counter(chosen)]
    remaining: set[str] = set()
    for play in candidates:
        remaining |= set((Counter(_steps_of(play)) - Counter(chosen)).keys())
    origins = {step.partition("/")[0] for step in remaining}
    selected = params.get("sel") if params.get("sel") in origins else None
    targets = {step.partition("/")[2] for step in remaining if step.partition("/")[0] == selected}

    def nav(steps: list[str], sel: str | None) -> str:
        query = "steps=" + ",".join(steps)
        return query + (f"&sel={sel}" if sel else "")

    def place(key: str) -> dict[str, Any]:
        """How a point, the bar or the tray reacts to a click."""
        if selected is not None and key in targets:
            return {"nav": nav([*chosen, f"{selected}/{key}"], None), "role": "target"}
        if key in origins and key != selected:
            return {"nav": nav(chosen, key), "role": "origin"}
        if key == selected:
            return {"nav": nav(chosen, None), "role": "selected"}
        return {"nav": None, "role": None}

    points = []
    for point in range(1, 25):
        points.append(
            {
                "point": point,
                "mine": mine[point],
                "theirs": theirs[BAR - point],
                "top": point >= 13,
                **place(str(point)),
            }
        )
    # Screen columns: the top row runs 13..24 left to right, the bottom row 12..1.
    top = [points[p - 1] for p in range(13, 25)]
    bottom = [points[p - 1] for p in range(12, 0, -1)]
    dice = view.get("dice")
    cube = view.get("cube") or {}
    match = view.get("match") or {}
    return {
        "me": me,
        "them": them,
        "my_name": names[me] if me < len(names) else "0",
        "their_name": names[them] if them < len(names) else "1",
        "top": top,
        "bottom": bottom,
        "my_bar": mine[BAR],
        "their_bar": theirs[BAR],
        "my_off": mine[OFF],
        "their_off": theirs[OFF],
        "bar_point": place("bar"),
        "off": place("off"),
        "dice": dice or [],
        "cube": cube,
        "match": match,
        "pips": view.get("pips") or [0, 0],
        "turn": view.get("turn"),
        "plays": plays,
        # Resigning is offered apart, so that it is never clicked by accident.
        "bar": [a for a in others if not a.startswith("resign ")],
        "resigns": [(a, describe("backgammon", a, lang)) for a in others if a.startswith("resign ")],
        "chosen": chosen,
        "complete": complete[0] if complete else None,
        "undo": nav(chosen[:-1], None) if chosen else None,
        "selected": selected,
        "resign": view.get("resign"),
        "games": view.get("games") or [],
    }


# --- abluxxen --------------------------------------------------------------------------------


def abluxxen(view: Mapping[str, Any], names: Sequence[str], lang: str, params: Mapping[str, str]) -> dict[str, Any]:
    legal = list(view.get("legal") or [])
    plays = [a for a in legal if a.startswith("play ")]
    hand = [{"card": c, "text": card_text(c), "order": c, "pick": bool(plays)} for c in (view.get("hand") or [])]
    capture = view.get("capture")
    seats = []
    for seat in _seat_order(view, len(view["seats"])):
        info = view["seats"][seat]
        seats.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat),
                "hand_size": info["hand_size"],
                "known": [card_text(c) for c in info["known"]],
                "layers": [[card_text(c) for c in layer] for layer in info["layers"]],
                "laid_out": info["laid_out"],
                "score": info["score"],
                "active": seat == view.get("active"),
                "mine": seat == view.get("seat"),
                "victim": capture is not None and capture.get("victim") == seat,
            }
        )
    display = []
    for slot, stack in enumerate(view.get("display") or []):
        action = f"draw slot {slot + 1}"
        display.append(
            {"slot": slot + 1, "cards": [card_text(c) for c in stack], "action": action if action in legal else None}
        )
    shadow = []
    for group in view.get("shadow") or []:
        action = f"shadow {group[0]}" if group else ""
        shadow.append({"cards": [card_text(c) for c in group], "action": action if action in legal else None})
    discard = [card_text(c) for c in view.get("discard") or []]
    return {
        "hand": hand,
        "plays": plays,
        "seats": seats,
        "display": display,
        "pile": view.get("pile", 0),
        "deck_action": "draw deck" if "draw deck" in legal else None,
        "discard": discard,
        "shadow": shadow if view.get("two_player") else None,
        "capture": None
        if capture is None
        else {
            "victim": names[capture["victim"]] if capture["victim"] < len(names) else str(capture["victim"]),
            "cards": [card_text(c) for c in capture["cards"]],
        },
        "draw": view.get("draw"),
        "variant": view.get("variant"),
        # Plays, draws and shadow captures are clicked on the cards themselves.
        "bar": [a for a in legal if not a.startswith(("play ", "draw ", "shadow "))],
    }
